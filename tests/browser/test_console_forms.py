"""The console's smaller forms in a real browser: the status line after a refusal, the Berger
tables only where they apply, withdrawals and byes named and previewed before they are
written, the player list's preview with its headers, and a console opened before round 1."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import NAMES, Server
from tests.browser.test_console import TRF_PLAYERS, events, key_in

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

_numbers = itertools.count(1)


def fresh_id(stem: str) -> str:
    return f"{stem}-{next(_numbers)}"


def empty_tournament(server: Server, tid: str, system: str = "swiss", players: int = 0) -> str:
    """`tid` with `players` registered (the test names) and nothing paired; its token."""
    token = server.token(tid)
    t = f"/api/tournaments/{tid}"
    body = {"name": f"Club {tid}", "rounds": 7, "tiebreaks": ["PTS", "SB"], "system": system}
    assert server.call("PUT", t, body, token)[0] == 201
    for no in range(1, players + 1):
        person = {"start_no": no, "name": NAMES[no - 1], "rating": 2000 - no, "federation": "ITA"}
        assert server.call("POST", f"{t}/participants", person, token)[0] == 201
    return token


class Console:
    """A console page with every page error and console error it logs."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("pageerror", lambda err: self.errors.append(f"pageerror: {err}"))
        page.on(
            "console",
            lambda msg: self.errors.append(f"console: {msg.text}") if msg.type == "error" else None,
        )


@pytest.fixture
def opened(server: Server, browser: Any) -> Iterator[Any]:
    """Open a console on (tid, token) at a viewport; errors are collected from the start."""
    pages: list[Any] = []

    def open_(tid: str, token: str, viewport: dict[str, int] = LAPTOP) -> Console:
        console = Console(browser.new_page(viewport=viewport))
        pages.append(console.page)
        console.page.goto(f"{server.base}/t/{tid}/arbiter#token={token}")
        console.page.wait_for_selector("[role='tab']")
        return console

    yield open_
    for page in pages:
        page.close()


def test_a_correction_after_a_refusal_replaces_the_refusal(server: Server, opened: Any) -> None:
    tid = fresh_id("notice")
    token = server.tournament(tid, ["PTS", "BH"], players=8)
    page = opened(tid, token).page
    page.wait_for_selector("[data-board='4']")
    key_in(page, 1, "1")
    page.wait_for_selector("[data-board='1'][data-state='confirmed']")
    assert page.locator(".notice").inner_text().startswith("Board 1: 1–0 recorded (#")
    page.click("[data-action='close-round']")  # boards 2-4 have no result: refused
    page.wait_for_selector(".notice[data-tone='error']")
    assert "boards 2, 3, 4 have no result" in page.locator(".notice").inner_text()
    key_in(page, 1, "0")  # a correction, which goes through
    page.wait_for_selector("dialog.reason[open]")
    page.keyboard.type("colours swapped on the scoresheet")
    page.keyboard.press("Enter")
    page.wait_for_selector(".notice[data-tone='ok']")
    (corrected,) = events(server, tid, "ResultCorrected")
    assert (corrected["board"], corrected["result"]) == (1, "0-1")
    seq = len(events(server, tid))
    assert page.locator(".notice").inner_text() == f"Board 1 corrected to 0–1 (#{seq})."
    assert "no result" not in page.locator("#panel-results").inner_text()
    # One polite status for the results: the boards' own texts are not live regions.
    assert page.locator("#panel-results [role='status'], #panel-results [aria-live]").count() == 0
    assert page.locator(".notice[role='status'][aria-live='polite']").count() == 1


def test_no_berger_tables_on_a_swiss(server: Server, opened: Any) -> None:
    tid = fresh_id("swiss")
    token = server.tournament(tid, ["PTS", "BH"], players=30)
    page = opened(tid, token).page
    page.click("#tab-pairings")
    assert page.locator("#p-berger").count() == 1
    assert not page.locator("#p-berger").is_visible()
    assert not page.get_by_text("Round robin", exact=True).is_visible()


