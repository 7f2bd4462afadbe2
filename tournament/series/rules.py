"""A series' ranking rule as the engine's `SeasonRule`, and the one sentence that says it in words.

The page, the exports and the certificates show `describe_rule(...)`: nobody retypes the rule in a
template, so what is shown is what is computed.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.rankings import AgeLimits
from engine.series import SEASON_TIEBREAKS, SeasonPoints, SeasonRule
from tournament.models import Series


def season_rule(series: Series) -> SeasonRule:
    return SeasonRule(
        points=SeasonPoints(series.points),
        table=tuple(series.points_table or ()),
        best_of=series.best_of,
        min_evenings=series.min_evenings,
        attendance_bonus=series.attendance_bonus,
        free_misses=series.free_misses,
        miss_deduction=series.miss_deduction,
        members_only=series.members_only,
        tiebreaks=tuple(series.tiebreaks or ()),
    )


def age_limits(series: Series | None) -> AgeLimits:
    if series is None:
        return AgeLimits()
    return AgeLimits(junior_under=series.junior_under, senior_from=series.senior_from)


def describe_rule(rule: SeasonRule, *, evenings: int) -> list[str]:
    """The rule in plain sentences (translated), one per option that is in use."""
    sentences = []
    counts = {"best": rule.best_of, "evenings": evenings}
    if rule.best_of is not None and rule.best_of < evenings:
        sentences.append(ngettext(
            "The best evening of %(evenings)s counts.", "The best %(best)s of %(evenings)s evenings count.",
            rule.best_of,
        ) % counts)
    elif evenings == 0:
        sentences.append(_("Every evening counts."))
    else:
        sentences.append(ngettext(
            "The one evening so far counts.", "All %(evenings)s evenings count.", evenings
        ) % counts)
    if rule.points is SeasonPoints.BY_FIELD:
        sentences.append(_("The winner of an evening gets as many points as there were players, "
                           "every place below one point fewer."))
    elif rule.points is SeasonPoints.BY_TABLE:
        sentences.append(_("Points by place: %(table)s; every further place 0.")
                         % {"table": "-".join(str(value) for value in rule.table)})
    else:
        sentences.append(_("The minus points of the evenings are added up; the lowest sum wins."))
    if rule.min_evenings:
        sentences.append(ngettext(
            "Ranked is who played at least %(count)s evening.",
            "Ranked is who played at least %(count)s evenings.", rule.min_evenings,
        ) % {"count": rule.min_evenings})
    if rule.attendance_bonus:
        sentences.append(ngettext(
            "Every evening played brings %(count)s bonus point.",
            "Every evening played brings %(count)s bonus points.", rule.attendance_bonus,
        ) % {"count": rule.attendance_bonus})
    if rule.miss_deduction:
        sentences.append(ngettext(
            "Every missed evening beyond %(free)s costs %(count)s point.",
            "Every missed evening beyond %(free)s costs %(count)s points.", rule.miss_deduction,
        ) % {"free": rule.free_misses, "count": rule.miss_deduction})
    if rule.members_only:
        sentences.append(_("Only members are ranked; guests are listed after them."))
    if rule.tiebreaks:
        names = ", ".join(_(SEASON_TIEBREAKS[key]) for key in rule.tiebreaks)
        sentences.append(_("On equal points: %(order)s.") % {"order": names})
    return sentences
