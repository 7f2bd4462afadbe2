"""`{% phase_nav %}`: the organizer's navigation by phase (tournament/navigation.py), for the page's
`tournament` and `section`."""

from django import template

from tournament.navigation import organizer_navigation

register = template.Library()


@register.inclusion_tag("tournament/organizer/_phase_nav.html", takes_context=True)
def phase_nav(context):
    phases = organizer_navigation(context["tournament"].pk, context.get("section", ""))
    active = next((phase for phase in phases if phase.active), None)
    return {"phases": phases, "active": active}
