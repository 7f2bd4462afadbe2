"""Every model in the Django admin, for the rare repair by hand."""

from django.contrib import admin

from tournament.models import (
    AuditEntry,
    Club,
    Organization,
    OrganizationLog,
    Player,
    Registration,
    Round,
    Seat,
    Submission,
    SubmissionEntry,
    Table,
    Tournament,
)


@admin.register(Organization)
class OrganizationAdmin(admin.ModelAdmin):
    search_fields = ["name"]
    filter_horizontal = ["admins"]


@admin.register(OrganizationLog)
class OrganizationLogAdmin(admin.ModelAdmin):
    list_display = ["created_at", "organization", "action", "detail", "user"]
    list_filter = ["organization"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    search_fields = ["name"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "club", "birth_year", "birth_date"]
    list_filter = ["club"]
    search_fields = ["last_name", "first_name", "club__name"]


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "venue", "rounds_total", "scoring", "public"]
    search_fields = ["name", "venue"]
    filter_horizontal = ["organizers"]
    inlines = [RegistrationInline]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["start_number", "player", "tournament", "status", "withdrawn_after_round"]
    list_filter = ["tournament", "status"]
    search_fields = ["player__last_name", "player__first_name"]
    list_select_related = ["player", "tournament"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "status"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "seed", "published_at", "closed_at"]
    list_filter = ["tournament", "status"]
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["registration"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["round", "number", "status"]
    list_filter = ["round__tournament", "status"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["round", "table", "position", "registration"]
    list_select_related = ["round__tournament", "table", "registration__player"]
    raw_id_fields = ["registration", "table", "round"]


class SubmissionEntryInline(admin.TabularInline):
    model = SubmissionEntry
    extra = 0
    raw_id_fields = ["registration"]


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ["table", "version", "source", "created_at", "created_by", "ip_address", "confirmed"]
    list_filter = ["source", "confirmed", "table__round__tournament"]
    inlines = [SubmissionEntryInline]


@admin.register(SubmissionEntry)
class SubmissionEntryAdmin(admin.ModelAdmin):
    list_display = ["submission", "registration", "cards", "hand_points", "score", "went_out"]
    raw_id_fields = ["submission", "registration"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "tournament", "round", "table", "actor", "action"]
    list_filter = ["tournament", "action"]
    readonly_fields = [f.name for f in AuditEntry._meta.fields]
