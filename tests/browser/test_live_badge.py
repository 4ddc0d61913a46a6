"""The live badge tells the truth: every page leaves "live" once the server freezes (SIGSTOP,
like a Wi-Fi that drops without a word), and is "live" again once the server comes back
(SIGCONT, or a restart on the same store) with no event written meanwhile.
`<html data-connection>` carries the state the badge shows.

How soon is the pages' own arithmetic, checked with fake clocks in `tests/js/feed.test.mjs`:
they give up on a silent server 2 heartbeats and 1.5 s after its last word (7.5 s at the
server's default ping every 3 s), and try again at least every 1.75 s. Here each change is
waited for with a minute's timeout, and the seconds it took are printed."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server

PAGES = ["", "/overlay?top=5", "/screen", "/player/2"]
STATE = "document.documentElement.dataset.connection"


@pytest.fixture
def frozen_server(tmp_path: Path) -> Iterator[Server]:
    server = Server(tmp_path / "badge.sqlite").start()
    server.tournament("badge", ["PTS", "BH"], players=6)
    yield server
    if server.proc is not None and server.proc.poll() is None:
        os.kill(server.proc.pid, signal.SIGCONT)  # a stopped process ignores SIGTERM until then
    server.stop()


def open_pages(browser: Any, server: Server) -> list[Any]:
    pages = []
    for path in PAGES:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        errors: list[str] = []
        page.on("pageerror", lambda err, errors=errors: errors.append(str(err)))
        page.errors = errors
        page.goto(f"{server.base}/t/badge{path}")
        pages.append(page)
    for page in pages:
        page.wait_for_function(f"() => {STATE} === 'live'", timeout=60_000)
    return pages


def wait_all(pages: list[Any], state: str) -> float:
    """Seconds until every page shows `state` (a failure after a minute)."""
    start = time.monotonic()
    for page in pages:
        page.wait_for_function(f"() => {STATE} === '{state}'", timeout=60_000)
    return time.monotonic() - start


def test_a_frozen_server_is_noticed_and_its_return_is_live_at_once(
    browser: Any, frozen_server: Server
) -> None:
    pages = open_pages(browser, frozen_server)
    seq = frozen_server.get("/api/tournaments/badge/standings")["seq"]
    assert frozen_server.proc is not None
    os.kill(frozen_server.proc.pid, signal.SIGSTOP)
    stopped = time.monotonic()
    for page in pages:
        page.wait_for_function(f"() => {STATE} !== 'live'", timeout=60_000)
    print(f"left live after {time.monotonic() - stopped:.1f} s")
    # The badge says the same as the attribute, in words, and the round state stays apart.
    standings = pages[0]
    assert standings.locator(".live").get_attribute("data-state") != "live"
    assert standings.locator(".state").inner_text() == "Round 1 · in progress"
    os.kill(frozen_server.proc.pid, signal.SIGCONT)
    back = wait_all(pages, "live")
    print(f"live again after {back:.1f} s")
    assert standings.locator(".live").inner_text() == "live"
    assert frozen_server.get("/api/tournaments/badge/standings")["seq"] == seq  # nothing written
    for page in pages:
        assert page.errors == []
        page.close()


def test_a_restarted_server_has_every_page_live_again(browser: Any, tmp_path: Path) -> None:
    first = Server(tmp_path / "restart.sqlite").start()
    try:
        first.tournament("badge", ["PTS", "BH"], players=6)
        pages = open_pages(browser, first)
        first.stop()
        for page in pages:
            page.wait_for_function(f"() => {STATE} !== 'live'", timeout=60_000)
        time.sleep(3)  # away for a while: the pages' retries have backed off
        second = Server(first.db, port=first.port).start()
        try:
            back = wait_all(pages, "live")
            print(f"live again after a restart in {back:.1f} s")
        finally:
            second.stop()
        for page in pages:
            assert page.errors == []
            page.close()
    finally:
        first.stop()
