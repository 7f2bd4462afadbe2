"""Organizer URLs (namespace "organizer"): everything under /<tournament_pk>/ needs one of its organizers."""

from django.urls import path

from .views.organizer import (
    audit,
    backup,
    captain_links,
    clock,
    door,
    players,
    prizes,
    results,
    rounds,
    signups,
    standings,
    tournament,
)

T = "<int:tournament_pk>/"
R = T + "rounds/<int:number>/"

urlpatterns = [
    path("new/", tournament.TournamentCreateView.as_view(), name="tournament_create"),
    path(T, tournament.TournamentOverviewView.as_view(), name="tournament"),
    path(T + "settings/", tournament.TournamentEditView.as_view(), name="tournament_edit"),
    path(T + "delete/", tournament.TournamentDeleteView.as_view(), name="tournament_delete"),
    path(T + "players/", players.PlayersView.as_view(), name="players"),
    path(T + "players/add/", players.PlayerAddView.as_view(), name="player_add"),
    path(T + "players/<int:registration_pk>/", players.PlayerEditView.as_view(), name="player_edit"),
    path(
        T + "players/<int:registration_pk>/withdraw/",
        players.PlayerWithdrawView.as_view(),
        name="player_withdraw",
    ),
    path(
        T + "players/<int:registration_pk>/readmit/",
        players.PlayerReadmitView.as_view(),
        name="player_readmit",
    ),
    path(T + "players/import/", players.PlayersImportView.as_view(), name="players_import"),
    path(T + "checkin/", players.CheckinView.as_view(), name="checkin"),
    path(T + "checkin/<int:registration_pk>/", players.CheckinToggleView.as_view(), name="checkin_toggle"),
    path(T + "rounds/", rounds.RoundsView.as_view(), name="rounds"),
    path(T + "rounds/seat/", rounds.RoundSeatView.as_view(), name="round_seat"),
    path(T + "rounds/plan/", rounds.SeatingPlanCreateView.as_view(), name="seating_plan"),
    path(R, rounds.RoundView.as_view(), name="round"),
    path(R + "status/", rounds.RoundView.as_view(partial="status"), name="round_status"),
    path(R + "swap/", rounds.RoundSwapView.as_view(), name="round_swap"),
    path(R + "publish/", rounds.RoundPublishView.as_view(), name="round_publish"),
    path(R + "open/", rounds.RoundOpenView.as_view(), name="round_open"),
    path(R + "close/", rounds.RoundCloseView.as_view(), name="round_close"),
    path(R + "reopen/", rounds.RoundReopenView.as_view(), name="round_reopen"),
    path(R + "tables/<int:table_number>/result/", results.TableResultView.as_view(), name="table_result"),
    path(
        T + "submissions/<int:submission_pk>/confirm/",
        rounds.SubmissionConfirmView.as_view(),
        name="submission_confirm",
    ),
    path(T + "standings/", standings.StandingsView.as_view(), name="standings"),
    path(T + "standings/export/", standings.StandingsExportView.as_view(), name="standings_export"),
    path(R + "clock/start/", clock.ClockStartView.as_view(), name="clock_start"),
    path(R + "clock/pause/", clock.ClockPauseView.as_view(), name="clock_pause"),
    path(R + "clock/resume/", clock.ClockResumeView.as_view(), name="clock_resume"),
    path(R + "clock/reset/", clock.ClockResetView.as_view(), name="clock_reset"),
    path(R + "links/", captain_links.RoundLinksView.as_view(), name="round_links"),
    path(R + "tables/<int:table_number>/", captain_links.TableDetailView.as_view(), name="table_detail"),
    path(T + "audit/", audit.AuditLogView.as_view(), name="audit"),
    path(T + "backup.json", backup.BackupDownloadView.as_view(), name="backup"),
    path(T + "signups/", signups.SignupsView.as_view(), name="signups"),
    path(T + "signups/<int:signup_pk>/", signups.SignupActionView.as_view(), name="signup_action"),
    path(T + "signups/export.csv", signups.SignupsExportView.as_view(), name="signups_export"),
    path(T + "door/", door.DoorView.as_view(), name="door"),
    path(T + "door/signups/<int:signup_pk>/", door.DoorSignupCheckInView.as_view(), name="door_signup"),
    path(T + "door/players/<int:registration_pk>/", door.DoorPayView.as_view(), name="door_pay"),
    path(T + "door/walk-in/", door.DoorWalkInView.as_view(), name="door_walk_in"),
    path(T + "door/cash-report.csv", door.CashReportCsvView.as_view(), name="cash_report_csv"),
    path(T + "prizes/", prizes.PrizesView.as_view(), name="prizes"),
]
