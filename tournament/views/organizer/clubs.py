"""The club pages: the clubs a user administers, and one club with its admins (add, remove)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.utils.functional import cached_property
from django.views.generic import FormView, TemplateView, View

from tournament.models import Organization, Tournament
from tournament.organizations.forms import AdminAddForm, AdminRemoveForm, OrganizationCreateForm
from tournament.organizations.selectors import organization_log
from tournament.organizations.services import (
    organization_admin_add,
    organization_admin_remove,
    organization_create,
)
from tournament.permissions import OrganizingAccountMixin, administers
from tournament.permissions.scopes import administered_clubs

from .base import error_text


class ClubListView(OrganizingAccountMixin, FormView):
    """My clubs, and a new one (its founder is its first admin)."""

    template_name = "tournament/organizer/clubs.html"
    form_class = OrganizationCreateForm

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["organizations"] = administered_clubs(self.request.user).prefetch_related("admins")
        return context

    def form_valid(self, form):
        try:
            organization = organization_create(user=self.request.user, name=form.cleaned_data["name"])
        except ValidationError as error:
            form.add_error(None, error)
            return self.form_invalid(form)
        return redirect("organizer:club", organization.pk)


class ClubMixin(LoginRequiredMixin):
    """A page of one club: its admins (and superusers) only; anybody else gets 403, as on a tournament."""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if not administers(request.user, self.organization):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    @cached_property
    def organization(self) -> Organization:
        return get_object_or_404(Organization, pk=self.kwargs["organization_pk"])


class ClubView(ClubMixin, TemplateView):
    template_name = "tournament/organizer/club.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            organization=self.organization,
            admins=self.organization.admins.order_by("username"),
            tournaments=Tournament.objects.filter(organization=self.organization).order_by("-date", "name"),
            log=organization_log(self.organization)[:20],
            add_form=kwargs.get("add_form") or AdminAddForm(),
        )
        return context


class ClubAdminAddView(ClubMixin, View):
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        form = AdminAddForm(request.POST)
        if form.is_valid():
            try:
                organization_admin_add(
                    organization=self.organization, user=request.user, username=form.cleaned_data["username"]
                )
            except ValidationError as error:
                messages.error(request, error_text(error))
        else:
            messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return redirect("organizer:club", self.organization.pk)


class ClubAdminRemoveView(ClubMixin, View):
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        form = AdminRemoveForm(request.POST)
        if form.is_valid():
            try:
                organization_admin_remove(
                    organization=self.organization, user=request.user, admin_pk=form.cleaned_data["admin"]
                )
            except ValidationError as error:
                messages.error(request, error_text(error))
        return redirect("organizer:club", self.organization.pk)
