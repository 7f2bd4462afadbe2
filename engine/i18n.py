"""Marker for translatable strings without importing Django.

The engine must stay importable without Django settings, yet ``makemessages`` should still find
its message templates. Wrapping them in a local no-op named ``gettext_noop`` achieves both; the
Django app translates later with ``gettext(issue.message) % issue.params``.
"""


def gettext_noop(message: str) -> str:
    """Return ``message`` unchanged; only marks it for extraction by makemessages."""
    return message
