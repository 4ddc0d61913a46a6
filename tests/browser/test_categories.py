"""The standings page's category picker in a real browser: choosing a category shows only its
members with the ranks counted inside it, a result updates them live, `?category=` opens on it,
a code no longer defined falls back to every player, and the picker speaks Italian."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server, open_page

PHONE = {"width": 390, "height": 844}
FULL_HD = {"width": 1920, "height": 1080}
SHOTS = Path("/tmp/shots/cat")
T = "/api/tournaments/cats"


@pytest.fixture(scope="module")
def cats(server: Server) -> str:
    """8 players rated 2390 down to 2320; U2360 (4–8) and TOP (1–3); round 1 under way."""
    categories = [
        {"code": "U2360", "name": "Under 2360", "rating_max": 2360},
        {"code": "TOP", "name": "Top seeds", "members": [1, 2, 3]},
    ]
    results = [(1, "0-1"), (3, "1-0"), (4, "1/2-1/2")]
    return server.tournament("cats", ["PTS", "BH"], categories=categories, results=results)


def open_rows(browser: Any, size: dict[str, int], url: str) -> Any:
    return open_page(browser, size, url, "table.standings tbody.rows tr[data-start-no]")


def ranks(page: Any) -> list[tuple[int, int]]:
    rows = page.locator("tbody.rows tr[data-start-no]:not([hidden])")
    return [
        (
            int(rows.nth(i).get_attribute("data-rank")),
            int(rows.nth(i).get_attribute("data-start-no")),
        )
        for i in range(rows.count())
    ]


def test_choosing_a_category_shows_its_ranks_and_follows_results(
    browser: Any, server: Server, cats: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_rows(browser, FULL_HD, f"{server.base}/t/cats")
    picker = page.locator("select#category")
    assert picker.locator("option").all_inner_texts() == ["All players", "Under 2360", "Top seeds"]
    assert len(ranks(page)) == 8
    picker.select_option("U2360")
    page.wait_for_url("**/t/cats?category=U2360")
    page.wait_for_selector("table.standings tbody.rows tr[data-start-no]")
    # Main ranks: 2 and 5 first (1 point), 7 and 8 third, the others fifth; inside U2360
    # (4–8): 5 first, 7 and 8 sharing 2nd, 4 and 6 sharing 4th.
    assert ranks(page) == [(1, 5), (2, 7), (2, 8), (4, 4), (4, 6)]
    assert page.locator("select#category").input_value() == "U2360"
    page.screenshot(path=SHOTS / "standings-category-1920-en.png")
    status, _ = server.call("POST", f"{T}/rounds/1/results", {"board": 2, "result": "0-1"}, cats)
    assert status == 201  # 4 beats 3: 4 joins 5 on top of U2360
    page.wait_for_selector("tbody.rows tr[data-start-no='4'][data-rank='1']")
    assert ranks(page) == [(1, 4), (1, 5), (3, 7), (3, 8), (5, 6)]
    picker = page.locator("select#category")
    picker.focus()  # a real select: reachable and operable from the keyboard
    picker.select_option("")
    page.wait_for_url("**/t/cats")
    page.wait_for_selector("table.standings tbody.rows tr[data-start-no='1']")
    assert len(ranks(page)) == 8
    assert page.errors == []
    page.close()


def test_a_phone_in_italian_and_a_category_gone(browser: Any, server: Server, cats: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_rows(browser, PHONE, f"{server.base}/t/cats?category=TOP&lang=it")
    assert page.locator("label[for='category']").inner_text() == "Categoria"
    assert page.locator("select#category option").first.inner_text() == "Tutti i giocatori"
    assert [no for _, no in ranks(page)] == [2, 1, 3]
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    page.screenshot(path=SHOTS / "standings-category-390-it.png", full_page=True)
    page.close()
    page = open_rows(browser, PHONE, f"{server.base}/t/cats?category=GONE")
    page.wait_for_url("**/t/cats")  # an unknown code: every player instead
    assert len(ranks(page)) == 8
    page.close()
