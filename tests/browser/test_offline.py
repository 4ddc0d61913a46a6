"""Poor Wi-Fi: a page reopened without a network, after one visit with it, shows the last
standings at once, marked with their time (the service worker keeps the page and its modules,
the start-up module the standings); when the network returns it resumes and is live."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from livetb.web.pages.shell import VERSION
from tests.browser.conftest import Server, worker_keeps

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
        worker_keeps(page, "(paths) => paths.some((p) => p.endsWith('/standings-table.js'))")
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


def test_the_worker_lets_go_of_the_files_of_a_version_no_kept_page_names(
    browser: Any, tmp_path: Path
) -> None:
    """After an upgrade the worker's cache holds two versions of the modules: the old ones go
    once no kept page names them, and those a kept page still names stay (its reopen needs
    them, and they come from the cache first)."""
    server = Server(tmp_path / "versions.sqlite").start()
    try:
        server.tournament("kept", ["PTS", "BH"], players=4)
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(f"{server.base}/t/kept")
        page.wait_for_function(LIVE)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
        # What an earlier version left: files no page names, and a kept page with its own.
        page.evaluate(
            """async () => {
                const cache = await caches.open('livetb-pages-1');
                await cache.put('/static/aaaaaaaaaaaa/common.js', new Response('old'));
                await cache.put('/static/aaaaaaaaaaaa/style.css', new Response('old'));
                const shell = '<script type="module" src="/static/bbbbbbbbbbbb/player.js">';
                await cache.put('/t/kept/player/2', new Response(shell));
                await cache.put('/static/bbbbbbbbbbbb/player.js', new Response('older page'));
            }"""
        )
        page.reload()  # the visit is kept again, and what no page names let go
        gone = "(paths) => !paths.some((p) => p.startsWith('/static/aaaaaaaaaaaa/'))"
        paths = worker_keeps(page, gone)
        assert "/static/bbbbbbbbbbbb/player.js" in paths and "/t/kept/player/2" in paths
        assert f"/static/{VERSION}/standings.js" in paths and "/t/kept" in paths
        # A versioned file comes from the cache first: the kept page still runs where no
        # server has its version any more; a version never kept is the server's 404.
        fetched = """async (url) => {
            const resp = await fetch(url);
            return [resp.status, await resp.text()];
        }"""
        assert page.evaluate(fetched, "/static/bbbbbbbbbbbb/player.js") == [200, "older page"]
        assert page.evaluate(fetched, "/static/cccccccccccc/player.js")[0] == 404
        context.close()
    finally:
        server.stop()
