"""The tables of a club UNO tournament.

Results are versioned: a table's report is a `Submission` with one `SubmissionEntry` per seat, never
overwritten; a correction is a new version, and exactly one version per table can be the confirmed one.
Constraints live in the database, not only in code.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from enum import StrEnum

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from engine import text as engine_text
from engine.prizes import PotBasis, SharedPlaces, TableKind
from engine.rankings import Gender, GroupValue
from engine.scoring import EndRule, ScoringFormat
from engine.seating import PlanKind, TableFill
from engine.series import DEFAULT_SEASON_TIEBREAKS, SeasonPoints
from engine.standings import MissedRoundPolicy

from .audit.actions import AuditAction


def engine_choices(enum: type[StrEnum], labels: Mapping[StrEnum, str]) -> list[tuple[str, str]]:
    """A field's choices from one of the engine's enums: the values are the engine's, only the labels
    are added here, and a member without a label (or a label without a member) fails at start-up."""
    if set(labels) != set(enum):
        raise ImproperlyConfigured(f"labels of {enum.__name__} do not match its members")
    return [(member.value, labels[member]) for member in enum]


class Organization(models.Model):
    """The club (Verein) that owns tournaments, series and player records; its admins manage all of them.

    Not `Club`: that is the club a player plays for, shown in the standings."""

    name = models.CharField(_("name"), max_length=150, unique=True)
    admins = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("admins"), related_name="administered_organizations"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("organization")
        verbose_name_plural = _("organizations")

    def __str__(self) -> str:
        return self.name


class OrganizationLog(models.Model):
    """Who changed a club's admins: the tournament audit belongs to one tournament and cannot hold it."""

    class Action(models.TextChoices):
        CREATE = "create", _("club created")
        ADMIN_ADD = "admin_add", _("admin added")
        ADMIN_REMOVE = "admin_remove", _("admin removed")

    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="log")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    detail = models.CharField(_("detail"), max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.organization}: {self.get_action_display()} {self.detail}".strip()


