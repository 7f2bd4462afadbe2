"""Organizer URLs: login required, only the tournament's own organizers."""

from django.urls import path

from .views import audit, backup, captain_links, clock

ROUND = "<int:tournament_pk>/rounds/<int:number>/"

urlpatterns = [
    path("<int:tournament_pk>/audit/", audit.AuditLogView.as_view(), name="audit"),
    path("<int:tournament_pk>/backup.json", backup.BackupDownloadView.as_view(), name="backup"),
    path(ROUND + "clock/start/", clock.ClockStartView.as_view(), name="clock_start"),
    path(ROUND + "clock/pause/", clock.ClockPauseView.as_view(), name="clock_pause"),
    path(ROUND + "clock/resume/", clock.ClockResumeView.as_view(), name="clock_resume"),
    path(ROUND + "clock/reset/", clock.ClockResetView.as_view(), name="clock_reset"),
    path(ROUND + "links/", captain_links.RoundLinksView.as_view(), name="round_links"),
    path(ROUND + "tables/<int:table_number>/", captain_links.TableDetailView.as_view(), name="table_detail"),
]
