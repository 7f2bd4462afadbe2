"""The sign-up list as CSV, formula-safe like every export (tournament.spreadsheets)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournament.models import Signup
from tournament.spreadsheets import csv_bytes


def signups_csv(signups: list[Signup]) -> bytes:
    header = [
        _("Order"), _("First name"), _("Last name"), _("Club"), _("Year of birth"), _("E-mail"),
        _("Phone"), _("Status"), _("Waiting list"), _("Likely duplicate"), _("Signed up at"),
    ]
    return csv_bytes([header] + [
        [
            signup.queue, signup.first_name, signup.last_name, signup.club, signup.birth_year,
            signup.email, signup.phone, signup.get_status_display(), signup.waiting_number or "",
            _("yes") if signup.duplicate else "", signup.created_at.strftime("%Y-%m-%d %H:%M"),
        ]
        for signup in signups
    ])