def organization_field() -> models.ForeignKey:
    """Null: a record from before clubs (or of a user without a club); its organizers alone manage it."""
    return models.ForeignKey(
        Organization, verbose_name=_("organization"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="+", editable=False,
    )


class Club(models.Model):
    """Kept across tournaments, so a club's member list is typed once."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    # "The same club" (engine.text.name_key), kept on the row so every database compares it alike.
    name_key = models.TextField(editable=False, db_index=True, default="")

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name_key = engine_text.name_key(self.name)
        kwargs["update_fields"] = _with_key(kwargs.get("update_fields"), {"name"})
        super().save(*args, **kwargs)


def _with_key(update_fields, sources: set[str]):
    """A partial save that changes a name saves its key too."""
    if update_fields is None or not sources & set(update_fields):
        return update_fields
    return {*update_fields, "name_key"}


class Player(models.Model):
    """A person, kept across tournaments. Birth data decides who deals (oldest) and starts (youngest)."""

    first_name = models.CharField(_("first name"), max_length=80)
    last_name = models.CharField(_("last name"), max_length=80)
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    birth_date = models.DateField(_("date of birth"), null=True, blank=True)
    organization = organization_field()
    birth_year = models.PositiveSmallIntegerField(_("year of birth"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    GENDER_CHOICES = engine_choices(Gender, {
        Gender.FEMALE: _("female"),
        Gender.MALE: _("male"),
        Gender.DIVERSE: _("diverse"),
    })
    # Optional, never required: only for the category rankings.
    gender = models.CharField(_("gender"), max_length=1, choices=GENDER_CHOICES, blank=True)
    # None: not asked. Never assumed: a default would put everybody in the category Members (or Guests),
    # which then says nothing; a player whose membership is not known is in neither.
    member = models.BooleanField(
        _("club member"), null=True, blank=True, default=None, help_text=_("Guests are not members."),
    )
    # "The same person" (engine.text.person_key of the names): what every path compares, never the names.
    name_key = models.TextField(editable=False, db_index=True, default="")

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.CheckConstraint(
                condition=Q(birth_year__isnull=True) | Q(birth_year__gte=1900, birth_year__lte=2100),
                name="player_birth_year_plausible",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name_key = engine_text.person_key(self.first_name, self.last_name)
        kwargs["update_fields"] = _with_key(kwargs.get("update_fields"), {"first_name", "last_name"})
        super().save(*args, **kwargs)

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def sort_name(self) -> str:
        return f"{self.last_name}, {self.first_name}".strip(", ")

    @property
    def club_name(self) -> str:
        return self.club.name if self.club_id else ""

    @property
    def born(self) -> tuple[int, int, int] | None:
        """Birth as a comparable (year, month, day); month/day 0 when only the year is known."""
        if self.birth_date:
            return (self.birth_date.year, self.birth_date.month, self.birth_date.day)
        if self.birth_year:
            return (self.birth_year, 0, 0)
        return None


class TableConfirmation(models.TextChoices):
    """Whether a second player of the table confirms the captain's report on the captain's phone."""

    OFF = "off", _("off: the organizer confirms every result")
    PLAYER = "player", _("a second player of the table confirms")
    PLAYER_COUNTS = "counts", _("a second player confirms and the result counts")


class Tournament(models.Model):
    FILL_CHOICES = engine_choices(TableFill, {
        TableFill.SMALLER: _("tables one smaller"),
        TableFill.LARGER: _("tables one larger"),
    })
    SCORING_CHOICES = engine_choices(ScoringFormat, {
        ScoringFormat.MINUS_POINTS: _("minus points (lowest total wins)"),
        ScoringFormat.WINNER_COLLECTS: _("winner collects (highest total wins)"),
    })
    END_RULE_CHOICES = engine_choices(EndRule, {
        EndRule.ROUNDS: _("fixed number of rounds"),
        EndRule.THRESHOLD: _("until a total reaches the threshold"),
    })
    MISSED_ROUNDS_CHOICES = engine_choices(MissedRoundPolicy, {
        MissedRoundPolicy.RANK_AFTER: _("ranked after all players who played every round"),
        MissedRoundPolicy.CHARGE_HIGHEST: _("charged the highest score of that round"),
    })
    PRIZE_KIND_CHOICES = engine_choices(TableKind, {
        TableKind.PERCENT: _("percentages of the prize pot"),
        TableKind.FIXED: _("fixed amounts in euros"),
    })
    POT_BASIS_CHOICES = engine_choices(PotBasis, {
        PotBasis.COLLECTED: _("the entry fees actually collected"),
        PotBasis.NOMINAL: _("the entry fee times the paying players"),
    })
    SHARED_PLACES_CHOICES = engine_choices(SharedPlaces, {
        SharedPlaces.SPLIT: _("shared places split their prizes"),
        SharedPlaces.BOTH_FULL: _("shared places each get the full prize"),
    })

    name = models.CharField(_("name"), max_length=150)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=150, blank=True)
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("organizers"), related_name="organized_tournaments"
    )
    organization = organization_field()
    rounds_total = models.PositiveSmallIntegerField(_("number of rounds"), default=6)
    table_size = models.PositiveSmallIntegerField(_("preferred table size"), default=4)
    table_min = models.PositiveSmallIntegerField(_("smallest table"), default=3)
    table_max = models.PositiveSmallIntegerField(_("largest table"), default=5)
    fill = models.CharField(_("fill with"), max_length=10, choices=FILL_CHOICES, default=TableFill.SMALLER)
    scoring = models.CharField(
        _("scoring"), max_length=10, choices=SCORING_CHOICES, default=ScoringFormat.MINUS_POINTS
    )
    end_rule = models.CharField(_("end"), max_length=10, choices=END_RULE_CHOICES, default=EndRule.ROUNDS)
    threshold = models.PositiveIntegerField(_("threshold"), null=True, blank=True)
    tiebreaks = models.JSONField(_("tie-break order"), default=list, blank=True)
    missed_rounds = models.CharField(
        _("missed rounds"), max_length=10, choices=MISSED_ROUNDS_CHOICES,
        default=MissedRoundPolicy.RANK_AFTER,
    )
    time_limit_minutes = models.PositiveSmallIntegerField(
        _("time limit per round (minutes)"), null=True, blank=True,
        help_text=_("Empty: no time limit. With a limit, a round stopped by the clock has no winner."),
    )
    deck = models.CharField(_("deck"), max_length=20, default="classic")
    separate_clubs = models.BooleanField(_("keep clubs apart in round 1"), default=True)
    plan_all_rounds = models.BooleanField(_("plan all rounds at the start"), default=False)
    require_second_entry = models.BooleanField(
        _("require a second, independent entry of every result"), default=False
    )
    table_confirmation = models.CharField(
        _("confirmation at the table"), max_length=10, choices=TableConfirmation.choices,
        default=TableConfirmation.OFF,
        help_text=_("After the captain sends, a second player of the table confirms the result on the "
                    "captain's phone with their start number. “Counts”: a confirmed result without "
                    "warnings needs no organizer click."),
    )
    public = models.BooleanField(_("public page switched on"), default=False)
    logo = models.ImageField(_("club logo for certificates"), upload_to="logos/", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    signup_open = models.BooleanField(_("public sign-up switched on"), default=False)
    signup_capacity = models.PositiveSmallIntegerField(
        _("places"), null=True, blank=True, help_text=_("Empty: no limit. Once full, a waiting list."),
    )
    signup_deadline = models.DateTimeField(_("sign-up deadline"), null=True, blank=True)
    entry_fee_cents = models.PositiveIntegerField(_("entry fee (cents)"), default=0)
    payout_percent = models.PositiveSmallIntegerField(_("payout percentage of the entry fees"), default=0)
    pot_basis = models.CharField(
        _("prize pot from"), max_length=10, choices=POT_BASIS_CHOICES, default=PotBasis.COLLECTED,
    )
    # The cash record (Kassenbericht) the treasurer signs: the float in the till at the start, the cash
    # counted at the end (None: not counted yet) and what explains a difference.
    cash_float_cents = models.PositiveIntegerField(_("opening float (cents)"), default=0)
    cash_counted_cents = models.PositiveIntegerField(_("cash counted (cents)"), null=True, blank=True)
    cash_note = models.CharField(_("explanation of the difference"), max_length=500, blank=True)
    prize_kind = models.CharField(
        _("prize table"), max_length=10, choices=PRIZE_KIND_CHOICES, default=TableKind.PERCENT
    )
    prize_table = models.JSONField(_("prizes by place"), default=list, blank=True)
    shared_places = models.CharField(
        _("shared places"), max_length=10, choices=SHARED_PLACES_CHOICES, default=SharedPlaces.SPLIT
    )
    goods_prizes = models.JSONField(_("goods prizes"), default=list, blank=True)
    prize_overrides = models.JSONField(default=dict, blank=True, editable=False)
    series = models.ForeignKey(
        "Series", verbose_name=_("series"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="tournaments",
    )
    separate_teams = models.BooleanField(_("keep team-mates apart in every round"), default=True)
    # Silent final rounds (docs/rules.md §9): from this round on nobody but the organizers sees the
    # standings until they are revealed at the prize-giving.
    standings_hidden_from = models.PositiveSmallIntegerField(
        _("hide the standings from round"), null=True, blank=True,
        help_text=_("Empty: always shown. From this round on the projector, the public page and the "
                    "captains show no standings until you reveal them at the prize-giving."),
    )
    standings_revealed = models.BooleanField(_("standings revealed"), default=False, editable=False)
    # The prize-giving's step (0: "And the winners are …"): the evening's, so every projector shows it.
    reveal_step = models.PositiveSmallIntegerField(_("prize-giving step"), default=0, editable=False)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(table_min__gte=2, table_max__lte=10, table_min__lte=models.F("table_size"))
                & Q(table_size__lte=models.F("table_max")),
                name="tournament_table_sizes_ordered",
            ),
            models.CheckConstraint(condition=Q(rounds_total__gte=1), name="tournament_has_rounds"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%d.%m.%Y})"

    def get_absolute_url(self) -> str:
        return reverse("organizer:tournament", args=[self.pk])


class Registration(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("registered")
        CHECKED_IN = "checked_in", _("checked in")
        WITHDRAWN = "withdrawn", _("withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    start_number = models.PositiveIntegerField(_("start number"))
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.REGISTERED)
    withdrawn_after_round = models.PositiveSmallIntegerField(
        _("withdrawn after round"), null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["start_number"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="registration_player_once"),
            models.UniqueConstraint(fields=["tournament", "start_number"], name="registration_start_number"),
        ]

    def __str__(self) -> str:
        return f"{self.start_number} {self.player}"


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("seating drafted")
        PUBLISHED = "published", _("seating published")
        OPEN = "open", _("results open")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    seed = models.BigIntegerField(_("seating seed"), help_text=_("Recorded so the draw can be audited."))
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # Round clock: running while started_at is set and paused_remaining is empty.
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_seconds = models.PositiveIntegerField(null=True, blank=True)
    clock_paused_remaining = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament.name}: {_('round')} {self.number}"

    @property
    def accepts_desk_results(self) -> bool:
        """The organizer may type or confirm results: from publishing the seating until the close."""
        return self.status in {self.Status.PUBLISHED, self.Status.OPEN}

    @property
    def accepts_captain_results(self) -> bool:
        """The tables may report from their phones: only while the round is open for results."""
        return self.status == self.Status.OPEN


class SeatingPlan(models.Model):
    """The tournament's stored seating plan (`engine.seating.StoredPlan`, owned by `rounds`): the plan of
    all rounds the organizer made, or the plan round by round follows. Stored when it is made, so every
    request, in any server process, reads the same plan and seats the next round the same."""

    KIND_CHOICES = engine_choices(PlanKind, {
        PlanKind.ALL: _("all rounds planned"),
        PlanKind.FOLLOWED: _("plan followed round by round"),
    })

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="stored_plan")
    kind = models.CharField(_("kind"), max_length=10, choices=KIND_CHOICES)
    players = models.JSONField(_("players"), default=list)  # registration ids, sorted
    sizes = models.JSONField(_("table sizes"), default=list)
    seed = models.BigIntegerField(_("seating seed"))
    from_round = models.PositiveSmallIntegerField(_("first planned round"))
    rounds = models.JSONField(_("rounds"), default=list)  # from from_round on: tables of registration ids
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("seating plan")
        verbose_name_plural = _("seating plans")
        constraints = [
            models.CheckConstraint(condition=Q(from_round__gte=1), name="plan_from_round_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament.name}: {self.get_kind_display()}"


def new_table_token() -> str:
    """256 random bits, URL-safe: the captain link's only credential."""
    return secrets.token_urlsafe(32)


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        REPORTED = "reported", _("reported")
        CONFIRMED = "confirmed", _("confirmed")
        # A newer version arrived after the confirmation: the confirmed one still counts until the
        # organizer confirms again (docs/rules.md §7).
        CORRECTED = "corrected", _("corrected after confirmation")
        DISPUTED = "disputed", _("disputed")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    token = models.CharField(max_length=64, unique=True, default=new_table_token, editable=False)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.WAITING)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_number_once")]

    def __str__(self) -> str:
        return f"{_('Table')} {self.number}"

    def get_captain_url(self) -> str:
        return reverse("captain:table", args=[self.token])


