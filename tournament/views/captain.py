"""The table captain's page: one table of one round, reached only through its secret link.

The token in the URL is the only credential. A wrong token is counted per address (rate limited,
see tournament.ratelimit) and answered like any missing page; the page never links to organizer
pages, and every response tells the browser not to cache it or pass the link on as a referrer.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.decorators import method_decorator
from django.utils.functional import cached_property
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.cache import never_cache

from engine.cards import Card, get_deck
from engine.notation import NotationError, format_card, format_hand, hand_value, notation, read_cards
from tournament import ratelimit
from tournament.clock.selectors import may_report_stopped_by_time
from tournament.models import Round, Seat, Submission, Table, TableConfirmation
from tournament.results.forms import (
    CONFIRM_FIELD,
    KEY_FIELD,
    MAX_CARDS_LENGTH,
    OUTCOME_FIELD,
    STOPPED_BY_TIME,
    PlayerCheckForm,
    ResultForm,
)
from tournament.results.selectors import table_by_token, table_seats, table_versions, version_entries
from tournament.results.services import (
    RefusalCode,
    SubmitOutcome,
    captain_seat,
    is_organizers,
    result_player_check,
    result_submit,
)

TEMPLATE = "tournament/captain/table.html"


def _private(response: HttpResponse) -> HttpResponse:
    """The link is a secret: never leak it through the Referer header or a search engine."""
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def table_fingerprint(table: Table, versions: int) -> str:
    """Changes whenever something the captain sees changes: status, round status, number of versions.

    Versions are numbered 1, 2, … per table, so a caller holding the newest one passes its number.
    """
    return f"{table.status}.{table.round.status}.{versions}"


def check_context(
    table: Table, shown: Submission | None, *, confirmed: bool, seats: list[Seat] | None = None,
    form: PlayerCheckForm | None = None, message: str = "",
) -> dict:
    """What the phone shows for a second player's check of the captain's report.

    `check_open`: the table's newest version is the captain's, not yet checked nor confirmed, and the
    round is open: the phone asks a second player for "Stimmt" or "Stimmt nicht"."""
    mode = table.round.tournament.table_confirmation
    if mode == TableConfirmation.OFF or shown is None:
        return {"check_mode": "", "check_message": message}
    check_open = (
        not confirmed and not shown.player_check and shown.source == Submission.Source.CAPTAIN
        and table.round.status == Round.Status.OPEN
        and table.status not in (Table.Status.CONFIRMED, Table.Status.CORRECTED)
        and not is_organizers(table)
    )
    captain = captain_seat(seats) if seats else None
    return {
        "check_mode": mode,
        "check_open": check_open,
        "check_form": form or PlayerCheckForm(),  # the page names its inputs by the form's fields
        "check_message": message,
        # A dispute stays open after the captain's correction: the phone keeps saying who resolves it.
        "check_disputed": is_organizers(table),
        "check_captain": captain,
        "check_by": shown.player_check_by if shown.player_check else None,
    }


@method_decorator(never_cache, name="dispatch")
class CaptainTableView(View):
    """GET shows the table (entry form, reported or confirmed result); POST submits a report."""

    table: Table

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        table = table_by_token(kwargs["token"], blocked=ratelimit.blocked_exists(request))
        if table is None or table.blocked:
            # A blocked address learns nothing, not even whether the link exists.
            window = ratelimit.blocked_window(request)
            if window is not None:
                response = self.refusal(request, "tournament/captain/blocked.html", status=429)
                response["Retry-After"] = str(window.retry_after())
                return _private(response)
        if table is None:
            ratelimit.record_wrong_token(request)
        if table is None or table.round.status == Round.Status.DRAFT:
            return _private(self.refusal(request, "tournament/captain/not_found.html", status=404))
        self.table = table
        return _private(super().dispatch(request, *args, **kwargs))

    @staticmethod
    def refusal(request: HttpRequest, template: str, *, status: int) -> HttpResponse:
        """A whole page; the phone's script reloads to show it (what was typed stays stored)."""
        response = render(request, template, status=status)
        if request.htmx:
            response["HX-Refresh"] = "true"
        return response

    # --- reading ----------------------------------------------------------------------------

    @cached_property
    def seats(self) -> list[Seat]:
        return table_seats(self.table)

    @cached_property
    def versions(self) -> list[Submission]:
        """The table's versions, newest first, without their entries."""
        return table_versions(self.table)

    def shown_versions(self) -> tuple[Submission | None, Submission | None]:
        """The confirmed version, and the captain's newest report (with a second, independent entry
        the captain must not see what the organizer typed)."""
        confirmed = next((s for s in self.versions if s.confirmed), None)
        reported = next((s for s in self.versions if s.source == Submission.Source.CAPTAIN), None)
        return confirmed, reported

    def render_page(
        self, request: HttpRequest, *, form: ResultForm | None = None, validation=None,
        message: str = "", stored: bool = False, status: int = 200,
        check_form: PlayerCheckForm | None = None, check_message: str = "",
    ) -> HttpResponse:
        table, round_ = self.table, self.table.round
        confirmed, reported = self.shown_versions()
        # Often one and the same version (the organizer confirmed the captain's report): read it once.
        entries = {s.pk: version_entries(s) for s in {confirmed, reported} if s is not None}
        if form is None:
            form = ResultForm.for_correction(
                seats=self.seats, submission=reported, entries=entries[reported.pk] if reported else None
            )
        rows, table_issues = form.rows(validation)
        read_only = confirmed is not None or round_.status == Round.Status.CLOSED
        shown = confirmed or reported
        context = {
            "table": table,
            "round": round_,
            "tournament": round_.tournament,
            "rows": rows,
            "table_issues": table_issues,
            "form": form,
            "confirmed": confirmed,
            "reported": reported,
            "shown": shown,
            "shown_entries": entries[shown.pk] if shown else [],
            "read_only": read_only,
            "accepts": round_.status == Round.Status.OPEN and not read_only,
            "time_limit": may_report_stopped_by_time(round_),
            "validation_shown": validation is not None or form.is_bound,
            "needs_confirmation": bool(validation and validation.needs_confirmation),
            "message": message,
            "just_stored": stored,
            "stored_keys": [s.idempotency_key for s in self.versions if s.idempotency_key],
            "fingerprint": table_fingerprint(table, len(self.versions)),
            "page_url": table.get_captain_url(),
            **check_context(
                table, shown, confirmed=confirmed is not None, seats=self.seats,
                form=check_form, message=check_message,
            ),
            "deck": deck_data(round_.tournament.deck),
            "field_names": {
                "outcome": OUTCOME_FIELD, "time": STOPPED_BY_TIME, "key": KEY_FIELD, "confirm": CONFIRM_FIELD,
            },
        }
        template = TEMPLATE + "#page" if request.htmx else TEMPLATE
        return render(request, template, context, status=status)

    def render_stored(
        self, request: HttpRequest, *, shown: Submission, entries, confirmed: bool, versions: int,
        stored_keys: list[str],
    ) -> HttpResponse:
        """Thanks and the stored result, without the entry form (the answer to a report sent with htmx)."""
        table = self.table
        context = {
            "table": table,
            "round": table.round,
            "tournament": table.round.tournament,
            "confirmed": shown if confirmed else None,
            "shown": shown,
            "shown_entries": entries,
            "stored_keys": stored_keys,
            "fingerprint": table_fingerprint(table, versions),
            "page_url": table.get_captain_url(),
            **check_context(table, shown, confirmed=confirmed, seats=self.seats),
        }
        return render(request, TEMPLATE + "#stored", context)

    def get(self, request: HttpRequest, token: str) -> HttpResponse:
        since = request.GET.get("since")
        if since is not None:
            return self.poll(since)
        return self.render_page(request, stored=bool(request.GET.get("sent")))

    def poll(self, since: str) -> HttpResponse:
        """The page asks every few seconds whether anything changed; reload only if it did."""
        response = HttpResponse(status=204)
        if since != table_fingerprint(self.table, len(self.versions)):
            response["HX-Refresh"] = "true"
        return response

    # --- writing ----------------------------------------------------------------------------

    def post(self, request: HttpRequest, token: str) -> HttpResponse:
        form = ResultForm(request.POST, seats=self.seats)
        if not form.is_valid():
            return self.render_page(request, form=form)
        try:
            outcome = result_submit(
                table=self.table, **form.report(), seated=self.seats, source=Submission.Source.CAPTAIN,
                token=token, ip_address=ratelimit.recorded_address(request),
            )
        except ValidationError as exc:
            return self.refused(request, form, exc)
        except DatabaseError:
            return self.render_page(
                request, form=form, status=503,
                message=_("The server is busy. Nothing is lost: send the result again in a moment."),
            )
        if not outcome.stored:
            return self.render_page(request, form=form, validation=outcome.validation)
        if not request.htmx:
            response = redirect(request.path + "?sent=1")
            response.status_code = 303  # see other: the browser fetches the page with GET
            return response
        if outcome.duplicate:
            self.versions = outcome.versions  # read by the service under the lock: not read again
            confirmed, reported = self.shown_versions()
            shown = confirmed or reported
            return self.render_stored(
                request, shown=shown, entries=version_entries(shown), confirmed=confirmed is not None,
                versions=len(self.versions),
                stored_keys=[s.idempotency_key for s in self.versions if s.idempotency_key],
            )
        return self.render_just_stored(request, outcome)

    def render_just_stored(self, request: HttpRequest, outcome: SubmitOutcome) -> HttpResponse:
        """The answer to a report just stored, from what is in memory: fifty phones at once get it fast."""
        submission = outcome.submission
        # Versions are numbered 1, 2, … per table, so the newest version counts them.
        return self.render_stored(
            request, shown=submission, entries=outcome.entries, confirmed=submission.confirmed,
            versions=submission.version, stored_keys=[submission.idempotency_key],
        )

    def refused(self, request: HttpRequest, form: ResultForm, error: ValidationError) -> HttpResponse:
        """The service refused the report (its code says why): say so, keeping what was typed."""
        if error.code in (RefusalCode.RESULT_FINAL, RefusalCode.ROUND_CLOSED):
            return self.render_page(
                request, message=_("This result is final; the round no longer accepts reports here."),
                status=403,
            )
        if error.code == RefusalCode.ROUND_NOT_OPEN:
            return self.render_page(
                request, form=form, status=409,
                message=_("The organizer has not opened this round for results yet. "
                          "Your entries are kept; send them again in a moment."),
            )
        return self.render_page(request, message=" ".join(error.messages), status=403)


