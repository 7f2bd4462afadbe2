"""Players of a tournament: add in place, edit, withdraw and readmit, import from files, merge."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.text import sort_key
from tournament.models import Player, Registration
from tournament.permissions import Capability
from tournament.players.forms import (
    ImportConfirmForm,
    ImportForm,
    KnownPlayersForm,
    PlayerAddForm,
    PlayerEditForm,
    PlayerMergeForm,
    SignedRowsField,
)
from tournament.players.imports import parse_upload
from tournament.players.selectors import (
    club_names,
    known_players,
    known_players_listed,
    mergeable_players,
    registered_keys,
    registration_counts,
    registrations,
)
from tournament.players.services import (
    player_merge,
    player_register,
    players_import,
    players_register_known,
    registration_readmit,
    registration_update,
    registration_withdraw,
)
from tournament.uploads import UploadLimitMixin

from .base import ActionMixin, OrganizerFormPage, OrganizerPage, error_text


def known_player_groups(tournament) -> list[tuple[str, list[Player]]]:
    """Players of earlier tournaments, grouped by club, for adding with one click."""
    groups: dict[str, list[Player]] = {}
    for player in known_players_listed(tournament):
        groups.setdefault(player.club_name, []).append(player)
    return sorted(groups.items(), key=lambda item: (item[0] == "", sort_key(item[0])))


PREVIEW_LINES = 100  # rows and problems the import preview lists; the rest is counted

class PlayersView(OrganizerPage):
    """The list, the add form and the known players; htmx swaps the whole section after every change."""

    capability = Capability.VIEW
    write_capability = Capability.PLAYERS

    template_name = "tournament/organizer/players.html"
    section = "players"
    form: PlayerAddForm | None = None

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            registrations=registrations(self.tournament),
            form=self.form or PlayerAddForm(),
            known_groups=known_player_groups(self.tournament),
            clubs=club_names(self.tournament),
            counts=registration_counts(self.tournament),
        )
        return context

    def section_response(self, form: PlayerAddForm | None = None):
        """Full page for plain requests, the players section for htmx."""
        self.form = form
        if self.request.htmx:
            return self.render_partial("section")
        return self.render_to_response(self.get_context_data())


class PlayerAddView(PlayersView):
    """Add one typed player, one known player (`known_player`), or a whole known club (`known_club`)."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        if "known_player" in request.POST or "known_club" in request.POST:
            return self.add_known()
        form = PlayerAddForm(request.POST)
        if not form.is_valid():
            return self.section_response(form)
        try:
            reg = player_register(
                tournament=self.tournament, user=request.user, check_in=form.cleaned_data["check_in"],
                **form.player_fields(),
            )
        except ValidationError as exc:
            form.add_error(None, error_text(exc))
            return self.section_response(form)
        messages.success(
            request,
            _("%(name)s has start number %(number)s.")
            % {"name": reg.player.name, "number": reg.start_number},
        )
        return self.section_response(PlayerAddForm(initial={"check_in": form.cleaned_data["check_in"]}))

    def add_known(self):
        form = KnownPlayersForm(self.request.POST, known=list(known_players(self.tournament)))
        if not form.is_valid():
            for error in form.errors.values():
                messages.error(self.request, " ".join(error))
            return self.section_response()
        added, refused = players_register_known(
            tournament=self.tournament, user=self.request.user, players=form.cleaned_data["players"]
        )
        for reason in refused:
            messages.error(self.request, reason)
        count = len(added)
        messages.success(
            self.request,
            ngettext("%(count)s player added.", "%(count)s players added.", count) % {"count": count},
        )
        return self.section_response()


class PlayerEditView(OrganizerFormPage):
    capability = Capability.PLAYERS
    write_capability = Capability.PLAYERS

    template_name = "tournament/organizer/player_form.html"
    section = "players"
    form_class = PlayerEditForm

    @cached_property
    def registration(self) -> Registration:
        return get_object_or_404(registrations(self.tournament), pk=self.kwargs["registration_pk"])

    def get_form(self, form_class=None):
        registration = self.registration
        if self.request.method == "POST":
            form = PlayerEditForm(self.request.POST)
        else:
            form = PlayerEditForm.for_player(registration.player)
        form.registration = registration
        return form

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["registration"] = context["form"].registration
        context["clubs"] = club_names(self.tournament)
        return context

    def form_valid(self, form):
        try:
            registration_update(
                registration=form.registration, user=self.request.user, **form.player_fields()
            )
        except ValidationError as exc:
            form.add_error(None, error_text(exc))
            return self.form_invalid(form)
        messages.success(self.request, _("Player saved."))
        return redirect("organizer:players", self.tournament.pk)