class Seat(models.Model):
    """A registration at a table; position is the playing order (1 = first seat)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_once"),
            models.UniqueConstraint(fields=["round", "registration"], name="seat_player_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.table} / {self.position}: {self.registration}"


class Submission(models.Model):
    """One version of a table's result. Never updated except for its confirmation flag."""

    class Source(models.TextChoices):
        CAPTAIN = "captain", _("table captain")
        ORGANIZER = "organizer", _("organizer")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="submissions")
    version = models.PositiveIntegerField(_("version"))
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    token = models.CharField(_("link used"), max_length=64, blank=True)
    ip_address = models.GenericIPAddressField(_("address"), null=True, blank=True)
    # Sent by the captain's page with every attempt, so a repeated POST is recognised, never stored twice.
    idempotency_key = models.CharField(max_length=64, blank=True)
    stopped_by_time = models.BooleanField(_("stopped by the time limit"), default=False)
    warnings_confirmed = models.BooleanField(default=False)
    confirmed = models.BooleanField(_("confirmed"), default=False)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A second player of the table checked this version on the captain's phone (identified by their
    # start number): "agreed" ("Stimmt") or "disputed" ("Stimmt nicht", with the reason).
    player_check = models.CharField(
        _("checked at the table"), max_length=10, blank=True,
        choices=[("agreed", _("agreed")), ("disputed", _("disputed"))],
    )
    player_check_by = models.ForeignKey(
        "Registration", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("checked by"),
    )
    player_check_at = models.DateTimeField(null=True, blank=True)
    player_check_reason = models.CharField(_("reason"), max_length=300, blank=True)

    class Meta:
        ordering = ["table", "version"]
        verbose_name = _("submission")
        verbose_name_plural = _("submissions")
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="submission_version_once"),
            models.UniqueConstraint(
                fields=["table", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="submission_idempotent",
            ),
            models.UniqueConstraint(
                fields=["table"], condition=Q(confirmed=True), name="submission_one_confirmed_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} v{self.version}"


class SubmissionEntry(models.Model):
    """One seat's line of a submission: the cards as normalised notation and/or points."""

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="entries")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="entries")
    cards = models.CharField(_("cards"), max_length=400, blank=True)
    card_count = models.PositiveSmallIntegerField(_("cards in hand"), null=True, blank=True)
    hand_points = models.PositiveIntegerField(_("hand value"))
    score = models.IntegerField(_("round score"))
    went_out = models.BooleanField(_("went out"), default=False)

    class Meta:
        ordering = ["submission", "id"]
        verbose_name = _("result entry")
        verbose_name_plural = _("result entries")
        constraints = [
            models.UniqueConstraint(fields=["submission", "registration"], name="entry_player_once"),
        ]

    def __str__(self) -> str:
        return f"{self.submission}: {self.registration} {self.score}"


