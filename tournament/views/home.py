"""The start page: the tournaments a visitor may follow and the ones they manage."""

from django.views.generic import ListView

from tournament.permissions import only_helps
from tournament.tournaments.selectors import managed_tournament_ids, visible_tournaments


class HomeView(ListView):
    """Tournaments: the organizer's own (to manage) and the public ones (to follow)."""

    template_name = "tournament/home.html"
    context_object_name = "tournaments"

    def get_queryset(self):
        return visible_tournaments(self.request.user)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["managed_ids"] = managed_tournament_ids(self.request.user)
        context["may_create"] = self.request.user.is_authenticated and not only_helps(self.request.user)
        return context
