"""`{% phase_nav %}`: the organizer's navigation by phase (tournament/navigation.py), for the page's
`tournament` and `section`, with the pages the user's role opens."""

from django import template

from tournament.navigation import organizer_navigation
from tournament.permissions import capabilities_of

register = template.Library()


@register.inclusion_tag("tournament/organizer/_phase_nav.html", takes_context=True)
def phase_nav(context):
    tournament = context["tournament"]
    allowed = capabilities_of(context["request"].user, tournament)
    phases = organizer_navigation(tournament.pk, context.get("section", ""), allowed)
    active = next((phase for phase in phases if phase.active), None)
    return {"phases": phases, "active": active}
