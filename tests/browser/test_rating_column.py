"""The rating change column Δ in a real browser: the standings page with `?with=rating_change`
(desktop and phone, English and Italian) and the overlay with `Δ` among `?columns=` show each
row's rating change as GET `?with=rating_change` has it, signed ("+7.2", "−3.6", "–" without
a rated game), and a result changes the two players' values live, from the feed alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server, open_page

FULL_HD = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
SHOTS = Path("/tmp/shots/pages25")
T = "/api/tournaments/rcol"

CELLS = """() => Object.fromEntries([...document.querySelectorAll('tr[data-start-no]')]
  .map((r) => [r.dataset.startNo, r.querySelector('td.rc').innerText.trim()]))"""


@pytest.fixture(scope="module")
def rcol(server: Server) -> str:
    """8 rated players, round 1 under way: two results in. The token."""
    return server.tournament("rcol", ["PTS", "BH"], results=[(1, "0-1"), (2, "1/2-1/2")])


def shown(value: str | None, lang: str) -> str:
    """The API's exact decimal string as the column shows it."""
    if value is None:
        return "–"
    sign = "−" if value.startswith("-") else "" if value.strip("0.") == "" else "+"
    text = value.lstrip("-")
    return sign + (text.replace(".", ",") if lang == "it" else text)


def expected(server: Server, lang: str) -> dict[str, str]:
    doc = server.get(f"{T}/standings?with=rating_change")
    return {str(r["start_no"]): shown(r["rating_change"], lang) for r in doc["standings"]}


def open_rc(browser: Any, size: dict[str, int], url: str) -> Any:
    return open_page(browser, size, url, "tr[data-start-no] td.rc", live=True)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_standings_page_shows_the_rating_change(
    browser: Any, server: Server, rcol: str, lang: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    url = f"{server.base}/t/rcol?with=rating_change&lang={lang}"
    desk = open_rc(browser, FULL_HD, url)
    want = expected(server, lang)
    assert desk.evaluate(CELLS) == want
    assert {"–"} < set(want.values())  # boards 3 and 4 unfinished
    assert any(v.startswith("+") for v in want.values()) and any(
        v.startswith("−") for v in want.values()
    )
    head = desk.locator("thead th.rc").inner_text()
    assert ("Rating change" if lang == "en" else "Variazione Elo") in head or head == "Δ"
    desk.screenshot(path=SHOTS / f"standings-rc-1920x1080-{lang}.png")
    phone = open_rc(browser, PHONE, url)
    assert phone.evaluate(CELLS) == want
    assert phone.locator("tr[data-start-no='2'] td.rc").is_visible()
    phone.screenshot(path=SHOTS / f"standings-rc-390x844-{lang}.png")
    for page in (desk, phone):
        assert page.errors == []
        page.close()


def test_a_result_moves_the_values_live_on_page_and_overlay(
    browser: Any, server: Server, rcol: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_rc(browser, FULL_HD, f"{server.base}/t/rcol?with=rating_change&lang=en")
    overlay = open_rc(
        browser, FULL_HD, f"{server.base}/t/rcol/overlay?columns=PTS,%CE%94&top=8&lang=en"
    )
    assert overlay.locator(".ov-error").is_hidden()  # Δ is not an unknown column
    assert overlay.evaluate(CELLS) == expected(server, "en")
    before = expected(server, "en")
    assert before["5"] == before["6"] == "–"
    status, _ = server.call("POST", f"{T}/rounds/1/results", {"board": 3, "result": "1-0"}, rcol)
    assert status == 201
    after = expected(server, "en")
    assert after["5"].startswith("+") and after["6"].startswith("−")
    for p in (page, overlay):
        p.wait_for_function(
            "(want) => document.querySelector(\"tr[data-start-no='5'] td.rc\")"
            "?.innerText.trim() === want",
            arg=after["5"],
        )
        assert p.evaluate(CELLS) == after
    # The moves slide into place: a row carries `moving` until its slide ends.
    overlay.wait_for_function("() => !document.querySelector('tr.moving')")
    overlay.screenshot(path=SHOTS / "overlay-rc-1920x1080-en.png")
    for p in (page, overlay):
        assert p.errors == []
        p.close()