def test_berger_tables_on_an_eight_player_round_robin(server: Server, opened: Any) -> None:
    tid = fresh_id("rr")
    token = empty_tournament(server, tid, "roundrobin", players=8)
    page = opened(tid, token).page
    page.click("#tab-pairings")
    assert page.locator("#p-berger").is_visible()
    assert page.locator("#p-berger-hint").inner_text().startswith("The round from FIDE's Berger")
    page.fill("#p-round", "1")
    page.click("#p-berger")
    page.wait_for_selector("text=Round 1: 4 boards")
    assert events(server, tid, "RoundPaired") == []
    page.click("text=Publish the pairings")
    page.wait_for_selector("text=Round 1 published")
    (paired,) = events(server, tid, "RoundPaired")
    # FIDE's Berger table for eight players, round 1: 1-8, 2-7, 3-6, 4-5.
    assert [(b["white"], b["black"]) for b in paired["boards"]] == [(1, 8), (2, 7), (3, 6), (4, 5)]


def test_berger_tables_wait_for_a_third_player(server: Server, opened: Any) -> None:
    tid = fresh_id("rr")
    token = empty_tournament(server, tid, "roundrobin", players=2)
    page = opened(tid, token).page
    page.click("#tab-pairings")
    assert not page.locator("#p-berger").is_visible()
    assert page.locator("#p-berger-hint").inner_text() == (
        "FIDE's Berger tables cover 3 to 24 players; this round robin has 2."
    )
    person = {"start_no": 3, "name": NAMES[2], "rating": 1990}
    assert server.call("POST", f"/api/tournaments/{tid}/participants", person, token)[0] == 201
    page.click("#tab-players")
    page.click("#tab-pairings")  # the tab reads the participants again
    page.wait_for_selector("#p-berger:visible")


def test_withdraw_names_the_player_and_previews_the_event(server: Server, opened: Any) -> None:
    tid = fresh_id("withdraw")
    token = server.tournament(tid, ["PTS", "BH"], players=8)
    page = opened(tid, token).page
    page.click("#tab-ops")
    page.fill("#w-no", "3")
    assert page.locator("#w-no-who").inner_text() == "Costa, Ivan"
    assert page.input_value("#w-round") == "2"  # the round after the one paired
    page.locator("#withdraw-form").get_by_role("button", name="Preview").click()
    page.wait_for_selector("#withdraw-preview li")
    assert page.locator("#withdraw-preview li").all_inner_texts() == [
        "withdrew Costa, Ivan (3) from round 2"
    ]
    assert events(server, tid, "ParticipantWithdrawn") == []  # a preview writes nothing
    page.locator("#withdraw-preview").get_by_role("button", name="Confirm").click()
    page.wait_for_selector("#withdraw-status[data-tone='ok']")
    assert events(server, tid, "ParticipantWithdrawn") == [
        {"type": "ParticipantWithdrawn", "start_no": 3, "from_round": 2, "v": 1}
    ]
    seq = len(events(server, tid))
    assert page.locator("#withdraw-status").inner_text() == (
        f"Written: withdrew Costa, Ivan (3) from round 2 (#{seq})."
    )
    page.fill("#w-no", "99")
    assert page.locator("#w-no-who").inner_text() == "No player has start number 99."
    page.locator("#withdraw-form").get_by_role("button", name="Preview").click()
    page.wait_for_selector("#withdraw-status[data-tone='error']")
    assert page.locator("#withdraw-status").inner_text() == "No player has start number 99."
    assert page.locator("#withdraw-preview").is_hidden()
    assert len(events(server, tid)) == seq


