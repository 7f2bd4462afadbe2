"""Organizer URLs."""

from django.urls import path

from .views import clock

ROUND = "<int:tournament_pk>/rounds/<int:number>/"

urlpatterns = [
    path(ROUND + "clock/start/", clock.ClockStartView.as_view(), name="clock_start"),
    path(ROUND + "clock/pause/", clock.ClockPauseView.as_view(), name="clock_pause"),
    path(ROUND + "clock/resume/", clock.ClockResumeView.as_view(), name="clock_resume"),
    path(ROUND + "clock/reset/", clock.ClockResetView.as_view(), name="clock_reset"),
]
