"""The printed documents: table sheets, seating list, standings, certificates, start cards.

Each document is one Django template rendered to one HTML string (page breaks in CSS) and laid out
by engine.printing in a single WeasyPrint pass. Stylesheets, fonts and the club logo are read from
disk; the fetcher refuses every other address, so printing never waits for the network.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from urllib.parse import quote

import segno
from django.conf import settings
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import formats
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from engine.cards import get_deck
from engine.printing import LocalFileFetcher, render_pdf
from engine.roles import table_roles
from engine.scoring import ScoringFormat
from engine.standings import TIEBREAKS
from tournament.cashdesk.selectors import cash_record, cash_report
from tournament.models import Registration, Round, Seat, Tournament
from tournament.prizes.selectors import PrizeList, has_prizes, prize_list
from tournament.qr import absolute_url
from tournament.rounds.selectors import round_tables
from tournament.standings.charts import chart_for_standings
from tournament.standings.selectors import (
    StandingLine,
    TournamentRankings,
    counted_rounds,
    evening_over,
    standings,
    standings_settings,
    tournament_rankings,
)

PAPER_SIZES = ("a4", "a5")


def static_root() -> Path:
    """The source static folder: print.css lives there, so no collectstatic is needed to print."""
    return Path(settings.STATICFILES_DIRS[0])


def allowed_roots() -> list[Path]:
    """The only folders WeasyPrint may read from: static files and uploaded media (logos)."""
    roots = [Path(folder) for folder in settings.STATICFILES_DIRS]
    return [*roots, Path(settings.STATIC_ROOT), Path(settings.MEDIA_ROOT)]


def html_to_pdf(html: str, *, fetcher: LocalFileFetcher | None = None) -> bytes:
    return render_pdf(
        html, base_url=static_root().as_uri() + "/", allowed_roots=allowed_roots(), fetcher=fetcher
    )


# In a file name a slash becomes a hyphen; control characters and those Windows refuses become a space.
_FILE_NAME_SLASHES = re.compile(r"[\\/]")
_FILE_NAME_REFUSED = re.compile(r'[\x00-\x1f\x7f:*?"<>|]')
DASH = " \N{EN DASH} "  # between a name and what follows it in titles and file names
_ASCII_LETTERS = str.maketrans({
    "ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss",
    "\N{EN DASH}": "-", "\N{EM DASH}": "-",
})  # fmt: skip
FILE_NAME_LENGTH = 150


def file_name(tournament: Tournament, kind: str, *, extension: str = "pdf") -> str:
    """The evening's name, a dash and the document: 'UNO-Turnier 2026 - Tischzettel Runde 3 (A4).pdf'
    with an en dash. Safe in every file system; umlauts stay (`content_disposition` adds an ASCII
    spelling)."""
    evening, document = (
        " ".join(_FILE_NAME_REFUSED.sub(" ", _FILE_NAME_SLASHES.sub("-", text)).split())
        for text in (tournament.name, kind)
    )
    stem = f"{evening}{DASH}{document}" if evening else document
    return f"{stem[:FILE_NAME_LENGTH].strip(DASH + '.-')}.{extension}"


def ascii_file_name(name: str) -> str:
    """The name in plain ASCII for old clients: umlauts spelled out (ä → ae), other accents dropped."""
    spelled = unicodedata.normalize("NFKD", name.translate(_ASCII_LETTERS))
    plain = _FILE_NAME_REFUSED.sub(" ", _FILE_NAME_SLASHES.sub("-", spelled))
    plain = " ".join(plain.encode("ascii", "ignore").decode("ascii").split())
    stem, dot, extension = plain.rpartition(".")
    return plain if stem.strip(" .-") else f"document{dot}{extension if dot else 'pdf'}"


def content_disposition(name: str, *, download: bool = False) -> str:
    """`inline` (the browser shows the PDF, ready to print) or `attachment` (saved), with the file name
    in ASCII and, where it has other letters, as UTF-8 in filename* (RFC 6266), which browsers prefer."""
    header = f'{"attachment" if download else "inline"}; filename="{ascii_file_name(name)}"'
    if not name.isascii():
        header += f"; filename*=utf-8''{quote(name)}"
    return header


def titled(kind: str, name: str) -> str:
    """'Season standings', a dash and the name ('Jahreswertung - Wintercup'), or only the name where it
    says the kind already: 'Jahreswertung 2027', never 'Jahreswertung - Jahreswertung 2027'."""
    return name if kind.casefold() in name.casefold() else f"{kind}{DASH}{name}"


def logo_uri(tournament: Tournament) -> str:
    """The uploaded logo as a file: URI, or '' when none is set or the file is gone."""
    if not tournament.logo:
        return ""
    try:
        path = Path(tournament.logo.path)
    except (ValueError, NotImplementedError):
        return ""
    return path.as_uri() if path.is_file() else ""


def points_label(tournament: Tournament) -> str:
    if tournament.scoring == ScoringFormat.MINUS_POINTS:
        return _("Minus points")
    return _("Points")


# --- Table sheets -------------------------------------------------------------------------------


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
        return text_size(self.name, (26, 34, 42))


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


def table_sheets(round_: Round, *, request: HttpRequest | None = None) -> list[Sheet]:
    sheets = []
    for table in round_tables(round_, with_results=False):
        seats = list(table.seats.all())
        roles = table_roles({seat.pk: seat.registration.player.born for seat in seats})
        link = absolute_url(table.get_captain_url(), request)
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
                qr=qr_png_data_uri(link),
            )
        )
    return sheets


def table_sheets_html(round_: Round, *, paper: str = "a4", request: HttpRequest | None = None) -> str:
    tournament = round_.tournament
    sheets = table_sheets(round_, request=request)
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


def table_sheets_pdf(round_: Round, *, paper: str = "a4", request: HttpRequest | None = None) -> bytes:
    return html_to_pdf(table_sheets_html(round_, paper=paper, request=request))


# --- Seating list -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatingLine:
    sort_name: str
    club: str
    start_number: int
    table: int
    seat: int


def seating_lines(round_: Round) -> list[SeatingLine]:
    lines = [
        SeatingLine(
            sort_name=seat.registration.player.sort_name,
            club=seat.registration.player.club_name,
            start_number=seat.registration.start_number,
            table=table.number,
            seat=seat.position,
        )
        for table in round_tables(round_, with_results=False)
        for seat in table.seats.all()
    ]
    return sorted(lines, key=lambda line: (line.sort_name.casefold(), line.start_number))


def seating_pdf(round_: Round, *, request: HttpRequest | None = None) -> bytes:
    context = {"tournament": round_.tournament, "round": round_, "lines": seating_lines(round_)}
    return html_to_pdf(render_to_string("print/seating.html", context, request=request))


# --- Standings ----------------------------------------------------------------------------------


@dataclass
class StandingsDocument:
    tournament: Tournament
    rounds: list[int]
    lines: list[StandingLine]
    tiebreaks: list[tuple[str, str]] = field(default_factory=list)
    final: bool = False
    prizes: PrizeList | None = None  # on the final standings, when prizes are set
    rankings: TournamentRankings | None = None  # clubs, teams and categories, after the table

    @property
    def after_round(self) -> int | None:
        return self.rounds[-1] if self.rounds else None


def standings_document(tournament: Tournament, *, after_round: int | None = None) -> StandingsDocument:
    rounds, lines = standings(tournament, after_round=after_round)
    keys = [key for key in standings_settings(tournament).tiebreaks if key in TIEBREAKS]
    final = (
        bool(rounds)
        and rounds == counted_rounds(tournament)
        and evening_over(tournament, rounds, lines)
    )
    return StandingsDocument(
        tournament=tournament,
        rounds=rounds,
        lines=lines,
        tiebreaks=[(key, _(TIEBREAKS[key].label)) for key in keys],
        final=final,
        prizes=prize_list(tournament, lines) if final and has_prizes(tournament) else None,
        rankings=tournament_rankings(tournament, lines) if lines else None,
    )


def standings_html(document: StandingsDocument, *, request: HttpRequest | None = None) -> str:
    rows = [
        {
            "line": line,
            "per_round": [
                (line.row.per_round.get(number), line.row.charged.get(number)) for number in document.rounds
            ],
            "tiebreaks": [line.row.tiebreak_values.get(key) for key, _label in document.tiebreaks],
        }
        for line in document.lines
    ]
    # Landscape once rounds and tie-breaks make more than 4 columns: long names keep to one line.
    columns = len(document.rounds) + len(document.tiebreaks)
    context = {
        "tournament": document.tournament,
        "document": document,
        "rows": rows,
        "landscape": columns > 4,
        "points_label": points_label(document.tournament),
        "prizes": document.prizes,
        "rankings": document.rankings,
        # The chart the README promises: top places in colour, on the page after the table.
        "chart_svg": chart_for_standings(document.rounds, document.lines),
    }
    return render_to_string("print/standings.html", context, request=request)


def standings_pdf(
    tournament: Tournament, *, after_round: int | None = None, request: HttpRequest | None = None
) -> tuple[StandingsDocument, bytes]:
    document = standings_document(tournament, after_round=after_round)
    return document, html_to_pdf(standings_html(document, request=request))


# --- Certificates -------------------------------------------------------------------------------


CERTIFICATE_TOP = 3  # places 1 to 3 get a medal


@dataclass(frozen=True)
class Certificate:
    """One certificate: a place certificate, or a participation certificate for a place after the top N."""

    line: StandingLine
    participation: bool
    sentence: str  # HTML: the sentence after the name, the event and the place marked up
    points: str

    @property
    def rank(self) -> int:
        return self.line.row.rank

    @property
    def medal(self) -> str:
        if self.participation or self.rank > CERTIFICATE_TOP:
            return ""
        return ("gold", "silver", "bronze")[self.rank - 1]

    @property
    def name_size(self) -> str:
        """Long names get a smaller type: two lines hold up to about 60 characters; a longer name takes
        a third line, upwards into the free space under the heading (the name slot grows upwards)."""
        return text_size(self.line.player.name, CERTIFICATE_NAME_STEPS)

    @property
    def club_size(self) -> str:
        return text_size(self.line.player.club_name, CERTIFICATE_CLUB_STEPS)


@dataclass
class CertificateSet:
    """The certificates of one print: final, or provisional after the last closed round."""

    tournament: Tournament
    certificates: list[Certificate]
    rounds: list[int]
    final: bool

    @property
    def after_round(self) -> int | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def marker(self) -> str:
        """'provisional, after round 3' on every certificate printed before the tournament is finished."""
        if self.final or self.after_round is None:
            return ""
        return _("provisional – after round %(round)s") % {"round": self.after_round}  # noqa: RUF001

    @property
    def where_when(self) -> str:
        date = formats.date_format(self.tournament.date, "DATE_FORMAT")
        return f"{self.tournament.venue}, {date}" if self.tournament.venue else date

    @property
    def event_size(self) -> str:
        return text_size(self.tournament.name, (50, 80, 110))


# Lengths (characters) from which a certificate sets a name or a club in the next smaller type.
CERTIFICATE_NAME_STEPS = (24, 36, 56)
CERTIFICATE_CLUB_STEPS = (60, 90, 120)


def text_size(text: str, limits: tuple[int, int, int]) -> str:
    """A size class by length: '' up to the first limit, then 'long', 'longer', 'longest'."""
    for size, limit in zip(("", "long", "longer"), limits, strict=True):
        if len(text) <= limit:
            return size
    return "longest"


def ordinal(rank: int) -> str:
    """'1st', '2nd', '11th' in English, '1.', '2.', '11.' in German."""
    text = _("%(rank)sth")
    if rank % 100 not in (11, 12, 13):
        text = {1: _("%(rank)sst"), 2: _("%(rank)snd"), 3: _("%(rank)srd")}.get(rank % 10, text)
    return text % {"rank": rank}


def ordinal_place(rank: int) -> str:
    """'1st place', '1. Platz'."""
    return _("%(ordinal)s place") % {"ordinal": ordinal(rank)}


def _marked(css_class: str, text: object) -> str:
    return format_html('<span class="{}">{}</span>', css_class, text)


def certificate_sentence(tournament: Tournament, rank: int, *, participation: bool) -> str:
    """The sentence after the player's name, as HTML: the translation decides the word order."""
    # The translated text is escaped; the parts put into it are escaped HTML already.
    event = _marked("cert-event", tournament.name)
    if participation:
        date = _marked("cert-date", formats.date_format(tournament.date, "DATE_FORMAT"))
        text = _("took part in “%(event)s” on %(date)s")
        return mark_safe(escape(text) % {"event": event, "date": date})
    text = _("took %(place)s at “%(event)s”")
    return mark_safe(escape(text) % {"event": event, "place": _marked("cert-place", ordinal_place(rank))})


