"""Who works with whom, and whether somebody still has to choose their own password."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from tournament.models import Account

# A session remembers from its login on that its password must still be changed: the banner of
# templates/base.html reads it without a query; the change clears it (and ends every other session).
DUE_SESSION_KEY = "password_change_due"


def people_of(user) -> QuerySet:
    """The people `user` works with, for whom they may make a password reset link: everybody who
    organizes a tournament or a series with them, or helps or views in one they organize (a superuser:
    every active user). The one place that says so."""
    people = get_user_model().objects.filter(is_active=True).exclude(pk=user.pk)
    if not user.is_superuser:
        people = people.filter(
            Q(organized_tournaments__organizers=user) | Q(organized_series__organizers=user)
            | Q(memberships__tournament__organizers=user) | Q(memberships__series__organizers=user)
        ).distinct()
    return people.order_by("last_name", "first_name", "username")


def may_make_reset_link(user, person) -> bool:
    """Only for somebody they work with, and a superuser's link only by a superuser."""
    if not user.is_authenticated or person.pk == user.pk:
        return False
    if person.is_superuser and not user.is_superuser:
        return False
    return people_of(user).filter(pk=person.pk).exists()


def password_change_due(user) -> bool:
    return Account.objects.filter(user_id=user.pk, password_change_due=True).exists()


def display_name(user) -> str:
    """A person as others see them: their name where they gave one, else their user name."""
    if user is None:
        return ""
    return user.get_full_name().strip() or user.get_username()
