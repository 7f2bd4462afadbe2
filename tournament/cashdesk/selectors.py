"""Reads of the admission desk (who is expected, waiting, in, paid) and of the money: the cash report and
the cash record."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q, Sum

from engine.numbers import parse_natural
from engine.prizes import euros
from engine.text import matches, person_key, person_sort_key, search_words
from tournament.models import Payment, PrizeHandover, Registration, Signup, Tournament

from ..accounts.selectors import display_name
from ..players.selectors import known_players


@dataclass
class CashReport:
    tournament: Tournament
    fee_cents: int
    players: int  # checked in (or played and withdrew later)
    expected_cents: int
    by_method: list[tuple[str, int, int]]  # (label, count, cents)
    collected_cents: int
    unpaid: list[Registration] = field(default_factory=list)
    # Fees reduced or waived at the desk with a reason: documented, so no shortfall of the till.
    reduced_cents: int = 0

    @property
    def due_cents(self) -> int:
        """What the fees should have brought: the expected fees less the documented reductions."""
        return self.expected_cents - self.reduced_cents

    @property
    def difference_cents(self) -> int:
        return self.collected_cents - self.due_cents

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
    fee = tournament.entry_fee_cents
    reduced = sum(
        fee - reg.payment.amount_cents for reg in players
        if getattr(reg, "payment", None) is not None and reg.payment.amount_cents < fee and reg.payment.reason
    )
    return CashReport(
        tournament=tournament,
        fee_cents=tournament.entry_fee_cents,
        players=len(players),
        expected_cents=tournament.entry_fee_cents * len(players),
        by_method=by_method,
        collected_cents=sum(cents for _label, _count, cents in by_method),
        unpaid=sorted(unpaid, key=lambda reg: reg.start_number),
        reduced_cents=reduced,
    )


def paying_players(tournament: Tournament) -> int:
    return Payment.objects.filter(tournament=tournament, amount_cents__gt=0).count()


def fees_taken(tournament: Tournament) -> tuple[int, int]:
    """(paying players, entry fees actually collected in cents), in one query."""
    totals = Payment.objects.filter(tournament=tournament).aggregate(
        paying=Count("pk", filter=Q(amount_cents__gt=0)), collected=Sum("amount_cents"),
    )
    return totals["paying"], totals["collected"] or 0


class DeskKind:
    """What a line of the admission desk is, in the order the desk lists them."""

    SIGNUP = "signup"  # signed up with a place, not here yet
    WAITING = "waiting"  # on the waiting list
    REGISTERED = "registered"  # registered (typed, imported), not checked in
    IN = "in"  # checked in (paid or not)
    WITHDRAWN = "withdrawn"
    KNOWN = "known"  # played an earlier evening of the organizer's, not registered here


@dataclass
class DeskLine:
    kind: str
    pk: int  # of the signup, registration or player
    first_name: str
    last_name: str
    club: str
    start_number: int | None = None
    waiting_position: int | None = None
    payment: Payment | None = None

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def sort_name(self) -> str:
        return f"{self.last_name}, {self.first_name}"


DESK_ORDER = [DeskKind.SIGNUP, DeskKind.REGISTERED, DeskKind.WAITING, DeskKind.IN, DeskKind.WITHDRAWN,
              DeskKind.KNOWN]


@dataclass
class Desk:
    """What the admission desk shows: the lines matching the search, and the evening's door figures."""

    lines: list[DeskLine]
    expected: int  # with a place or registered, not checked in yet
    checked_in: int
    unpaid: int  # checked in, no payment (only with an entry fee)
    waiting: int
    collected_cents: int


def desk(tournament: Tournament, query: str = "", *, limit: int = 60) -> Desk:
    """Everybody the admission desk may meet, matching `query` (name, club or start number; case,
    umlauts and ß folded by `engine.text.matches`): sign-ups with a place and waiting, registrations,
    and, while searching, the players of the owning club's earlier evenings. Those still to come first.
    Two queries, three while searching."""
    signups = list(tournament.signups.filter(
        registration__isnull=True, status__in=(Signup.Status.CONFIRMED, Signup.Status.WAITING)
    ).order_by("queue"))
    lines: list[DeskLine] = []
    for position, signup in enumerate((s for s in signups if s.status == Signup.Status.WAITING), start=1):
        lines.append(DeskLine(DeskKind.WAITING, signup.pk, signup.first_name, signup.last_name, signup.club,
                              waiting_position=position))
    lines += [
        DeskLine(DeskKind.SIGNUP, s.pk, s.first_name, s.last_name, s.club)
        for s in signups if s.status == Signup.Status.CONFIRMED
    ]
    kinds = {Registration.Status.REGISTERED: DeskKind.REGISTERED, Registration.Status.CHECKED_IN: DeskKind.IN,
             Registration.Status.WITHDRAWN: DeskKind.WITHDRAWN}
    for reg in tournament.registrations.select_related("player__club", "payment"):
        lines.append(DeskLine(
            kinds[reg.status], reg.pk, reg.player.first_name, reg.player.last_name, reg.player.club_name,
            start_number=reg.start_number, payment=getattr(reg, "payment", None),
        ))
    figures = {
        "expected": sum(1 for line in lines if line.kind in (DeskKind.SIGNUP, DeskKind.REGISTERED)),
        "checked_in": sum(1 for line in lines if line.kind == DeskKind.IN),
        "unpaid": sum(1 for line in lines if line.kind == DeskKind.IN and line.payment is None)
        if tournament.entry_fee_cents else 0,
        "waiting": sum(1 for line in lines if line.kind == DeskKind.WAITING),
        "collected_cents": sum(line.payment.amount_cents for line in lines if line.payment is not None),
    }
    words = search_words(query)
    if words:
        number = parse_natural(words[0]) if len(words) == 1 else None
        if number is not None:
            lines = [line for line in lines if line.start_number == number]
        else:
            lines = [line for line in lines if matches(query, line.first_name, line.last_name, line.club)]
            # Found by `matches` (folded), but the same person only by key: Michal is not Michael.
            taken = {person_key(line.first_name, line.last_name) for line in lines}
            lines += [
                DeskLine(DeskKind.KNOWN, p.pk, p.first_name, p.last_name, p.club_name)
                for p in known_players(tournament)
                if matches(query, p.first_name, p.last_name, p.club_name)
                and p.name_key not in taken
            ]
    lines.sort(key=lambda line: (
        DESK_ORDER.index(line.kind), person_sort_key(line.last_name, line.first_name)
    ))
    return Desk(lines=lines[:limit], **figures)