def test_a_bye_preview_cancelled_writes_nothing(server: Server, opened: Any) -> None:
    tid = fresh_id("bye")
    token = server.tournament(tid, ["PTS", "BH"], players=8)
    page = opened(tid, token).page
    before = events(server, tid)
    page.click("#tab-ops")
    page.fill("#b-no", "5")
    assert page.locator("#b-no-who").inner_text() == "Esposito, Giulia"
    page.select_option("#b-points", "zero")
    page.locator("#bye-form").get_by_role("button", name="Preview").click()
    page.wait_for_selector("#bye-preview li")
    assert page.locator("#bye-preview li").inner_text() == (
        "bye for Esposito, Giulia (5) in round 2 (zero points)"
    )
    page.fill("#b-round", "3")  # an edit drops the preview: Confirm would not send round 2
    assert page.locator("#bye-preview").is_hidden()
    page.locator("#bye-form").get_by_role("button", name="Preview").click()
    page.wait_for_selector("#bye-preview li:has-text('in round 3')")
    page.locator("#bye-preview").get_by_role("button", name="Cancel").click()
    assert page.locator("#bye-status").inner_text() == "Cancelled: nothing was written."
    assert events(server, tid) == before


def previewed_player_list(server: Server, opened: Any, stem: str) -> tuple[str, Any]:
    """A console on an empty tournament whose players tab previews `TRF_PLAYERS`: (tid, page)."""
    tid = fresh_id(stem)
    page = opened(tid, empty_tournament(server, tid)).page
    page.click("#tab-players")
    page.fill("#pl-trf", TRF_PLAYERS)
    page.locator("#panel-players").get_by_role("button", name="Preview").click()
    page.wait_for_selector(".players-preview tbody tr")
    return tid, page


def test_the_player_list_preview_has_its_headers(server: Server, opened: Any) -> None:
    _, page = previewed_player_list(server, opened, "list")
    headers = page.locator(".players-preview thead th")
    assert headers.all_inner_texts() == ["No.", "Name", "Rating", "Title", "Fed", "FIDE id"]
    assert headers.first.get_attribute("scope") == "col"
    first = page.locator(".players-preview tbody tr").first.locator("td").all_inner_texts()
    assert first == ["1", "Rossi, Anna", "2100", "", "ITA", "2001001"]
    assert page.locator(".players-preview tbody tr").count() == 4


def test_a_console_before_round_one_has_no_error(server: Server, opened: Any) -> None:
    tid = fresh_id("fresh")
    token = empty_tournament(server, tid)
    console = opened(tid, token)
    page = console.page
    page.wait_for_selector(".pre-round:visible")
    assert page.locator(".pre-round p").inner_text().startswith("No round has been paired yet.")
    assert page.locator(".ranks").inner_text().endswith("No players registered yet.")
    assert not page.locator("#q-board").is_visible()
    assert not page.locator("[data-action='close-round']").is_visible()
    assert page.locator(".sub .state").inner_text() == "Before round 1"
    page.get_by_role("button", name="Open Players").click()
    assert page.locator("#tab-players").get_attribute("aria-selected") == "true"
    # Players and round 1 arrive (another arbiter, or the pairing program): the grid appears.
    t = f"/api/tournaments/{tid}"
    for no in range(1, 5):
        person = {"start_no": no, "name": NAMES[no - 1], "rating": 2000 - no}
        assert server.call("POST", f"{t}/participants", person, token)[0] == 201
    pairs = [(1, 1, 2), (2, 3, 4)]
    boards = {"boards": [{"board": b, "white": w, "black": k} for b, w, k in pairs]}
    assert server.call("POST", f"{t}/rounds/1/pairings", boards, token)[0] == 201
    page.click("#tab-results")
    page.wait_for_selector("[data-board='2']")
    assert page.locator(".pre-round").is_hidden()
    assert page.locator(".ranks tbody tr").count() == 4
    assert console.errors == []


def test_the_forms_fit_a_phone(server: Server, opened: Any) -> None:
    tid = fresh_id("phone")
    token = server.tournament(tid, ["PTS", "BH"], players=8)
    page = opened(tid, token, PHONE).page
    page.click("#tab-ops")
    page.fill("#w-no", "1")
    page.locator("#withdraw-form").get_by_role("button", name="Preview").click()
    page.wait_for_selector("#withdraw-preview li")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert page.evaluate("getComputedStyle(document.querySelector('#w-no')).fontSize") == "16px"