class RegistrationAction(ActionMixin, PlayersView):
    """Withdraw or readmit; answers htmx with the refreshed players section."""

    capability = Capability.PLAYERS
    write_capability = Capability.PLAYERS

    def change(self, registration: Registration) -> None:
        raise NotImplementedError

    def post(self, request, *args, **kwargs):
        registration = get_object_or_404(
            Registration.objects.select_related("player__club"),
            tournament=self.tournament,
            pk=kwargs["registration_pk"],
        )
        try:
            self.change(registration)
        except ValidationError as exc:
            self.fail(exc)
        if request.htmx:
            return self.section_response()
        return redirect("organizer:players", self.tournament.pk)


class PlayerWithdrawView(RegistrationAction):
    def change(self, registration):
        registration_withdraw(registration=registration, user=self.request.user)
        messages.success(
            self.request,
            _("%(name)s withdrawn: kept in the standings, not seated again.")
            % {"name": registration.player.name},
        )


class PlayerReadmitView(RegistrationAction):
    def change(self, registration):
        registration_readmit(registration=registration, user=self.request.user)
        messages.success(
            self.request,
            _("%(name)s is back and will be seated in the next round.") % {"name": registration.player.name},
        )


class PlayersImportView(UploadLimitMixin, OrganizerPage):
    """Upload → preview with line-numbered errors → import the valid rows with one more click.

    The preview carries the parsed rows in a signed field, so nothing is kept on the server meanwhile.
    The upload stops at ImportForm.MAX_BYTES while it arrives (tournament/uploads.py).
    """

    capability = Capability.PLAYERS
    write_capability = Capability.PLAYERS

    template_name = "tournament/organizer/players_import.html"
    section = "players"
    upload_form_class = ImportForm

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.setdefault("form", ImportForm())
        return context

    def upload_post(self, request, *args, **kwargs):
        if "rows" in request.POST:  # the preview's confirmation, not an upload
            return self.import_rows(request)
        form = ImportForm(request.POST, request.FILES)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form))
        upload = form.cleaned_data["file"]
        result = parse_upload(upload.name, upload.read())
        registered = registered_keys(self.tournament)
        new_rows = [r for r in result.rows if r.identity not in registered]
        return self.render_to_response(
            self.get_context_data(
                form=form,
                result=result,
                filename=upload.name,
                new_rows=new_rows,
                # A long list is summarised: its first lines, and how many more there are.
                preview_rows=new_rows[:PREVIEW_LINES],
                more_rows=max(0, len(new_rows) - PREVIEW_LINES),
                preview_errors=result.errors[:PREVIEW_LINES],
                more_errors=max(0, len(result.errors) - PREVIEW_LINES),
                already=len(result.rows) - len(new_rows),
                signed_rows=SignedRowsField().sign(new_rows),
            )
        )

    def import_rows(self, request):
        form = ImportConfirmForm(request.POST)
        if not form.is_valid():
            messages.error(request, " ".join(form.errors.get("rows", [])))
            return redirect("organizer:players_import", self.tournament.pk)
        added, problems = players_import(
            tournament=self.tournament, user=request.user, rows=form.cleaned_data["rows"],
            check_in=form.cleaned_data["check_in"],
        )
        for line, error in problems:
            messages.warning(request, _("Line %(line)s: %(error)s") % {"line": line, "error": error})
        messages.success(
            request,
            ngettext("%(count)s player imported.", "%(count)s players imported.", added) % {"count": added},
        )
        return redirect("organizer:players", self.tournament.pk)


class PlayerMergeView(OrganizerFormPage):
    """Two records of one person (two spellings) become one: their registrations move to the kept one."""

    capability = Capability.PLAYERS
    write_capability = Capability.PLAYERS

    template_name = "tournament/organizer/player_merge.html"
    section = "players"

    def get_form(self, form_class=None):
        players = mergeable_players(self.tournament)
        return PlayerMergeForm(self.request.POST or None, players=players)

    def form_valid(self, form):
        try:
            keep = player_merge(
                tournament=self.tournament, user=self.request.user, keep=form.cleaned_data["keep"],
                duplicate=form.cleaned_data["duplicate"],
            )
        except ValidationError as exc:
            form.add_error(None, error_text(exc))
            return self.form_invalid(form)
        messages.success(self.request, _("Merged into %(name)s.") % {"name": keep.name})
        return redirect("organizer:players", self.tournament.pk)
