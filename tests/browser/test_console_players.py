"""The console's players in a real browser: a withdrawn player reinstated from the round
operations (chosen among the withdrawn, back from the next round to pair, by keyboard), and
sex and birth date in the registration, edit and late-entry forms, which the categories by
sex and age then read."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server
from tests.browser.test_console import events

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SHOTS = Path(os.environ.get("LIVETB_SHOTS", "/tmp/livetb-shots")) / "players"
CATEGORIES = [
    {"code": "U18W", "name": "Girls under 18", "sex": "w", "born_from": "2008-01-01"},
    {"code": "S65", "name": "Seniors 65+", "born_to": "1961-12-31"},
]

_numbers = itertools.count(1)


@pytest.fixture
def opened(server: Server, browser: Any) -> Iterator[Any]:
    """A console on (tid, token) at a viewport, its script errors in `page.errors`."""
    pages: list[Any] = []

    def open_(tid: str, token: str, viewport: dict[str, int] = LAPTOP) -> Any:
        page = browser.new_page(viewport=viewport)
        page.errors = []
        page.on("pageerror", lambda err: page.errors.append(str(err)))
        pages.append(page)
        page.goto(f"{server.base}/t/{tid}/arbiter#token={token}")
        page.wait_for_selector("[role='tab']")
        return page

    yield open_
    for page in pages:
        page.close()


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def participant(server: Server, tid: str, no: int, token: str) -> dict[str, Any]:
    """As the arbiter reads it (the public sees a birth year, not the date)."""
    status, body = server.call("GET", f"/api/tournaments/{tid}", None, token)
    assert status == 200, body
    return next(p for p in body["participants"] if p["start_no"] == no)


def logged(server: Server, tid: str, token: str, kind: str | None = None) -> list[dict[str, Any]]:
    """The log's events as the arbiter reads them (birth dates whole)."""
    status, body = server.call("GET", f"/api/tournaments/{tid}/events?limit=1000", None, token)
    assert status == 200, body
    return [e["event"] for e in body["events"] if kind is None or e["event"]["type"] == kind]


def members(server: Server, tid: str) -> dict[str, list[int]]:
    listed = server.get(f"/api/tournaments/{tid}/categories")["categories"]
    return {c["code"]: c["start_nos"] for c in listed}


def test_a_withdrawn_player_is_reinstated_from_the_round_operations(
    server: Server, opened: Any
) -> None:
    tid = f"reinstate-{next(_numbers)}"
    token = server.tournament(tid, ["PTS", "BH"], players=8)  # round 1 paired
    t = f"/api/tournaments/{tid}"
    withdrawal = {"start_no": 3, "from_round": 2}
    assert server.call("POST", f"{t}/withdrawals", withdrawal, token)[0] == 201
    page = opened(tid, token)
    page.click("#tab-players")
    row = page.locator(".players-list tr[data-start-no='3']")
    assert row.locator(".withdrawn").inner_text() == "(withdrawn from round 2)"

    page.click("#tab-ops")
    options = page.locator("#r-no option").all_inner_texts()
    assert options == ["Costa, Ivan (3), withdrawn from round 2"]
    assert page.locator("label[for='r-no']").inner_text() == "Withdrawn player"
    # A refresh that changes nothing leaves the choices as they are (an open list stays open).
    page.eval_on_selector("#r-no option", "o => { o.dataset.kept = 'yes'; }")
    page.evaluate("document.dispatchEvent(new CustomEvent('livetb:info'))")
    assert page.eval_on_selector("#r-no option", "o => o.dataset.kept") == "yes"
    assert page.input_value("#r-round") == "2"  # the next round to pair
    # By keyboard: back from round 3 (round 2 stays an absence), previewed, then confirmed.
    page.focus("#r-round")
    page.keyboard.press("Control+A")
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    page.wait_for_selector("#reinstate-preview li")
    assert page.locator("#reinstate-preview li").all_inner_texts() == [
        "reinstated Costa, Ivan (3): back from round 3",
        "bye for Costa, Ivan (3) in round 2 (zero points)",
    ]
    assert events(server, tid, "ParticipantReinstated") == []  # a preview writes nothing
    assert page.evaluate("document.activeElement.textContent") == "Confirm"
    shot(page, "reinstate-preview-1280.png")
    page.keyboard.press("Enter")
    page.wait_for_selector("#reinstate-status[data-tone='ok']")
    assert events(server, tid, "ParticipantReinstated") == [
        {"type": "ParticipantReinstated", "start_no": 3, "from_round": 3, "v": 1}
    ]
    seq = len(events(server, tid))
    assert page.locator("#reinstate-status").inner_text() == (
        "Written: reinstated Costa, Ivan (3): back from round 3; "
        f"bye for Costa, Ivan (3) in round 2 (zero points) (#{seq})."
    )
    assert participant(server, tid, 3, token)["withdrawn_from"] is None

    # The console follows: nobody left to reinstate, player 3 active again everywhere.
    page.wait_for_selector("#r-no option:text('No player is withdrawn.')", state="attached")
    page.fill("#w-no", "3")
    assert page.locator("#w-no-who").inner_text() == "Costa, Ivan"
    page.locator("#reinstate-form").get_by_role("button", name="Preview").click()
    page.wait_for_selector("#reinstate-status[data-tone='error']")
    assert page.locator("#reinstate-status").inner_text() == "No player is withdrawn."
    page.click("#tab-players")
    assert row.locator(".withdrawn").count() == 0
    assert row.get_attribute("data-withdrawn") is None
    assert len(events(server, tid)) == seq
    assert page.errors == []


