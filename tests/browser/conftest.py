"""Browser tests: a real `livetb serve` on loopback, driven by Playwright in Debian's Chromium.

`.ci/run` installs Chromium with apt-get when it is missing; outside CI the tests are skipped
(with the reason) on a machine without it. Browsers are never downloaded.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from livetb.tokens.sqlite import TokenStore

CHROMIUM = "/usr/bin/chromium"
# As root, in a closed network: no sandbox, no background connections to Google's hosts.
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
LIVETB = str(Path(sys.executable).with_name("livetb"))
TWELVE = ["PTS", "BH/C1", "BH", "SB", "AOB", "WIN", "BWG", "ARO", "TPR", "KS", "DE", "FB"]
NAMES = [
    "Rubinstein-Kasparova, Maximiliana Alexandrovna", "Bianchi, Luca", "Costa, Ivan",
    "Dvorak, Pia", "Esposito, Giulia", "Fischer, Judit", "Garcia, Nodira", "Horvat, Lena",
]  # fmt: skip


class Server:
    """`livetb serve` in a subprocess, on a free loopback port, over `db`."""

    def __init__(self, db: Path, port: int | None = None) -> None:
        self.db = db
        self.port = port or _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        cmd = [LIVETB, "serve", "--db", str(self.db), "--port", str(self.port)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.base}/api/tournaments", timeout=1):
                    return self
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(self.proc.stderr.read().decode()) from None  # type: ignore[union-attr]
                time.sleep(0.1)
        raise RuntimeError("livetb serve did not answer within 60 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)

    def token(self, tid: str) -> str:
        with TokenStore(self.db) as tokens:
            return tokens.create(tid)

    def call(self, method: str, path: str, body: object, token: str) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode() if body is not None else None,
            method=method,
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=30) as resp:
            return json.loads(resp.read())

    def tournament(
        self,
        tid: str,
        tiebreaks: list[str],
        players: int = 8,
        private: bool = False,
        *,
        rounds: int = 5,
        ratings: Sequence[int | None] | None = None,
        categories: Sequence[object] | None = None,
        prizes: dict[str, object] | None = None,
        results: Sequence[tuple[int, str]] = (),
    ) -> str:
        """Create `tid` with `players` rated 2400 - 10 × start number (or a player a rating in
        `ratings`, None for unrated), pair round 1 (1-2, 3-4, …), define the `categories` and
        the `prizes` given, enter round 1's `results` (board, result); its token."""
        token = self.token(tid)
        t = f"/api/tournaments/{tid}"
        body = {"name": f"Open {tid}", "rounds": rounds, "tiebreaks": tiebreaks, "private": private}
        assert self.call("PUT", t, body, token)[0] == 201
        if ratings is None:
            ratings = [2400 - 10 * no for no in range(1, players + 1)]
        for no, rating in enumerate(ratings, start=1):
            name = NAMES[no - 1] if no <= len(NAMES) else f"Player {no}"
            person: dict[str, object] = {"start_no": no, "name": name, "federation": "ITA"}
            if rating is not None:
                person["rating"] = rating
            assert self.call("POST", f"{t}/participants", person, token)[0] == 201
        boards = [
            {"board": b, "white": 2 * b - 1, "black": 2 * b}
            for b in range(1, len(ratings) // 2 + 1)
        ]
        assert self.call("POST", f"{t}/rounds/1/pairings", {"boards": boards}, token)[0] == 201
        if categories is not None:
            status, answer = self.call("PUT", f"{t}/categories", {"categories": categories}, token)
            assert status == 200, answer
        if prizes is not None:
            status, answer = self.call("PUT", f"{t}/prizes", prizes, token)
            assert status == 200, answer
        for board, result in results:
            game = {"board": board, "result": result}
            status, answer = self.call("POST", f"{t}/rounds/1/results", game, token)
            assert status == 201, answer
        return token


def prize_table(rule: str, prizes: Sequence[object]) -> dict[str, object]:
    """A prize table in euros, one prize per player, for `Server.tournament(prizes=…)`."""
    return {"rule": rule, "one_prize_per_player": True, "currency": "EUR", "prizes": prizes}


def open_page(
    browser: Any, size: dict[str, int], url: str, *selectors: str, live: bool = False
) -> Any:
    """A new page at `url` with its script errors in `page.errors`, once its feed is live
    (`live`) and each of `selectors` is there."""
    page = browser.new_page(viewport=size)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.errors = errors
    page.goto(url)
    if live:
        page.wait_for_selector("html[data-connection='live']")
    for selector in selectors:
        page.wait_for_selector(selector)
    return page


WORKER_KEEPS = """async () => {
    const cache = await caches.open('livetb-pages-1');
    return (await cache.keys()).map((r) => new URL(r.url).pathname);
}"""


def worker_keeps(page: Any, condition: str, seconds: float = 60.0) -> list[str]:
    """The paths the worker keeps, once `condition(paths)` holds (the worker works on its own
    time: asked again every 0.1 s, a failure after `seconds`). `wait_for_function` would not
    do: it takes the promise an async function returns for a true value."""
    deadline = time.monotonic() + seconds
    while True:
        paths: list[str] = page.evaluate(WORKER_KEEPS)
        if page.evaluate(condition, paths):
            return paths
        assert time.monotonic() < deadline, f"the worker keeps {paths}"
        page.wait_for_timeout(100)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
        pytest.skip(f"needs Debian's chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("browser") / "live.sqlite").start()
    yield s
    s.stop()