def certificates(
    tournament: Tournament,
    *,
    top: int | None = None,
    registration_ids: Iterable[int] | None = None,
    participation: bool = False,
) -> CertificateSet:
    """Certificates from the standings over all closed rounds, cut to the chosen players.

    Without `participation`: the top N places (or everybody) get a place certificate. With it, every
    line of the standings is printed: the top N a place certificate, all others a participation
    certificate (without a top N: everybody a participation certificate).
    """
    rounds, lines = standings(tournament)
    final = evening_over(tournament, rounds, lines)
    count = len(lines)
    if registration_ids is not None:
        wanted = set(registration_ids)
        lines = [line for line in lines if line.registration.pk in wanted]
    if top is not None and not participation:
        lines = [line for line in lines if line.row.rank <= top]
    minus = tournament.scoring == ScoringFormat.MINUS_POINTS
    certificates = []
    for line in lines:
        rank = line.row.rank
        takes_part = participation and (top is None or rank > top)
        points = _points_text(line.row.total, minus=minus)
        if takes_part:
            place = _("%(place)s of %(count)s") % {"place": ordinal_place(rank), "count": count}
            points = f"{place} · {points}"
        certificates.append(
            Certificate(
                line=line,
                participation=takes_part,
                sentence=certificate_sentence(tournament, rank, participation=takes_part),
                points=points,
            )
        )
    return CertificateSet(tournament=tournament, certificates=certificates, rounds=rounds, final=final)


