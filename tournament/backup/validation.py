"""A backup is checked like typed input before anything is restored (#15: restore through the forms).

Every text in the file goes through the app's one text rule (`engine.text`: no NUL or other control
characters; multi-line only where a text is); the tournament's settings through the settings form
(`TournamentForm`, with its limits), every player through the player form, every club name like the
club field, and the rounds must fit the tournament (numbers 1 to its number of rounds). The first
problem refuses the whole restore with a message naming it; nothing is written.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from engine.standings import DEFAULT_TIEBREAKS
from engine.text import TextError, forbidden
from tournament.models import Club

from ..players.forms import PlayerForm
from ..tournaments.forms import TournamentForm
from .format import BackupError

MAX_STRINGS = 2_000_000  # strings in one file: a backup of a big evening has a few hundred thousand


def _strings(value: Any, path: str):
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            yield item, where
        elif isinstance(item, dict):
            stack.extend((v, f"{where}.{k}") for k, v in item.items())
            stack.extend((k, f"{where} (key)") for k in item if isinstance(k, str))
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(item))


def check_texts(data: dict[str, Any]) -> None:
    for count, (text, where) in enumerate(_strings(data, "backup"), start=1):
        if count > MAX_STRINGS:
            raise BackupError(_("The backup is too large to be restored."))
        if any(forbidden(ch, multiline=True) for ch in text):
            raise BackupError(
                _("The backup contains control characters (such as NUL) at %(where)s; "
                  "nothing was restored.") % {"where": where[:80]}
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


def check_backup(data: dict[str, Any]) -> None:
    """Raise BackupError for the first thing the forms would refuse."""
    try:
        check_texts(data)
        check_tournament(data["tournament"])
        check_players(data["players"], data["clubs"])
        check_rounds(data)
    except (KeyError, TypeError, AttributeError, TextError) as exc:
        raise BackupError(_("The backup is incomplete or damaged; nothing was restored.")) from exc
