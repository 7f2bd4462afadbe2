import pytest


@pytest.fixture(autouse=True)
def isolated_cache(settings):
    """Each test gets an empty in-memory cache (the login attempt counters live there)."""
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tests"}
    }
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def backup_dir(settings, tmp_path):
    """Backups written when a round closes go to a temporary folder, never into var/."""
    settings.BACKUP_DIR = tmp_path / "backups"
    return settings.BACKUP_DIR
