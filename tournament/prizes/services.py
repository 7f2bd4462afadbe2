"""Writing the prize settings: entry fee, payout percentage, table, shared places, goods, overrides."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from engine.prizes import PotBasis, SharedPlaces, TableKind, place_prizes
from tournament.models import Tournament

from ..audit.actions import AuditAction
from ..audit.services import audit

FIELDS = (
    "entry_fee_cents", "payout_percent", "prize_kind", "prize_table", "shared_places", "goods_prizes",
    "prize_overrides", "pot_basis",
)


@transaction.atomic
def prizes_update(
    *, tournament: Tournament, user, entry_fee_cents: int, payout_percent: int, prize_kind: str,
    prize_table: list[int], shared_places: str, goods_prizes: list[str], prize_overrides: dict[str, int],
    pot_basis: str = PotBasis.COLLECTED,
) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    try:
        place_prizes(pot_cents=0, kind=TableKind(prize_kind), table=prize_table)
        SharedPlaces(shared_places)
        PotBasis(pot_basis)
    except ValueError as error:
        raise ValidationError(_("The prize table is not valid."), code="prize_table") from error
    if not 0 <= payout_percent <= 100 or entry_fee_cents < 0:
        raise ValidationError(_("The prize table is not valid."), code="prize_table")
    before = {name: getattr(tournament, name) for name in FIELDS}
    values = dict(zip(FIELDS, (entry_fee_cents, payout_percent, prize_kind, prize_table, shared_places,
                               goods_prizes, prize_overrides, pot_basis), strict=True))
    for name, value in values.items():
        setattr(tournament, name, value)
    if before != values:
        tournament.save(update_fields=list(FIELDS))
        audit(tournament=tournament, user=user, action=AuditAction.PRIZES_UPDATE, before=before, after=values)
    return tournament
