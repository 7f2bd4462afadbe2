"""All test factories in one place."""

import datetime
from collections.abc import Callable

import factory
from django.contrib.auth import get_user_model

from tournament.models import (
    Club,
    Membership,
    Organization,
    Player,
    Registration,
    Role,
    Round,
    Seat,
    Series,
    Submission,
    SubmissionEntry,
    Table,
    Tournament,
)
from tournament.results.services import result_submit
from tournament.rounds.services import round_close, round_open, round_publish, round_seat


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"organizer{n}")
    password = factory.django.Password("secret-pass-123")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Club {n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    first_name = factory.Faker("first_name", locale="de_DE")
    last_name = factory.Sequence(lambda n: f"Spieler{n:03d}")
    club = factory.SubFactory(ClubFactory)
    birth_year = factory.Sequence(lambda n: 1950 + n % 60)
    member = True  # a club's own players; a guest or a membership not asked is said where it matters


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"UNO Turnier {n}")
    date = datetime.date(2026, 11, 29)
    venue = "Vereinsheim"

    @factory.post_generation
    def organizers(self, create, extracted, **kwargs):
        if create and extracted:
            self.organizers.add(*extracted)


class OrganizationFactory(factory.django.DjangoModelFactory):
    """A club (Verein) owning tournaments; `admins=[user, …]`."""

    class Meta:
        model = Organization
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Verein {n}")

    @factory.post_generation
    def admins(self, create, extracted, **kwargs):
        if create and extracted:
            self.admins.add(*extracted)


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    start_number = factory.Sequence(lambda n: n + 1)
    status = Registration.Status.CHECKED_IN


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = 1
    seed = 12345


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    round = factory.SubFactory(RoundFactory)
    number = factory.Sequence(lambda n: n + 1)


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    round = factory.SelfAttribute("table.round")
    registration = factory.SubFactory(
        RegistrationFactory, tournament=factory.SelfAttribute("..round.tournament")
    )
    position = factory.Sequence(lambda n: n + 1)


def report_points(table: Table, *, round_number: int = 1) -> list:
    """A valid points-only report for a seated table: the first seat went out, the others keep points."""
    from engine.validation import SeatReport

    reg_ids = list(table.seats.order_by("position").values_list("registration_id", flat=True))
    winner = reg_ids[(table.number + round_number) % len(reg_ids)]
    return [
        SeatReport(reg_id, points=0, went_out=True) if reg_id == winner
        else SeatReport(reg_id, points=str(3 + (reg_id * 7 + round_number * 11) % 60))
        for reg_id in reg_ids
    ]


def play_round(
    tournament: Tournament, user, *, close: bool = True, seed: int = 1, skip_tables: frozenset = frozenset(),
    points: tuple[int, ...] | None = None, report: Callable[[Table], list] | None = None,
) -> Round:
    """Seat, publish and open the next round through the services, enter the tables, optionally close.

    `points`: the same points per seat position at every table (seat 1 goes out); by default varied points.
    `report`: a function giving a seated table's SeatReports instead (results chosen after the seating,
    so that what a test asserts does not hang on who sits where).
    """

    round_ = round_seat(tournament=tournament, user=user, seed=seed)
    round_publish(round_=round_, user=user)
    round_open(round_=round_, user=user)
    for table in round_.tables.exclude(number__in=skip_tables).order_by("number"):
        if report is not None:
            seats = report(table)
        elif points:
            seats = points_report(table, points)
        else:
            seats = report_points(table, round_number=round_.number)
        outcome = result_submit(
            table=table,
            seats=seats,
            source=Submission.Source.ORGANIZER, user=user, confirm_warnings=True,
        )
        assert outcome.stored, outcome.errors
    if close:
        round_close(round_=round_, user=user)
    round_.refresh_from_db()
    return round_


