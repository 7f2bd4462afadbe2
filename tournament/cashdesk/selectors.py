"""Reads at the door: who signed up, who waits, who is in and who paid; the cash report."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q, Sum

from engine.prizes import euros
from tournament.models import Payment, Registration, Signup, Tournament


@dataclass(frozen=True)
class DoorLists:
    arriving: list[Signup]  # has a place, not checked in yet
    waiting: list[Signup]
    registrations: list[Registration]  # with .paid (Payment or None)


def door_lists(tournament: Tournament) -> DoorLists:
    """Three queries for any size: open sign-ups, registrations with their payments."""
    signups = list(
        tournament.signups.filter(
            registration__isnull=True, status__in=(Signup.Status.CONFIRMED, Signup.Status.WAITING)
        ).order_by("last_name", "first_name", "queue")
    )
    registrations = list(
        tournament.registrations.select_related("player__club", "payment").exclude(
            status=Registration.Status.WITHDRAWN, withdrawn_after_round__isnull=True
        ).order_by("player__last_name", "player__first_name")
    )
    for reg in registrations:
        reg.paid = getattr(reg, "payment", None)
    return DoorLists(
        arriving=[s for s in signups if s.status == Signup.Status.CONFIRMED],
        waiting=sorted((s for s in signups if s.status == Signup.Status.WAITING), key=lambda s: s.queue),
        registrations=registrations,
    )


@dataclass
class CashReport:
    tournament: Tournament
    fee_cents: int
    players: int  # checked in (or played and withdrew later)
    expected_cents: int
    by_method: list[tuple[str, int, int]]  # (label, count, cents)
    collected_cents: int
    unpaid: list[Registration] = field(default_factory=list)

    @property
    def difference_cents(self) -> int:
        return self.collected_cents - self.expected_cents

    def amount(self, cents: int) -> str:
        return euros(cents)


def playing_registrations(tournament: Tournament):
    return tournament.registrations.filter(
        Q(status=Registration.Status.CHECKED_IN) | Q(withdrawn_after_round__isnull=False)
    )


def cash_report(tournament: Tournament) -> CashReport:
    """Expected (entry fee times players in the hall) against collected, by method; three queries."""
    players = list(playing_registrations(tournament).select_related("player", "payment"))
    totals = {
        row["method"]: (row["count"], row["total"] or 0)
        for row in Payment.objects.filter(tournament=tournament).values("method").annotate(
            count=Count("pk"), total=Sum("amount_cents")
        )
    }
    by_method = [(label, *totals.get(value, (0, 0))) for value, label in Payment.Method.choices]
    # Without an entry fee nobody owes anything: no list of everybody as "not paid".
    unpaid = [reg for reg in players if tournament.entry_fee_cents and getattr(reg, "payment", None) is None]
    return CashReport(
        tournament=tournament,
        fee_cents=tournament.entry_fee_cents,
        players=len(players),
        expected_cents=tournament.entry_fee_cents * len(players),
        by_method=by_method,
        collected_cents=sum(cents for _label, _count, cents in by_method),
        unpaid=sorted(unpaid, key=lambda reg: reg.start_number),
    )


def paying_players(tournament: Tournament) -> int:
    return Payment.objects.filter(tournament=tournament, amount_cents__gt=0).count()


def fees_taken(tournament: Tournament) -> tuple[int, int]:
    """(paying players, entry fees actually collected in cents), in one query."""
    totals = Payment.objects.filter(tournament=tournament).aggregate(
        paying=Count("pk", filter=Q(amount_cents__gt=0)), collected=Sum("amount_cents"),
    )
    return totals["paying"], totals["collected"] or 0
