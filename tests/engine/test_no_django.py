"""The engine is pure Python: importing it must not need (or load) Django."""

import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[2]


def test_engine_imports_without_django():
    modules = sorted(f"engine.{m.name}" for m in pkgutil.iter_modules(engine.__path__))
    assert {
        "engine.cards",
        "engine.notation",
        "engine.validation",
        "engine.scoring",
        "engine.standings",
    } <= set(modules)
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules), 'django imported'\n"
        "print('ok')\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_engine_sources_do_not_mention_django_imports():
    for path in (ROOT / "engine").glob("*.py"):
        text = path.read_text()
        assert "import django" not in text and "from django" not in text, path


def test_gettext_noop_is_identity():
    from engine.i18n import gettext_noop

    assert gettext_noop("%(player)s x") == "%(player)s x"