class AuditEntry(models.Model):
    """Who changed what, when: before and after, for results, seating, registrations and settings."""

    # Empty for what concerns a person's account, not an evening (a password reset link, a new password).
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="audit_entries"
    )
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor = models.CharField(_("by"), max_length=150, blank=True)
    action = models.CharField(_("action"), max_length=40, choices=AuditAction.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self) -> str:
        return f"{self.created_at:%H:%M:%S} {self.action}"


class Account(models.Model):
    """What the app keeps about a login beyond Django's user: whether its password must be changed.

    The first organizer's password is made up and printed by `make run` (setup_hall); until its owner
    picks their own, the app sends them to the password page after login and setup_hall reminds them.
    A row of its own, as Django's user has no such field and swapping the user model is not worth it.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account")
    password_change_due = models.BooleanField(_("password change due"), default=False)

    class Meta:
        verbose_name = _("account")
        verbose_name_plural = _("accounts")

    def __str__(self) -> str:
        return str(self.user)


def new_signup_token() -> str:
    """256 random bits: the registrant's private link to their status."""
    return secrets.token_urlsafe(32)


class Signup(models.Model):
    """A public sign-up before the day: a place (up to the capacity) or the waiting list."""

    class Status(models.TextChoices):
        CONFIRMED = "confirmed", _("has a place")
        WAITING = "waiting", _("waiting list")
        REFUSED = "refused", _("refused")
        WITHDRAWN = "withdrawn", _("withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="signups")
    first_name = models.CharField(_("first name"), max_length=80)
    last_name = models.CharField(_("last name"), max_length=80)
    club = models.CharField(_("club"), max_length=120, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("year of birth"))
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    member = models.BooleanField(_("club member"), null=True, blank=True, default=None)
    # Optional, as on the player's record it becomes at check-in: only for the women's and men's rankings.
    gender = models.CharField(
        _("gender"), max_length=1, choices=Player.GENDER_CHOICES, blank=True, default=""
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    # Order on the waiting list (and of sign-up): smaller first; the organizer may move people.
    queue = models.PositiveIntegerField(_("order"))
    token = models.CharField(max_length=64, unique=True, default=new_signup_token, editable=False)
    registration = models.OneToOneField(
        Registration, null=True, blank=True, on_delete=models.SET_NULL, related_name="signup"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "queue"]
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "queue"], name="signup_queue_once"),
            models.CheckConstraint(
                condition=Q(birth_year__gte=1900, birth_year__lte=2100), name="signup_birth_year_plausible"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    def get_status_url(self) -> str:
        return reverse("public:signup_status", args=[self.tournament_id, self.token])


class Payment(models.Model):
    """The entry fee collected at the door for one registration."""

    class Method(models.TextChoices):
        CASH = "cash", _("cash")
        TRANSFER = "transfer", _("transfer")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="payments")
    registration = models.OneToOneField(Registration, on_delete=models.CASCADE, related_name="payment")
    amount_cents = models.PositiveIntegerField(_("amount (cents)"))
    method = models.CharField(_("payment method"), max_length=10, choices=Method.choices)
    # Why less than the entry fee was taken (reduced or waived), as the cash record shows it.
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "created_at"]
        verbose_name = _("payment")
        verbose_name_plural = _("payments")

    def __str__(self) -> str:
        return f"{self.registration}: {self.amount_cents}"


