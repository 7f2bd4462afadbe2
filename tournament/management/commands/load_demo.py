"""Load a demo tournament so a newcomer sees a real one at once: 23 players, 3 rounds played, round 4 running.

Everything goes through the services (register, check in, seat, publish, open, submit, confirm, close), so
the demo is as consistent as a real evening. Results are dealt from a shuffled deck with a fixed seed: the
same demo every time, with hands that could really have happened.
"""

from __future__ import annotations

import random
from datetime import date
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from engine.cards import get_deck
from engine.notation import format_hand, sort_hand
from engine.validation import SeatReport
from tournament.models import Round, Submission, Table, Tournament
from tournament.players.imports import parse_csv
from tournament.players.services import players_import
from tournament.results.services import result_submit
from tournament.rounds.services import round_close, round_open, round_publish, round_seat
from tournament.tournaments.services import tournament_create

DEMO_NAME = "Demo: UNO-Turnier Leonhard"
PLAYERS_CSV = Path(settings.BASE_DIR) / "fixtures" / "demo_players.csv"
SEED = 20251129
CLOSED_ROUNDS = 3
HAND_SIZE = 7


def dealt_result(table: Table, rng: random.Random, deck_key: str) -> list[SeatReport]:
    """Deal 7 cards to each seat from a shuffled deck, let one player go out, others draw a little."""
    deck = get_deck(deck_key)
    cards = deck.cards()
    rng.shuffle(cards)
    seats = list(table.seats.order_by("position").values_list("registration_id", flat=True))
    hands = {reg: [cards.pop() for _ in range(HAND_SIZE)] for reg in seats}
    cards.pop()  # the discard pile's first card
    winner = rng.choice(seats)
    reports = []
    for reg in seats:
        if reg == winner:
            reports.append(SeatReport(player_id=reg, went_out=True))
            continue
        left = rng.randint(1, HAND_SIZE + 2)
        hand = hands[reg][:left] + [cards.pop() for _ in range(max(0, left - HAND_SIZE))]
        reports.append(SeatReport(player_id=reg, cards=format_hand(sort_hand(hand, deck))))
    return reports


class Command(BaseCommand):
    help = "Load the demo tournament (23 players, 3 closed rounds, round 4 open with some tables reported)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--owner",
            dest="owner",
            default=None,
            help="Username of the organizer (default: the first superuser).",
        )

    def handle(self, *args, owner: str | None = None, **options):
        user_model = get_user_model()
        if owner:
            user = user_model.objects.filter(username=owner).first()
            if user is None:
                raise CommandError(f"No user named {owner!r}.")
        else:
            user = user_model.objects.filter(is_superuser=True).order_by("pk").first()
            if user is None:
                raise CommandError("Create an organizer account first (manage.py createsuperuser).")
        tournament = self.build(user)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo tournament '{tournament.name}' loaded (organizer: {user.get_username()})."
            )
        )

    @transaction.atomic
    def build(self, user) -> Tournament:
        parsed = parse_csv(PLAYERS_CSV.read_bytes())
        if parsed.errors:
            raise CommandError("; ".join(f"line {e.line}: {e.message}" for e in parsed.errors))
        tournament = tournament_create(
            user=user,
            name=DEMO_NAME,
            date=date.today(),
            venue="Pfarrsaal St. Leonhard",
            rounds_total=6,
            public=True,
        )
        players_import(tournament=tournament, user=user, rows=parsed.rows, check_in=True)
        rng = random.Random(SEED)
        for number in range(1, CLOSED_ROUNDS + 2):
            round_ = round_seat(tournament=tournament, user=user, seed=SEED + number)
            round_publish(round_=round_, user=user)
            round_open(round_=round_, user=user)
            tables = list(round_.tables.order_by("number"))
            playing = number > CLOSED_ROUNDS
            for table in tables:
                reports = dealt_result(table, rng, tournament.deck)
                if playing and table.number % 2 == 0:
                    continue  # still playing
                outcome = result_submit(
                    table=table,
                    seats=reports,
                    user=None if playing else user,
                    confirm_warnings=True,
                    source=Submission.Source.CAPTAIN if playing else Submission.Source.ORGANIZER,
                    token=table.token if playing else "",
                )
                if not outcome.stored:
                    raise CommandError(f"Demo result refused: {outcome.errors}")
            if not playing:
                round_close(round_=Round.objects.get(pk=round_.pk), user=user)
        return tournament
