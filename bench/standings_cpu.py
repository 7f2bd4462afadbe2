"""Server CPU per page of a 200-player evening, against the login page.

    .venv/bin/python bench/standings_cpu.py [--tables 50] [--repeat 20]

Builds, in a throw-away SQLite database and through the app's own services, one evening of
tables x 4 players with rounds 1-5 played, confirmed and closed and round 6 open with half of its
tables reported by their captains, then asks every page the hall polls through the test client and
prints the process time per request (`time.process_time`: CPU of this process only, so other load
on a shared machine does not count, unlike wall time) and its ratio to the login page. Each page is
asked once before measuring: the first reader after a change draws the page, every later one is
served what it stored; "304" sends the ETag of the answer before.
Targets (issue 52): public page, projector and captain page at most 3x the login page; the organizer's
standings and round page at most 5x; a poll with nothing new (304) at most 1.5x.
"""

from __future__ import annotations

import argparse
import datetime
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.throwaway import setup_django

TARGETS = {"public": 3, "projector": 3, "projector slide": 3, "captain": 3, "standings": 5, "round": 5,
           "round status": 5, "captain poll": 1.5}


def build(tables: int):
    """The evening, through the services: (tournament, organizer, round 6, a reported table's token)."""
    from django.contrib.auth import get_user_model

    from engine.validation import SeatReport
    from tournament.models import Submission
    from tournament.players.services import player_register
    from tournament.results.services import result_submit
    from tournament.rounds.services import round_close, round_open, round_publish, round_seat
    from tournament.tournaments.services import tournament_create

    user = get_user_model().objects.create_superuser("bench", password="bench-pass-123")
    tournament = tournament_create(
        user=user, name="Championship", date=datetime.date(2026, 11, 29), public=True
    )
    for n in range(tables * 4):
        player_register(tournament=tournament, user=user, first_name=f"P{n:03d}", last_name=f"Bench{n:03d}",
                        club_name=f"Club {n % 10}", check_in=True)

    def report(table, shift: int) -> list:
        seats = list(table.seats.order_by("position").values_list("registration_id", flat=True))
        return [
            SeatReport(reg, went_out=True) if n == 0
            else SeatReport(reg, points=str(4 + 9 * ((n + shift) % 4)))
            for n, reg in enumerate(seats)
        ]

    for number in range(1, 7):
        round_ = round_seat(tournament=tournament, user=user, seed=number)
        round_publish(round_=round_, user=user)
        round_open(round_=round_, user=user)
        room = list(round_.tables.select_related("round__tournament").order_by("number"))
        for table in room if number < 6 else room[: len(room) // 2]:
            if number < 6:
                result_submit(table=table, seats=report(table, number + table.number),
                              source=Submission.Source.ORGANIZER, user=user)
            else:  # reported by the captain, not yet confirmed
                result_submit(table=table, seats=report(table, number), source=Submission.Source.CAPTAIN)
        if number < 6:
            round_close(round_=round_, user=user)
    return tournament, user, round_, room[-1]


def store_one(table, shift: int) -> None:
    """A captain's report (a new version each time) of a table of the open round."""
    from engine.validation import SeatReport
    from tournament.models import Submission
    from tournament.results.services import result_submit

    seats = list(table.seats.order_by("position").values_list("registration_id", flat=True))
    result_submit(table=table, source=Submission.Source.CAPTAIN, seats=[
        SeatReport(reg, went_out=True) if n == 0 else SeatReport(reg, points=str(3 + n + shift))
        for n, reg in enumerate(seats)
    ])


def cpu_per_request(client, url: str, repeat: int, **headers) -> tuple[float, int]:
    """Median CPU milliseconds of one request, and its status."""
    status = client.get(url, **headers).status_code  # warm: the first reader computes
    times = []
    for _ in range(repeat):
        start = time.process_time()
        client.get(url, **headers)
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times), status


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as var_dir:
        setup_django(var_dir)
        from django.test import Client

        start = time.perf_counter()
        tournament, user, round_, table = build(args.tables)
        print(f"built {args.tables * 4} players, 6 rounds in {time.perf_counter() - start:.0f} s")
        anonymous, organizer = Client(), Client()
        organizer.force_login(user)
        t, r = tournament.pk, round_.number
        pages = [
            ("login", anonymous, "/accounts/login/", {}),
            ("public", anonymous, f"/p/{t}/", {}),
            ("projector", anonymous, f"/p/{t}/projector/", {}),
            ("projector slide", anonymous, f"/p/{t}/projector/?show=all&every=10&slide=1",
             {"HTTP_HX_REQUEST": "true"}),
            ("captain", anonymous, f"/t/{table.token}/", {}),
            ("standings", organizer, f"/{t}/standings/", {}),
            ("round", organizer, f"/{t}/rounds/{r}/", {}),
            ("overview", organizer, f"/{t}/", {}),
        ]
        captain_page = anonymous.get(f"/t/{table.token}/").content.decode()
        since = re.search(r"\?since=([^\"]+)\"", captain_page).group(1)
        pages += [
            ("round status", organizer, f"/{t}/rounds/{r}/status/", {"HTTP_HX_REQUEST": "true"}),
            ("captain poll", anonymous, f"/t/{table.token}/?since={since}", {"HTTP_HX_REQUEST": "true"}),
        ]
        login = None
        print(f"{'page':<18}{'status':>7}{'CPU ms':>9}{'x login':>9}  target")
        for name, client, url, headers in pages:
            ms, status = cpu_per_request(client, url, args.repeat, **headers)
            login = login or ms
            target = TARGETS.get(name)
            print(f"{name:<18}{status:>7}{ms:>9.1f}{ms / login:>8.1f}x  {f'<= {target}x' if target else ''}")
            etag = client.get(url, **headers).get("ETag")
            if etag:
                ms, status = cpu_per_request(client, url, args.repeat, HTTP_IF_NONE_MATCH=etag, **headers)
                print(f"{name + ' 304':<18}{status:>7}{ms:>9.1f}{ms / login:>8.1f}x  <= 1.5x")
        # The first reader after a change draws the page once for everybody.
        waiting = round_.tables.filter(status="waiting").order_by("number").first()
        print("first read after a result was stored (drawn once, then served as above):")
        for name, client, url, headers in pages[1:]:
            store_one(waiting, shift=len(name))
            start = time.process_time()
            status = client.get(url, **headers).status_code
            ms = (time.process_time() - start) * 1000
            print(f"{name:<18}{status:>7}{ms:>9.1f}{ms / login:>8.1f}x")


if __name__ == "__main__":
    main()
