"""The token of a password reset link: Django's PasswordResetTokenGenerator under a salt of its own.

The token signs the user's id, password hash, last login and the time it was made, so nothing is
stored: it stops working when the password changes (a link sets a password once), after
PASSWORD_RESET_TIMEOUT (24 hours, settings.py) or when the secret key changes. Its own salt keeps it
apart from any other token Django's generator makes.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode


class ResetTokenGenerator(PasswordResetTokenGenerator):
    """Django's generator with a clock tests can set: `now` is naive local time, as Django counts."""

    key_salt = "tournament.accounts.tokens.ResetTokenGenerator"

    def __init__(self, now: dt.datetime | None = None) -> None:
        super().__init__()
        self.fixed_now = now

    def _now(self) -> dt.datetime:
        return self.fixed_now or super()._now()


def make_token(user, *, now: dt.datetime | None = None) -> str:
    return ResetTokenGenerator(now).make_token(user)


def check_token(user, token: str, *, now: dt.datetime | None = None) -> bool:
    return user is not None and ResetTokenGenerator(now).check_token(user, token)


def uid_of(user) -> str:
    return urlsafe_base64_encode(force_bytes(user.pk))


def user_of(uidb64: str):
    """The active user a link's uid names, or None (a tampered uid names nobody)."""
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode())
    except (ValueError, UnicodeDecodeError, OverflowError):
        return None
    if not 0 < pk < 2**31:
        return None
    return get_user_model().objects.filter(pk=pk, is_active=True).first()
