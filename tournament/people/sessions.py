"""A helper's login on a shared device ends with the evening: at the next 06:00 local time, whenever
they logged in (an organizer's login keeps the site's normal expiry)."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.utils import timezone
from django.utils.timezone import now

from tournament.permissions import only_helps

EVENING_ENDS_AT = dt.time(6, 0)


def evening_end(now: dt.datetime) -> dt.datetime:
    """The next 06:00 in the site's time zone after `now` (an aware datetime)."""
    local = timezone.localtime(now)
    end = timezone.make_aware(dt.datetime.combine(local.date(), EVENING_ENDS_AT))
    if end <= local:
        end = timezone.make_aware(dt.datetime.combine(local.date() + dt.timedelta(days=1), EVENING_ENDS_AT))
    return end


def limit_helper_session(request, user) -> None:
    """Called on every login and when an invitation makes somebody a helper or viewer."""
    if only_helps(user):
        request.session.set_expiry(evening_end(now()))


@receiver(user_logged_in)
def _on_login(sender, request, user, **kwargs) -> None:
    if request is not None and hasattr(request, "session"):
        limit_helper_session(request, user)