class PrizeHandover(models.Model):
    """A prize handed over at the prize-giving: the money and the goods as they were at that moment."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prize_handovers")
    registration = models.OneToOneField(
        Registration, on_delete=models.CASCADE, related_name="prize_handover"
    )
    place = models.PositiveIntegerField(_("place"))
    amount_cents = models.PositiveIntegerField(_("amount (cents)"))
    goods = models.CharField(_("goods prize"), max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "place", "created_at"]
        verbose_name = _("prize handed over")
        verbose_name_plural = _("prizes handed over")

    def __str__(self) -> str:
        return f"{self.registration}: {self.amount_cents} {self.goods}"


class RateLimitWindow(models.Model):
    """One counted key (a client address, a hashed user name) and when its window ends.

    tournament/ratelimit.py counts failed logins and wrong captain links here: one UPDATE adds one, so
    parallel requests never count once for two, and the window ends when `window_ends` says, whatever
    happened in it (a cache's incr() would reset the expiry).
    """

    key = models.CharField(max_length=100, unique=True)
    count = models.PositiveIntegerField(default=0)
    window_ends = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.count} until {self.window_ends:%H:%M:%S}"


def default_season_tiebreaks() -> list[str]:
    return list(DEFAULT_SEASON_TIEBREAKS)


class Series(models.Model):
    """A series of evenings (Turnierserie) with its season ranking rule (`engine.series.SeasonRule`)."""

    POINTS_CHOICES = engine_choices(SeasonPoints, {
        SeasonPoints.BY_FIELD: _("points by place: the winner gets as many points as there were players"),
        SeasonPoints.BY_TABLE: _("points by place from a points table"),
        SeasonPoints.MINUS_POINTS: _("sum of the minus points"),
    })
    CLUB_VALUE_CHOICES = engine_choices(GroupValue, {
        GroupValue.SUM: _("sum"),
        GroupValue.AVERAGE: _("average"),
    })

    name = models.CharField(_("name"), max_length=150)
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("organizers"), related_name="organized_series"
    )
    organization = organization_field()
    points = models.CharField(
        _("season points"), max_length=10, choices=POINTS_CHOICES, default=SeasonPoints.BY_FIELD.value
    )
    points_table = models.JSONField(_("points table"), default=list, blank=True)
    best_of = models.PositiveSmallIntegerField(_("evenings that count"), null=True, blank=True)
    min_evenings = models.PositiveSmallIntegerField(_("minimum number of evenings"), default=0)
    attendance_bonus = models.PositiveSmallIntegerField(_("bonus per evening played"), default=0)
    free_misses = models.PositiveSmallIntegerField(_("missed evenings without deduction"), default=0)
    miss_deduction = models.PositiveSmallIntegerField(_("deduction per further missed evening"), default=0)
    members_only = models.BooleanField(_("only members are ranked"), default=False)
    tiebreaks = models.JSONField(_("tie-break order"), default=default_season_tiebreaks, blank=True)
    club_best = models.PositiveSmallIntegerField(_("players per club that count"), default=3)
    club_value = models.CharField(
        _("club value"), max_length=10, choices=CLUB_VALUE_CHOICES, default=GroupValue.SUM.value
    )
    junior_under = models.PositiveSmallIntegerField(_("juniors: younger than"), default=18)
    senior_from = models.PositiveSmallIntegerField(_("seniors: from the age of"), default=60)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("series")
        verbose_name_plural = _("series")
        constraints = [
            models.CheckConstraint(
                condition=Q(best_of__isnull=True) | Q(best_of__gte=1), name="series_best_of_positive"
            ),
            models.CheckConstraint(condition=Q(club_best__gte=1), name="series_club_best_positive"),
        ]

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    """A team declared before the evening: a name and 2 to 6 registered players."""

    MIN_MEMBERS = 2
    MAX_MEMBERS = 6

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=80)
    members = models.ManyToManyField(Registration, verbose_name=_("players"), related_name="teams")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="team_name_once")]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    """Who a person is for an evening (tournament/permissions.py maps each to what it may do). Organizers
    are `Tournament.organizers` / `Series.organizers`; helpers and viewers are `Membership` rows."""

    ORGANIZER = "organizer", _("organizer")
    HELPER = "helper", _("helper")
    VIEWER = "viewer", _("viewer")


MEMBER_ROLES = (Role.HELPER, Role.VIEWER)


class Membership(models.Model):
    """A helper or viewer of one tournament or of a series (then of every evening of the series)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE, related_name="memberships"
    )
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="memberships"
    )
    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(
        _("role"), max_length=10, choices=[(role.value, role.label) for role in MEMBER_ROLES]
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["role", "user__username"]
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
        constraints = [
            models.CheckConstraint(
                condition=Q(tournament__isnull=False, series__isnull=True)
                | Q(tournament__isnull=True, series__isnull=False),
                name="membership_tournament_xor_series",
            ),
            models.CheckConstraint(
                condition=Q(role__in=[role.value for role in MEMBER_ROLES]), name="membership_role_known"
            ),
            models.UniqueConstraint(
                fields=["user", "tournament"], condition=Q(tournament__isnull=False),
                name="membership_once_per_tournament",
            ),
            models.UniqueConstraint(
                fields=["user", "series"], condition=Q(series__isnull=False),
                name="membership_once_per_series",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role})"


class Invitation(models.Model):
    """A one-time link into a tournament's team: only the SHA-256 of its token is stored, so the link is
    shown once; it is used at most once (`used_at`) and expires (`expires_at`)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("valid until"))
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.role}"


class BackupFile(models.Model):
    """One backup file in the backups storage (written after a closed round). The list is read from
    here, not by listing the storage and asking each file's size on every view, and the clean-up
    (`prune_backups`) keeps a bounded number per tournament by these rows."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="backup_files")
    name = models.CharField(_("file name"), max_length=200, unique=True)
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    written_at = models.DateTimeField(_("written at"))
    size = models.PositiveBigIntegerField(_("size"))

    class Meta:
        ordering = ["-written_at", "-name"]
        indexes = [models.Index(fields=["tournament", "-written_at"], name="backupfile_tournament_newest")]
        verbose_name = _("backup file")
        verbose_name_plural = _("backup files")

    def __str__(self) -> str:
        return self.name


class PageSnapshot(models.Model):
    """What a page of the hall showed at one version of its evening (`tournament.live.pages`): shared by
    every app server through the database, so the standings are computed and drawn once per change, not
    once per reader. `version` is the evening's (`standings.versioning`); a row with another version is
    stale and is replaced by the next reader. Only the app writes `body` (its own pickled data)."""

    # Gone with its evening; the scope (page, address, language, viewer) names the tournament as well.
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    scope = models.CharField(max_length=255, unique=True)
    version = models.CharField(max_length=255)
    body = models.BinaryField()
    stored_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("page snapshot")
        verbose_name_plural = _("page snapshots")

    def __str__(self) -> str:
        return self.scope