def club(server: Server, prefix: str, **settings: Any) -> tuple[str, str, str]:
    """A new 5-round tournament with no participant yet: (tid, token, its API path)."""
    tid = f"{prefix}-{next(_numbers)}"
    token = server.token(tid)
    t = f"/api/tournaments/{tid}"
    assert server.call("PUT", t, {"name": "Club", "rounds": 5, **settings}, token)[0] == 201
    return tid, token, t


def test_sex_and_birth_date_are_registered_edited_and_read_by_the_categories(
    server: Server, opened: Any
) -> None:
    tid, token, t = club(server, "born", tiebreaks=["PTS", "BH"], start_date="2026-06-01")
    assert server.call("PUT", f"{t}/categories", {"categories": CATEGORIES}, token)[0] == 200
    page = opened(tid, token, PHONE)
    page.click("#tab-players")
    assert page.locator("label[for='pl-sex']").inner_text() == "Sex"
    assert page.locator("#pl-sex option").all_inner_texts() == ["Not given", "Male", "Female"]
    assert page.locator("label[for='pl-born']").inner_text() == "Birth date"
    assert page.get_attribute("#pl-born", "aria-describedby") == "pl-born-hint"
    for field in ("#pl-sex", "#pl-born"):  # no zoom on a phone
        assert page.eval_on_selector(field, "e => getComputedStyle(e).fontSize") == "16px"

    page.fill("#pl-name", "Ferrari, Sofia")
    page.select_option("#pl-sex", "w")
    page.fill("#pl-born", "04/03/2010")  # a day-first date: not one the server reads
    page.press("#pl-born", "Enter")
    message = page.eval_on_selector("#pl-born", "e => e.validationMessage")
    assert message == "Write the birth date as YYYY/MM/DD, YYYY-MM-DD or the year only (YYYY)."
    assert logged(server, tid, token, "ParticipantRegistered") == []
    page.fill("#pl-born", "2010-03-04")
    page.press("#pl-born", "Enter")
    page.wait_for_selector("#panel-players .status[data-tone='ok']")
    registered = logged(server, tid, token, "ParticipantRegistered")
    assert [(e["name"], e["sex"], e["birth_date"]) for e in registered] == [
        ("Ferrari, Sofia", "w", "2010-03-04")
    ]
    assert (page.input_value("#pl-sex"), page.input_value("#pl-born")) == ("", "")  # next one
    assert participant(server, tid, 1, token) | {"sex": "w", "birth_date": "2010-03-04"} == (
        participant(server, tid, 1, token)
    )
    assert members(server, tid) == {"U18W": [1], "S65": []}
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    shot(page, "registered-390.png")

    # The edit form shows the current values; a year alone is a birth date too.
    page.locator(".players-list").get_by_role("button", name="Edit Ferrari, Sofia").click()
    assert (page.input_value("#pl-sex"), page.input_value("#pl-born")) == ("w", "2010-03-04")
    page.fill("#pl-born", "1958")
    page.get_by_role("button", name="Save").click()
    # The list follows the log (it reads the tournament again after the write). The status
    # line still says the registration's "saved" until then: no sign that this write is done.
    page.wait_for_selector(".players-list tr[data-start-no='1'] td:text-is('1958')")
    seq = len(events(server, tid))  # the update is the log's last event
    assert page.locator("#panel-players .status").inner_text() == f"Ferrari, Sofia saved (#{seq})."
    updated = logged(server, tid, token, "ParticipantUpdated")
    assert [(e["start_no"], e.get("birth_date")) for e in updated] == [(1, "1958")]
    assert members(server, tid) == {"U18W": [], "S65": [1]}
    cells = page.locator(".players-list tr[data-start-no='1'] td").all_inner_texts()
    assert cells[5:7] == ["Female", "1958"]

    # A late entry (round 1 paired) carries them as well.
    for no, name in [(2, "Bruno, Leo"), (3, "Conti, Ada")]:
        assert (
            server.call("POST", f"{t}/participants", {"start_no": no, "name": name}, token)[0]
            == 201
        )
    boards = {"boards": [{"board": 1, "white": 1, "black": 2}], "bye": 3}
    assert server.call("POST", f"{t}/rounds/1/pairings", boards, token)[0] == 201
    page.click("#tab-results")
    page.click("#tab-players")  # the tab reads the tournament again
    page.wait_for_selector("#pl-missed-1")
    page.fill("#pl-name", "Greco, Marta")
    page.select_option("#pl-sex", "w")
    page.fill("#pl-born", "2009/11/30")
    page.select_option("#pl-missed-1", "half")
    page.press("#pl-name", "Enter")
    page.wait_for_selector("#panel-players .status[data-tone='ok']:has-text('Greco')")
    late = logged(server, tid, token)[-2:]
    assert [(e["type"], e.get("sex"), e.get("birth_date")) for e in late] == [
        ("ParticipantRegistered", "w", "2009/11/30"),
        ("ByeRequested", None, None),
    ]
    assert members(server, tid) == {"U18W": [4], "S65": [1]}
    shot(page, "late-entry-390.png")
    assert page.errors == []


