"""A phone on poor Wi-Fi that resumes its feed says "live" only once it shows what the server
has: its socket reopens at once, but the results it missed arrive a while later. Until then
the page keeps its standings and says it is reconnecting; the server's ping after the missed
deltas (docs/feed.md) turns it live."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from tests.browser.conftest import Server

PHONE = {"width": 390, "height": 844}
SHOTS = Path("/tmp/shots/front")
STATE = "document.documentElement.dataset.connection"
# Counts the page's sockets that opened (a listener added before the page's own `onopen`).
COUNT_OPENS = """
window.__opens = 0;
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("open", () => { window.__opens += 1; });
  }
};
"""


class SlowLink:
    """The page's feed through a route: the first socket passes, the second (the resume) has
    the server's messages held until `release`."""

    def __init__(self) -> None:
        self.sockets: list[Any] = []
        self.held: list[str | bytes] = []
        self.holding = threading.Event()
        self.lock = threading.Lock()

    def route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        self.sockets.append(ws)
        if len(self.sockets) == 1:
            server.on_message(ws.send)
            return

        def hold(message: str | bytes) -> None:
            with self.lock:
                if self.holding.is_set():
                    ws.send(message)
                else:
                    self.held.append(message)

        server.on_message(hold)

    def release(self) -> None:
        with self.lock:
            for message in self.held:
                self.sockets[-1].send(message)
            self.held.clear()
            self.holding.set()


def test_a_resumed_page_is_live_only_once_the_missed_results_are_in(
    browser: Any, tmp_path: Path
) -> None:
    server = Server(tmp_path / "resume.sqlite").start()
    try:
        token = server.tournament("slow", ["PTS", "BH"], players=6)
        context = browser.new_context(viewport=PHONE)
        context.add_init_script(COUNT_OPENS)
        page = context.new_page()
        link = SlowLink()
        page.route_web_socket("**/ws?*", link.route)
        path = "/api/tournaments/slow/rounds/1/results"
        assert server.call("POST", path, {"board": 1, "result": "1-0"}, token)[0] == 201
        page.goto(f"{server.base}/t/slow")
        page.wait_for_function(f"() => {STATE} === 'live'", timeout=60_000)
        page.wait_for_selector("tr[data-start-no='1'][data-rank='1']")
        assert page.locator("tr[data-start-no='4']").get_attribute("data-rank") == "2"

        # The Wi-Fi drops; a result is written meanwhile; the page resumes with since=.
        link.sockets[0].close()
        page.wait_for_function(f"() => {STATE} !== 'live'", timeout=60_000)
        assert server.call("POST", path, {"board": 2, "result": "0-1"}, token)[0] == 201
        page.wait_for_function("() => window.__opens === 2", timeout=60_000)
        assert "since=" in link.sockets[1].url
        # Open, the missed delta and the caught-up ping still on their way: not live, and the
        # standings are the ones from before the drop.
        assert page.evaluate(STATE) == "reconnecting"
        assert page.locator(".live").get_attribute("data-state") != "live"
        assert page.locator("tr[data-start-no='4']").get_attribute("data-rank") == "2"
        page.screenshot(path=SHOTS / "resume-held-390-en.png")

        link.release()
        page.wait_for_function(f"() => {STATE} === 'live'", timeout=60_000)
        page.wait_for_selector("tr[data-start-no='4'][data-rank='1']", timeout=60_000)
        assert page.locator(".live").inner_text() == "live"
    finally:
        server.stop()
