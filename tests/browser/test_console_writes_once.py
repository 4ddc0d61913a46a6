"""The console's writes on bad Wi-Fi, in a real browser: while a write is on its way its status
says so (not what the write before it said), and a second click meanwhile writes nothing, so
its refusal ("round already paired") never stands over the first one's success. Each request
is held with `page.route` until both clicks are in. A write whose answer was lost says it may
have been made, and sent again it is the same write (its idempotency key), made once."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import Server
from tests.browser.test_console import events
from tests.browser.test_console_forms import (
    PHONE,
    empty_tournament,
    fresh_id,
    opened,
    previewed_player_list,
)

__all__ = ["opened"]  # the fixture, shared with the other console forms' tests


def hold(page: Any, url: str, method: str) -> list[Any]:
    """Requests to `url` by `method` (not a preview's dry run) held until released; the rest
    go through."""
    held: list[Any] = []

    def route(r: Any) -> None:
        request = r.request
        if request.method == method and "dry_run" not in request.url:
            held.append(r)
        else:
            r.continue_()

    page.route(url, route)
    return held


def twice(page: Any, target: str, status: str, url: str, method: str = "POST") -> str:
    """Click `target`, wait until its request (`hold`) is held and `status` says it is on its
    way, click again, let the page run, then release what was held; what `status` says once
    the write has succeeded."""
    held = hold(page, url, method)
    page.click(target)
    while not held:  # the route's handler runs while Playwright waits
        page.wait_for_timeout(20)
    assert page.locator(status).inner_text() == "Sending…"
    assert page.locator(status).get_attribute("data-tone") == "info"
    button = page.locator(target).element_handle()  # kept: a preview goes once written
    assert button.get_attribute("aria-busy") == "true"  # where the arbiter pressed, too
    page.click(target)  # no answer yet: the arbiter clicks again
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => setTimeout(r)))")
    assert len(held) == 1
    for route in held:
        route.continue_()
    page.wait_for_selector(f"{status}[data-tone='ok']")
    page.wait_for_function("(b) => !b.hasAttribute('aria-busy')", arg=button)
    return str(page.locator(status).inner_text())


def test_publishing_a_round_twice_pairs_it_once_and_says_so(server: Server, opened: Any) -> None:
    tid = fresh_id("twice-pair")
    token = empty_tournament(server, tid, "roundrobin", players=8)
    page = opened(tid, token).page
    page.click("#tab-pairings")
    page.click("#p-berger")
    page.wait_for_selector("text=Round 1: 4 boards")
    said = twice(
        page,
        "text=Publish the pairings",
        "#p-status",
        f"**/api/tournaments/{tid}/rounds/1/pairings*",
    )
    assert said.startswith("Round 1 published (#")
    assert len(events(server, tid, "RoundPaired")) == 1


def finished_round(server: Server, tid: str) -> str:
    """`tid`: four players, round 1 paired and every result in, not closed; its token."""
    token = empty_tournament(server, tid, "roundrobin", players=4)
    t = f"/api/tournaments/{tid}"
    boards = [{"board": 1, "white": 1, "black": 4}, {"board": 2, "white": 2, "black": 3}]
    assert server.call("POST", f"{t}/rounds/1/pairings", {"boards": boards}, token)[0] == 201
    for board, result in ((1, "1-0"), (2, "1/2-1/2")):
        body = {"board": board, "result": result}
        assert server.call("POST", f"{t}/rounds/1/results", body, token)[0] == 201
    return token


def test_closing_a_round_twice_closes_it_once_and_says_so(server: Server, opened: Any) -> None:
    tid = fresh_id("twice-close")
    page = opened(tid, finished_round(server, tid)).page
    page.wait_for_selector("[data-board='2'][data-state='confirmed']")
    said = twice(
        page, "[data-action='close-round']", ".notice", f"**/api/tournaments/{tid}/rounds/1/close"
    )
    assert said.startswith("Round 1 closed (#")
    assert len(events(server, tid, "RoundClosed")) == 1


def test_registering_a_player_list_twice_registers_it_once(server: Server, opened: Any) -> None:
    tid, page = previewed_player_list(server, opened, "twice-list")
    said = twice(
        page, "text=Register them all", "#pl-status", f"**/api/tournaments/{tid}/participants*"
    )
    assert said.startswith("Players registered (#")
    assert len(events(server, tid, "ParticipantRegistered")) == 4


def test_a_save_on_its_way_does_not_show_the_last_save_as_its_own(
    server: Server, opened: Any
) -> None:
    tid = fresh_id("twice-delay")
    token = empty_tournament(server, tid, players=4)
    page = opened(tid, token).page
    page.click("#tab-setup")
    set_delay = "#delay-h ~ button[type='submit']"
    page.fill("#delay-amount", "15")
    page.click(set_delay)
    page.wait_for_selector("#delay-status[data-tone='ok']")
    first = page.locator("#delay-status").inner_text()
    assert first.startswith("Broadcast delay saved (#")
    page.fill("#delay-amount", "5")
    # "saved" would claim the 5 minutes are saved: the status says the request is on its way.
    said = twice(page, set_delay, "#delay-status", f"**/api/tournaments/{tid}", "PATCH")
    assert said.startswith("Broadcast delay saved (#")
    assert said != first  # the second save's number
    assert server.call("GET", f"/api/tournaments/{tid}", None, token)[1]["public_delay"] == 300


def test_a_close_whose_answer_was_lost_is_sent_again_and_made_once(
    server: Server, opened: Any
) -> None:
    tid = fresh_id("lost-close")
    page = opened(tid, finished_round(server, tid)).page
    page.wait_for_selector("[data-board='2'][data-state='confirmed']")
    keys: list[str] = []

    def lose_the_first_answer(route: Any) -> None:
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:  # the server makes the close; its answer never reaches the page
            route.fetch()
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route(f"**/api/tournaments/{tid}/rounds/1/close", lose_the_first_answer)
    page.click("[data-action='close-round']")
    page.wait_for_selector(".notice[data-tone='error']")
    assert (
        page.locator(".notice")
        .inner_text()
        .startswith("No answer from the server: this may have been written or not.")
    )
    assert len(events(server, tid, "RoundClosed")) == 1  # it was made
    page.click("[data-action='close-round']")  # sent again: the same write, answered
    page.wait_for_selector(".notice[data-tone='ok']")
    seq = len(events(server, tid))
    assert page.locator(".notice").inner_text() == f"Round 1 closed (#{seq})."
    assert keys[1] == keys[0]
    assert len(events(server, tid, "RoundClosed")) == 1


def test_a_refused_publish_is_brought_into_view_on_a_phone(server: Server, opened: Any) -> None:
    tid = fresh_id("refused-view")
    token = empty_tournament(server, tid, "roundrobin", players=8)
    t = f"/api/tournaments/{tid}"
    for no in range(9, 21):  # 20 players: ten boards, a preview taller than the phone
        person = {"start_no": no, "name": f"Player {no}", "federation": "ITA"}
        assert server.call("POST", f"{t}/participants", person, token)[0] == 201
    page = opened(tid, token, PHONE).page
    page.click("#tab-pairings")
    page.click("#p-berger")
    page.wait_for_selector("text=Round 1: 10 boards")
    # Another arbiter publishes round 1 first: this console's Publish is refused.
    boards = [{"board": b, "white": b, "black": 21 - b} for b in range(1, 11)]
    assert server.call("POST", f"{t}/rounds/1/pairings", {"boards": boards}, token)[0] == 201
    page.click("text=Publish the pairings")
    page.wait_for_selector("#p-status[data-tone='error']")
    assert page.locator("#p-status").inner_text() == "That round is already paired."
    box = page.locator("#p-status").evaluate(
        "(s) => { const r = s.getBoundingClientRect(); return [r.top, r.bottom, innerHeight]; }"
    )
    assert box[0] > -1 and box[1] < box[2] + 1, box  # in view, to the pixel
