"""Boards as the pairing program publishes them, in a real browser: the console's preview of a
pasted round shows FIDE's publication order, a board moved by keyboard is published where it
was moved; the engine's output keeps its order; the printed pairings show board numbers,
both players' points before the round and the result column."""

from __future__ import annotations

import itertools
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import Server
from tests.web.test_trf_pairings import FIELD, ROUND_1_PAIRS, WINNERS, field_trf

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
_numbers = itertools.count(1)


def events(server: Server, tid: str, kind: str) -> list[dict[str, Any]]:
    page = server.get(f"/api/tournaments/{tid}/events?limit=1000")["events"]
    return [e["event"] for e in page if e["event"]["type"] == kind]


def round_1_played(server: Server) -> tuple[str, str]:
    """The 18-player open of the API tests: round 1 played and closed; its id and token."""
    tid = f"order-{next(_numbers)}"
    token = server.token(tid)
    t = f"/api/tournaments/{tid}"
    assert server.call("PUT", t, {"name": "Open", "rounds": 5}, token)[0] == 201
    for no, name in FIELD.items():
        person = {"start_no": no, "name": name}
        assert server.call("POST", f"{t}/participants", person, token)[0] == 201
    boards = [{"board": i, "white": w, "black": b} for i, (w, b) in enumerate(ROUND_1_PAIRS, 1)]
    assert server.call("POST", f"{t}/rounds/1/pairings", {"boards": boards}, token)[0] == 201
    for i, (w, _) in enumerate(ROUND_1_PAIRS, start=1):
        body = {"board": i, "result": "1-0" if w in WINNERS else "0-1"}
        assert server.call("POST", f"{t}/rounds/1/results", body, token)[0] == 201
    assert server.call("POST", f"{t}/rounds/1/close", None, token)[0] == 201
    return tid, token


@pytest.fixture
def console(server: Server, browser: Any) -> Iterator[Any]:
    tid, token = round_1_played(server)
    page = browser.new_page(viewport=LAPTOP)
    page.tid, page.token = tid, token
    page.goto(f"{server.base}/t/{tid}/arbiter#token={token}")
    page.wait_for_selector("[role='tab']")
    page.click("#tab-pairings")
    page.fill("#p-round", "2")
    yield page
    page.close()


def preview_rows(page: Any) -> list[list[str]]:
    rows = page.locator("#panel-pairings table.reorder tbody tr")
    return [[cell.strip() for cell in row.split("\t")][:3] for row in rows.all_inner_texts()]


def test_the_preview_shows_the_publication_order_and_a_moved_board_is_published_there(
    console: Any, server: Server
) -> None:
    console.fill("#p-trf", field_trf().decode())
    console.locator("#panel-pairings").get_by_role("button", name="Preview", exact=True).click()
    console.wait_for_selector("text=Round 2: 9 boards")
    rows = preview_rows(console)
    assert [r[0] for r in rows] == [str(n) for n in range(1, 10)]
    assert rows[0][1:] == ["Player 6 (6)", "Player 1 (1)"]
    assert rows[1][1:] == ["Rizzo, Marco (17)", "Bianchi, Anna (2)"]  # not board 8
    console.screenshot(path="/tmp/pb/preview-desktop.png", full_page=True)
    console.set_viewport_size(PHONE)
    console.screenshot(path="/tmp/pb/preview-phone.png", full_page=True)
    console.set_viewport_size(LAPTOP)
    # Keyboard only: focus "Move board 2 up", Enter; focus follows the board to the top, where
    # its "up" button is disabled, so it lands on "down".
    up = console.get_by_role("button", name="Move board 2 up")
    up.focus()
    console.keyboard.press("Enter")
    assert preview_rows(console)[0][1:] == ["Rizzo, Marco (17)", "Bianchi, Anna (2)"]
    assert console.evaluate("document.activeElement.getAttribute('aria-label')") == (
        "Move board 1 down"
    )
    assert console.get_by_role("button", name="Move board 1 up").is_disabled()
    # Alt+Down on board 9's row moves nothing past the end; Alt+Up moves it to board 8.
    console.get_by_role("button", name="Move board 9 up").focus()
    console.keyboard.press("Alt+ArrowUp")
    assert preview_rows(console)[7][1:] == ["Player 18 (18)", "Player 15 (15)"]
    assert events(server, console.tid, "RoundPaired")[1:] == []  # a preview writes nothing
    console.click("text=Publish the pairings")
    console.wait_for_selector("text=Round 2 published")
    paired = events(server, console.tid, "RoundPaired")[1]
    assert [(b["board"], b["white"], b["black"]) for b in paired["boards"]] == [
        (1, 17, 2), (2, 6, 1), (3, 3, 7), (4, 9, 4), (5, 5, 10),
        (6, 8, 12), (7, 13, 11), (8, 18, 15), (9, 14, 16),
    ]  # fmt: skip


