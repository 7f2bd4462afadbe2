"""deploy/systemd: every unit and timer passes `systemd-analyze verify` (the paths of /srv/uno/app
pointed at this checkout, whose .venv has the programs the units start), and every timer starts a
service that exists."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "deploy" / "systemd"
ANALYZE = shutil.which("systemd-analyze")
VENV = Path(sys.executable).parent.parent


@pytest.fixture
def units(tmp_path) -> list[Path]:
    copies = []
    for unit in sorted(UNITS.glob("uno*")):
        copy = tmp_path / unit.name
        copy.write_text(unit.read_text().replace("/srv/uno/app/.venv", str(VENV)))
        copies.append(copy)
    return copies


def test_the_units_are_all_there():
    names = {unit.name for unit in UNITS.iterdir()}
    assert names == {
        "uno.service",
        "uno-clearsessions.service", "uno-clearsessions.timer",
        "uno-dump.service", "uno-dump.timer",
        "uno-backup-cleanup.service", "uno-backup-cleanup.timer",
    }
    for timer in UNITS.glob("*.timer"):
        assert (UNITS / timer.name.replace(".timer", ".service")).exists()


@pytest.fixture(scope="module")
def analyze(tmp_path_factory) -> str:
    """systemd-analyze, where it can verify at all: a unit that starts /bin/true must pass (inside a
    chroot without a running system it cannot, whatever the units say)."""
    if ANALYZE is None:
        pytest.skip("systemd-analyze is not installed")
    folder = tmp_path_factory.mktemp("known-good")
    unit = folder / "known-good.service"
    unit.write_text("[Unit]\nDescription=known good\n\n[Service]\nExecStart=/bin/true\n")
    result = subprocess.run([ANALYZE, "verify", str(unit)], capture_output=True, text=True, cwd=folder,
                            timeout=120)
    if result.returncode != 0 or result.stderr.strip():
        pytest.skip(f"systemd-analyze cannot verify here: {result.stderr.strip()[:200]}")
    return ANALYZE


def test_systemd_analyze_verifies_every_unit(analyze, units, tmp_path):
    result = subprocess.run([analyze, "verify", *map(str, units)], capture_output=True, text=True,
                            cwd=tmp_path, timeout=120)
    # Not only the exit status: unknown keys and bad values are warnings on stderr.
    assert (result.returncode, result.stderr.strip()) == (0, "")


def test_verify_notices_a_mistake(analyze, units, tmp_path):
    """The check can fail: a misspelt key is reported."""
    service = tmp_path / "uno.service"
    service.write_text(service.read_text().replace("Restart=on-failure", "Restrat=on-failure"))
    result = subprocess.run([analyze, "verify", str(service)], capture_output=True, text=True,
                            cwd=tmp_path, timeout=120)
    assert "Unknown key 'Restrat'" in result.stderr


def test_the_cleanup_and_clearsessions_commands_exist():
    """The commands the timers' services start are management commands of this checkout."""
    from django.core.management import get_commands

    commands = get_commands()
    assert "clearsessions" in commands
    assert "prune_backups" in commands