# --- the cash record the treasurer signs -------------------------------------------------------


@dataclass(frozen=True)
class RecordPayment:
    """One payment as the cash record lists it."""

    payment: Payment
    name: str
    start_number: int
    taken_by: str
    reduced: bool  # less than the entry fee (0: waived)

    @property
    def waived(self) -> bool:
        return self.payment.amount_cents == 0


@dataclass(frozen=True)
class RecordPrize:
    """A place's prize money and goods, and whether (when, by whom) it was handed over."""

    place: int
    name: str
    start_number: int
    registration_id: int
    amount_cents: int
    goods: str
    handover: PrizeHandover | None

    @property
    def handed_by(self) -> str:
        return display_name(self.handover.created_by if self.handover else None)


@dataclass
class CashRecord:
    tournament: Tournament
    float_cents: int
    payments: list[RecordPayment]
    by_method: list[tuple[str, int, int]]  # (label, count, cents)
    prizes: list[RecordPrize]
    final: bool  # the standings the prizes follow are final
    counted_cents: int | None
    note: str

    @property
    def collected_cents(self) -> int:
        return sum(cents for _label, _count, cents in self.by_method)

    @property
    def cash_in_cents(self) -> int:
        return sum(p.payment.amount_cents for p in self.payments if p.payment.method == Payment.Method.CASH)

    @property
    def reduced(self) -> list[RecordPayment]:
        return [p for p in self.payments if p.reduced]

    @property
    def paid_out_cents(self) -> int:
        """Prize money handed over (paid from the till in cash)."""
        return sum(prize.handover.amount_cents for prize in self.prizes if prize.handover)

    @property
    def expected_cents(self) -> int:
        """What the till should hold: the float, plus the cash taken, minus the prize money handed over."""
        return self.float_cents + self.cash_in_cents - self.paid_out_cents

    @property
    def difference_cents(self) -> int | None:
        return None if self.counted_cents is None else self.counted_cents - self.expected_cents


def cash_record(tournament: Tournament) -> CashRecord:
    """The evening's cash record: the float, every payment with who took it and when, reduced and waived
    fees with their reason, the prizes by place and whether they were handed over, expected against
    counted cash. A handed-over prize shows what was handed over, even if the standings changed since."""
    from tournament.prizes.selectors import has_prizes, prize_list
    from tournament.standings.selectors import evening_over, standings

    fee = tournament.entry_fee_cents
    payments = [
        RecordPayment(
            payment=payment, name=payment.registration.player.name,
            start_number=payment.registration.start_number,
            taken_by=display_name(payment.created_by),
            reduced=payment.amount_cents < fee,
        )
        for payment in Payment.objects.filter(tournament=tournament)
        .select_related("registration__player", "created_by").order_by("created_at", "pk")
    ]
    totals: dict[str, tuple[int, int]] = {}
    for row in payments:
        count, cents = totals.get(row.payment.method, (0, 0))
        totals[row.payment.method] = (count + 1, cents + row.payment.amount_cents)
    by_method = [(label, *totals.get(value, (0, 0))) for value, label in Payment.Method.choices]
    handovers = {
        handover.registration_id: handover
        for handover in PrizeHandover.objects.filter(tournament=tournament)
        .select_related("registration__player", "created_by")
    }
    prizes: list[RecordPrize] = []
    final = False
    if has_prizes(tournament):
        rounds, lines = standings(tournament)
        final = evening_over(tournament, rounds, lines)
        by_number = {line.registration.start_number: line.registration.pk for line in lines}
        for row in (prize_list(tournament, lines).rows if rounds else []):
            reg_id = by_number[row.start_number]
            handover = handovers.pop(reg_id, None)
            prizes.append(RecordPrize(
                place=handover.place if handover else row.place, name=row.name, start_number=row.start_number,
                registration_id=reg_id, amount_cents=handover.amount_cents if handover else row.amount_cents,
                goods=handover.goods if handover else row.goods, handover=handover,
            ))
    # Handed over to somebody the current list no longer names: still in the till's record.
    prizes += [
        RecordPrize(
            place=handover.place, name=handover.registration.player.name,
            start_number=handover.registration.start_number, registration_id=handover.registration_id,
            amount_cents=handover.amount_cents, goods=handover.goods, handover=handover,
        )
        for handover in handovers.values()
    ]
    prizes.sort(key=lambda prize: (prize.place, prize.start_number))
    return CashRecord(
        tournament=tournament, float_cents=tournament.cash_float_cents, payments=payments,
        by_method=by_method, prizes=prizes, final=final, counted_cents=tournament.cash_counted_cents,
        note=tournament.cash_note,
    )
