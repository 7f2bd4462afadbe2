"""The organizer's printed documents: one page listing them, one view per PDF, the logo upload.

Views stay thin: tournament.documents builds each document (one module per document), services store the logo.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from engine.numbers import parse_natural
from tournament.documents.cash import cash_record_pdf, cash_report_pdf
from tournament.documents.certificates import certificates, certificates_pdf
from tournament.documents.prizes import category_prizes, prizes_pdf
from tournament.documents.rankings import rankings_pdf
from tournament.documents.season import season_prizes, season_title, series_standings_pdf
from tournament.documents.seating import seating_pdf
from tournament.documents.selectors import documents_ready
from tournament.documents.standings import standings_pdf
from tournament.documents.start_cards import start_cards_pdf
from tournament.documents.table_sheets import PAPER_SIZES, table_sheets_pdf
from tournament.documents.typography import content_disposition, file_name, titled
from tournament.models import Tournament
from tournament.permissions import Capability, TournamentOrganizerMixin, can
from tournament.qr import unreachable_address
from tournament.rounds.selectors import planned_rounds, seating_plan_summary
from tournament.series.selectors import series_standings_of
from tournament.standings.selectors import evening_over, standings
from tournament.tournaments.forms import LogoForm
from tournament.tournaments.services import tournament_set_logo
from tournament.views.organizer.base import ActionMixin, RoundMixin


def pdf_response(request, pdf: bytes, filename: str) -> HttpResponse:
    """The PDF shown in the browser, ready to print (`inline`); with ?download=1 saved (`attachment`)."""
    response = HttpResponse(pdf, content_type="application/pdf")
    download = request.GET.get("download") in ("1", "on")
    response["Content-Disposition"] = content_disposition(filename, download=download)
    return response


def positive_int(value: str | None) -> int | None:
    """A positive whole number from a query parameter; None when absent; ValueError when wrong."""
    if value in (None, ""):
        return None
    number = parse_natural(value)
    if number is None or number < 1:
        raise ValueError(value)
    return number


class DocumentsView(TournamentOrganizerMixin, TemplateView):
    """Every printable document of the tournament with its options, and the logo upload."""

    capability = Capability.VIEW

    template_name = "print/documents.html"
    extra_context = {"section": "print"}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rounds, lines = standings(self.tournament)
        context.update(
            rounds=list(self.tournament.rounds.order_by("number")),
            closed_rounds=rounds,
            lines=lines,
            # Certificates printed now are marked provisional: the page says so next to the buttons.
            provisional=bool(rounds) and not evening_over(self.tournament, rounds, lines),
            plan=seating_plan_summary(self.tournament),
            logo_form=kwargs.get("logo_form") or LogoForm(instance=self.tournament),
            address_unreachable=unreachable_address(self.request),
            ready=documents_ready(self.tournament, lines),
        )
        return context


class LogoView(ActionMixin, DocumentsView):
    """Upload (or remove, with remove=1) the club logo printed on the certificates."""

    def post(self, request, tournament_pk: int):
        form = LogoForm(request.POST, request.FILES, instance=Tournament.objects.get(pk=self.tournament.pk))
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(logo_form=form), status=400)
        tournament_set_logo(tournament=self.tournament, user=request.user, logo=form.cleaned_data["logo"])
        if form.cleaned_data["logo"] is None:
            messages.success(request, _("Logo removed."))
        else:
            messages.success(request, _("Logo saved. It appears on the certificates."))
        return redirect("print:documents", self.tournament.pk)


class RoundDocumentMixin(TournamentOrganizerMixin, RoundMixin):
    capability = Capability.VIEW


class TableSheetsPdfView(RoundDocumentMixin, View):
    """One A4 page per table, or ?format=a5 for two A5 sheets on each A4 page."""

    def get(self, request, tournament_pk: int, number: int):
        paper = request.GET.get("format", "a4").lower()
        if paper not in PAPER_SIZES:
            return HttpResponseBadRequest(_("Unknown paper format."))
        round_ = self.round
        pdf = table_sheets_pdf(
            round_, paper=paper, request=request,
            with_links=can(request.user, self.tournament, Capability.RESULTS),
        )
        kind = _("Table sheets round %(n)s (%(paper)s)") % {"n": round_.number, "paper": paper.upper()}
        return pdf_response(request, pdf, file_name(self.tournament, kind))


class SeatingPdfView(RoundDocumentMixin, View):
    """Who sits where, alphabetically, in large print for the wall."""

    def get(self, request, tournament_pk: int, number: int):
        round_ = self.round
        pdf = seating_pdf(round_, request=request)
        kind = _("Seating list round %(n)s") % {"n": round_.number}
        return pdf_response(request, pdf, file_name(self.tournament, kind))


class StandingsPdfView(TournamentOrganizerMixin, View):
    """Standings over the closed rounds, or ?after=N up to round N."""

    capability = Capability.VIEW

    def get(self, request, tournament_pk: int):
        try:
            after = positive_int(request.GET.get("after"))
        except ValueError:
            return HttpResponseBadRequest(_("Give the round as a positive whole number."))
        document, pdf = standings_pdf(self.tournament, after_round=after, request=request)
        if document.final:
            kind = _("Final standings")
        elif document.after_round:
            kind = _("Standings after round %(n)s") % {"n": document.after_round}
        else:
            kind = _("Standings")
        return pdf_response(request, pdf, file_name(self.tournament, kind))


class CertificatesPdfView(TournamentOrganizerMixin, View):
    """Certificates for everybody in the standings, ?top=N places, or ?ids=… registrations.

    With ?participation=1 everybody after the top N gets a participation certificate instead of none.
    Before the tournament is finished every certificate is marked provisional (after round N).
    """

    capability = Capability.VIEW

    def get(self, request, tournament_pk: int):
        try:
            top = positive_int(request.GET.get("top"))
            raw_ids = [part for value in request.GET.getlist("ids") for part in value.split(",") if part]
            ids = [positive_int(part) for part in raw_ids] if raw_ids else None
        except ValueError:
            return HttpResponseBadRequest(_("Give the places and players as whole numbers."))
        participation = request.GET.get("participation") in ("1", "on")
        document = certificates(
            self.tournament, top=top, registration_ids=ids, participation=participation
        )
        if not document.certificates:
            messages.warning(request, _("No certificates to print: no closed round, or nobody selected."))
            return redirect("print:documents", self.tournament.pk)
        pdf = certificates_pdf(document, request=request)
        kind = [_("Certificates")] + ([_("places 1 to %(n)s") % {"n": top}] if top else [])
        if participation:
            kind.append(_("with participation certificates"))
        if document.marker:
            kind.append(document.marker)
        return pdf_response(request, pdf, file_name(self.tournament, ", ".join(kind)))


class StartCardsPdfView(TournamentOrganizerMixin, View):
    """A card per player with their table and seat in every round: needs the plan of all rounds."""

    capability = Capability.VIEW

    def get(self, request, tournament_pk: int):
        if planned_rounds(self.tournament) is None:
            messages.warning(request, _("No start cards yet: plan all rounds first (Rounds page)."))
            return redirect("print:documents", self.tournament.pk)
        pdf = start_cards_pdf(self.tournament, request=request)
        return pdf_response(request, pdf, file_name(self.tournament, _("Start cards")))


class CashReportPdfView(TournamentOrganizerMixin, View):
    """Expected against collected entry fees, by payment method, and who has not paid."""

    capability = Capability.VIEW

    def get(self, request, tournament_pk: int):
        pdf = cash_report_pdf(self.tournament, request=request)
        return pdf_response(request, pdf, file_name(self.tournament, _("Cash report")))


class CashRecordPdfView(TournamentOrganizerMixin, View):
    """The cash record the treasurer signs: float, payments, reduced fees, prizes handed over, the count."""

    capability = Capability.VIEW

    def get(self, request, tournament_pk: int):
        pdf = cash_record_pdf(self.tournament, request=request)
        kind = f"{_('Cash record')} {self.tournament.date:%Y-%m-%d}"
        return pdf_response(request, pdf, file_name(self.tournament, kind))


class SeriesPdfMixin(TournamentOrganizerMixin):
    capability = Capability.VIEW

    def series_data(self):
        return series_standings_of(self.tournament)


class SeriesStandingsPdfView(SeriesPdfMixin, View):
    """The season standings of the tournament's series, with its club ranking and categories."""

    def get(self, request, tournament_pk: int):
        data = self.series_data()
        if data is None:
            messages.warning(request, _("This tournament is not part of a series."))
            return redirect("organizer:series", self.tournament.pk)
        pdf = series_standings_pdf(data, request=request)
        kind = season_title(data.series.name)
        return pdf_response(request, pdf, file_name(self.tournament, kind))


