"""Whose password one may reset, and whether somebody still has to choose their own password."""

from __future__ import annotations

from django.db.models import QuerySet

from tournament.models import Account
from tournament.permissions.scopes import people_under

# A session remembers from its login on that its password must still be changed: the banner of
# templates/base.html reads it without a query; the change clears it (and ends every other session).
DUE_SESSION_KEY = "password_change_due"


def people_of(user) -> QuerySet:
    """The people `user` may make a password reset link for: those entirely under their authority
    (`permissions.scopes.people_under`: every role they hold is in what `user` organizes), by name."""
    return people_under(user).order_by("last_name", "first_name", "username")


def may_make_reset_link(user, person) -> bool:
    return people_of(user).filter(pk=person.pk).exists()


def password_change_due(user) -> bool:
    return Account.objects.filter(user_id=user.pk, password_change_due=True).exists()


def display_name(user) -> str:
    """A person as others see them: their name where they gave one, else their user name."""
    if user is None:
        return ""
    return user.get_full_name().strip() or user.get_username()