class CaptainCheckView(CaptainTableView):
    """POST only: a second player's "Stimmt" / "Stimmt nicht" for the version the phone showed."""

    http_method_names = ["post"]

    def post(self, request: HttpRequest, token: str) -> HttpResponse:
        form = PlayerCheckForm(request.POST)
        if not form.is_valid():
            message = _("Please type your start number.") if "start_number" in form.errors else _(
                "Please try again."
            )
            return self.render_page(request, check_form=form, check_message=message, status=400)
        data = form.cleaned_data
        try:
            result_player_check(
                table=self.table, version=data["version"], start_number=data["start_number"],
                agrees=data["agrees"], reason=data["reason"],
            )
        except ValidationError as exc:
            status = 429 if exc.code == RefusalCode.TOO_MANY_TRIES else 409
            if exc.code in (RefusalCode.REASON_MISSING, RefusalCode.CAPTAIN_NUMBER, RefusalCode.OTHER_TABLE,
                            RefusalCode.UNKNOWN_NUMBER):
                status = 400
            self.__dict__.pop("versions", None)  # read again: a correction may have arrived
            self.table.refresh_from_db(fields=["status"])
            self.table.round.refresh_from_db(fields=["status"])
            return self.render_page(
                request, check_form=form, check_message=check_refusal_text(exc), status=status
            )
        if request.htmx:
            self.__dict__.pop("versions", None)
            return self.render_page(request)
        response = redirect(self.table.get_captain_url())
        response.status_code = 303
        return response


