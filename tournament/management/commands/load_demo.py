"""Load a demo tournament so a newcomer sees a real one at once: 23 players, 3 rounds played, round 4 running.

It is the third evening of a series (two earlier evenings, all rounds closed) with clubs, a team
competition of four teams and categories (women and men, seniors, guests without a club).

Everything goes through the services (register, check in, seat, publish, open, submit, confirm, close), so
the demo is as consistent as a real evening. Results are dealt from a shuffled deck with a fixed seed: the
same demo every time, with hands that could really have happened.
"""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from engine.cards import get_deck
from engine.notation import format_hand, sort_hand
from engine.validation import SeatReport
from tournament.models import Round, Submission, Table, Tournament
from tournament.players.imports import parse_csv
from tournament.players.services import players_import, registration_update
from tournament.results.services import result_submit
from tournament.rounds.services import round_close, round_open, round_publish, round_seat
from tournament.series.services import series_create, series_join
from tournament.teams.services import team_create
from tournament.tournaments.services import tournament_create

DEMO_NAME = "Demo: UNO-Turnier Leonhard"
PLAYERS_CSV = Path(settings.BASE_DIR) / "fixtures" / "demo_players.csv"
SEED = 20251129
CLOSED_ROUNDS = 3
HAND_SIZE = 7
SERIES_NAME = "Jahreswertung Leonhard"
# The two earlier evenings of the series: (weeks before today, which rows of the player list came).
EARLIER_EVENINGS = ((8, slice(0, 20)), (4, slice(3, 23)))
WOMEN = {"Anna", "Claudia", "Elke", "Gabi", "Ingrid", "Karin", "Monika", "Olga", "Renate", "Theresa", "Vera"}
TEAMS = {  # the team competition of today's evening: first names of the players
    "Die Asse": ("Anna", "Franz", "Karin"),
    "Joker": ("Bernd", "Gabi", "Lukas"),
    "Farbwechsel": ("Claudia", "Hans", "Monika"),
    "Aussetzer": ("Dieter", "Ingrid", "Peter"),
}


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

    def play(self, tournament: Tournament, user, rng: random.Random, *, closed: int, running: bool) -> None:
        """Seat and play `closed` rounds (organizer's entries, closed), then optionally one more round
        with half of the tables reported by their captains."""
        for number in range(1, closed + 1 + (1 if running else 0)):
            round_ = round_seat(tournament=tournament, user=user, seed=SEED + number)
            round_publish(round_=round_, user=user)
            round_open(round_=round_, user=user)
            tables = list(round_.tables.order_by("number"))
            playing = number > closed
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

    def earlier_evenings(self, user, rows, rng: random.Random):
        """The series' two earlier evenings, all rounds closed; the players' categories (women and men;
        players without a club are guests) set on their records."""
        series = None
        today = timezone.localdate()  # the hall's day, not the machine's
        for index, (weeks, chosen) in enumerate(EARLIER_EVENINGS, start=1):
            evening = tournament_create(
                user=user, name=f"UNO-Abend Leonhard {index}", date=today - timedelta(weeks=weeks),
                venue="Pfarrsaal St. Leonhard", rounds_total=CLOSED_ROUNDS,
            )
            if series is None:
                series = series_create(
                    tournament=evening, user=user, name=SERIES_NAME, best_of=2, attendance_bonus=1,
                    club_best=3,
                )
            else:
                series_join(tournament=evening, user=user, series=series)
            players_import(tournament=evening, user=user, rows=rows[chosen], check_in=True)
            for reg in evening.registrations.select_related("player__club"):
                player = reg.player
                registration_update(
                    registration=reg, user=user, first_name=player.first_name, last_name=player.last_name,
                    club_name=player.club_name, birth_date=player.birth_date, birth_year=player.birth_year,
                    gender="f" if player.first_name in WOMEN else "m", member=bool(player.club_id),
                )
            self.play(evening, user, rng, closed=CLOSED_ROUNDS, running=False)
        return series

    @transaction.atomic
    def build(self, user) -> Tournament:
        parsed = parse_csv(PLAYERS_CSV.read_bytes())
        if parsed.errors:
            raise CommandError("; ".join(f"line {e.line}: {e.message}" for e in parsed.errors))
        rng = random.Random(SEED)
        series = self.earlier_evenings(user, parsed.rows, rng)
        tournament = tournament_create(
            user=user,
            name=DEMO_NAME,
            date=timezone.localdate(),
            venue="Pfarrsaal St. Leonhard",
            rounds_total=6,
            public=True,
        )
        series_join(tournament=tournament, user=user, series=series)
        players_import(tournament=tournament, user=user, rows=parsed.rows, check_in=True)
        by_name = {reg.player.first_name: reg for reg in tournament.registrations.select_related("player")}
        for name, members in TEAMS.items():
            team_create(tournament=tournament, user=user, name=name, members=[by_name[m] for m in members])
        self.play(tournament, user, rng, closed=CLOSED_ROUNDS, running=True)
        return tournament
