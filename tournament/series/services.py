"""Writes of a series: create it from a tournament, change its ranking rule, join or leave it.

The audit log belongs to tournaments, so each entry is written in the tournament the change was made
from (and, for joining or leaving, in the tournament that joins or leaves).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from engine.series import rule_problems
from tournament.models import Series, Tournament
from tournament.permissions import organizes

from ..audit.actions import AuditAction
from ..audit.services import audit
from .rules import age_limits, season_rule

SERIES_SETTINGS = (
    "name", "points", "points_table", "best_of", "min_evenings", "attendance_bonus", "free_misses",
    "miss_deduction", "members_only", "tiebreaks", "club_best", "club_value", "junior_under", "senior_from",
)


def series_snapshot(series: Series) -> dict[str, Any]:
    return {name: getattr(series, name) for name in SERIES_SETTINGS}


def _check_rule(series: Series) -> None:
    """The engine's checks of the rule, as refusals with the engine's stable codes."""
    problems = rule_problems(season_rule(series))
    if problems:
        problem = problems[0]
        raise ValidationError(_(problem.message) % problem.params, code=problem.code)
    limits = age_limits(series).problems()
    if limits:
        raise ValidationError(_("The age limits are implausible."), code=limits[0])
    series.full_clean()


@transaction.atomic
def series_create(*, tournament: Tournament, user, name: str, **rule: Any) -> Series:
    """A new series with this tournament as its first evening."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    series = Series(name=" ".join(name.split()), organization_id=locked.organization_id, **rule)
    _check_rule(series)
    series.save()
    series.organizers.add(user)
    locked.series = series
    locked.save(update_fields=["series"])
    tournament.series = series
    audit(tournament=locked, user=user, action=AuditAction.SERIES_CREATE, after=series_snapshot(series))
    return series


@transaction.atomic
def series_update(*, series: Series, tournament: Tournament, user, changes: Mapping[str, Any]) -> Series:
    locked = Series.objects.select_for_update().get(pk=series.pk)
    if not organizes(user, locked):
        raise ValidationError(
            _("Only the organizers of the series can change it."), code="not_series_organizer"
        )
    before = series_snapshot(locked)
    for name, value in changes.items():
        if name not in SERIES_SETTINGS:
            raise ValueError(name)
        setattr(locked, name, value)
    _check_rule(locked)
    after = series_snapshot(locked)
    if before != after:  # a form saved unchanged writes nothing
        locked.save()
        audit(tournament=tournament, user=user, action=AuditAction.SERIES_UPDATE, before=before, after=after)
    return locked


@transaction.atomic
def series_join(*, tournament: Tournament, user, series: Series) -> Tournament:
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not organizes(user, series):
        raise ValidationError(_("Only the organizers of the series can add evenings to it."),
                              code="not_series_organizer")
    if locked.series_id == series.pk:
        raise ValidationError(_("This tournament is already part of the series."), code="already_in_series")
    before = {"series": locked.series.name if locked.series_id else None}
    locked.series = series
    locked.save(update_fields=["series"])
    tournament.series = series
    audit(
        tournament=locked, user=user, action=AuditAction.SERIES_JOIN, before=before,
        after={"series": series.name},
    )
    return locked


@transaction.atomic
def series_leave(*, tournament: Tournament, user) -> Tournament:
    locked = Tournament.objects.select_for_update(of=("self",)).select_related("series").get(pk=tournament.pk)
    if locked.series_id is None:
        raise ValidationError(_("This tournament is not part of a series."), code="not_in_series")
    before = {"series": locked.series.name}
    locked.series = None
    locked.save(update_fields=["series"])
    tournament.series = None
    audit(
        tournament=locked, user=user, action=AuditAction.SERIES_LEAVE, before=before, after={"series": None}
    )
    return locked
