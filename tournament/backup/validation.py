"""A backup is checked like typed input before anything is restored (#15: restore through the forms).

Every text in the file goes through the app's one text rule (`engine.text`: no NUL or other control
characters; multi-line only where a text is); the tournament's settings through the settings form
(`TournamentForm`, with its limits), every player through the player form, every club name like the
club field, and the rounds must fit the tournament (numbers 1 to its number of rounds). Teams keep the
rules of declaring one (`teams.services.team_create`): a name, 2 to 6 of the file's registrations, no
name twice, nobody in two teams. The series' rule goes through the series form (`SeriesForm`, with its
limits and the engine's `rule_problems`). The first problem refuses the whole restore with a message
naming it; nothing is written.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.series import rule_problems
from engine.standings import DEFAULT_TIEBREAKS
from engine.text import TextError, has_forbidden, name_key
from tournament.models import Club, Series, Team

from ..players.forms import PlayerForm
from ..series.forms import SeriesForm
from ..series.rules import season_rule
from ..tournaments.forms import TournamentForm
from .format import BackupError, section

MAX_STRINGS = 2_000_000  # strings in one file: a backup of a big evening has a few hundred thousand


def _strings(value: Any, path: str):
    """Every string in `value` as (text, where): its container's path and, written out only when it is
    reported (a big file has a million strings), what it is in there (see `_place`)."""
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            for key, child in item.items():
                if isinstance(key, str):
                    yield key, (where, None)
                if isinstance(child, str):
                    yield child, (where, key)
                elif isinstance(child, dict | list):
                    stack.append((child, f"{where}.{key}"))
        elif isinstance(item, list):
            for i, child in enumerate(item):
                if isinstance(child, str):
                    yield child, (where, i)
                elif isinstance(child, dict | list):
                    stack.append((child, f"{where}[{i}]"))
        elif isinstance(item, str):
            yield item, (where, "")


def _place(where: tuple[str, Any]) -> str:
    container, key = where
    if key is None:
        return f"{container} (key)"  # not the key itself: it holds the character refused
    if isinstance(key, int):
        return f"{container}[{key}]"
    return f"{container}.{key}" if key else container


def check_texts(data: dict[str, Any]) -> None:
    for count, (text, where) in enumerate(_strings(data, "backup"), start=1):
        if count > MAX_STRINGS:
            raise BackupError(_("The backup is too large to be restored."))
        if has_forbidden(text, multiline=True):
            raise BackupError(
                _("The backup contains control characters (such as NUL) at %(where)s; "
                  "nothing was restored.") % {"where": _place(where)[:80]}
            )


def _form_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "on" if value else ""
    return str(value)


def _refuse(what: str, form) -> None:
    problems = "; ".join(
        f"{form.fields[name].label if name in form.fields else ''}: {' '.join(errors)}".lstrip(": ")
        for name, errors in form.errors.items()
    )
    raise BackupError(
        _("The backup's %(what)s would be refused by the form (%(problems)s); nothing was restored.")
        % {"what": what, "problems": problems[:300]}
    )


def check_tournament(row: dict[str, Any]) -> None:
    data = {name: _form_value(row.get(name)) for name in TournamentForm.Meta.fields}
    data = {name: value for name, value in data.items() if value != ""}
    tiebreaks = row.get("tiebreaks") or list(DEFAULT_TIEBREAKS)
    if not isinstance(tiebreaks, list):
        raise BackupError(_("The backup is incomplete or damaged; nothing was restored."))
    data["tiebreak_order"] = ",".join(str(key) for key in tiebreaks)
    form = TournamentForm(data)
    if not form.is_valid():
        _refuse(_("settings"), form)


def check_players(players: list[dict[str, Any]], clubs: list[dict[str, Any]]) -> None:
    club_names = {row.get("id"): row.get("name") for row in clubs}
    max_club = Club._meta.get_field("name").max_length
    for name in club_names.values():
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > max_club:
            raise BackupError(
                _("The backup has a club name that is empty or longer than %(max)s characters; "
                  "nothing was restored.") % {"max": max_club}
            )
    for row in players:
        form = PlayerForm({
            "first_name": _form_value(row.get("first_name")),
            "last_name": _form_value(row.get("last_name")),
            "club": _form_value(club_names.get(row.get("club"))),
            "birth_date": _form_value(row.get("birth_date")),
            "birth_year": _form_value(row.get("birth_year")),
        })
        if not form.is_valid():
            name = f"{row.get('first_name')} {row.get('last_name')}"[:60]
            _refuse(_("player %(name)s") % {"name": name}, form)


def check_rounds(data: dict[str, Any]) -> None:
    total = data["tournament"].get("rounds_total")
    for row in data["rounds"]:
        number = row.get("number")
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= total:
            raise BackupError(
                _("The backup has a round %(number)s, but the tournament has %(total)s rounds; "
                  "nothing was restored.") % {"number": str(number)[:12], "total": total}
            )


def _player_names(data: dict[str, Any]) -> dict[Any, str]:
    """Registration id in the file → the player's name, for messages."""
    players = {row.get("id"): f"{row.get('first_name')} {row.get('last_name')}" for row in data["players"]}
    return {row.get("id"): players.get(row.get("player"), "?")[:60] for row in data["registrations"]}


