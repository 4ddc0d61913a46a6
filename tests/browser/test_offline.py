"""Poor Wi-Fi: a page reopened without a network, after one visit with it, shows the last
standings at once, marked with their time (the service worker keeps the page and its modules,
the start-up module the standings); when the network returns it resumes and is live."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.conftest import Server

PHONE = {"width": 390, "height": 844}
SHOTS = Path("/tmp/shots/front")
LIVE = "() => document.documentElement.dataset.connection === 'live'"


def test_a_page_reopened_offline_shows_the_last_standings(browser: Any, tmp_path: Path) -> None:
    server = Server(tmp_path / "offline.sqlite").start()
    try:
        token = server.tournament("away", ["PTS", "BH"], players=6)
        path = "/api/tournaments/away/rounds/1/results"
        assert server.call("POST", path, {"board": 2, "result": "0-1"}, token)[0] == 201
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(f"{server.base}/t/away")
        page.wait_for_selector("tr[data-start-no='4'][data-rank='1']")
        page.wait_for_function(LIVE)
        # The worker has taken the page and its modules, the page its standings.
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
        page.wait_for_function("() => localStorage.getItem('livetb.last.away') !== null")
        page.wait_for_function(
            """async () => {
                const cache = await caches.open('livetb-pages-1');
                const urls = (await cache.keys()).map((r) => r.url);
                return urls.some((url) => url.endsWith('/standings-table.js'));
            }"""
        )
        page.close()

        # No network, and no server either: the page itself must come from the worker's cache.
        server.stop()
        context.set_offline(True)
        again = context.new_page()
        errors: list[str] = []
        again.on("pageerror", lambda err: errors.append(str(err)))
        again.goto(f"{server.base}/t/away")
        again.wait_for_selector("tr[data-start-no='4'][data-rank='1']", timeout=30_000)
        assert again.locator("tr[data-start-no]").count() == 6
        assert again.locator(".connection .saved").is_visible()
        assert "saved at" in again.locator(".connection .saved").inner_text()
        assert again.evaluate("document.documentElement.dataset.connection") != "live"
        again.screenshot(path=SHOTS / "offline-390-en.png")

        # A result written while the phone was away arrives once the network is back.
        server = Server(server.db, port=server.port).start()
        assert server.call("POST", path, {"board": 1, "result": "1-0"}, token)[0] == 201
        context.set_offline(False)
        again.wait_for_function(LIVE, timeout=30_000)
        again.wait_for_selector("tr[data-start-no='1'][data-rank='1']", timeout=30_000)
        assert again.locator(".connection .saved").is_hidden()
        assert errors == []
        context.close()
    finally:
        server.stop()
