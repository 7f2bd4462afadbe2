"""Writes of a tournament itself: create, change its settings, its logo, delete it."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.live.selectors import reveal
from tournament.models import Submission, Tournament
from tournament.permissions import Capability, require

from ..audit.actions import AuditAction
from ..audit.services import audit
from ..permissions.scopes import own_club

logger = logging.getLogger(__name__)


TOURNAMENT_SETTINGS = (
    "name", "date", "venue", "rounds_total", "table_size", "table_min", "table_max", "fill", "scoring",
    "end_rule", "threshold", "tiebreaks", "missed_rounds", "time_limit_minutes", "deck", "separate_clubs",
    "plan_all_rounds", "require_second_entry", "table_confirmation", "public", "standings_hidden_from",
    "entry_fee_cents",
)


def tournament_snapshot(tournament: Tournament) -> dict[str, Any]:
    data = {name: getattr(tournament, name) for name in TOURNAMENT_SETTINGS}
    data["date"] = data["date"].isoformat() if isinstance(data["date"], date) else data["date"]
    return data


@transaction.atomic
def tournament_create(*, user, **fields: Any) -> Tournament:
    """A new tournament of the user, owned by their club when they administer exactly one."""
    fields.setdefault("organization", own_club(user))
    tournament = Tournament(**fields)
    tournament.full_clean()
    tournament.save()
    tournament.organizers.add(user)
    audit(
        tournament=tournament, user=user, action=AuditAction.TOURNAMENT_CREATE,
        after=tournament_snapshot(tournament),
    )
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, user, changes: Mapping[str, Any]) -> Tournament:
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require(user, locked, Capability.SETTINGS)
    before = tournament_snapshot(locked)
    if changes.get("scoring", locked.scoring) != locked.scoring and Submission.objects.filter(
        table__round__tournament=locked
    ).exists():
        # Every stored version carries its round scores, computed with the scoring of its time.
        raise ValidationError(_("The scoring cannot change once results have been entered."))
    seated = locked.rounds.count()
    if changes.get("rounds_total", locked.rounds_total) < seated:
        raise ValidationError(
            _("%(count)s rounds have been seated already; the tournament cannot have fewer.")
            % {"count": seated}
        )
    for name, value in changes.items():
        setattr(tournament, name, value)
    if tournament.standings_hidden_from != locked.standings_hidden_from:
        tournament.standings_revealed = False  # a new silent stretch: hidden again until revealed
    tournament.full_clean()
    after = tournament_snapshot(tournament)
    changed = {k: v for k, v in after.items() if before.get(k) != v}
    if changed or any(getattr(locked, name) != getattr(tournament, name) for name in changes):
        tournament.save()  # a form saved unchanged writes nothing (every stored page stays current)
    if changed:
        audit(
            tournament=tournament, user=user, action=AuditAction.TOURNAMENT_UPDATE,
            before={k: before[k] for k in changed}, after=changed,
        )
    return tournament



@transaction.atomic
def standings_reveal(*, tournament: Tournament, user) -> Tournament:
    """The prize-giving: show the hidden standings to everybody again (docs/rules.md §9)."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require(user, locked, Capability.SETTINGS)
    if locked.standings_hidden_from is None:
        raise ValidationError(_("The standings of this tournament are not hidden."), code="not_hidden")
    if locked.standings_revealed:
        return locked
    locked.standings_revealed = True
    locked.reveal_step = 0  # a rehearsal's step does not skip the hall's opening
    locked.save(update_fields=["standings_revealed", "reveal_step"])
    audit(
        tournament=locked, user=user, action=AuditAction.STANDINGS_REVEAL,
        before={"standings_revealed": False}, after={"standings_revealed": True},
    )
    return locked


@transaction.atomic
def reveal_step_set(*, tournament: Tournament, user, step: int) -> Tournament:
    """Move the prize-giving to `step` for every projector at once: the step is the evening's, stored,
    so a second screen shows what the first shows. Setting the step it is at changes nothing."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require(user, locked, Capability.SETTINGS)
    count = reveal(locked).count
    if not 0 <= step < count:
        raise ValidationError(
            _("The prize-giving has no step %(step)s (it has %(count)s).")
            % {"step": step + 1, "count": count},
            code="no_such_step",
        )
    if locked.reveal_step == step:
        return locked
    before = locked.reveal_step
    locked.reveal_step = step
    locked.save(update_fields=["reveal_step"])
    audit(
        tournament=locked, user=user, action=AuditAction.REVEAL_STEP,
        before={"reveal_step": before}, after={"reveal_step": step},
    )
    return locked


@transaction.atomic
def tournament_delete(*, tournament: Tournament, user) -> None:
    """Delete a tournament with its rounds, results and audit log; players and clubs stay for the next one.

    The audit log goes with the tournament, so the deletion itself is written to the server log.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require(user, tournament, Capability.DELETE)
    logger.info(
        "tournament %s (%s) deleted by %s", tournament.pk, tournament.name,
        user.get_username() if user is not None and user.is_authenticated else "-",
    )
    tournament.delete()




@transaction.atomic
def tournament_set_logo(*, tournament: Tournament, user, logo: UploadedFile | None) -> Tournament:
    """Store (or, with None, remove) the club logo printed on the certificates.

    The replaced file is deleted only once the change is committed, so a rollback keeps it.
    """
    old_name = tournament.logo.name or ""
    storage = tournament.logo.storage
    if logo is not None:
        tournament.logo.save(logo.name, logo, save=False)
    else:
        tournament.logo = ""
    tournament.save(update_fields=["logo"])
    new_name = tournament.logo.name or ""
    if old_name and old_name != new_name:
        transaction.on_commit(lambda: storage.delete(old_name))
    audit(
        tournament=tournament, action=AuditAction.TOURNAMENT_LOGO, user=user, before=old_name, after=new_name
    )
    return tournament
