"""The console's registration form once round 1 is paired: a late entry, with a choice per
round already paired (absent by default), by keyboard, at phone and laptop widths."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
SHOTS = Path(os.environ.get("LIVETB_SHOTS", "/tmp/livetb-shots"))


def events(server: Server, tid: str) -> list[dict[str, Any]]:
    return [e["event"] for e in server.get(f"/api/tournaments/{tid}/events?limit=1000")["events"]]


def close_round(server: Server, tid: str, token: str, rnd: int, boards: int) -> None:
    t = f"/api/tournaments/{tid}/rounds/{rnd}"
    for board in range(1, boards + 1):
        assert (
            server.call("POST", f"{t}/results", {"board": board, "result": "1-0"}, token)[0] == 201
        )
    assert server.call("POST", f"{t}/close", None, token)[0] == 201


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "en"), (LAPTOP, "it")])
def test_a_late_entry_is_registered_with_a_bye_per_missed_round(
    server: Server, browser: Any, viewport: dict[str, int], lang: str
) -> None:
    tid = f"late-{viewport['width']}-{lang}"
    token = server.tournament(tid, ["PTS", "BH"], players=8)  # round 1 paired
    close_round(server, tid, token, 1, 4)
    boards = [{"board": b, "white": 2 * b, "black": 2 * b - 1} for b in range(1, 5)]
    assert (
        server.call("POST", f"/api/tournaments/{tid}/rounds/2/pairings", {"boards": boards}, token)[
            0
        ]
        == 201
    )
    page = browser.new_page(viewport=viewport)
    page.goto(f"{server.base}/t/{tid}/arbiter?lang={lang}#token={token}")
    page.wait_for_selector("[role='tab']")
    page.click("#tab-players")
    # Rounds 1 and 2 are paired: one choice each, absent unless changed.
    page.wait_for_selector("#pl-missed-2")
    assert page.locator("fieldset.late select").count() == 2
    assert page.eval_on_selector("#pl-missed-1", "s => s.value") == "absent"
    assert page.eval_on_selector("#pl-missed-2", "s => s.value") == "absent"
    assert page.locator("label[for='pl-missed-1']").inner_text() == (
        "Round 1" if lang == "en" else "Turno 1"
    )
    font = page.eval_on_selector("#pl-missed-1", "s => getComputedStyle(s).fontSize")
    assert font == "16px"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.fill("#pl-name", "Late, Lara")
    page.focus("#pl-missed-1")
    page.select_option("#pl-missed-1", "half")
    # A refresh (a result elsewhere, the tab shown again) keeps the choice being made in focus.
    page.evaluate("document.dispatchEvent(new CustomEvent('livetb:info'))")
    assert page.evaluate("document.activeElement.id") == "pl-missed-1"
    assert page.eval_on_selector("#pl-missed-1", "s => s.value") == "half"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"late-entry-{viewport['width']}-{lang}.png"), full_page=True)
    page.keyboard.press("Tab")  # round 2 stays absent
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.type") == "submit"
    page.keyboard.press("Enter")
    page.wait_for_selector(".status[data-tone='ok']")
    got = events(server, tid)[-2:]
    assert got == [
        {"type": "ParticipantRegistered", "v": 1, "start_no": 9, "name": "Late, Lara",
         "rating": None, "title": "", "federation": "", "fide_id": "", "sex": "", "birth_date": ""},
        {"type": "ByeRequested", "v": 1, "start_no": 9, "round": 1, "points": "half"},
    ]  # fmt: skip
    # The next entrant starts from absent again, and its number is the next free one.
    page.wait_for_function("() => document.querySelector('#pl-no').value === '10'")
    assert page.eval_on_selector("#pl-missed-1", "s => s.value") == "absent"
    page.close()


def test_before_round_1_is_paired_there_is_no_missed_round(server: Server, browser: Any) -> None:
    tid = "late-before"
    token = server.token(tid)
    assert (
        server.call("PUT", f"/api/tournaments/{tid}", {"name": "Club", "rounds": 5}, token)[0]
        == 201
    )
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server.base}/t/{tid}/arbiter#token={token}")
    page.wait_for_selector("[role='tab']")
    page.click("#tab-players")
    page.wait_for_selector("#pl-name")
    assert page.locator("fieldset.late").is_hidden()
    page.fill("#pl-name", "Early, Ed")
    page.keyboard.press("Enter")
    page.wait_for_selector(".status[data-tone='ok']")
    assert [e["type"] for e in events(server, tid)] == [
        "TournamentCreated",
        "ParticipantRegistered",
    ]
    page.close()