def check_teams(data: dict[str, Any]) -> None:
    teams = section(data, "teams", [])
    if not isinstance(teams, list):
        raise TypeError("teams")
    names = _player_names(data)
    max_name = Team._meta.get_field("name").max_length
    seen: set[str] = set()
    team_of: dict[Any, str] = {}
    for row in teams:
        name = " ".join(row["name"].split()) if isinstance(row["name"], str) else ""
        if not name or len(name) > max_name:
            raise BackupError(
                _("The backup has a team name that is empty or longer than %(max)s characters; "
                  "nothing was restored.") % {"max": max_name}
            )
        team = name[:60]
        if name_key(name) in seen:  # the rule of team_create
            raise BackupError(
                _("The backup has two teams named %(team)s; nothing was restored.") % {"team": team}
            )
        seen.add(name_key(name))
        if not isinstance(row["members"], list):
            raise TypeError("members")
        members = list(dict.fromkeys(row["members"]))
        if not Team.MIN_MEMBERS <= len(members) <= Team.MAX_MEMBERS:
            limits = {"team": team, "count": len(members), "min": Team.MIN_MEMBERS, "max": Team.MAX_MEMBERS}
            raise BackupError(ngettext(
                "The backup's team %(team)s has %(count)s player, but a team has %(min)s to %(max)s "
                "players; nothing was restored.",
                "The backup's team %(team)s has %(count)s players, but a team has %(min)s to %(max)s "
                "players; nothing was restored.", len(members),
            ) % limits)
        for member in members:
            if member not in names:
                raise BackupError(
                    _("The backup's team %(team)s has a player who is not registered in the tournament "
                      "(%(id)s); nothing was restored.") % {"team": team, "id": str(member)[:12]}
                )
            if member in team_of:
                raise BackupError(
                    _("In the backup, %(name)s is in two teams (%(first)s and %(second)s); "
                      "nothing was restored.")
                    % {"name": names[member], "first": team_of[member], "second": team}
                )
            team_of[member] = team


def _points_text(table: list[Any]) -> str:
    """The points table as the form's text; what is no whole number stays one the form refuses."""
    return ", ".join(str(value) if type(value) is int else "?" for value in table)


def check_series(data: dict[str, Any]) -> None:
    """The series' rule as the series form would take it; then the engine on the file's own table and
    tie-breaks."""
    row = section(data, "series", None)
    if row is None:
        return
    if not isinstance(row, dict):
        raise TypeError("series")

    def value(name: str) -> Any:
        return row[name] if name in row else Series._meta.get_field(name).get_default()

    form_data = {name: _form_value(value(name)) for name in SeriesForm.Meta.fields}
    form_data = {name: text for name, text in form_data.items() if text != ""}
    table, tiebreaks = value("points_table"), value("tiebreaks")
    if not isinstance(table, list) or not isinstance(tiebreaks, list) or not isinstance(
        row.get("organizers", []), list
    ):
        raise TypeError("series")
    form_data["points_table_text"] = _points_text(table)
    form_data["tiebreak_order"] = ",".join(str(key) for key in tiebreaks)
    form = SeriesForm(form_data)
    what = _("series %(name)s") % {"name": str(row.get("name"))[:60]}
    if not form.is_valid():
        _refuse(what, form)
    probe = Series(**form.settings())
    probe.points_table, probe.tiebreaks = table, tiebreaks
    fields = {"table": "points_table_text", "tiebreaks": "tiebreak_order"}  # as SeriesForm.clean names them
    for problem in rule_problems(season_rule(probe)):
        form.add_error(fields.get(problem.field, problem.field), _(problem.message) % problem.params)
    if form.errors:
        _refuse(what, form)


def check_backup(data: dict[str, Any]) -> None:
    """Raise BackupError for the first thing the forms would refuse."""
    try:
        check_texts(data)
        check_tournament(data["tournament"])
        check_players(data["players"], data["clubs"])
        check_rounds(data)
        check_teams(data)
        check_series(data)
    except (KeyError, TypeError, AttributeError, TextError) as exc:
        raise BackupError(_("The backup is incomplete or damaged; nothing was restored.")) from exc