def test_entrants_register_once_each_and_the_next_need_not_wait_for_the_list(
    server: Server, opened: Any
) -> None:
    tid, token, t = club(server, "quick")
    page = opened(tid, token, PHONE)
    page.click("#tab-players")
    page.wait_for_selector("#pl-name")
    posts: list[Any] = []  # registrations, answered when the test says
    reads: list[Any] = []  # the console reading the tournament again: held throughout
    page.route(f"**{t}/participants", lambda route: posts.append(route))
    page.route(f"**{t}", lambda route: reads.append(route))
    page.fill("#pl-name", "Abate, Anna")
    page.press("#pl-name", "Enter")
    while not posts:  # the route's handler runs while Playwright waits
        page.wait_for_timeout(20)
    page.press("#pl-name", "Enter")  # no answer yet: pressed again
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => setTimeout(r)))")
    assert len(posts) == 1
    posts.pop().continue_()
    page.wait_for_selector("#panel-players .status[data-tone='ok']")
    # The list is not read again yet; the next entrant has the next number all the same.
    assert page.input_value("#pl-no") == "2"
    page.fill("#pl-name", "Bassi, Bruno")
    page.press("#pl-name", "Enter")
    while not posts:
        page.wait_for_timeout(20)
    posts.pop().continue_()
    page.wait_for_selector("#panel-players .status:has-text('Bassi, Bruno saved')")
    for route in reads:
        route.continue_()
    page.unroute(f"**{t}/participants")
    page.unroute(f"**{t}")
    registered = events(server, tid, "ParticipantRegistered")
    assert [(e["start_no"], e["name"]) for e in registered] == [
        (1, "Abate, Anna"),
        (2, "Bassi, Bruno"),
    ]
