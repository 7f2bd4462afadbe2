"""Writes to people's accounts: their name, their password, reset links and the "change it" flag.

A password is set under the user's row lock, so the same reset link sent twice at once sets it once:
the second request finds the password hash changed, which invalidates the link's token.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.audit.actions import AuditAction
from tournament.audit.services import audit
from tournament.models import Account

from . import selectors, tokens


class RefusalCode:
    WRONG_PASSWORD = "wrong_password"
    LINK_INVALID = "link_invalid"


@dataclass(frozen=True)
class ResetLink:
    uidb64: str
    token: str


def _locked(user):
    return get_user_model().objects.select_for_update().get(pk=user.pk)


def _set_password(user, password: str) -> None:
    """Checked by the project's validators (AUTH_PASSWORD_VALIDATORS); the flag goes with the old one."""
    password_validation.validate_password(password, user)
    user.set_password(password)
    user.save(update_fields=["password"])
    Account.objects.filter(user=user).update(password_change_due=False)


def name_change(*, user, first_name: str, last_name: str) -> None:
    with transaction.atomic():
        locked = _locked(user)
        locked.first_name, locked.last_name = first_name, last_name
        locked.save(update_fields=["first_name", "last_name"])
    user.first_name, user.last_name = first_name, last_name


def password_change(*, user, old_password: str, new_password: str) -> None:
    """The owner's own change: only with the password they have now."""
    with transaction.atomic():
        locked = _locked(user)
        if not locked.check_password(old_password):
            raise ValidationError(
                _("Your current password was entered incorrectly."), code=RefusalCode.WRONG_PASSWORD
            )
        _set_password(locked, new_password)
        audit(tournament=None, action=AuditAction.ACCOUNT_PASSWORD_CHANGE, user=locked,
              after={"username": locked.get_username()})
    user.password = locked.password


def password_change_mark_due(*, user) -> None:
    """The password was made up for its owner (setup_hall): they are asked to choose their own."""
    Account.objects.update_or_create(user=user, defaults={"password_change_due": True})


def password_change_clear_due(*, user) -> None:
    """The made-up password was replaced outside the app's pages (the Django admin)."""
    Account.objects.filter(user=user).update(password_change_due=False)


def reset_link_create(*, user, person, now: dt.datetime | None = None) -> ResetLink:
    """A link that lets `person` set a new password once, within 24 hours; only for somebody the
    organizer has authority over (`selectors.may_make_reset_link`)."""
    if not selectors.may_make_reset_link(user, person):
        raise PermissionDenied
    with transaction.atomic():
        audit(tournament=None, action=AuditAction.ACCOUNT_RESET_LINK, user=user,
              after={"username": person.get_username()})
    return ResetLink(uidb64=tokens.uid_of(person), token=tokens.make_token(person, now=now))


def password_reset(*, person, token: str, new_password: str, now: dt.datetime | None = None) -> None:
    """Set the password a reset link was made for; the link stops working with the old hash."""
    with transaction.atomic():
        locked = _locked(person)
        if not tokens.check_token(locked, token, now=now):
            raise ValidationError(
                _("This link is no longer valid. Please ask an organizer for a new one."),
                code=RefusalCode.LINK_INVALID,
            )
        _set_password(locked, new_password)
        audit(tournament=None, action=AuditAction.ACCOUNT_PASSWORD_RESET, user=locked,
              after={"username": locked.get_username()})
    person.password = locked.password
