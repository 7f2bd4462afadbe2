"""Time the PDFs against their floor: WeasyPrint laying out a static HTML page of the same content.

Builds a throw-away tournament (200 players, round 1 with 50 tables, all results confirmed) in a
temporary SQLite database, then, in the same run and alternating, times
  * the app's path: queries + template + QR codes + WeasyPrint (tournament.documents), and
  * the floor: ``weasyprint.HTML(string=<the same finished HTML>).write_pdf()`` with no extras,
for 50 table sheets and 200 certificates. Prints seconds, pages per second and the ratio.

    .venv/bin/python bench/pdf.py [--repeat 3] [--keep DIR]   (--keep writes the PDFs there)
"""

from __future__ import annotations

import argparse
import datetime
import io
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django(var_dir: str) -> None:
    os.environ["UNO_VAR_DIR"] = var_dir
    os.environ["MEDIA_ROOT"] = str(Path(var_dir) / "media")
    os.environ.pop("DATABASE_URL", None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.settings"
    os.environ.setdefault("PUBLIC_BASE_URL", "http://192.168.1.20:8000")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build_tournament(players: int = 200, table_size: int = 4):
    """A closed round of tables of four, with confirmed results, written straight to the tables."""
    from django.utils import timezone

    from tournament.models import (
        Club,
        Player,
        Registration,
        Round,
        Seat,
        Submission,
        SubmissionEntry,
        Table,
        Tournament,
    )

    rnd = random.Random(7)
    towns = ("Leonhard", "Aubing", "Pasing", "Moosach")
    clubs = [Club.objects.create(name=f"UNO-Freunde {town}") for town in towns]
    tournament = Tournament.objects.create(
        name="Leonharder UNO-Turnier 2026", date=datetime.date(2026, 11, 29), venue="Pfarrsaal St. Leonhard"
    )
    registrations = []
    for i in range(players):
        player = Player.objects.create(
            first_name=rnd.choice(["Anna", "Bernd", "Clara", "Dieter", "Eva", "Franz", "Gisela", "Hans"]),
            last_name=f"{rnd.choice(['Müller', 'Schmid', 'Huber', 'Wagner', 'Bauer', 'Gruber'])}-{i:03d}",
            club=clubs[i % len(clubs)],
            birth_year=1950 + rnd.randrange(60),
        )
        registrations.append(
            Registration.objects.create(
                tournament=tournament, player=player, start_number=i + 1,
                status=Registration.Status.CHECKED_IN,
            )
        )
    round_ = Round.objects.create(
        tournament=tournament, number=1, seed=1, status=Round.Status.CLOSED, closed_at=timezone.now()
    )
    for number, start in enumerate(range(0, players, table_size), start=1):
        table = Table.objects.create(round=round_, number=number, status=Table.Status.CONFIRMED)
        submission = Submission.objects.create(
            table=table, version=1, source=Submission.Source.ORGANIZER, confirmed=True
        )
        for position, reg in enumerate(registrations[start : start + table_size], start=1):
            Seat.objects.create(round=round_, table=table, registration=reg, position=position)
            points = 0 if position == 1 else rnd.randint(1, 120)
            SubmissionEntry.objects.create(
                submission=submission, registration=reg, hand_points=points, score=points,
                went_out=points == 0,
            )
    return tournament, round_


def page_count(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def timed(function) -> tuple[float, float, bytes]:
    """Wall seconds, CPU seconds of this process (meaningful when other jobs share the cores), result."""
    start, cpu = time.perf_counter(), time.process_time()
    result = function()
    return time.perf_counter() - start, time.process_time() - cpu, result


def compare(label: str, app, html: str, repeat: int, keep: Path | None) -> None:
    """Alternate the app's path and the floor so both see the same machine load."""
    from weasyprint import HTML

    from tournament.documents.typography import static_root

    base_url = static_root().as_uri() + "/"
    app_runs, app_cpu, floor_runs, floor_cpu = [], [], [], []
    pdf = b""
    for _ in range(repeat):
        seconds, cpu, pdf = timed(app)
        app_runs.append(seconds)
        app_cpu.append(cpu)
        seconds, cpu, _floor_pdf = timed(lambda: HTML(string=html, base_url=base_url).write_pdf())
        floor_runs.append(seconds)
        floor_cpu.append(cpu)
    pages = page_count(pdf)
    app_s, floor_s = statistics.median(app_runs), statistics.median(floor_runs)
    app_c, floor_c = statistics.median(app_cpu), statistics.median(floor_cpu)
    print(
        f"{label:<28} {pages:>4} pages | app {app_s:6.2f} s {pages / app_s:6.1f} p/s (cpu {app_c:5.2f} s) | "
        f"floor {floor_s:6.2f} s {pages / floor_s:6.1f} p/s (cpu {floor_c:5.2f} s) | "
        f"ratio {app_s / floor_s:4.2f}x"
    )
    if keep:
        (keep / f"{label.split()[0]}.pdf").write_bytes(pdf)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write the app's PDFs into this folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as var_dir:
        setup_django(var_dir)
        from tournament.documents import certificates as certificate_set
        from tournament.documents import table_sheets

        tournament, round_ = build_tournament()
        # Warm-up: imports, font scan, template loading; not part of either figure.
        table_sheets.table_sheets_pdf(round_)
        print(f"median of {args.repeat} runs, app path vs WeasyPrint on static HTML of the same content")
        compare(
            "table-sheets (50 tables, A4)",
            lambda: table_sheets.table_sheets_pdf(round_),
            table_sheets.table_sheets_html(round_),
            args.repeat,
            args.keep,
        )
        compare(
            "table-sheets-a5 (50 tables)",
            lambda: table_sheets.table_sheets_pdf(round_, paper="a5"),
            table_sheets.table_sheets_html(round_, paper="a5"),
            args.repeat,
            args.keep,
        )

        def certificates() -> bytes:
            return certificate_set.certificates_pdf(certificate_set.certificates(tournament))

        compare(
            "certificates (200 players)",
            certificates,
            certificate_set.certificates_html(certificate_set.certificates(tournament)),
            args.repeat,
            args.keep,
        )


if __name__ == "__main__":
    main()
