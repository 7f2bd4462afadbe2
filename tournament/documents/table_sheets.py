"""Table sheets: one per table of a round (A4, or two on an A5 page), with the seats, who deals and who
starts, the short rules, the card values and the captain's link as a QR code."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby

import segno
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from engine.cards import get_deck
from engine.roles import table_roles
from engine.scoring import ScoringFormat
from tournament.documents.typography import SHEET_NAME_STEPS, html_to_pdf, points_label, text_size
from tournament.models import Round, Tournament
from tournament.qr import absolute_url
from tournament.rounds.selectors import round_tables

PAPER_SIZES = ("a4", "a5")


@dataclass
class SheetSeat:
    position: int
    start_number: int
    name: str
    club: str
    deals: bool = False
    starts: bool = False

    @property
    def name_size(self) -> str:
        """Long names get a smaller type, so that a row keeps its height and the sheet its page; the
        sheet clamps what still does not fit in two lines."""
        return text_size(self.name, SHEET_NAME_STEPS)


@dataclass
class Sheet:
    number: int
    seats: list[SheetSeat]
    roles_known: bool
    link: str
    qr: str

    @property
    def link_lines(self) -> list[str]:
        """The link cut into lines of equal length that fit the link box on A4 and on A5. The printer
        breaks a token at its hyphens, wherever they happen to be, and a sheet would then grow by a line
        or not; cut here, every sheet of an evening has the same lines."""
        return [self.link[i : i + LINK_LINE_CHARS] for i in range(0, len(self.link), LINK_LINE_CHARS)]


LINK_LINE_CHARS = 28  # monospaced: 30 fit the A5 link box (32 mm at 5 pt), 33 the A4 one


def qr_png_data_uri(data: str) -> str:
    """One pixel per module, scaled up crisply by CSS: WeasyPrint draws a tiny PNG far faster than
    the same code as an SVG path, and the printer sees sharp edges either way."""
    return segno.make(data, error="m").png_data_uri(scale=1, border=1)


def card_value_lines(deck_key: str) -> list[str]:
    """Lines like '0-9: face value' and '+2, Skip, Reverse: 20', from the tournament's deck data."""
    deck = get_deck(deck_key)
    numbers = [spec for spec in deck.ranks if spec.code.isdigit() and spec.value == int(spec.code)]
    lines = []
    if numbers:
        span = {"first": numbers[0].code, "last": numbers[-1].code}
        lines.append(_("%(first)s to %(last)s: face value") % span)
    others = [spec for spec in deck.ranks if spec not in numbers]
    for value, specs in groupby(sorted(others, key=lambda s: s.value), key=lambda s: s.value):
        names = ", ".join(_(spec.label) if not spec.code.startswith("+") else spec.code for spec in specs)
        lines.append(_("%(cards)s: %(value)s") % {"cards": names, "value": value})
    return lines


def rules_reminder(tournament: Tournament) -> list[str]:
    """The short rules printed on every table sheet (docs/rules.md §2 and §3)."""
    lines = [
        _("7 cards each. The oldest player shuffles and deals, the youngest starts."),
        _("First card a special card (+2, +4, Wild, Skip, Reverse): it stays, turn up more cards "
          "until a number card lies on top."),
        _("+2 and +4 are not stacked: whoever must draw plays nothing that turn."),
        _("Forgot to call “UNO!” with the second-to-last card: 2 penalty cards, if noticed before "
          "the next player draws or discards."),
        _("The round ends when one player has laid their last card."),
    ]
    if tournament.scoring == ScoringFormat.MINUS_POINTS:
        lines.append(_("Minus points: the value of the cards left in your own hand; 0 for the winner."))
    else:
        lines.append(_("Points: the winner scores the value of all other hands; everybody else 0."))
    if tournament.time_limit_minutes:
        lines.append(
            _("Time limit %(minutes)s minutes: a round stopped by the clock has no winner, "
              "every hand counts.")
            % {"minutes": tournament.time_limit_minutes}
        )
    return lines


def table_sheets(
    round_: Round, *, request: HttpRequest | None = None, with_links: bool = True
) -> list[Sheet]:
    """The sheets of a round; `with_links` False leaves the captains' links (a credential to report
    the table's result) off, for a reader who may not enter results."""
    sheets = []
    for table in round_tables(round_, with_results=False):
        seats = list(table.seats.all())
        roles = table_roles({seat.pk: seat.registration.player.born for seat in seats})
        link = absolute_url(table.get_captain_url(), request) if with_links else ""
        sheets.append(
            Sheet(
                number=table.number,
                seats=[
                    SheetSeat(
                        position=seat.position,
                        start_number=seat.registration.start_number,
                        name=seat.registration.player.name,
                        club=seat.registration.player.club_name,
                        deals=seat.pk == roles.dealer,
                        starts=seat.pk == roles.starter,
                    )
                    for seat in seats
                ],
                roles_known=roles.dealer is not None and roles.starter is not None,
                link=link,
                qr=qr_png_data_uri(link) if link else "",
            )
        )
    return sheets


def table_sheets_html(
    round_: Round, *, paper: str = "a4", request: HttpRequest | None = None, with_links: bool = True
) -> str:
    tournament = round_.tournament
    sheets = table_sheets(round_, request=request, with_links=with_links)
    per_page = 2 if paper == "a5" else 1
    pages = [sheets[i : i + per_page] for i in range(0, len(sheets), per_page)]
    rules = rules_reminder(tournament)
    context = {
        "tournament": tournament,
        "round": round_,
        "pages": pages,
        "paper": paper,
        # A5 keeps the scoring (and time limit) lines: the card cells get the room, at a readable size.
        "rules": rules if paper == "a4" else rules[-(2 if tournament.time_limit_minutes else 1):],
        "card_values": card_value_lines(tournament.deck),
        "points_label": points_label(tournament),
        "blank_rows": range(2),
    }
    return render_to_string("print/table_sheets.html", context, request=request)


def table_sheets_pdf(
    round_: Round, *, paper: str = "a4", request: HttpRequest | None = None, with_links: bool = True
) -> bytes:
    return html_to_pdf(table_sheets_html(round_, paper=paper, request=request, with_links=with_links))