def check_refusal_text(error: ValidationError) -> str:
    """What the phone says when a second player's check is refused: by the service's code, so the
    players learn what happened (and that nothing more is needed from them), not only the table's state."""
    texts = {
        RefusalCode.ROUND_CLOSED: _("The round has been closed in the meantime: your check was not stored. "
                                    "The organizer has the result."),
        RefusalCode.RESULT_FINAL: _("The organizer has already confirmed this result: your check is not "
                                    "needed any more."),
        RefusalCode.CHECK_OFF: _("This tournament has no confirmation at the table: the organizer confirms "
                                 "the result."),
        RefusalCode.ALREADY_CHECKED: _("Another player of the table checked this result a moment before you: "
                                       "nothing more to do."),
        RefusalCode.DISPUTED: _("This result is disputed: the organizer comes to the table and resolves it. "
                                "A check at the table no longer decides it."),
    }
    return str(texts.get(error.code, " ".join(error.messages)))


def deck_data(key: str) -> dict:
    """The deck for the card picker (codes and colours only; the server reads and totals hands).

    Number cards and the other cards get a grid each (`number`): ten narrow keys in one, the action
    cards with their longer names ("Aussetzen") in a grid of wider keys. Each colour's `letter` and each
    rank's `short` are as the page's language writes them (engine.notation: German "Ge9", "GrStop",
    "J"): what a key types into the field is what the chips and the stored report show on that page."""
    deck = get_deck(key)
    written = notation(get_language())
    return {
        "colours": [
            {"code": colour, "letter": written.colours.get(colour, colour)} for colour in deck.colours
        ],
        "ranks": [
            {"code": spec.code, "short": written.ranks.get(spec.code, spec.code), "black": spec.is_black,
             "number": spec.code.isdigit()}
            for spec in deck.ranks
        ],
    }