def seated_round(tournament, registrations, *, number=1, table_size=4, status=Round.Status.PUBLISHED):
    """A round with its seating stored directly (no seating engine): tables of `table_size` in order."""
    round_ = RoundFactory(tournament=tournament, number=number, status=status)
    for index in range(0, len(registrations), table_size):
        table = TableFactory(round=round_, number=index // table_size + 1)
        for position, reg in enumerate(registrations[index:index + table_size], start=1):
            SeatFactory(table=table, round=round_, registration=reg, position=position)
    return round_


def winner_report(table, winner: int, points) -> list:
    """SeatReports for a table: registration `winner` went out, every other player keeps `points(reg_id)`."""
    from engine.validation import SeatReport

    reg_ids = table.seats.order_by("position").values_list("registration_id", flat=True)
    return [
        SeatReport(reg_id, went_out=True) if reg_id == winner else SeatReport(reg_id, points=points(reg_id))
        for reg_id in reg_ids
    ]


def points_report(table, points, winner_position=1):
    """SeatReports for a table: `points` per seat position (the winner's entry is ignored)."""
    from engine.validation import SeatReport

    seats = list(table.seats.order_by("position"))
    return [
        SeatReport(player_id=seat.registration_id, went_out=True) if seat.position == winner_position
        else SeatReport(player_id=seat.registration_id, points=points[seat.position - 1])
        for seat in seats
    ]


def tournament_form_data(**changes: str) -> dict[str, str]:
    """POST data of the tournament settings form: a valid six-round minus-points evening, with `changes`."""
    data = {
        "name": "Frühjahrsturnier",
        "date": "2026-04-12",
        "venue": "Pfarrsaal",
        "rounds_total": "6",
        "table_size": "4",
        "table_min": "3",
        "table_max": "5",
        "fill": "smaller",
        "scoring": "minus",
        "end_rule": "rounds",
        "threshold": "",
        "missed_rounds": "after",
        "time_limit_minutes": "",
        "tiebreak_order": "rounds_won,worst_round",
        "separate_clubs": "on",
    }
    data.update(changes)
    return data


class SeriesFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Series
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Jahreswertung {n}")

    @factory.post_generation
    def organizers(self, create, extracted, **kwargs):
        if create and extracted:
            self.organizers.add(*extracted)


def played_evening(
    *, series: Series | None, players: list, date: datetime.date, scores: dict | None = None,
    rounds: int = 2, organizers=(),
) -> Tournament:
    """An evening of a series with `rounds` closed rounds of confirmed results, stored directly in bulk.

    `scores`: player → their score in every round (default: varied by player and round); tables of four
    in the order of `players`, the seat with the lowest score went out.
    """
    tournament = TournamentFactory(series=series, date=date, organizers=list(organizers), rounds_total=rounds)
    regs = Registration.objects.bulk_create([
        Registration(tournament=tournament, player=player, start_number=number, status="checked_in")
        for number, player in enumerate(players, start=1)
    ])
    for number in range(1, rounds + 1):
        round_ = Round.objects.create(
            tournament=tournament, number=number, status=Round.Status.CLOSED, seed=number
        )
        groups = [regs[i:i + 4] for i in range(0, len(regs), 4)]
        tables = Table.objects.bulk_create([
            Table(round=round_, number=index, status=Table.Status.CONFIRMED)
            for index in range(1, len(groups) + 1)
        ])
        Seat.objects.bulk_create([
            Seat(round=round_, table=table, registration=reg, position=position)
            for table, group in zip(tables, groups, strict=True)
            for position, reg in enumerate(group, start=1)
        ])
        submissions = Submission.objects.bulk_create([
            Submission(table=table, version=1, source=Submission.Source.ORGANIZER, confirmed=True)
            for table in tables
        ])
        entries = []
        for submission, group in zip(submissions, groups, strict=True):
            values = {
                reg.pk: (scores[reg.player] if scores else (reg.player.pk * 7 + number * 13) % 50)
                for reg in group
            }
            low = min(values.values())
            entries += [
                SubmissionEntry(
                    submission=submission, registration=reg, hand_points=values[reg.pk], score=values[reg.pk],
                    went_out=values[reg.pk] == low,
                )
                for reg in group
            ]
        SubmissionEntry.objects.bulk_create(entries)
    return tournament


# Names and clubs of every length a page or a printed document must take, around the steps where a
# document sets a long name smaller (24, 36 and 56 characters); the longest is longer than two lines of
# a table sheet.
LONG_NAMES = [
    ("Karl-Ludwig", "Spieler99003"),
    ("Anna-Katharina", "Müller-Lüdenscheidt"),
    ("Hans-Friedrich", "von Hohenzollern-Sigmaringen"),
    ("Maximiliane-Friederike", "Gräfin von Hohenzollern-Sigmaringen"),
    ("Maximiliane-Friederike-Josephine", "von und zu Hohenzollern-Sigmaringen-Hechingen"),
    ("Jo", "Li"),
    ("Ulrike", "Schmidt-Hohenberg"),
    ("Wolfgang-Amadeus", "Sonnenschein-Wandersleben"),
    ("Mehmet Ali", "Çelik-Öztürk"),
    ("Marie-Luise", "Freifrau von Brandenstein-Zeppelin"),
    ("Bo", "Ek"),
    ("Johann-Sebastian", "Bachmann-Wohltemperiert"),
]
LONG_CLUBS = [
    "UNO-Freunde Oberschwaben-Allgäu e. V., Abteilung Karten- und Gesellschaftsspiele",
    "SG Rot-Weiß",
    "Kartenspielgemeinschaft Bürgerhaus Leonhard-Süd 1987 e. V.",
]



def long_named_players(tournament):
    """Registrations of `LONG_NAMES`, checked in, their clubs taken in turn from `LONG_CLUBS`."""
    return [
        RegistrationFactory(
            tournament=tournament, start_number=i + 1,
            player=PlayerFactory(first_name=first, last_name=last, club__name=LONG_CLUBS[i % 3]),
        )
        for i, (first, last) in enumerate(LONG_NAMES)
    ]


class MembershipFactory(factory.django.DjangoModelFactory):
    """A helper (or, with role="viewer", a viewer) of a tournament, or of a series with series=…."""

    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory, username=factory.Sequence(lambda n: f"helper{n}"))
    role = Role.HELPER


def colleague_of(organizer, **user_fields):
    """An account that already works with the organizer (co-organizer of another of their evenings):
    one the organizer may add to a team by user name (`permissions.scopes.addable_by_name`)."""
    user = UserFactory(**user_fields)
    TournamentFactory(organizers=[organizer, user], name=f"Abend mit {user.get_username()}")
    return user
