"""The sign-up list as CSV, formula-safe like every export (tournament.spreadsheets)."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Signup
from tournament.spreadsheets import csv_bytes


def local_time(moment) -> str:
    """A stored moment (UTC) on the hall's clock (TIME_ZONE, Europe/Berlin), as the audit log shows it."""
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")


def signups_csv(signups: list[Signup]) -> bytes:
    header = [
        _("Order"), _("First name"), _("Last name"), _("Club"), _("Year of birth"), _("E-mail"),
        _("Phone"), _("Status"), _("Waiting list"), _("Likely duplicate"), _("Signed up at"),
    ]
    return csv_bytes([header] + [
        [
            signup.queue, signup.first_name, signup.last_name, signup.club, signup.birth_year,
            signup.email, signup.phone, signup.get_status_display(), signup.waiting_number or "",
            _("yes") if signup.duplicate else "", local_time(signup.created_at),
        ]
        for signup in signups
    ])
