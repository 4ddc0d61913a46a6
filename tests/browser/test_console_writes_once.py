"""The console's writes on bad Wi-Fi, in a real browser: while a write is on its way its status
says so (not what the write before it said), and a second click meanwhile writes nothing, so
its refusal ("round already paired") never stands over the first one's success. Each request
is held with `page.route` until both clicks are in."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import Server
from tests.browser.test_console import TRF_PLAYERS, events
from tests.browser.test_console_forms import empty_tournament, fresh_id, opened

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


def twice(page: Any, target: str, held: list[Any], status: str, sending: str) -> None:
    """Click `target`, wait until its request is held and `status` says `sending`, click
    again, let the page run, then release what was held."""
    page.click(target)
    while not held:  # the route's handler runs while Playwright waits
        page.wait_for_timeout(20)
    assert page.locator(status).inner_text() == sending
    assert page.locator(status).get_attribute("data-tone") == "info"
    page.click(target)  # no answer yet: the arbiter clicks again
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => setTimeout(r)))")
    assert len(held) == 1
    for route in held:
        route.continue_()


def test_publishing_a_round_twice_pairs_it_once_and_says_so(server: Server, opened: Any) -> None:
    tid = fresh_id("twice-pair")
    token = empty_tournament(server, tid, "roundrobin", players=8)
    page = opened(tid, token).page
    page.click("#tab-pairings")
    page.click("#p-berger")
    page.wait_for_selector("text=Round 1: 4 boards")
    held = hold(page, f"**/api/tournaments/{tid}/rounds/1/pairings*", "POST")
    status = "#p-status"
    twice(page, "text=Publish the pairings", held, status, "Sending…")
    page.wait_for_selector(f"{status}[data-tone='ok']")
    assert page.locator(status).inner_text().startswith("Round 1 published (#")
    assert len(events(server, tid, "RoundPaired")) == 1


def test_closing_a_round_twice_closes_it_once_and_says_so(server: Server, opened: Any) -> None:
    tid = fresh_id("twice-close")
    token = empty_tournament(server, tid, "roundrobin", players=4)
    t = f"/api/tournaments/{tid}"
    boards = [{"board": 1, "white": 1, "black": 4}, {"board": 2, "white": 2, "black": 3}]
    assert server.call("POST", f"{t}/rounds/1/pairings", {"boards": boards}, token)[0] == 201
    for board, result in ((1, "1-0"), (2, "1/2-1/2")):
        body = {"board": board, "result": result}
        assert server.call("POST", f"{t}/rounds/1/results", body, token)[0] == 201
    page = opened(tid, token).page
    page.wait_for_selector("[data-board='2'][data-state='confirmed']")
    held = hold(page, f"**/api/tournaments/{tid}/rounds/1/close", "POST")
    twice(page, "[data-action='close-round']", held, ".notice", "Sending…")
    page.wait_for_selector(".notice[data-tone='ok']")
    assert page.locator(".notice").inner_text().startswith("Round 1 closed (#")
    assert len(events(server, tid, "RoundClosed")) == 1


def test_registering_a_player_list_twice_registers_it_once(server: Server, opened: Any) -> None:
    tid = fresh_id("twice-list")
    token = empty_tournament(server, tid)
    page = opened(tid, token).page
    page.click("#tab-players")
    page.fill("#pl-trf", TRF_PLAYERS)
    page.locator("#panel-players").get_by_role("button", name="Preview").click()
    page.wait_for_selector(".players-preview tbody tr")
    held = hold(page, f"**/api/tournaments/{tid}/participants*", "POST")
    twice(page, "text=Register them all", held, "#pl-status", "Sending…")
    page.wait_for_selector("#pl-status[data-tone='ok']")
    assert page.locator("#pl-status").inner_text().startswith("Players registered (#")
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
    held = hold(page, f"**/api/tournaments/{tid}", "PATCH")
    page.fill("#delay-amount", "5")
    # "saved" would claim the 5 minutes are saved: the status says the request is on its way.
    twice(page, set_delay, held, "#delay-status", "Sending…")
    page.wait_for_function(
        "(first) => { const s = document.querySelector('#delay-status');"
        " return s.dataset.tone === 'ok' && s.textContent !== first; }",
        arg=first,
    )
    assert server.call("GET", f"/api/tournaments/{tid}", None, token)[1]["public_delay"] == 300
