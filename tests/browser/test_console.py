"""The arbiters' console in a real browser against a real server: results by keyboard only,
a correction with its reason, closing a round, two consoles on one round, refused tokens,
Italian."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from livetb.tokens.sqlite import TokenStore
from tests.browser.conftest import Server

LAPTOP = {"width": 1280, "height": 800}
# A test hook, in the page before its scripts: while `window.__hold` is true the feed's
# messages wait, so this console has not seen another arbiter's write yet.
HOLD = """
(() => {
  const Real = window.WebSocket;
  window.__held = [];
  window.WebSocket = class extends Real {
    set onmessage(fn) {
      super.onmessage = (e) => (window.__hold ? window.__held.push(() => fn(e)) : fn(e));
    }
  };
})();
"""


_numbers = itertools.count(1)


def events(server: Server, tid: str, kind: str | None = None) -> list[dict[str, Any]]:
    page = server.get(f"/api/tournaments/{tid}/events?limit=1000")["events"]
    return [e["event"] for e in page if kind is None or e["event"]["type"] == kind]


@pytest.fixture
def console(server: Server, browser: Any) -> Iterator[Any]:
    """A tournament of 20 players, round 1 paired (10 boards); a console on it (laptop)."""
    tid = f"console-{next(_numbers)}"
    token = server.tournament(tid, ["PTS", "BH/C1", "BH", "WIN"], players=20)
    page = browser.new_page(viewport=LAPTOP)
    page.tid, page.token = tid, token
    page.goto(f"{server.base}/t/{tid}/arbiter#token={token}")
    page.wait_for_selector("[data-board='10']")
    yield page
    page.close()


def key_in(page: Any, board: int, key: str) -> None:
    """Board number, Space, the result key, Enter — the keyboard path, nothing clicked."""
    page.keyboard.type(str(board))
    page.keyboard.press("Space")
    page.keyboard.type(key)
    page.keyboard.press("Enter")


def test_ten_results_by_keyboard_land_on_the_right_boards(console: Any, server: Server) -> None:
    keys = ["1", "=", "0", "+", "-", "*", "5", "x", "0", "1"]
    expected = ["1-0", "1/2-1/2", "0-1", "+-", "-+", "--", "1/2-1/2", "0-0", "0-1", "1-0"]
    assert console.evaluate("document.activeElement.name") == "board"
    for board, key in enumerate(keys, start=1):
        key_in(console, board, key)
        console.wait_for_selector(f"[data-board='{board}'][data-state='confirmed']")
    recorded = events(server, console.tid, "ResultRecorded")
    assert [(e["board"], e["result"]) for e in recorded] == list(
        zip(range(1, 11), expected, strict=True)
    )
    assert console.locator(".missing").get_attribute("data-count") == "0"
    pressed = console.locator("[data-board='4'] [data-result='+-']")
    assert pressed.get_attribute("aria-pressed") == "true"
    both = console.locator("[data-board='8'] [data-result='0-0']")  # a game lost by both
    assert both.get_attribute("aria-pressed") == "true"


def test_a_correction_asks_for_a_reason_and_lands_once(console: Any, server: Server) -> None:
    key_in(console, 3, "1")
    console.wait_for_selector("[data-board='3'][data-state='confirmed']")
    key_in(console, 3, "0")  # over a recorded result: a correction
    console.wait_for_selector("dialog.reason[open]")
    console.keyboard.type("scoresheets swapped")
    console.keyboard.press("Enter")
    console.wait_for_selector(
        "[data-board='3'][data-state='confirmed'] [data-result='0-1'][aria-pressed='true']"
    )
    corrected = events(server, console.tid, "ResultCorrected")
    assert [(e["board"], e["result"], e["reason"]) for e in corrected] == [
        (3, "0-1", "scoresheets swapped")
    ]


def test_closing_names_the_missing_boards_then_succeeds(console: Any, server: Server) -> None:
    for board in range(1, 9):
        key_in(console, board, "=")
        console.wait_for_selector(f"[data-board='{board}'][data-state='confirmed']")
    console.click("[data-action='close-round']")
    console.wait_for_selector(".notice[data-tone='error']")
    notice = console.locator(".notice").inner_text()
    assert "9, 10" in notice
    assert events(server, console.tid, "RoundClosed") == []
    key_in(console, 9, "1")
    key_in(console, 10, "0")
    # Both writes answered: board 10's answer may come before board 9's.
    for board in (9, 10):
        console.wait_for_selector(f"[data-board='{board}'][data-state='confirmed']")
    console.click("[data-action='close-round']")
    console.wait_for_selector(".notice[data-tone='ok']:has-text('Round 1 closed')")
    closed = events(server, console.tid, "RoundClosed")
    assert closed == [{"type": "RoundClosed", "round": 1, "v": 1}]


def test_two_consoles_a_write_over_a_changed_board_is_a_conflict(
    console: Any, server: Server, browser: Any
) -> None:
    other = browser.new_page(viewport=LAPTOP)
    other.add_init_script(HOLD)
    other.goto(f"{server.base}/t/{console.tid}/arbiter#token={console.token}")
    other.wait_for_selector("[data-board='10']")
    key_in(console, 5, "=")
    console.wait_for_selector("[data-board='5'][data-state='confirmed']")
    other.wait_for_selector("[data-board='5'][data-state='confirmed']")
    other.evaluate("window.__hold = true")  # the second console stops seeing the first
    key_in(console, 2, "1")  # a board the second still shows empty
    console.wait_for_selector("[data-board='2'][data-state='confirmed']")
    key_in(console, 5, "0")  # and a correction the second has not seen
    console.wait_for_selector("dialog.reason[open]")
    console.keyboard.type("wrong board")
    console.keyboard.press("Enter")
    # The pending board already presses 0-1 before the request goes: wait for its answer.
    console.wait_for_selector(
        "[data-board='5'][data-state='confirmed'] [data-result='0-1'][aria-pressed='true']"
    )
    key_in(other, 2, "0")
    other.wait_for_selector("[data-board='2'][data-state='error']")
    assert "1–0" in other.locator("[data-board='2'] .status").inner_text()
    key_in(other, 5, "1")  # over ½-½, as it still shows: a correction expecting ½-½
    other.wait_for_selector("dialog.reason[open]")
    other.keyboard.type("my mistake")
    other.keyboard.press("Enter")
    other.wait_for_selector("[data-board='5'][data-state='error']")
    assert "0–1" in other.locator(".notice").inner_text()
    # Nothing lost, nothing overwritten: the first console's writes, in order, and no other.
    log = [(e["type"], e.get("board"), e.get("result")) for e in events(server, console.tid)]
    assert log[-3:] == [
        ("ResultRecorded", 5, "1/2-1/2"),
        ("ResultRecorded", 2, "1-0"),
        ("ResultCorrected", 5, "0-1"),
    ]
    other.close()


def test_a_wrong_or_revoked_token_writes_nothing(server: Server, browser: Any) -> None:
    token = server.tournament("tokens", ["PTS"], players=4)
    page = browser.new_page(viewport=LAPTOP)
    page.goto(f"{server.base}/t/tokens/arbiter")
    page.fill("input[name='token']", "ltb_not-a-token")
    page.press("input[name='token']", "Enter")
    page.wait_for_selector("#token-error:not(:empty)")
    assert "refused" in page.locator("#token-error").inner_text()
    page.fill("input[name='token']", token)
    page.press("input[name='token']", "Enter")
    page.wait_for_selector("[data-board='2']")
    with TokenStore(server.db) as tokens:
        assert tokens.revoke(token)
    before = events(server, "tokens")
    key_in(page, 1, "1")
    page.wait_for_selector("[data-board='1'][data-state='error']")
    assert "token was refused" in page.locator(".notice").inner_text()
    assert events(server, "tokens") == before
    page.close()


def test_the_whole_flow_in_italian(server: Server, browser: Any) -> None:
    token = server.tournament("italiano", ["PTS", "BH"], players=4)
    page = browser.new_page(viewport={"width": 820, "height": 1180})
    page.goto(f"{server.base}/t/italiano/arbiter?lang=it")
    assert page.evaluate("document.documentElement.lang") == "it"
    page.fill("input[name='token']", token)
    page.press("input[name='token']", "Enter")
    page.wait_for_selector("[data-board='2']")
    assert page.locator("label[for='q-board']").inner_text() == "Scacchiera"
    key_in(page, 1, "1")
    key_in(page, 2, "=")
    for board in (1, 2):  # board 2's answer may come before board 1's
        page.wait_for_selector(f"[data-board='{board}'][data-state='confirmed']")
    page.click("[data-action='close-round']")
    page.wait_for_selector(".notice[data-tone='ok']:has-text('Turno 1 chiuso')")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    types = [e["type"] for e in events(server, "italiano")]
    assert types[-3:] == ["ResultRecorded", "ResultRecorded", "RoundClosed"]
    page.close()


TRF_PLAYERS = "\n".join(
    f"001 {no:4d}      {name:<33} {rating:4d} ITA {fide:>11}"
    for no, name, rating, fide in [
        (1, "Rossi, Anna", 2100, "2001001"), (2, "Bianchi, Marco", 2050, "2001002"),
        (3, "Verdi, Lucia", 1990, "2001003"), (4, "Neri, Paolo", 1900, "2001004"),
    ]
)  # fmt: skip


def test_set_up_players_berger_pairings_audit_and_export(server: Server, browser: Any) -> None:
    """A round robin from nothing, through the pages only: create it, register four players
    from a TRF list (preview first), pair round 1 from the Berger tables (preview first),
    enter a result, read the audit trail, download the TRF."""
    token = server.token("rr")
    page = browser.new_page(viewport=LAPTOP, accept_downloads=True)
    page.goto(f"{server.base}/new")
    page.fill("#s-id", "rr")
    page.fill("input[name='token']", token)
    page.fill("#s-name", "Club round robin")
    page.fill("#s-rounds", "3")
    page.select_option("#s-system", "roundrobin")
    assert page.locator(".tb-list li strong").all_inner_texts() == ["PTS", "DE", "SB", "WIN", "BWG"]
    page.click("button.primary")
    page.wait_for_url("**/t/rr/arbiter*")
    page.wait_for_selector("[role='tab']")
    assert events(server, "rr") == [events(server, "rr")[0]]  # created, nothing more
    page.click("#tab-players")
    page.fill("#pl-trf", TRF_PLAYERS)
    page.locator("#panel-players").get_by_role("button", name="Preview").click()
    page.wait_for_selector("text=4 players read")
    assert events(server, "rr", "ParticipantRegistered") == []  # a preview writes nothing
    page.click("text=Register them all")
    page.wait_for_selector("text=Players registered")
    names = [e["name"] for e in events(server, "rr", "ParticipantRegistered")]
    assert names == ["Rossi, Anna", "Bianchi, Marco", "Verdi, Lucia", "Neri, Paolo"]
    page.click("#tab-pairings")
    page.fill("#p-round", "1")
    page.click("text=Preview from the Berger tables")
    page.wait_for_selector("text=Round 1: 2 boards")
    assert events(server, "rr", "RoundPaired") == []
    page.click("text=Publish the pairings")
    page.wait_for_selector("text=Round 1 published")
    (paired,) = events(server, "rr", "RoundPaired")
    # FIDE's Berger table for four players, round 1: 1-4, 2-3.
    assert [(b["white"], b["black"]) for b in paired["boards"]] == [(1, 4), (2, 3)]
    page.click("#tab-results")
    page.wait_for_selector("[data-board='2']")
    page.click("[data-board='1'] [data-result='1-0']")
    page.wait_for_selector("[data-board='1'][data-state='confirmed']")
    page.click("#tab-audit")
    page.click("text=Show")
    page.wait_for_selector(".audit li")
    first = page.locator(".audit li").first.inner_text()
    assert "round 1, board 1: 1–0" in first and "#" in first
    with page.expect_download() as download:
        page.click("text=Download TRF-2026")
    assert download.value.suggested_filename == "rr-trf26.trf"
    assert "Rossi, Anna" in Path(download.value.path()).read_text("utf-8")
    page.close()
