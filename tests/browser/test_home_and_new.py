"""What a first user meets: the home page lists each tournament with its id, start date, last
update and status (not started, round k of n, finished), in both languages; `/new` checks the
id in the page (a `pattern` Chromium compiles), and an id the server refuses is said at its
field (422 naming `id`), never as "404: Not Found"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from livetb.tokens.sqlite import TokenStore
from tests.browser.conftest import Server, open_page

SHOTS = Path("/tmp/shots/home")
STATUS = {
    "en": {"fresh": "not started", "running": "round 1 of 5", "done": "finished"},
    "it": {"fresh": "non iniziato", "running": "turno 1 di 5", "done": "concluso"},
}
START = {"en": "starts", "it": "inizio"}


@pytest.fixture(scope="module")
def listed(server: Server) -> None:
    token = server.token("fresh")
    body = {"name": "Spring Open", "rounds": 7, "start_date": "2025-05-03"}
    assert server.call("PUT", "/api/tournaments/fresh", body, token)[0] == 201
    server.tournament("running", ["PTS", "BH"], players=4)
    done = server.tournament("done", ["PTS", "BH"], players=2, rounds=1, results=[(1, "1-0")])
    assert server.call("POST", "/api/tournaments/done/rounds/1/close", {}, done)[0] == 201


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("size", [(390, 844), (1366, 768)], ids=["390x844", "1366x768"])
def test_the_home_page_gives_each_id_dates_and_status(
    browser: Any, server: Server, listed: None, lang: str, size: tuple[int, int]
) -> None:
    w, h = size
    page = open_page(
        browser, {"width": w, "height": h}, f"{server.base}/?lang={lang}", "li[data-id='done']"
    )
    for tid, words in STATUS[lang].items():
        item = page.locator(f"li[data-id='{tid}']")
        assert item.locator("code").inner_text() == tid
        facts = item.locator(".facts").inner_text()
        assert words in facts, facts
        assert item.locator(".updated").is_visible()  # when its last event was recorded
    fresh = page.locator("li[data-id='fresh'] .start").inner_text()
    assert fresh.startswith(START[lang]) and "2025" in fresh
    assert page.locator("li[data-id='running'] .start").count() == 0  # no start date given
    assert page.evaluate("document.documentElement.scrollWidth") <= w
    page.screenshot(path=SHOTS / f"home-{w}x{h}-{lang}.png", full_page=True)
    assert page.errors == []
    page.close()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_new_checks_the_id_and_the_server_names_it(browser: Any, server: Server, lang: str) -> None:
    with TokenStore(server.db) as tokens:
        organiser = tokens.create_organiser(label="office")
    url = f"{server.base}/new?lang={lang}#token={organiser}"
    page = open_page(browser, {"width": 390, "height": 844}, url, "#s-id")
    puts: list[str] = []
    page.on("request", lambda r: puts.append(r.url) if r.method == "PUT" else None)
    page.fill("#s-id", "my open!")
    page.fill("#s-name", "My open")
    # The pattern is a valid expression (compiled with the v flag): the id is refused in the
    # page, before any request.
    assert page.evaluate("document.querySelector('#s-id').validity.patternMismatch")
    page.click("form.setup button[type='submit']")
    assert page.evaluate("document.querySelector('#s-id').matches(':invalid')")
    page.fill("#s-id", "my-open.2025_A")
    assert page.evaluate("document.querySelector('#s-id').validity.valid")
    # The server's own check, when the page's is bypassed: 422 naming the field.
    page.evaluate("document.querySelector('form.setup').noValidate = true")
    page.fill("#s-id", "my open!")
    page.click("form.setup button[type='submit']")
    page.wait_for_selector("#s-id[aria-invalid='true']", timeout=60_000)
    said = page.locator("form.setup .status").inner_text()
    assert "id 'my open!'" in said and "404" not in said, said
    assert page.evaluate("document.activeElement.id") == "s-id"
    assert len(puts) == 1  # only the bypassed one was sent
    page.screenshot(path=SHOTS / f"new-refused-390x844-{lang}.png", full_page=True)
    assert page.errors == []
    page.close()