@dataclass(frozen=True)
class Chip:
    """One card of a typed hand: its short text, and the hand as typed without it (tapping removes it)."""

    card: Card
    without: str

    @property
    def text(self) -> str:
        return format_card(self.card, notation(get_language()))

    @property
    def css(self) -> str:
        return f"c-{self.card.colour}" if self.card.colour else "c-black"


@method_decorator(never_cache, name="dispatch")
class CaptainHandView(View):
    """The running total under a player's cards, computed by engine.notation as the captain types
    (the page asks, debounced): the phone never reads the notation itself, so it cannot disagree."""

    def get(self, request: HttpRequest, token: str) -> HttpResponse:
        table = table_by_token(token, blocked=ratelimit.blocked_exists(request))
        if table is None or table.blocked:
            window = ratelimit.blocked_window(request)
            if window is not None:
                response = HttpResponse(status=429)
                response["Retry-After"] = str(window.retry_after())
                return _private(response)
        if table is None:
            ratelimit.record_wrong_token(request)
            return _private(HttpResponse(status=404))
        deck = get_deck(table.round.tournament.deck)
        text = request.GET.get("cards", "")[:MAX_CARDS_LENGTH]
        letters = notation(get_language())  # tapping a chip leaves the rest in the page's language
        context: dict = {"typed": bool(text.strip())}
        try:
            cards = read_cards(text, deck)
        except NotationError as exc:
            context.update(ok=False, problem=exc.token)
        else:
            context.update(
                ok=True,
                points=hand_value(tuple(cards), deck),
                count=len(cards),
                chips=[
                    Chip(card=card, without=format_hand(tuple(cards[:n] + cards[n + 1 :]), letters))
                    for n, card in enumerate(cards)
                ],
            )
        return _private(render(request, "tournament/captain/_hand.html", context))
