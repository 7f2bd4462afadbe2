"""One rule for "the same person" (#43 item 3): every path compares `name_key`, the same on each database
(and so do team names).

SQLite's `__iexact` folds ASCII only, so "MÜLLER" was a second person there and the same on PostgreSQL;
the key makes "Müller", "MÜLLER" and "Mueller" one person and "Strauß" "Strauss" on both, and keeps
"Michael" and "Michal" (which the desk's search folds together) two. Run on both databases by
`scripts/test.sh`.
"""

import importlib
import json

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory
from tournament.backup.format import dumps
from tournament.backup.selectors import export_tournament
from tournament.backup.services import import_tournament
from tournament.cashdesk.selectors import desk
from tournament.cashdesk.services import walk_in
from tournament.models import Club, Player
from tournament.players.imports import parse_csv
from tournament.players.selectors import registered_keys
from tournament.players.services import club_get_or_create, player_register, players_import
from tournament.signup.selectors import signup_list
from tournament.signup.services import signup_create
from tournament.teams.services import team_create

pytestmark = pytest.mark.django_db

# (stored, typed, same person?)
SPELLINGS = [
    ("Müller", "MÜLLER", True),
    ("Müller", "Mueller", True),
    ("Mueller", "müller", True),
    ("Strauß", "Strauss", True),
    ("Strauß", "STRAUSS", True),
    ("Michael", "Michal", False),
    ("Müller", "Muller", False),
]


def test_keys_are_stored_on_save_and_on_a_partial_save():
    player = PlayerFactory(first_name="Jörg", last_name="Strauß", club=ClubFactory(name="UNO Süd"))
    assert player.name_key == "joerg\tstrauss"
    assert Club.objects.get(name="UNO Süd").name_key == "uno sued"
    player.last_name = "MÜLLER"
    player.save(update_fields=["last_name"])
    assert Player.objects.get(pk=player.pk).name_key == "joerg\tmueller"


@pytest.mark.parametrize(("stored", "typed", "same"), SPELLINGS)
def test_typed_add_reuses_the_record_of_the_same_person(organizer, stored, typed, same):
    first = player_register(
        tournament=TournamentFactory(organizers=[organizer]), user=organizer,
        first_name="Anna", last_name=stored, club_name="UNO Club",
    )
    again = player_register(
        tournament=TournamentFactory(organizers=[organizer]), user=organizer,
        first_name="ANNA", last_name=typed, club_name="uno club",
    )
    assert (again.player_id == first.player_id) is same
    assert Player.objects.count() == (1 if same else 2)


@pytest.mark.parametrize(("stored", "typed", "same"), SPELLINGS)
def test_a_walk_in_is_the_known_record(organizer, tournament, stored, typed, same):
    known = PlayerFactory(first_name="Ben", last_name=stored, club=None)
    RegistrationFactory(tournament=TournamentFactory(organizers=[organizer]), player=known)  # played before
    reg = walk_in(
        tournament=tournament, user=organizer, first_name="Ben", last_name=typed,
        amount_cents=None, method="cash",
    )
    assert (reg.player_id == known.pk) is same


@pytest.mark.parametrize(
    ("stored", "typed", "same"),
    [("UNO Süd", "uno sued", True), ("Straßenbahner", "STRASSENBAHNER", True), ("UNO Sud", "UNO Süd", False)],
)
def test_a_club_typed_again_is_the_same_club(stored, typed, same):
    club = ClubFactory(name=stored)
    assert (club_get_or_create(typed).pk == club.pk) is same


@pytest.mark.parametrize(("stored", "typed", "same"), SPELLINGS)
def test_import_lists_a_person_twice_by_key(stored, typed, same):
    result = parse_csv(f"Vorname;Nachname;Verein\nAnna;{stored};Süd\nANNA;{typed};SÜD\n".encode())
    assert len(result.rows) == (1 if same else 2)
    if same:
        assert result.errors[0].message == f"ANNA {typed} is listed twice (also on line 2)."


