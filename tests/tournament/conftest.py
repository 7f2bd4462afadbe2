import pytest


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """PBKDF2 costs about a second per test user; these tests need no strong hashes."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def english(settings):
    """Assertions read the English source strings, whatever translations exist."""
    settings.LANGUAGE_CODE = "en"
