from django.db.models import Count, Q
from django.views.generic import ListView

from tournament.models import Tournament


class HomeView(ListView):
    """Tournaments: the organizer's own (to manage) and the public ones (to follow)."""

    template_name = "tournament/home.html"
    context_object_name = "tournaments"

    def get_queryset(self):
        user = self.request.user
        tournaments = Tournament.objects.all()
        if not user.is_superuser:
            visible = Q(public=True) | Q(organizers=user) if user.is_authenticated else Q(public=True)
            tournaments = tournaments.filter(visible).distinct()
        return (
            tournaments
            .annotate(player_count=Count("registrations", distinct=True))
            .order_by("-date", "name")
        )

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user = self.request.user
        context["managed_ids"] = (
            set(Tournament.objects.values_list("pk", flat=True))
            if user.is_superuser
            else set(user.organized_tournaments.values_list("pk", flat=True))
            if user.is_authenticated
            else set()
        )
        return context
