from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("UNO tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from .people import sessions  # noqa: F401  (connects the login signal)