def certificates_html(document: CertificateSet, *, request: HttpRequest | None = None) -> str:
    context = {"tournament": document.tournament, "document": document, "logo": logo_uri(document.tournament)}
    return render_to_string("print/certificates.html", context, request=request)


def certificates_pdf(document: CertificateSet, *, request: HttpRequest | None = None) -> bytes:
    return html_to_pdf(certificates_html(document, request=request))


# --- Start cards --------------------------------------------------------------------------------

CARDS_PER_PAGE = 4  # A6 cards, two by two on an A4 page, cut along the dashed lines
CARD_ROWS = 12  # rounds listed in one column of a card; longer tournaments get two columns


@dataclass(frozen=True)
class StartCardRound:
    number: int
    table: int | None  # None: not seated in that round (withdrawn, or not in the plan)
    seat: int | None


@dataclass
class StartCard:
    start_number: int
    name: str
    club: str
    rounds: list[StartCardRound]

    @property
    def columns(self) -> list[list[StartCardRound]]:
        """The rounds in one column, or in two side by side when they do not fit one below the other."""
        if len(self.rounds) <= CARD_ROWS:
            return [self.rounds]
        half = math.ceil(len(self.rounds) / 2)
        return [self.rounds[:half], self.rounds[half:]]


def planned_seats(tournament: Tournament) -> dict[int, dict[int, tuple[int, int]]]:
    """round number -> registration id -> (table, seat): seated rounds as stored, later ones as planned.

    A round already seated wins over the plan, so a swap made by hand is what the card shows.
    """
    by_round: dict[int, dict[int, tuple[int, int]]] = {}
    for number, tables in (tournament.seating_plan or {}).get("rounds", {}).items():
        by_round[int(number)] = {
            reg_id: (table_no, seat_no)
            for table_no, table in enumerate(tables, start=1)
            for seat_no, reg_id in enumerate(table, start=1)
        }
    seated: dict[int, dict[int, tuple[int, int]]] = {}
    for number, reg_id, table_no, seat_no in Seat.objects.filter(round__tournament=tournament).values_list(
        "round__number", "registration_id", "table__number", "position"
    ):
        seated.setdefault(number, {})[reg_id] = (table_no, seat_no)
    by_round.update(seated)
    return by_round