@pytest.mark.parametrize(("stored", "typed", "same"), SPELLINGS)
def test_import_skips_and_reuses_registered_people_by_key(organizer, tournament, stored, typed, same):
    registered = RegistrationFactory(
        tournament=tournament, player=PlayerFactory(first_name="Anna", last_name=stored, club=None)
    )
    row = parse_csv(f"Vorname;Nachname\nanna;{typed}\n".encode()).rows[0]
    assert (row.identity in registered_keys(tournament)) is same
    added, problems = players_import(tournament=tournament, user=organizer, rows=[row])
    assert (added, bool(problems)) == ((0, True) if same else (1, False))
    assert tournament.registrations.exclude(pk=registered.pk).exists() is not same


@pytest.mark.parametrize(("stored", "typed", "same"), SPELLINGS)
def test_sign_up_duplicates_are_marked_by_key(stored, typed, same):
    tournament = TournamentFactory(signup_open=True, signup_capacity=None)
    for last_name, club in ((stored, "UNO Süd"), (typed, "uno sued")):
        signup_create(
            tournament=tournament, first_name="Anna", last_name=last_name, club=club, birth_year=1980
        )
    assert [s.duplicate for s in signup_list(tournament)] == [same, same]


@pytest.mark.parametrize(
    ("taken", "typed", "same"),
    [("Die Füchse", "DIE FÜCHSE", True), ("Die Füchse", "die fuechse", True),
     ("Die Füchse", "Die Fuchse", False)],
)
def test_a_team_name_is_taken_by_its_key(organizer, tournament, taken, typed, same):
    regs = RegistrationFactory.create_batch(4, tournament=tournament)
    team_create(tournament=tournament, user=organizer, name=taken, members=regs[:2])
    if same:
        with pytest.raises(ValidationError) as refused:
            team_create(tournament=tournament, user=organizer, name=typed, members=regs[2:])
        assert refused.value.code == "team_name_taken"
    else:
        assert team_create(tournament=tournament, user=organizer, name=typed, members=regs[2:]).name == typed


def test_the_desk_finds_michal_for_michael_but_offers_both_records(organizer, tournament):
    """The search folds "ae" to "a" to find; a known record of another person is still offered."""
    RegistrationFactory(tournament=tournament, player=PlayerFactory(first_name="Michael", last_name="Meier"))
    earlier = TournamentFactory(organizers=[organizer])
    michal = RegistrationFactory(
        tournament=earlier, player=PlayerFactory(first_name="Michal", last_name="Meier")
    ).player
    same_michael = RegistrationFactory(
        tournament=earlier, player=PlayerFactory(first_name="MICHAEL", last_name="MEIER")
    ).player
    lines = desk(tournament, "michal meier").lines
    assert sorted((line.kind, line.first_name) for line in lines) == [("in", "Michael"), ("known", "Michal")]
    known = {line.pk for line in lines if line.kind == "known"}
    assert michal.pk in known and same_michael.pk not in known


def test_a_restored_backup_reuses_the_record_of_the_same_person(organizer, tournament):
    player = PlayerFactory(first_name="Jörg", last_name="Strauß", club=ClubFactory(name="UNO Süd"))
    RegistrationFactory(tournament=tournament, player=player)
    data = json.loads(dumps(export_tournament(tournament)))
    Player.objects.filter(pk=player.pk).update(first_name="JOERG", last_name="Strauss")
    restored = import_tournament(data, owner=organizer)
    assert restored.registrations.get().player_id == player.pk


def test_the_migration_keys_the_rows_already_there():
    player = PlayerFactory(first_name="Ännchen", last_name="Strauß", club=ClubFactory(name="Café Süd"))
    Player.objects.update(name_key="")
    Club.objects.update(name_key="")
    importlib.import_module("tournament.migrations.0012_person_keys").fill_keys(apps, None)
    assert Player.objects.get(pk=player.pk).name_key == "aennchen\tstrauss"
    assert Club.objects.get().name_key == "cafe sued"
