"""A person's own account (name, password) and the password reset links organizers hand over.

No e-mail in the hall: somebody who forgot their password asks an organizer they work with, who makes
a link on /account/people/ and shows it (or its QR code) once; the link sets a new password once
within 24 hours (`tournament.accounts.tokens`). The reset page is public, counted per address
(`tournament.ratelimit`) before its token is checked, and never sends its address on (Referer).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.cache import never_cache
from django.views.generic import TemplateView

from tournament import ratelimit
from tournament.accounts import selectors, services, tokens
from tournament.accounts.forms import NameForm, PasswordChangeForm, SetPasswordForm
from tournament.qr import absolute_url, qr_svg, unreachable_address


class AccountView(LoginRequiredMixin, TemplateView):
    """Name and password of the logged-in person; one form per POST (`form` says which)."""

    template_name = "tournament/account/account.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user = self.request.user
        context.setdefault("name_form", NameForm(initial={"first_name": user.first_name,
                                                          "last_name": user.last_name}))
        context.setdefault("password_form", PasswordChangeForm(user=user))
        context["due"] = selectors.password_change_due(user)
        context["works_with_people"] = selectors.people_of(user).exists()
        return context

    def post(self, request, *args, **kwargs):
        if request.POST.get("form") == "name":
            return self.change_name(request)
        return self.change_password(request)

    def change_name(self, request):
        form = NameForm(request.POST)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(name_form=form), status=400)
        services.name_change(user=request.user, **form.cleaned_data)
        messages.success(request, _("Your name is saved."))
        return redirect("account")

    def change_password(self, request):
        form = PasswordChangeForm(request.POST, user=request.user)
        if form.is_valid():
            try:
                services.password_change(
                    user=request.user, old_password=form.cleaned_data["old_password"],
                    new_password=form.cleaned_data["new_password1"],
                )
            except ValidationError as exc:
                form.add_error("old_password" if exc.code == services.RefusalCode.WRONG_PASSWORD
                               else "new_password1", exc)
            else:
                update_session_auth_hash(request, request.user)  # this session stays logged in
                request.session.pop(selectors.DUE_SESSION_KEY, None)
                messages.success(request, _("Your new password is saved."))
                return redirect("account")
        return self.render_to_response(self.get_context_data(password_form=form), status=400)


class PeopleView(LoginRequiredMixin, TemplateView):
    """The people the organizer works with, each with a button for a password reset link."""

    template_name = "tournament/account/people.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["people"] = selectors.people_of(self.request.user)
        context.setdefault("link", None)
        return context




@method_decorator(never_cache, name="dispatch")
class ResetLinkView(LoginRequiredMixin, View):
    """Make a reset link for one person and show it once: in this answer only, never stored."""

    http_method_names = ["post"]

    def post(self, request, user_pk: int):
        person = get_object_or_404(selectors.people_of(request.user), pk=user_pk)
        link = services.reset_link_create(user=request.user, person=person)
        url = absolute_url(reverse("account_reset", args=[link.uidb64, link.token]), request)
        link_shown = {"person": person, "url": url, "qr": qr_svg(url, scale=4),
                      "unreachable": unreachable_address(request)}
        response = render(request, PeopleView.template_name,
                          {"people": selectors.people_of(request.user), "link": link_shown})
        response["Referrer-Policy"] = "no-referrer"
        return response


def _private(response: HttpResponse) -> HttpResponse:
    """The link is a secret: never sent on as a Referer, never indexed."""
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _reset_key(request: HttpRequest) -> str:
    return "account-reset:" + ratelimit.client_ip(request)


@method_decorator(never_cache, name="dispatch")
class ResetView(View):
    """The page a reset link opens: a new password, twice. Every request is counted for its address
    before the token is checked and forgiven when the link works, so an address that keeps opening
    links that do not work is told to wait (429) without any token being checked."""

    template_name = "tournament/account/reset.html"

    def dispatch(self, request, uidb64: str, reset_token: str):
        window = ratelimit.hit(_reset_key(request), settings.ACCOUNT_RESET_FAILURE_WINDOW)
        if window.count > settings.ACCOUNT_RESET_FAILURE_LIMIT:
            response = render(request, self.template_name, {"refused": True}, status=429)
            response["Retry-After"] = str(window.retry_after())
            return _private(response)
        self.person = tokens.user_of(uidb64)
        self.token = reset_token
        if not tokens.check_token(self.person, reset_token):
            return _private(render(request, self.template_name, {"invalid": True}, status=404))
        ratelimit.forgive(_reset_key(request))
        return _private(super().dispatch(request))

    def get(self, request):
        return render(request, self.template_name, {"form": SetPasswordForm(user=self.person),
                                                    "person": self.person})

    def post(self, request):
        form = SetPasswordForm(request.POST, user=self.person)
        if form.is_valid():
            try:
                services.password_reset(person=self.person, token=self.token,
                                        new_password=form.cleaned_data["new_password1"])
            except ValidationError as exc:
                if exc.code == services.RefusalCode.LINK_INVALID:
                    return render(request, self.template_name, {"invalid": True}, status=404)
                form.add_error("new_password1", exc)
            else:
                messages.success(request, _("Your new password is set. Please log in with it."))
                return redirect("login")
        return render(request, self.template_name, {"form": form, "person": self.person}, status=400)
