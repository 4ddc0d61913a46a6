"""The broadcast delay on air: with `public_delay` 5 s the overlay (no token) shows a result
only 5 s after it was recorded, while the arbiter's token reads it at once; the overlay says
that it is delayed (and `<html data-connection="delayed">`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.browser.conftest import Server

SHOTS = Path("/tmp/shots/delay")
DELAY = 5

# From now on, the first time (performance.now()) the overlay shows players 3 and 4 other than
# `held` ([3's rank, 4's rank, 4's points]), in `changedAt`, checked on every change to the
# panel (a redraw too); returns the time now.
WATCH = """(held) => {
  const panel = document.querySelector('.overlay');
  const row = (no) => panel.querySelector(`tr[data-start-no='${no}']`);
  const shown = () => [row(3)?.dataset.rank, row(4)?.dataset.rank,
    row(4)?.querySelector("[data-tb='PTS']")?.innerText];
  window.changedAt = null;
  new MutationObserver(() => {
    if (changedAt === null && shown().join('|') !== held.join('|')) changedAt = performance.now();
  }).observe(panel, { subtree: true, childList: true, attributes: true, characterData: true });
  return performance.now();
}"""


def rank_of(page: Any, no: int) -> str | None:
    value: str | None = page.locator(f".overlay tr[data-start-no='{no}']").get_attribute(
        "data-rank"
    )
    return value


def test_the_overlay_shows_a_result_only_after_the_delay(browser: Any, server: Server) -> None:
    token = server.tournament("delayed", ["PTS", "BH", "FB"], players=8)
    t = "/api/tournaments/delayed"
    status, set_delay = server.call("PATCH", t, {"public_delay": DELAY}, token)
    assert status == 200
    # The delay's own event public first: the overlay starts from it.
    deadline = time.monotonic() + 60
    while server.get(f"{t}/standings")["seq"] < set_delay["seq"]:
        assert time.monotonic() < deadline, "the delay's event not public within a minute"
        time.sleep(0.1)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{server.base}/t/delayed/overlay?top=8")
    page.wait_for_selector("html[data-connection='delayed']")  # live, a delay late
    page.wait_for_selector(".overlay tr[data-start-no='4']")
    assert "delayed 5 s" in page.locator(".overlay").inner_text()
    pts = page.locator(".overlay tr[data-start-no='4'] [data-tb='PTS']")
    before = pts.inner_text()
    assert rank_of(page, 3) == rank_of(page, 4) == "1"  # everyone on 0 points

    # The result's `at` is later than this read of the page's clock: due after it + DELAY.
    asked_ms = page.evaluate(WATCH, ["1", "1", before])
    status, body = server.call(
        "POST", f"{t}/rounds/1/results", {"board": 2, "result": "0-1"}, token
    )
    assert status == 201, body
    # The arbiter's token reads it at once.
    status, live = server.call("GET", f"{t}/standings", None, token)
    assert status == 200 and live["seq"] == body["seq"]
    assert next(r for r in live["standings"] if r["start_no"] == 4)["values"][0] == "1.0"
    if page.evaluate("() => changedAt === null"):  # still held (not yet on a slow machine)
        page.screenshot(path=SHOTS / "overlay-1920-held.png")
    # Then it arrives, and not before its time.
    page.wait_for_function(
        "() => document.querySelector(\".overlay tr[data-start-no='3']\").dataset.rank === '2'",
        timeout=60_000,
    )
    # On air: nothing of it while the delay ran, whatever the overlay redrew in between.
    assert page.evaluate("() => changedAt") - asked_ms >= (DELAY - 0.1) * 1000
    assert rank_of(page, 4) == "1" and pts.inner_text() != before
    page.screenshot(path=SHOTS / "overlay-1920-released.png")
    assert errors == []
    page.close()