def start_cards(tournament: Tournament) -> list[StartCard]:
    """One card per planned player, by start number, with their table and seat in every round."""
    plan_players = (tournament.seating_plan or {}).get("players", [])
    seats = planned_seats(tournament)
    numbers = range(1, tournament.rounds_total + 1)
    registrations = (
        Registration.objects.filter(pk__in=plan_players).select_related("player__club").order_by("start_number")
    )
    cards = []
    for reg in registrations:
        rounds = []
        for number in numbers:
            table, seat = seats.get(number, {}).get(reg.pk, (None, None))
            rounds.append(StartCardRound(number=number, table=table, seat=seat))
        player = reg.player
        cards.append(
            StartCard(start_number=reg.start_number, name=player.name, club=player.club_name, rounds=rounds)
        )
    return cards


def card_density(rounds_total: int) -> str:
    """Row height class of the cards: as tall as the A6 card allows for the rows in one column."""
    rows = rounds_total if rounds_total <= CARD_ROWS else math.ceil(rounds_total / 2)
    if rows <= 6:
        return "roomy"
    if rows <= 9:
        return "normal"
    return "tight" if rows <= CARD_ROWS else "dense"


def start_cards_html(tournament: Tournament, *, request: HttpRequest | None = None) -> str:
    cards = start_cards(tournament)
    pages = [cards[i : i + CARDS_PER_PAGE] for i in range(0, len(cards), CARDS_PER_PAGE)]
    context = {
        "tournament": tournament,
        "pages": pages,
        "points_label": points_label(tournament),
        "density": card_density(tournament.rounds_total),
    }
    return render_to_string("print/start_cards.html", context, request=request)


