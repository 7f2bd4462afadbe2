"""The WSGI module loads every view before gunicorn forks its workers (gunicorn.conf.py: preload_app)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.one_database  # what the WSGI module imports

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_wsgi_application_imports_the_views_and_weasyprint(tmp_path):
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="tournament.settings", UNO_VAR_DIR=str(tmp_path),
               DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", PYTHONPATH=str(ROOT))
    modules = ("tournament.urls", "tournament.views.captain", "weasyprint")
    code = f"import sys, tournament.wsgi; print(*(name in sys.modules for name in {modules!r}))"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "True"]
