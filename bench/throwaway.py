"""A throw-away database for a bench: Django set up on SQLite in a temporary folder, migrated, every
host allowed (the test client asks as "testserver"). Call once, before importing the app."""

from __future__ import annotations

import os


def setup_django(var_dir: str) -> None:
    os.environ["UNO_VAR_DIR"] = var_dir
    os.environ.pop("DATABASE_URL", None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.settings"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    settings.ALLOWED_HOSTS = ["*"]
