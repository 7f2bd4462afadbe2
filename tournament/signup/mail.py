"""The registrant's private link by e-mail (Django's console backend unless EMAIL_BACKEND says otherwise)."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import BadHeaderError, send_mail
from django.utils.translation import gettext as _

from tournament.models import Signup

# Backends that reach nobody's mailbox: the console (the default on the hall laptop), a folder, nothing.
UNDELIVERED_BACKENDS = {
    "django.core.mail.backends.console.EmailBackend",
    "django.core.mail.backends.filebased.EmailBackend",
    "django.core.mail.backends.dummy.EmailBackend",
}


def mail_configured() -> bool:
    """Whether a mail sent now can reach the registrant: EMAIL_BACKEND is a real one (SMTP or another
    service; the tests' in-memory outbox counts as one)."""
    return settings.EMAIL_BACKEND not in UNDELIVERED_BACKENDS


def mail_status_link(signup: Signup, url: str) -> bool:
    """Send the link if the registrant gave an e-mail address and mail is configured; True only when
    the mail went out. A failing mail server is not their fault (the page shows the link as well), so
    errors are swallowed and reported as False, and the page then says that no mail was sent."""
    if not signup.email or not mail_configured():
        return False
    subject = _("Your sign-up for %(tournament)s") % {"tournament": signup.tournament.name}
    body = _(
        "Hello %(name)s,\n\nyour sign-up is recorded. Your private link to see your status or to "
        "withdraw:\n%(url)s\n"
    ) % {"name": signup.name, "url": url}
    try:
        sent = send_mail(subject, body, None, [signup.email])
    except (OSError, BadHeaderError):  # smtplib's errors are OSErrors
        return False
    return sent == 1
