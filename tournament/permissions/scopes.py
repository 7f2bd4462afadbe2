"""What a person may see: the querysets every list and every lookup by id starts from.

Two kinds of scope. *By who asks* (`managed_tournaments`, `managed_series`, `administered_clubs`,
`people_under`, …): what a user manages or works with. *By who owns the evening* (`owner_players`,
`owner_tournaments`, `owner_clubs`): the records of the club that owns a tournament, whoever of its team
asks. Every identity lookup (a typed name, a walk-in, an import, a sign-up, the desk, a restore) reads
the latter, so a name typed at one club never finds another club's record.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from tournament.models import Club, Membership, Organization, Player, Series, Tournament

from .roles import is_superuser


def managed_q(user, prefix: str = "") -> Q:
    """Organized directly, or owned by a club the user administers; `prefix` reaches the tournament or
    series through a relation (e.g. "registrations__tournament__"). Not for superusers (they manage all,
    see the querysets below)."""
    return Q(**{f"{prefix}organizers": user}) | Q(**{f"{prefix}organization__admins": user})


def _team_q(user) -> Q:
    return managed_q(user) | Q(memberships__user=user) | Q(series__memberships__user=user)


def _scoped(model, user, where: Q) -> QuerySet:
    """Every row for a superuser, none for a visitor, else the rows `where` selects, each once (a row
    reached through several relations is not repeated)."""
    if is_superuser(user):
        return model.objects.all()
    if not getattr(user, "is_authenticated", False):
        return model.objects.none()
    return model.objects.filter(pk__in=model.objects.filter(where).values("pk"))


def managed_tournaments(user) -> QuerySet[Tournament]:
    """The tournaments the user organizes (their own and their clubs')."""
    return _scoped(Tournament, user, managed_q(user))


def team_tournaments(user) -> QuerySet[Tournament]:
    """The tournaments the user has any role in: organizer, or helper or viewer of it or its series."""
    return _scoped(Tournament, user, _team_q(user))


def managed_series(user) -> QuerySet[Series]:
    """The series the user organizes (their own and their clubs'): the ones an evening may join."""
    return _scoped(Series, user, managed_q(user))


def administered_clubs(user) -> QuerySet[Organization]:
    """The clubs (Verein) a user administers (a superuser: all of them)."""
    return _scoped(Organization, user, Q(admins=user))


def own_club(user) -> Organization | None:
    """The club a new tournament (or a restored one) of this user belongs to: the only one they
    administer themselves, else none (it is then theirs alone, as before clubs)."""
    if not getattr(user, "is_authenticated", False):
        return None
    clubs = list(Organization.objects.filter(admins=user)[:2])
    return clubs[0] if len(clubs) == 1 else None


# --- the records of the club that owns an evening ------------------------------------------------


def owner_tournaments(tournament: Tournament) -> QuerySet[Tournament]:
    """The evenings of the same owner: its club's, or (an evening of no club) the club-less evenings
    of its organizers."""
    if tournament.organization_id:
        return Tournament.objects.filter(organization_id=tournament.organization_id)
    return Tournament.objects.filter(
        pk__in=Tournament.objects.filter(
            organization__isnull=True, organizers__in=tournament.organizers.all()
        ).values("pk")
    ) | Tournament.objects.filter(pk=tournament.pk)


def owner_players(tournament: Tournament) -> QuerySet[Player]:
    """The player records of the club that owns the evening; an evening of no club: the club-less
    records its organizers' evenings use."""
    return players_owned_by(organization=tournament.organization, organizers=tournament.organizers.all())


def players_owned_by(*, organization: Organization | None, organizers) -> QuerySet[Player]:
    """The player records of a club, or (no club) the club-less records that these organizers'
    club-less evenings use: the one rule `owner_players` and a restore (no tournament yet) share."""
    if organization is not None:
        return Player.objects.filter(organization=organization)
    return Player.objects.filter(
        pk__in=Player.objects.filter(
            organization__isnull=True, registrations__tournament__organization__isnull=True,
            registrations__tournament__organizers__in=organizers,
        ).values("pk")
    )


def owner_clubs(tournament: Tournament) -> QuerySet[Club]:
    """The clubs the owner's player records play for (the club field's suggestions)."""
    return Club.objects.filter(pk__in=owner_players(tournament).values("club_id"))


def team_members(team: Tournament | Series) -> QuerySet:
    """Everybody holding a role given by this tournament or series itself (not by its series, not as
    superuser or club admin): whom its team pages may name and remove."""
    field = "series" if isinstance(team, Series) else "tournament"
    member_ids = Membership.objects.filter(**{field: team}).values("user_id")
    return get_user_model().objects.filter(Q(pk__in=team.organizers.values("pk")) | Q(pk__in=member_ids))


def addable_by_name(owner: Tournament | Series, user) -> QuerySet:
    """The accounts `user` may add to this evening's or series' team by user name, without an
    invitation: accounts of the owning club (its admins and whoever holds a role in one of its evenings
    or series); for an evening or series of no club, whoever holds a role in what `user` organizes (a
    superuser: anybody). Anybody else joins by an invitation link they accept while logged in."""
    return club_accounts(owner.organization_id, user)


def club_accounts(org: int | None, user) -> QuerySet:
    """`addable_by_name` for a club (by its id), or for `user`'s own people where there is none; also
    what a restore may put into a team (a backup names accounts: only the club's are taken)."""
    users = get_user_model().objects.filter(is_active=True)
    if is_superuser(user):
        return users
    if org:
        where = (
            Q(administered_organizations=org) | Q(organized_tournaments__organization=org)
            | Q(organized_series__organization=org) | Q(memberships__tournament__organization=org)
            | Q(memberships__series__organization=org)
        )
    else:
        tournaments, series = managed_tournaments(user), managed_series(user)
        where = (
            Q(organized_tournaments__in=tournaments) | Q(organized_series__in=series)
            | Q(memberships__tournament__in=tournaments) | Q(memberships__series__in=series)
        )
    return users.filter(pk__in=get_user_model().objects.filter(where).values("pk"))


def people_under(user) -> QuerySet:
    """The accounts entirely under `user`'s authority, for whom they may make a password reset link:
    somebody holding at least one role in what `user` manages and no role anywhere else (so the user
    could take each of their roles away already: a reset link gives them no access they lack). Never a
    superuser unless `user` is one; never `user`."""
    people = get_user_model().objects.filter(is_active=True)
    if not getattr(user, "is_authenticated", False):
        return people.none()
    people = people.exclude(pk=user.pk)
    if is_superuser(user):
        return people
    tournaments, series = managed_tournaments(user), managed_series(user)
    clubs = administered_clubs(user)
    somewhere = people.filter(
        Q(organized_tournaments__in=tournaments) | Q(organized_series__in=series)
        | Q(memberships__tournament__in=tournaments) | Q(memberships__series__in=series)
        | Q(administered_organizations__in=clubs)
    ).values("pk")
    return (
        people.filter(pk__in=somewhere, is_superuser=False)
        .exclude(organized_tournaments__in=Tournament.objects.exclude(pk__in=tournaments.values("pk")))
        .exclude(organized_series__in=Series.objects.exclude(pk__in=series.values("pk")))
        .exclude(memberships__in=Membership.objects.filter(
            Q(tournament__isnull=False) & ~Q(tournament__in=tournaments)
            | Q(series__isnull=False) & ~Q(series__in=series)
        ))
        .exclude(administered_organizations__in=Organization.objects.exclude(pk__in=clubs.values("pk")))
    )
