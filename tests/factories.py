"""All test factories in one place."""

import datetime

import factory
from django.contrib.auth import get_user_model

from tournament.models import Club, Player, Registration, Round, Seat, Table, Tournament


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
