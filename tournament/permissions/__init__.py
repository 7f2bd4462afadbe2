"""Who may see and change what: the one owner of the rule.

- `roles`: who somebody is for a tournament, a series or a club (the only code that reads superusers,
  organizers, club admins and memberships);
- `capabilities`: what each role may do, one map for all three levels (`can`, `require`);
- `scopes`: the querysets every list and every lookup by id starts from (by who asks, or by the club
  that owns the evening);
- `views`: the mixins that check a page's capability.

Models, selectors, services, views and navigation ask here; nothing repeats it.
"""

from .capabilities import CAPABILITIES, Capability, can, capabilities_of, require
from .roles import (
    administers,
    forget_roles,
    is_superuser,
    only_helps,
    organizes,
    role_of,
)
from .views import (
    OrganizingAccountMixin,
    TournamentOrganizerMixin,
    may_open,
)

__all__ = [
    "CAPABILITIES",
    "Capability",
    "OrganizingAccountMixin",
    "TournamentOrganizerMixin",
    "administers",
    "can",
    "capabilities_of",
    "forget_roles",
    "is_superuser",
    "may_open",
    "only_helps",
    "organizes",
    "require",
    "role_of",
]
