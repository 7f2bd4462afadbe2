"""URLs split by audience: organizer, table captain (token only), public and projector, print."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

from .views import account, auth, home, invitation
from .views.organizer import backup

urlpatterns = [
    path("", home.HomeView.as_view(), name="home"),
    path("accounts/login/", auth.RateLimitedLoginView.as_view(), name="login"),
    path("account/", account.AccountView.as_view(), name="account"),
    path("account/people/", account.PeopleView.as_view(), name="account_people"),
    path(
        "account/people/<int:user_pk>/reset-link/", account.ResetLinkView.as_view(), name="account_reset_link"
    ),
    path("account/reset/<str:uidb64>/<str:reset_token>/", account.ResetView.as_view(), name="account_reset"),
    path("restore/", backup.RestoreView.as_view(), name="restore"),
    path("invite/<str:invitation_token>/", invitation.InvitationView.as_view(), name="invitation"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    # The admin's own login has no attempt limit: send it to the limited one.
    path("admin/login/", RedirectView.as_view(pattern_name="login", query_string=True)),
    path("admin/", admin.site.urls),
    path("t/", include(("tournament.urls_captain", "captain"))),
    path("p/", include(("tournament.urls_public", "public"))),
    path("print/", include(("tournament.urls_print", "print"))),
    path("", include(("tournament.urls_organizer", "organizer"))),
]
