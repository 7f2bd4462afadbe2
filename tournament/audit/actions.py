"""Every action the audit log records, with its label: one vocabulary for the services and the log page."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class AuditAction(models.TextChoices):
    TOURNAMENT_CREATE = "tournament_create", _("tournament created")
    TOURNAMENT_UPDATE = "tournament_update", _("settings changed")
    TOURNAMENT_LOGO = "tournament_logo", _("club logo changed")
    TOURNAMENT_RESTORE = "tournament_restore", _("restored from a backup")
    REGISTRATION_ADD = "registration_add", _("player registered")
    REGISTRATION_UPDATE = "registration_update", _("player data changed")
    CHECK_IN = "check_in", _("checked in")
    CHECK_IN_UNDO = "check_in_undo", _("check-in undone")
    WITHDRAW = "withdraw", _("withdrawn")
    READMIT = "readmit", _("readmitted")
    SEATING_PLAN = "seating_plan", _("all rounds planned")
    ROUND_SEAT = "round_seat", _("seating drawn")
    ROUND_SWAP = "round_swap", _("players swapped")
    ROUND_PUBLISH = "round_publish", _("seating published")
    ROUND_OPEN = "round_open", _("round opened for results")
    ROUND_CLOSE = "round_close", _("round closed")
    ROUND_REOPEN = "round_reopen", _("round reopened")
    ROUND_DELETE = "round_delete", _("drafted round deleted")
    CLOCK_START = "clock_start", _("round clock started")
    CLOCK_PAUSE = "clock_pause", _("round clock paused")
    CLOCK_RESUME = "clock_resume", _("round clock resumed")
    CLOCK_RESET = "clock_reset", _("round clock removed")
    TOKEN_NEW = "token_new", _("new captain link")
    RESULT_SUBMIT = "result_submit", _("result submitted")
    RESULT_CONFIRM = "result_confirm", _("result confirmed")
    SERIES_CREATE = "series_create", _("series created")
    SERIES_UPDATE = "series_update", _("series ranking rule changed")
    SERIES_JOIN = "series_join", _("tournament joined a series")
    SERIES_LEAVE = "series_leave", _("tournament left its series")
    PLAYER_MERGE = "player_merge", _("two player records merged")
    TEAM_CREATE = "team_create", _("team declared")
    TEAM_DELETE = "team_delete", _("team removed")
    TEAMS_SEPARATE = "teams_separate", _("seating of team-mates changed")
