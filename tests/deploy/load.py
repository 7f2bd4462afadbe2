"""Requests through a proxy from a few clients at once while one app server is stopped: what each
client got back, counted."""

from __future__ import annotations

import re
import threading
import urllib.parse
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from .servers import SITE, SiteConnection

CLIENTS = 3
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass
class Tally:
    """Answers by method: `ok` (2xx/3xx), `errors` (an answer of 4xx or 5xx), `lost` (no answer)."""

    answers: list[tuple[str, int | None]] = field(default_factory=list)
    lock: threading.Condition = field(default_factory=threading.Condition)

    def add(self, method: str, status: int | None) -> None:
        with self.lock:
            self.answers.append((method, status))
            self.lock.notify_all()

    def wait_for(self, count: int) -> None:
        with self.lock:
            self.lock.wait_for(lambda: len(self.answers) >= count, timeout=120)

    def figures(self) -> dict[str, Counter]:
        kinds: dict[str, Counter] = {"ok": Counter(), "errors": Counter(), "lost": Counter()}
        for method, status in self.answers:
            kind = "lost" if status is None else "ok" if status < 400 else "errors"
            kinds[kind][method] += 1
        return kinds


def _request(port: int, method: str, path: str, headers: dict[str, str], body: str | None = None):
    connection = SiteConnection(port)
    try:
        connection.request(method, path, body=body, headers={"Host": f"{SITE}:{port}", **headers})
        answer = connection.getresponse()
        return answer.status, answer.getheader("Set-Cookie") or "", answer.read().decode(errors="replace")
    finally:
        connection.close()


def client(port: int, tally: Tally, stop: threading.Event, origin: str) -> None:
    """Opens the login page for a CSRF token, then repeats: the start page, the login page, and a POST
    that switches the language (a form with CSRF protection, answered by a redirect). `origin` is the
    site as the app sees it behind the proxy (nginx's `$host` drops the port)."""
    try:
        status, cookie, page = _request(port, "GET", "/accounts/login/", {})
    except OSError:
        tally.add("GET", None)
        return
    tally.add("GET", status)
    match = TOKEN.search(page)
    csrf_cookie = re.search(r"csrftoken=([^;]+)", cookie)
    if not (match and csrf_cookie):
        return
    form = urllib.parse.urlencode({"csrfmiddlewaretoken": match.group(1), "language": "en", "next": "/"})
    post_headers = {
        "Cookie": f"csrftoken={csrf_cookie.group(1)}", "Origin": origin,
        "Referer": f"https://{SITE}:{port}/accounts/login/",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    steps: list[tuple[str, str, dict[str, str], str | None]] = [
        ("GET", "/", {}, None),
        ("GET", "/accounts/login/", {}, None),
        ("POST", "/i18n/setlang/", post_headers, form),
    ]
    while not stop.is_set():
        for method, path, headers, body in steps:
            try:
                status = _request(port, method, path, headers, body)[0]
            except OSError:
                status = None
            tally.add(method, status)


def run(port: int, stop_one_server: Callable[[], None], origin: str, before: int = 30, after: int = 90,
        clients: int = CLIENTS) -> Tally:
    """`clients` clients send requests; after `before` answers one server is stopped while they go on,
    and they stop after `after` more."""
    tally, stop = Tally(), threading.Event()
    threads = [threading.Thread(target=client, args=(port, tally, stop, origin)) for _ in range(clients)]
    for thread in threads:
        thread.start()
    try:
        tally.wait_for(before)
        stop_one_server()
        tally.wait_for(before + after)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=120)
    return tally
