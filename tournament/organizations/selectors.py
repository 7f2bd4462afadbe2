"""Reads of clubs (Organization). Which clubs a user administers, and the club a new tournament belongs
to, are questions of who may: `permissions.scopes.administered_clubs` and `own_club`."""

from __future__ import annotations

from django.db.models import QuerySet

from ..models import Organization, OrganizationLog


def organization_log(organization: Organization) -> QuerySet[OrganizationLog]:
    return organization.log.select_related("user")
