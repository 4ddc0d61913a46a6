"""The console's results grid for a big Swiss in a real browser: 65 boards in round 1; at a
1366×768 laptop at least 30 boards are in view at once, each on one line (board, white, the
result buttons, black), and the keyboard entry still lands on the right board; on a 390 px
phone the rows stack, nothing scrolls sideways and the fields stay at 16 px."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server, open_page
from tests.browser.test_console import events, key_in

BIG_LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
SHOTS = Path(os.environ.get("LIVETB_SHOTS", "/tmp/livetb-shots")) / "grid"
BOARDS = 65
# The rows whose box is wholly inside the viewport.
IN_VIEW = """() => [...document.querySelectorAll('.board-row')].filter((row) => {
    const box = row.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= innerHeight && box.height > 0;
}).map((row) => Number(row.dataset.board))"""
# Per row: the vertical middles of its board number, white, result buttons and black.
MIDDLES = """(row) => ['.bno', '.white', '.choices', '.black'].map((part) => {
    const box = row.querySelector(part).getBoundingClientRect();
    return box.top + box.height / 2;
})"""


@pytest.fixture(scope="module")
def big(server: Server) -> tuple[str, str]:
    """130 players, round 1 paired: 65 boards; its id and token."""
    return "big-grid", server.tournament("big-grid", ["PTS", "BH"], players=2 * BOARDS)


@pytest.fixture
def console(server: Server, browser: Any, big: tuple[str, str]) -> Iterator[Any]:
    tid, token = big
    url = f"{server.base}/t/{tid}/arbiter#token={token}"
    page = open_page(browser, BIG_LAPTOP, url, f"[data-board='{BOARDS}']", live=True)
    yield page
    page.close()


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))  # the viewport: what is in view at once


def test_thirty_boards_in_view_at_once_on_a_laptop(console: Any) -> None:
    shot(console, "results-top-1366.png")
    console.locator("[data-board='1']").evaluate("(row) => row.scrollIntoView()")
    shown = console.evaluate(IN_VIEW)
    assert len(shown) >= 30, shown
    assert shown == list(range(1, len(shown) + 1))
    for board in (1, len(shown)):  # one line: every part on the row's middle
        middles = console.locator(f"[data-board='{board}']").evaluate(MIDDLES)
        assert max(middles) - min(middles) < 4, middles
    row = console.locator("[data-board='5']")
    names = [" ".join(row.locator(side).inner_text().split()) for side in (".white", ".black")]
    assert names == ["Player 9 (9)", "Player 10 (10)"]
    assert row.locator("button[data-result]").count() == 7
    shot(console, "results-1366.png")
    assert console.errors == []


def test_the_keyboard_entry_still_lands_on_a_far_board(console: Any, server: Server) -> None:
    assert console.evaluate("document.activeElement.id") == "q-board"
    key_in(console, 60, "=")
    console.wait_for_selector("[data-board='60'][data-state='confirmed']")
    recorded = [e for e in events(server, "big-grid", "ResultRecorded") if e["board"] == 60]
    assert [e["result"] for e in recorded] == ["1/2-1/2"]
    pressed = console.locator("[data-board='60'] button[aria-pressed='true']")
    assert pressed.get_attribute("data-result") == "1/2-1/2"
    assert console.evaluate("document.activeElement.id") == "q-board"  # ready for the next
    # A button is a result too: a click on board 61's 0–1.
    console.locator("[data-board='61'] [data-result='0-1']").click()
    console.wait_for_selector("[data-board='61'][data-state='confirmed']")
    assert console.errors == []


def test_a_phone_stacks_the_rows(console: Any) -> None:
    console.set_viewport_size(PHONE)
    console.evaluate(
        "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    assert console.evaluate("document.documentElement.scrollWidth <= innerWidth")
    for field in ("#q-board", "#q-result"):
        size = console.eval_on_selector(field, "e => parseFloat(getComputedStyle(e).fontSize)")
        assert size >= 16
    row = console.locator("[data-board='3']")
    white, black = (row.locator(side).bounding_box() for side in (".white", ".black"))
    buttons = row.locator("button[data-result]")
    assert black["y"] > white["y"]  # black under white, the results under both
    tops = {round(buttons.nth(i).bounding_box()["y"]) for i in range(7)}
    assert len(tops) == 1 and min(tops) > black["y"]  # the seven on one line
    assert min(buttons.nth(i).bounding_box()["height"] for i in range(7)) >= 36
    row.scroll_into_view_if_needed()
    shot(console, "results-390.png")
    assert console.errors == []