class SeriesCertificatesPdfView(SeriesPdfMixin, View):
    """Season certificates: the top three (?top=N) and the best of every category."""

    def get(self, request, tournament_pk: int):
        try:
            top = positive_int(request.GET.get("top")) or 3
        except ValueError:
            return HttpResponseBadRequest(_("Give the places and players as whole numbers."))
        data = self.series_data()
        if data is None:
            messages.warning(request, _("This tournament is not part of a series."))
            return redirect("organizer:series", self.tournament.pk)
        prizes = season_prizes(data, top=top)
        if not prizes:
            messages.warning(request, _("No certificates to print: no closed round, or nobody selected."))
            return redirect("organizer:series", self.tournament.pk)
        pdf = prizes_pdf(self.tournament, prizes, request=request)
        kind = titled(_("Certificates"), season_title(data.series.name))
        return pdf_response(request, pdf, file_name(self.tournament, kind))


class CategoryCertificatesPdfView(TournamentOrganizerMixin, View):
    """The best of every category of this evening ("Beste Dame", "Bester Jugendlicher", …)."""

    capability = Capability.VIEW

    def get(self, request, tournament_pk: int):
        from tournament.standings.selectors import tournament_rankings

        _rounds, lines = standings(self.tournament)
        prizes = category_prizes(self.tournament, tournament_rankings(self.tournament, lines))
        if not prizes:
            messages.warning(request, _("No certificates to print: no closed round, or nobody selected."))
            return redirect("organizer:rankings", self.tournament.pk)
        pdf = prizes_pdf(self.tournament, prizes, request=request)
        return pdf_response(request, pdf, file_name(self.tournament, _("Category certificates")))


class RankingsPdfView(TournamentOrganizerMixin, View):
    """The evening's club, team and category rankings."""

    capability = Capability.VIEW

    def get(self, request, tournament_pk: int):
        from tournament.standings.selectors import tournament_rankings

        _rounds, lines = standings(self.tournament)
        rankings = tournament_rankings(self.tournament, lines)
        pdf = rankings_pdf(self.tournament, rankings, request=request)
        return pdf_response(request, pdf, file_name(self.tournament, _("Clubs, teams, categories")))
