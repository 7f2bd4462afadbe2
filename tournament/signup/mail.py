"""The registrant's private link by e-mail (Django's console backend unless EMAIL_BACKEND says otherwise)."""

from __future__ import annotations

from django.core.mail import send_mail
from django.utils.translation import gettext as _

from tournament.models import Signup


def mail_status_link(signup: Signup, url: str) -> bool:
    """Send the link if the registrant gave an e-mail address; a failing mail server is not their fault
    (the page shows the link as well), so errors are swallowed and reported as False."""
    if not signup.email:
        return False
    subject = _("Your sign-up for %(tournament)s") % {"tournament": signup.tournament.name}
    body = _(
        "Hello %(name)s,\n\nyour sign-up is recorded. Your private link to see your status or to "
        "withdraw:\n%(url)s\n"
    ) % {"name": signup.name, "url": url}
    try:
        send_mail(subject, body, None, [signup.email])
    except OSError:
        return False
    return True
