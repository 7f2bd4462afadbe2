"""Settings in one module, read from environment variables with safe defaults.

The defaults make `make run` ready for the hall: SQLite tuned for many writers, a secret key
generated once and kept outside git, DEBUG off, every host allowed on the local network.
"""

import hashlib
import json
import os
import secrets
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("UNO_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool = False) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


SECRET_KEY_MISSING = (
    "SECRET_KEY ist nicht gesetzt: mit einer anderen Datenbank als SQLite (DATABASE_URL) muss jeder "
    "App-Server denselben Schlüssel haben, sonst gelten Anmeldungen, Formulare und Links nur auf einem "
    "von ihnen. Setzen Sie SECRET_KEY auf allen Servern auf denselben Wert (docs/deploy.md). / "
    "SECRET_KEY is not set: with a database other than SQLite (DATABASE_URL) every app server needs the "
    "same key, or logins, forms and links work on one of them only. Set SECRET_KEY to the same value on "
    "every server (docs/deploy.md)."
)


def _secret_key(database_url: str) -> str:
    """An explicit SECRET_KEY wins; otherwise one is generated on first run and kept in var/.

    A key of one machine's var/ would differ on a second server sharing the database (sessions and
    signed cookies of one server would be refused by the other), so a shared database needs the key
    set explicitly: only the hall's SQLite, one machine by nature, may generate its own."""
    if key := os.environ.get("SECRET_KEY"):
        return key
    if database_url and not database_url.startswith("sqlite"):
        raise ImproperlyConfigured(SECRET_KEY_MISSING)
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


DATABASE_URL = os.environ.get("DATABASE_URL", "")
SECRET_KEY = _secret_key(DATABASE_URL)
DEBUG = env_bool("DEBUG")
# The hall laptop is reached by phones through its LAN address, which nobody knows in advance.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "*")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# The address printed in QR codes, shown on the table sheets and mailed; empty = the address of the
# request when Django checked its host (ALLOWED_HOSTS without "*") or it names this machine, else this
# machine's network address on SERVER_PORT (tournament/qr.py).
PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL", "").rstrip("/")
SERVER_PORT = int(os.environ.get("PORT", "8000"))

# Behind a reverse proxy that terminates HTTPS (the server set-up, docs/deploy.md): redirect plain HTTP,
# send cookies only over HTTPS, pin HTTPS with HSTS, and trust the proxy's X-Forwarded-Proto header.
# Off in the hall, where the laptop serves plain HTTP on the local network. UNO_HTTPS is an alias.
HTTPS = env_bool("HTTPS") or env_bool("UNO_HTTPS")
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", True)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_tables2",
    "template_partials",
    "tournament",
]

MIDDLEWARE = [
    # First: a proxy's probe passes neither the host check nor the HTTPS redirect (tournament/health/).
    "tournament.health.middleware.HealthMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "tournament.security_headers.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "tournament.urls"
WSGI_APPLICATION = "tournament.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL or f"sqlite:///{VAR_DIR / 'uno.sqlite3'}",
        # Keep connections between requests (one per gunicorn thread): opening one per request doubled
        # the captains' latency on PostgreSQL and re-ran SQLite's PRAGMAs each time (docs/performance.md).
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Many captains submit at once: WAL lets readers run beside the writer, IMMEDIATE takes the write
    # lock at the start of a transaction (no deadlocking upgrades), the timeout waits for the lock.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000; "
            "PRAGMA foreign_keys=ON;"
        ),
    }
    # Tests use a file as well: an in-memory database shared between threads runs in SQLite's shared
    # cache, whose table locks fail at once ("database table is locked") instead of waiting for the
    # busy timeout, so the concurrent-submission tests would not test what the hall runs. The file lies
    # in the temporary folder, one per checkout: tests write nothing into the checkout.
    checkout = hashlib.sha256(str(BASE_DIR).encode()).hexdigest()[:12]
    DATABASES["default"]["TEST"] = {"NAME": str(Path(tempfile.gettempdir()) / f"uno-test-{checkout}.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CAPTAIN_WRONG_TOKENS_ALLOWED = int(os.environ.get("CAPTAIN_WRONG_TOKENS_ALLOWED", "20"))
CAPTAIN_WRONG_TOKEN_WINDOW = int(os.environ.get("CAPTAIN_WRONG_TOKEN_WINDOW", "600"))
# Public sign-up: sign-up attempts per client address and window (seconds). A club signs up over its
# hall's Wi-Fi from one public address, so the address limit is high; the same name more often than
# SIGNUPS_PER_NAME in the window is refused, besides the honeypot and the duplicate warning
# (docs/deploy.md, "Public sign-up").
SIGNUPS_PER_ADDRESS = int(os.environ.get("SIGNUPS_PER_ADDRESS", "200"))
SIGNUPS_PER_NAME = int(os.environ.get("SIGNUPS_PER_NAME", "3"))
SIGNUP_WINDOW = int(os.environ.get("SIGNUP_WINDOW", "3600"))
# The registrant's private link is mailed with this backend (printed to the console by default); with
# SMTP (EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend) through EMAIL_HOST. The timeout keeps
# a mail server that does not answer from holding a gunicorn worker until gunicorn kills it: the
# sign-up is stored either way and its page shows the link.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "uno-turnier@localhost")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")  # STARTTLS, usually port 587
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL")  # TLS from the start, usually port 465
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL exclude each other: set one of them.")
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "10"))
# Only behind a reverse proxy of our own, which appends the client's address to X-Forwarded-For
# (on by default with HTTPS, the proxy set-up of docs/deploy.md).
TRUST_X_FORWARDED_FOR = env_bool("TRUST_X_FORWARDED_FOR", HTTPS)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

