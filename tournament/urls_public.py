"""Public URLs: the tournament page, its seat lookup and the projector (when switched on)."""

from django.urls import path

from .views import projector, public, signup

urlpatterns = [
    path("<int:tournament_pk>/", public.PublicTournamentView.as_view(), name="tournament"),
    path("<int:tournament_pk>/seat-lookup/", public.SeatLookupView.as_view(), name="seat_lookup"),
    path("<int:tournament_pk>/projector/", projector.ProjectorView.as_view(), name="projector"),
    path("<int:tournament_pk>/signup/", signup.SignupView.as_view(), name="signup"),
    path(
        "<int:tournament_pk>/signup/<str:signup_token>/",
        signup.SignupStatusView.as_view(),
        name="signup_status",
    ),
    path("<int:tournament_pk>/series/", public.PublicSeriesView.as_view(), name="series"),
    path(
        "<int:tournament_pk>/series/<int:player_pk>/", public.PublicSeasonCardView.as_view(),
        name="series_player",
    ),
]