def start_cards_pdf(tournament: Tournament, *, request: HttpRequest | None = None) -> bytes:
    return html_to_pdf(start_cards_html(tournament, request=request))


# --- Cash report --------------------------------------------------------------------------------


def cash_report_pdf(tournament: Tournament, *, request: HttpRequest | None = None) -> bytes:
    context = {"tournament": tournament, "report": cash_report(tournament)}
    html = render_to_string("print/cash_report.html", context, request=request)
    return html_to_pdf(html)


def cash_record_pdf(tournament: Tournament, *, request: HttpRequest | None = None) -> bytes:
    """The cash record the treasurer signs (`cashdesk.selectors.cash_record`)."""
    context = {"tournament": tournament, "record": cash_record(tournament)}
    return html_to_pdf(render_to_string("print/cash_record.html", context, request=request))


# --- Series: season standings, season and category certificates -------------------------------


def series_standings_pdf(data, *, request: HttpRequest | None = None) -> bytes:
    """The season standings, the club ranking and the categories of a series (`SeriesStandings`)."""
    from tournament.series.tables import evening_html, season_rows, signed

    rows = season_rows(data)
    running = data.running_pks
    for row in rows:
        row["cells"] = [
            evening_html(
                row[f"e{evening.pk}"], counts=evening.pk in row["counted"], running=evening.pk in running
            )
            for evening in data.evenings
        ]
        row["bonus_text"] = signed(row["bonus_points"])
        row["deduction_text"] = signed(row["deduction_points"])
    # Beside the evenings: the bonus and deductions where the rule has them, and the gap to the line above.
    columns = len(data.evenings) + data.shows_bonus + data.shows_deduction + 1
    context = {
        "data": data, "rows": rows, "landscape": columns > 7,
        "tournament": data.evenings[-1] if data.evenings else None,
        "title": season_title(data.series.name),  # the kind once: "Jahreswertung 2027"
    }
    return html_to_pdf(render_to_string("print/series_standings.html", context, request=request))


def season_title(series_name: str) -> str:
    """The season standings' title: 'Jahreswertung - Wintercup', but 'Jahreswertung 2027' alone."""
    return titled(_("Season standings"), series_name)


