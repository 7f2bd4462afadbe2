"""What every organizer page shares: the permission check, the sub-navigation, errors as messages."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.views.generic import FormView, TemplateView, View

from tournament.models import Round
from tournament.permissions import TournamentOrganizerMixin

# Lines of each category ranking on a page (standings, series); the exports and the PDFs list everyone.
CATEGORY_LINES = 10


def error_text(error: ValidationError) -> str:
    return " ".join(error.messages)


class OrganizerMixin(TournamentOrganizerMixin):
    """A page under /<tournament_pk>/…; `section` marks the active sub-navigation tab."""

    section = ""

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["section"] = self.section
        return context

    def render_partial(self, partial: str, context: dict | None = None):
        """Render one `{% partialdef %}` of this page's template (for htmx requests)."""
        self.template_name = f"{self.template_name}#{partial}"
        return self.render_to_response(context if context is not None else self.get_context_data())


class OrganizerPage(OrganizerMixin, TemplateView):
    pass


class OrganizerFormPage(OrganizerMixin, FormView):
    pass


class ActionMixin:
    """A POST-only action; service errors become messages on the page the user returns to.

    An action answered with its page (or the page's partial, for htmx) puts this mixin before that
    page's view class: the action *is* the page's view for its answer, so no view is built by hand."""

    http_method_names = ["post"]

    def fail(self, error: ValidationError) -> None:
        messages.error(self.request, error_text(error))


class OrganizerAction(ActionMixin, TournamentOrganizerMixin, View):
    """A POST-only action that answers with a redirect."""


class RoundMixin:
    """The one way a page finds its round: /<tournament_pk>/rounds/<number>/ within the checked
    tournament (after the tournament mixin), with that tournament attached, so nothing reads it twice."""

    @cached_property
    def round(self) -> Round:
        round_ = get_object_or_404(Round, tournament=self.tournament, number=self.kwargs["number"])
        round_.tournament = self.tournament
        return round_

    def round_url(self) -> str:
        return reverse("organizer:round", args=[self.tournament.pk, self.round.number])
