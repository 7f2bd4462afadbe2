"""The sign-up list as CSV (semicolon-separated, with BOM, so Excel opens it with umlauts intact)."""

from __future__ import annotations

import csv
import io

from django.utils.translation import gettext as _

from tournament.models import Signup


def signups_csv(signups: list[Signup]) -> str:
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=";")
    writer.writerow([
        _("Order"), _("First name"), _("Last name"), _("Club"), _("Year of birth"), _("E-mail"),
        _("Phone"), _("Status"), _("Waiting list"), _("Likely duplicate"), _("Signed up at"),
    ])
    for signup in signups:
        writer.writerow([
            signup.queue, signup.first_name, signup.last_name, signup.club, signup.birth_year,
            signup.email, signup.phone, signup.get_status_display(), signup.waiting_number or "",
            _("yes") if signup.duplicate else "", signup.created_at.strftime("%Y-%m-%d %H:%M"),
        ])
    return out.getvalue()