def test_the_engines_output_is_previewed_in_its_own_order(console: Any, server: Server) -> None:
    console.fill("#p-trf", "9\n18 15\n17 2\n6 1\n3 7\n9 4\n5 10\n8 12\n13 11\n14 16\n")
    console.locator("#panel-pairings").get_by_role("button", name="Preview", exact=True).click()
    console.wait_for_selector("text=Round 2: 9 boards")
    rows = preview_rows(console)
    assert rows[0] == ["1", "Player 18 (18)", "Player 15 (15)"]
    assert rows[1] == ["2", "Rizzo, Marco (17)", "Bianchi, Anna (2)"]
    console.fill("#p-trf", "9\n18 15\n17 x 2\n")
    console.locator("#panel-pairings").get_by_role("button", name="Preview", exact=True).click()
    console.wait_for_selector("#panel-pairings .status:has-text('line 3')")
    assert console.locator("#panel-pairings table.reorder").count() == 0


def test_printed_pairings_show_boards_scores_and_results(server: Server, browser: Any) -> None:
    tid, token = round_1_played(server)
    data = field_trf()
    status, _ = server_post_text(server, f"/api/tournaments/{tid}/rounds/2/pairings", data, token)
    assert status == 201
    t = f"/api/tournaments/{tid}"
    assert server.call("POST", f"{t}/rounds/2/results", {"board": 2, "result": "0-1"}, token)[0]
    for viewport, name in [(LAPTOP, "desktop"), (PHONE, "phone")]:
        page = browser.new_page(viewport=viewport)
        page.emulate_media(media="print")
        page.goto(f"{server.base}/t/{tid}?print=pairings")
        page.wait_for_selector("body[data-print-ready] #pairings th.pts")
        page.screenshot(path=f"/tmp/pb/print-{name}.png", full_page=True)
        table = page.locator("#pairings table.pairings")
        heads = table.locator("thead th")
        assert [h.inner_text() for h in heads.all()] == [
            "Bd",
            "White",
            "Pts",
            "Result",
            "Pts",
            "Black",
        ]
        assert all(h.is_visible() for h in heads.all())
        boards = table.locator("tbody td.board")
        assert boards.all_inner_texts() == [str(n) for n in range(1, 10)]
        assert all(b.is_visible() for b in boards.all())
        # Board 2: Rizzo (17) and Bianchi (2), 1 point each before round 2; Black won.
        row = table.locator("tbody tr[data-board='2'] td")
        assert row.all_inner_texts() == [
            "2", "Rizzo, Marco (17)", "1.0", "0–1", "1.0", "Bianchi, Anna (2)"
        ]  # fmt: skip
        assert all(c.is_visible() for c in row.all())
        # Board 6: 8 and 12 lost in round 1; their result is still to be written in.
        row6 = table.locator("tbody tr[data-board='6'] td")
        assert row6.all_inner_texts()[2:5] == ["0.0", "playing", "0.0"]
        assert row6.nth(3).evaluate("c => getComputedStyle(c).color") == "rgba(0, 0, 0, 0)"
        assert not page.locator("section.board").is_visible()  # the standings are not printed
        page.close()


def server_post_text(server: Server, path: str, data: bytes, token: str) -> tuple[int, Any]:
    request = urllib.request.Request(
        server.base + path,
        data=data,
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "text/plain"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())