@dataclass(frozen=True)
class Prize:
    """One certificate of a season or a category: its title and who won it with which place."""

    title: str
    event: str
    when: str
    name: str
    club: str
    rank: int
    points: str
    marker: str = ""  # "provisional, evening 3 is running" while the season has a running evening

    @property
    def name_size(self) -> str:
        """Long names, clubs and event names get a smaller type, so that the certificate keeps to its
        page above the signature (as `Certificate` does)."""
        return text_size(self.name, CERTIFICATE_NAME_STEPS)

    @property
    def club_size(self) -> str:
        return text_size(self.club, CERTIFICATE_CLUB_STEPS)

    @property
    def event_size(self) -> str:
        return text_size(self.event, (40, 60, 90))


def _points_text(value, *, minus: bool) -> str:
    """ "with 1 minus point", "with 12 points": the plural follows the number."""
    count = int(value)
    if minus:
        text = ngettext("with %(points)s minus point", "with %(points)s minus points", count)
    else:
        text = ngettext("with %(points)s point", "with %(points)s points", count)
    return text % {"points": value}


# The grammatical gender of a category prize's title ("Beste Seniorin", "Bester Senior"); a player
# whose gender is not given (or diverse) gets a wording that assumes none ("Beste Platzierung: Senioren").
PRIZE_CONTEXTS = {"f": "female", "m": "male"}


def prize_title(category, gender: str) -> str:
    """The title of a category certificate for a player of `gender` (Player.gender, "" when unknown)."""
    from engine.rankings import CATEGORY_PRIZES, Category

    message = CATEGORY_PRIZES[category]
    if category in (Category.WOMEN, Category.MEN):
        return _(message)
    return pgettext(PRIZE_CONTEXTS.get(gender, "gender not given"), message)


def season_prizes(data, *, top: int = 3) -> list[Prize]:
    """The top places of the season, then the best of every category (shared places all get one)."""
    from tournament.series.rules import season_rule

    minus = season_rule(data.series).points.lower_is_better
    when = ""
    if data.evenings:
        when = f"{data.evenings[0].date:%d.%m.%Y} – {data.evenings[-1].date:%d.%m.%Y}"  # noqa: RUF001
    title = _("Season ranking")
    prizes = [
        Prize(title, data.series.name, when, line.player.name, line.player.club_name, line.row.rank,
              _points_text(line.row.score, minus=minus), data.marker)
        for line in data.lines if line.row.ranked and line.row.rank <= top
    ]
    for category, rows in data.categories.items():
        prizes += [
            Prize(prize_title(category, line.player.gender), data.series.name, when, line.player.name,
                  line.player.club_name, rank, _points_text(line.row.score, minus=minus), data.marker)
            for rank, _shared, line in rows if rank == 1
        ]
    return prizes


def category_prizes(tournament: Tournament, rankings) -> list[Prize]:
    """The best of every category of one evening (`TournamentRankings`): the place printed is the one
    within the category."""
    minus = tournament.scoring == ScoringFormat.MINUS_POINTS
    when = f"{tournament.date:%d.%m.%Y}"
    return [
        Prize(prize_title(category, line.player.gender), tournament.name, when, line.player.name,
              line.player.club_name, rank, _points_text(line.row.total, minus=minus))
        # A category every player is in (all members) would only crown the evening's winner again.
        for category, rows in rankings.listed_categories.items()
        for rank, _shared, line in rows if rank == 1
    ]


def prizes_pdf(
    tournament: Tournament, prizes: Sequence[Prize], *, request: HttpRequest | None = None
) -> bytes:
    context = {"tournament": tournament, "prizes": prizes, "logo": logo_uri(tournament)}
    return html_to_pdf(render_to_string("print/prize_certificates.html", context, request=request))


def rankings_pdf(tournament: Tournament, rankings, *, request: HttpRequest | None = None) -> bytes:
    """One evening's club, team and category rankings (`TournamentRankings`)."""
    context = {"tournament": tournament, "rankings": rankings, "points_label": points_label(tournament)}
    return html_to_pdf(render_to_string("print/rankings.html", context, request=request))
