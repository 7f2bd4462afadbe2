"""The evening's certificates: a place certificate for the top places (medals for 1 to 3), a
participation certificate for the others; provisional until the tournament is finished."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from engine.scoring import ScoringFormat
from tournament.documents.typography import (
    CERTIFICATE_CLUB_STEPS,
    CERTIFICATE_EVENT_STEPS,
    CERTIFICATE_NAME_STEPS,
    document_date,
    html_to_pdf,
    logo_uri,
    ordinal_place,
    points_text,
    text_size,
)
from tournament.models import Tournament
from tournament.standings.selectors import StandingLine, evening_over, standings

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
        date = document_date(self.tournament.date)
        return f"{self.tournament.venue}, {date}" if self.tournament.venue else date

    @property
    def event_size(self) -> str:
        return text_size(self.tournament.name, CERTIFICATE_EVENT_STEPS)




def _marked(css_class: str, text: object) -> str:
    return format_html('<span class="{}">{}</span>', css_class, text)


def certificate_sentence(tournament: Tournament, rank: int, *, participation: bool) -> str:
    """The sentence after the player's name, as HTML: the translation decides the word order."""
    # The translated text is escaped; the parts put into it are escaped HTML already.
    event = _marked("cert-event", tournament.name)
    if participation:
        date = _marked("cert-date", document_date(tournament.date))
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
        points = points_text(line.row.total, minus=minus)
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
