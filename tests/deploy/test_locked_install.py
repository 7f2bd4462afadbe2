"""The same install on every machine: requirements/*.txt pin every package with its hashes, the venv
holds exactly those versions, the floors in pyproject.toml are ones the app works with, and what is
fetched outside Python (htmx, axe-core) is pinned as well."""

from __future__ import annotations

import re
import subprocess
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from django.test import Client
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9_.\-\[\]]+)==([^\s;\\]+)")


def locked(name: str, *, here_only: bool = False) -> dict[str, str]:
    """Package -> version of a lock file; asserts every pin carries at least one hash. `here_only`:
    only the packages this machine installs (the lock serves other platforms too)."""
    pins: dict[str, str] = {}
    lines = (ROOT / "requirements" / name).read_text().splitlines()
    for number, line in enumerate(lines):
        match = PIN.match(line)
        if match is None:
            continue
        assert lines[number + 1].strip().startswith("--hash=sha256:"), f"{name}: {line} has no hash"
        marker = line.split(";", 1)[1].rstrip(" \\") if ";" in line else None
        if here_only and marker and not Marker(marker).evaluate():
            continue
        pins[canonicalize_name(match[1].split("[")[0])] = match[2]
    return pins


def declared(extra: str | None = None) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = project["dependencies"] + (project["optional-dependencies"][extra] if extra else [])
    return [Requirement(text) for text in requirements]


@pytest.mark.parametrize(("lock", "extra"), [("run.txt", None), ("test.txt", "test")])
def test_every_declared_package_is_locked_within_its_range(lock, extra):
    pins = locked(lock)
    for requirement in declared(extra):
        version = pins.get(canonicalize_name(requirement.name))
        assert version is not None, f"{requirement.name} is not in requirements/{lock}"
        assert requirement.specifier.contains(version), f"{requirement.name} {version} outside {requirement}"


def test_the_venv_holds_the_locked_versions():
    """scripts/python-packages.sh installs as locked (this venv was set up with `test`)."""
    different = {
        name: (version, metadata.version(name))
        for name, version in locked("test.txt", here_only=True).items()
        if _installed(name) and metadata.version(name) != version
    }
    missing = [name for name in locked("test.txt", here_only=True) if not _installed(name)]
    assert (different, missing) == ({}, [])


def _installed(name: str) -> bool:
    try:
        metadata.version(name)
    except metadata.PackageNotFoundError:
        return False
    return True


def test_uv_itself_is_pinned():
    assert list(locked("uv.txt")) == ["uv"]


def test_floors_are_the_versions_the_app_needs():
    """The lowest versions that work (issue: lower ones break pages, PDFs, gunicorn's config or lint)."""
    floors = {canonicalize_name(r.name): str(r.specifier) for r in declared("test")}
    assert floors["django-htmx"] == ">=1.25"
    assert floors["weasyprint"] == ">=70"
    assert floors["gunicorn"] == ">=25.1"
    assert floors["pypdf"] == ">=7.1"
    assert floors["ruff"] == f"=={locked('test.txt')['ruff']}"
    # Used by the app directly, so declared, not left to arrive through WeasyPrint or openpyxl.
    assert {"pillow", "brotli", "defusedxml"} <= set(floors)


def test_axe_core_is_pinned():
    script = (ROOT / "scripts" / "npm-packages.sh").read_text()
    version = re.search(r"^AXE_CORE=(\d+\.\d+\.\d+)$", script, re.MULTILINE)
    assert version is not None
    package = ROOT / ".npm-test" / "node_modules" / "axe-core" / "package.json"
    if package.exists():
        import json

        assert json.loads(package.read_text())["version"] == version[1]


@pytest.mark.django_db
def test_pages_load_the_pinned_htmx():
    page = Client().get("/accounts/login/").content.decode()
    scripts = re.findall(r'<script src="([^"]*htmx[^"]*)"', page)
    assert scripts == ["/static/js/htmx-2.0.10.min.js"]
    assert 'version:"2.0.10"' in (ROOT / "static" / "js" / "htmx-2.0.10.min.js").read_text()


def test_the_lock_files_are_what_lock_sh_writes(tmp_path):
    """Nobody edited a lock file by hand: compiling pyproject.toml again gives the same pins (from uv's
    cache when it has the files; skipped without a network and cache)."""
    uv = ROOT / ".venv" / "bin" / "uv"
    if not uv.exists():
        pytest.skip("uv is not installed")
    result = subprocess.run(
        [str(uv), "pip", "compile", "--quiet", "--offline", "--python-version", "3.11", "--universal",
         "--no-header", "--annotation-style", "line", "pyproject.toml", "--extra", "test", "-o",
         str(tmp_path / "test.txt")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "UV_CACHE_DIR": str(Path.home() / ".cache" / "uv")},
    )
    if result.returncode != 0:
        pytest.skip(f"uv could not resolve offline: {result.stderr[:200]}")
    fresh = {m[1]: m[2] for m in map(PIN.match, (tmp_path / "test.txt").read_text().splitlines()) if m}
    assert {canonicalize_name(k): v for k, v in fresh.items()} == locked("test.txt")