# Django's cache, shared by all gunicorn workers (a per-process cache would let each keep its own): a
# file cache needs no service. Failed logins and wrong captain links are counted in the database
# (tournament/ratelimit.py), where windows end exactly and parallel requests are all counted.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(VAR_DIR / "cache"),
    }
}
# Login attempts (tournament/views/auth.py): after LOGIN_FAILURE_LIMIT failures within the window, one
# address may not try that user name again until the window has passed, and the name is slowed to one
# attempt per LOGIN_SLOW_SECONDS from devices it never logged in on; one address may fail
# LOGIN_ADDRESS_FAILURE_LIMIT times for any names.
LOGIN_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
LOGIN_FAILURE_WINDOW = int(os.environ.get("LOGIN_FAILURE_WINDOW", "300"))
LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("LOGIN_ADDRESS_FAILURE_LIMIT", "20"))
LOGIN_SLOW_SECONDS = int(os.environ.get("LOGIN_SLOW_SECONDS", "30"))

# A password reset link (/account/people/, made by an organizer for somebody they work with) works
# once, for 24 hours; one address may open this many links that do not work within the window.
PASSWORD_RESET_TIMEOUT = 24 * 3600
ACCOUNT_RESET_FAILURE_LIMIT = int(os.environ.get("ACCOUNT_RESET_FAILURE_LIMIT", "20"))
ACCOUNT_RESET_FAILURE_WINDOW = int(os.environ.get("ACCOUNT_RESET_FAILURE_WINDOW", "600"))
# An invitation link (7 days, used once): one address may open this many unknown links in the window.
INVITATION_FAILURE_LIMIT = int(os.environ.get("INVITATION_FAILURE_LIMIT", "20"))
INVITATION_FAILURE_WINDOW = int(os.environ.get("INVITATION_FAILURE_WINDOW", "600"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "de"
LANGUAGES = [("de", "Deutsch"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Berlin")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or VAR_DIR / "staticfiles")
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))


def _storage(prefix: str, default: str) -> dict:
    """A storage from `<prefix>_STORAGE` (a dotted class) and `<prefix>_STORAGE_OPTIONS` (JSON): with
    several app servers, uploaded logos and backups must live where every server reaches them (a shared
    folder or an object store, docs/deploy.md). By default a folder in var/, as on the hall laptop."""
    backend = os.environ.get(f"{prefix}_STORAGE", "") or default
    try:
        options = json.loads(os.environ.get(f"{prefix}_STORAGE_OPTIONS", "") or "{}")
    except json.JSONDecodeError as exc:
        raise ImproperlyConfigured(f"{prefix}_STORAGE_OPTIONS is not valid JSON: {exc}") from None
    if not isinstance(options, dict):
        raise ImproperlyConfigured(f"{prefix}_STORAGE_OPTIONS must be a JSON object")
    return {"BACKEND": backend, "OPTIONS": options}


# Logos and backups are written readable and folders writable by the group (not by others), so app
# servers running as different users of one group on a shared folder read and prune each other's files
# (the setgid bit gives new files the folder's group).
FILE_UPLOAD_PERMISSIONS = 0o640
FILE_UPLOAD_DIRECTORY_PERMISSIONS = 0o2770
# Every closed round writes a full backup of its tournament to the "backups" storage
# (tournament/backup/services.py): the folder BACKUP_DIR unless BACKUP_STORAGE names another storage.
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR", VAR_DIR / "backups"))
# How many backups of each tournament `manage.py prune_backups` keeps (the newest; six rounds an evening).
BACKUPS_KEPT = int(os.environ.get("BACKUPS_KEPT", "12"))
STORAGES = {
    # Uploaded logos: MEDIA_ROOT unless MEDIA_STORAGE names another storage.
    "default": _storage("MEDIA", "django.core.files.storage.FileSystemStorage"),
    "backups": _storage("BACKUP", "tournament.storage.BackupFolderStorage"),
    # Hashed names (collectstatic writes them: `make run` and the server's update steps), so WhiteNoise
    # sends them with a year's max-age (tournament/storage.py).
    "staticfiles": {
        "BACKEND": "tournament.storage.StaticStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# The seating search's budget, as a multiple of the engine's (1: its full budget; a round of 200 takes
# under 0.3 s, a small, hard field up to a few seconds). A slow laptop can take less (0.5); the tests
# of the app's flows take a small fraction, the engine's own tests judge the search at the full budget.
SEATING_EFFORT = float(os.environ.get("SEATING_EFFORT", "1"))
# The hall's polled pages (public page, projector) are drawn once per change of their evening and
# stored in the database for every reader and app server (tournament/live/pages.py). The test suite
# draws them on every request (tests/conftest.py), so its tests read the page's context; the tests of
# the store itself switch it on.
STORED_PAGES = True
# Serve from the source folders as well, so tests and `runserver` work without collectstatic.
WHITENOISE_USE_FINDERS = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Security headers (tournament/security_headers.py sets the Content-Security-Policy and the
# Permissions-Policy). Referrer-Policy same-origin: a page's address (a captain link holds its
# table's secret) is never sent to another site; within the app it is, as Django's CSRF check on
# HTTPS needs it. CONTENT_SECURITY_POLICY may override single directives, e.g. {"img-src": "'self'"}.
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
CONTENT_SECURITY_POLICY: dict[str, str] = {}
