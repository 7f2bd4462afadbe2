"""Every named URL of the app, read from the URL resolver, with the kwargs to reverse it.

The smoke test and the permission matrix iterate this list, so a page added to any of the URL modules
is opened by both without anybody remembering to add it. Each name belongs to exactly one audience;
a name with no audience makes the tests fail (see `audience`).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field, fields

from django.db.models import Model
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.factories import TournamentFactory, UserFactory, long_named_players, play_round
from tournament.accounts import tokens
from tournament.backup.selectors import stored_backups
from tournament.backup.services import write_backup
from tournament.models import (
    Membership,
    Organization,
    Registration,
    Role,
    Signup,
    Submission,
    Table,
    Tournament,
)
from tournament.people.services import invitation_create
from tournament.rounds.services import seating_plan_create
from tournament.series.services import series_create
from tournament.teams.services import team_create

# Django's own admin has its own tests; its login redirect (no name) is covered in test_login_limit.
SKIPPED_NAMESPACES = {"admin"}

# Answer 405 to GET: they change data, so every page reaches them with a form (POST).
POST_ONLY = {
    "logout",
    "organizer:player_add",
    "organizer:player_withdraw",
    "organizer:player_readmit",
    "organizer:checkin_toggle",
    "organizer:desk_signup",
    "organizer:desk_player",
    "organizer:desk_known",
    "organizer:desk_walk_in",
    "organizer:round_seat",
    "organizer:seating_plan",
    "organizer:round_swap",
    "organizer:round_publish",
    "organizer:round_open",
    "organizer:round_close",
    "organizer:round_reopen",
    "organizer:submission_confirm",
    "organizer:clock_start",
    "organizer:clock_pause",
    "organizer:clock_resume",
    "organizer:clock_reset",
    "organizer:signup_action",
    "organizer:door_signup",
    "organizer:door_pay",
    "organizer:door_walk_in",
    "organizer:prize_handover",
    "print:logo",
    "organizer:series_create",
    "organizer:series_join",
    "organizer:series_rule",
    "organizer:series_leave",
    "organizer:team_delete",
    "organizer:teams_separate",
    "captain:check",
    "organizer:standings_reveal",
    "organizer:reveal_step",
    "account_reset_link",
    "organizer:person_add",
    "organizer:person_remove",
    "organizer:invitation_create",
    "organizer:invitation_withdraw",
    "organizer:series_team_take",
    "organizer:series_person_add",
    "organizer:series_person_remove",
    "organizer:club_admin_add",
    "organizer:club_admin_remove",
}

# Pages whose address is a secret besides the captain's (a password reset link): no Referer at all.
SECRET_ADDRESSES = {"account_reset"}

# GET answers something other than 200 on purpose.
SPECIAL_GET_STATUS = {
    # Django's language switch: a GET without "next" goes back to the site's start page.
    "set_language": 302,
    # The former check-in and door pages: the admission desk now (bookmarks keep working).
    "organizer:checkin": 302,
    "organizer:door": 302,
}

# Pages of the former navigation that lead to their place in the evening's phases now: where to.
FORMER_PAGES = {
    "organizer:checkin": lambda world: reverse("organizer:desk", args=[world.tournament.pk]),
    "organizer:door": lambda world: reverse("organizer:desk", args=[world.tournament.pk]),
}

# Answer a piece of a page (htmx swaps it in), never a whole page, whatever the request's headers.
FRAGMENTS = {
    "organizer:round_status",
    "captain:hand",
}

# Files, not pages: the content type the GET must answer with.
CONTENT_TYPES = {
    "print:table_sheets": "application/pdf",
    "print:seating": "application/pdf",
    "print:standings": "application/pdf",
    "print:certificates": "application/pdf",
    "print:start_cards": "application/pdf",
    "organizer:backup": "application/json",
    "organizer:stored_backup": "application/json",
    "organizer:standings_export": "text/csv",
    "organizer:signups_export": "text/csv",
    "organizer:cash_report_csv": "text/csv",
    "print:cash_report": "application/pdf",
    "organizer:cash_record_csv": "text/csv",
    "print:cash_record": "application/pdf",
    "print:series_standings": "application/pdf",
    "print:series_certificates": "application/pdf",
    "print:category_certificates": "application/pdf",
    "organizer:series_export": "text/csv",
    "organizer:rankings_export": "text/csv",
    "print:rankings": "application/pdf",
}


# Pages of one's own account: open to every logged-in account, a helper's or a viewer's too.
ACCOUNT_PAGES = {"account", "account_people", "account_reset_link"}


def audience(name: str) -> str:
    """Who a page is for: organizer (login + organizer of the tournament), login (any logged-in user),
    captain (table token), public (anyone while the tournament is public), open (anyone)."""
    namespace = name.split(":")[0] if ":" in name else ""
    if namespace in ("organizer", "print"):
        # Organizer pages of the world's club (organizer:club…) are for its admins, like a tournament's.
        return "login" if name in ("organizer:tournament_create", "organizer:clubs") else "organizer"
    if namespace in ("captain", "public"):
        return namespace
    return {
        "home": "open",
        "login": "open",
        "logout": "open",
        "set_language": "open",
        "restore": "login",
        "account": "login",  # every account's own page (ACCOUNT_PAGES), helpers' too
        "account_people": "login",
        "account_reset_link": "login",
        "account_reset": "open",
        "invitation": "open",
    }[name]


def _walk(patterns, namespace: str, kwargs: tuple[str, ...]):
    for entry in patterns:
        names = tuple(entry.pattern.converters) if hasattr(entry.pattern, "converters") else ()
        if isinstance(entry, URLResolver):
            if entry.namespace in SKIPPED_NAMESPACES:
                continue
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _walk(entry.url_patterns, inner, kwargs + names)
        elif isinstance(entry, URLPattern) and entry.name:
            yield f"{namespace}{entry.name}", kwargs + names


def named_urls() -> dict[str, tuple[str, ...]]:
    """Qualified URL name → names of its kwargs, for every named URL outside the skipped namespaces."""
    return dict(_walk(get_resolver().url_patterns, "", ()))


@dataclass
class World:
    """A tournament in the middle of the day: round 1 closed, round 2 open with one table still waiting,
    the remaining rounds planned (start cards)."""

    organizer: object
    tournament: Tournament
    registration: Registration
    open_table: Table
    waiting_table: Table
    submission: Submission
    extra: dict = field(default_factory=dict)

    def kwargs_for(self, names: tuple[str, ...], *, number: int = 2) -> dict:
        values = {
            "tournament_pk": self.tournament.pk,
            "number": number,
            "registration_pk": self.registration.pk,
            "table_number": self.open_table.number,
            "submission_pk": self.submission.pk,
            "token": self.waiting_table.token,
            "signup_token": self.extra["signup"].token if "signup" in self.extra else "",
            "signup_pk": self.extra["signup"].pk if "signup" in self.extra else 0,
            "team_pk": self.extra["team"].pk,
            # A player of the (public) evening: their season card (public:series_player).
            "player_pk": self.registration.player_id,
            # A co-organizer who forgot their password: a link made for them (account_reset_link, and
            # the page their link opens, account_reset, made now: the link is valid).
            "user_pk": self.extra["person"].pk,
            "uidb64": tokens.uid_of(self.extra["person"]),
            "reset_token": tokens.make_token(self.extra["person"]),
            # The team: an open invitation and its link (person_remove takes the co-organizer above).
            "invitation_pk": self.extra["invitation"].pk,
            "invitation_token": self.extra["invitation_token"],
            # The club that owns the tournament; the organizer is its admin (organizer:club…).
            "organization_pk": self.tournament.organization_id,
        }
        if "backup_name" in names:
            values["backup_name"] = self.stored_backup()
        return {name: values[name] for name in names}

    def stored_backup(self) -> str:
        """A backup of round 1 in the backups storage (the test's folder), written when first asked for:
        closing the round wrote none, its commit never came (module_db)."""
        existing = stored_backups(self.tournament)
        return existing[0].name if existing else write_backup(self.tournament, 1)

    def urls(self, name: str, names: tuple[str, ...]) -> list[str]:
        """The URL(s) to open for a name: round pages for the closed and for the open round."""
        if "token" in names:
            return [reverse(name, args=[table.token]) for table in self.captain_tables]
        numbers = (1, 2) if "number" in names else (2,)
        return [reverse(name, kwargs=self.kwargs_for(names, number=n)) for n in numbers]

    @property
    def captain_tables(self) -> list[Table]:
        """A table still to report, one that reported (round 2), one of the closed round 1."""
        closed = Table.objects.get(round__tournament=self.tournament, round__number=1, number=1)
        return [self.waiting_table, self.open_table, closed]


def build_world(*, organizer, tournament: Tournament, players, prefix: str = "") -> World:
    """`prefix` names the world's accounts apart, so two clubs' worlds share one database."""
    club, _ = Organization.objects.get_or_create(name=f"UNO-Freunde {organizer.get_username()}")
    club.admins.add(organizer)
    tournament.organization = club
    tournament.public = True
    tournament.time_limit_minutes = 30
    tournament.save()
    play_round(tournament, organizer, seed=5)
    round_2 = play_round(tournament, organizer, seed=6, close=False, skip_tables=frozenset({3}))
    submission = Submission.objects.filter(table__round=round_2).order_by("table__number").first()
    waiting = round_2.tables.get(number=3)
    seating_plan_create(tournament=tournament, user=organizer, seed=3)  # start cards: rounds 3-6
    signup = Signup.objects.create(
        tournament=tournament, first_name="Sina", last_name="Signed", birth_year=1990, queue=1,
        status=Signup.Status.WAITING,
    )
    # An evening of a series with a declared team: the series' pages, PDFs and the team's URLs.
    series_create(tournament=tournament, user=organizer, name="Jahreswertung")
    team = team_create(tournament=tournament, user=organizer, name="Die Asse", members=players[:2])
    # A guest among the members: the categories (and their certificates) say something.
    guest = players[-1].player
    guest.member = False
    guest.save(update_fields=["member"])
    person = UserFactory(username=f"{prefix}forgetful", first_name="Vera", last_name="Vergesslich")
    tournament.organizers.add(person)
    # The evening's team besides its organizer (#45): a helper at the door, a viewer, an open invitation.
    helper, viewer = UserFactory(username=f"{prefix}helper"), UserFactory(username=f"{prefix}viewer")
    Membership.objects.create(tournament=tournament, user=helper, role=Role.HELPER)
    Membership.objects.create(tournament=tournament, user=viewer, role=Role.VIEWER)
    invitation, token = invitation_create(tournament=tournament, user=organizer, role=Role.HELPER)
    return World(
        organizer=organizer,
        tournament=tournament,
        registration=players[0],
        open_table=submission.table,
        waiting_table=waiting,
        submission=submission,
        extra={
            "signup": signup, "team": team, "person": person, "helper": helper, "viewer": viewer,
            "invitation": invitation, "invitation_token": token,
        },
    )


def build_long_names_world(*, organizer) -> World:
    """The world with the longest names, clubs, event name and venue a hall brings."""
    tournament = TournamentFactory(
        organizers=[organizer], name="Vereinsmeisterschaft im Leonharder UNO Wintercup 2026/27",
        venue="Bürgerhaus am Marktplatz, großer Saal im Obergeschoss",
    )
    return build_world(organizer=organizer, tournament=tournament, players=long_named_players(tournament))


def refreshed(world: World) -> World:
    """The module's world as the database has it now: a test before may have changed the objects in
    memory (its database changes were rolled back)."""
    for item in fields(world):
        value = getattr(world, item.name)
        for instance in value.values() if isinstance(value, dict) else [value]:
            if isinstance(instance, Model):
                instance.refresh_from_db()
    return world


def other_organizer():
    """An organizer with a tournament of their own, who must not see ours."""
    user = UserFactory(username="other-organizer")
    TournamentFactory(organizers=[user], name="Someone else's", date=datetime.date(2026, 12, 1))
    return user


# --- What each role may open (#45), written out here rather than read from the views, so a view that
# declares the wrong capability fails the permission matrix. Organizer and print URLs not listed are
# the organizer's alone; a superuser is an organizer.

# A viewer (treasurer, board member) reads these; helpers and organizers too.
VIEWER_PAGES = {
    "organizer:tournament", "organizer:players", "organizer:rounds", "organizer:round",
    "organizer:round_status", "organizer:standings", "organizer:standings_export", "organizer:finish",
    "organizer:audit", "organizer:signups", "organizer:signups_export", "organizer:cash_report_csv",
    "organizer:cash_record", "organizer:cash_record_csv", "organizer:prizes", "organizer:series",
    "organizer:series_export", "organizer:rankings", "organizer:teams", "organizer:rankings_export",
    # Every document: a viewer reads them all (the table sheets without the captains' links).
    "print:cash_report", "print:cash_record", "print:documents", "print:table_sheets",
    "print:seating", "print:standings", "print:start_cards", "print:certificates",
    "print:series_standings", "print:series_certificates", "print:category_certificates", "print:rankings",
}
# A helper opens these besides: the desk, the results, the captain links.
HELPER_PAGES = {
    "organizer:desk", "organizer:checkin", "organizer:door", "organizer:round_links",
    "organizer:table_detail", "organizer:table_result",
}
# A helper may POST to these (the door and the desk); a viewer to none.
HELPER_ACTIONS = {
    "organizer:desk_signup", "organizer:desk_player", "organizer:desk_known", "organizer:desk_walk_in",
    "organizer:checkin_toggle", "organizer:door_signup", "organizer:door_pay", "organizer:door_walk_in",
    "organizer:prize_handover", "organizer:submission_confirm", "organizer:table_result",
    "organizer:table_detail", "organizer:round_links", "organizer:cash_record", "organizer:desk",
    "organizer:checkin", "organizer:door",
}


def member_may_get(name: str, role: str) -> bool:
    """Whether a helper or viewer opens this organizer or print URL (a POST-only one answering 405)."""
    return name in VIEWER_PAGES or (role == "helper" and name in HELPER_PAGES | HELPER_ACTIONS)


def other_club_admin():
    """The admin of another club (Verein) on the same server with its own tournament: sees nothing of
    ours but what is public."""
    user = UserFactory(username="other-club-admin")
    club = Organization.objects.create(name="Andere Kartenfreunde")
    club.admins.add(user)
    TournamentFactory(organization=club, name="Other club's evening", date=datetime.date(2026, 12, 2))
    return user
