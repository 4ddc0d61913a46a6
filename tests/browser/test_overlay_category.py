"""`?category=CODE` on the overlay and the venue screen in a real browser: the category's
members alone with the ranks counted inside it (a result moves them live), its name in the
header, the panel inside the frame at 1920×1080 and in a 480×1080 column (paging when the rows
do not fit, or fewer are asked for); an unknown code is said in words on the overlay, in
English and Italian."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server, open_page

FULL_HD = {"width": 1920, "height": 1080}
COLUMN = {"width": 480, "height": 1080}
SHOTS = Path("/tmp/shots/pages25")
T = "/api/tournaments/ovcat"

# The panel's box against the frame: every edge inside it.
INSIDE = """() => {
  const r = document.querySelector('section.overlay').getBoundingClientRect();
  return r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
}"""

# The page indicator and the start numbers of the rows on the page, read together.
PAGE = """() => [document.querySelector('standings-table .pager').textContent,
  [...document.querySelectorAll('tbody tr[data-start-no]:not([hidden])')]
    .map((r) => Number(r.dataset.startNo))]"""


@pytest.fixture(scope="module")
def ovcat(server: Server) -> str:
    """8 players rated 2390 down to 2320; U2360 (4–8); round 1 under way. The token."""
    categories = [{"code": "U2360", "name": "Under 2360", "rating_max": 2360}]
    results = [(1, "0-1"), (3, "1-0"), (4, "1/2-1/2")]
    return server.tournament("ovcat", ["PTS", "BH"], categories=categories, results=results)


def open_rows(browser: Any, size: dict[str, int], url: str) -> Any:
    return open_page(browser, size, url, "tr[data-start-no]", live=True)


def ranks(page: Any) -> list[tuple[int, int]]:
    found = page.evaluate(
        """() => [...document.querySelectorAll('tbody tr[data-start-no]')]
             .map((r) => [Number(r.dataset.rank), Number(r.dataset.startNo)])"""
    )
    return [(r, n) for r, n in found]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_overlay_shows_the_category_with_its_ranks_live(
    browser: Any, server: Server, ovcat: str, lang: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_rows(browser, FULL_HD, f"{server.base}/t/ovcat/overlay?category=U2360&lang={lang}")
    assert page.locator(".ov-head .ov-cat").inner_text().strip() == "· Under 2360"
    # Main ranks: 2 and 5 first (1 point), 7 and 8 third, the others fifth; inside U2360
    # (4–8): 5 first, 7 and 8 sharing 2nd, 4 and 6 sharing 4th (the English run then moves 4).
    before = [(1, 5), (2, 7), (2, 8), (4, 4), (4, 6)]
    after = [(1, 4), (1, 5), (3, 7), (3, 8), (5, 6)]
    assert ranks(page) == (before if lang == "en" else after)
    assert page.locator(".ov-error").is_hidden()
    assert page.evaluate(INSIDE)
    page.screenshot(path=SHOTS / f"overlay-category-1920x1080-{lang}.png")
    if lang == "en":
        status, _ = server.call(
            "POST", f"{T}/rounds/1/results", {"board": 2, "result": "0-1"}, ovcat
        )
        assert status == 201  # 4 beats 3: 4 joins 5 on top of U2360
        page.wait_for_selector("tr[data-start-no='4'][data-rank='1']")
        assert ranks(page) == after
    assert page.errors == []
    page.close()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_overlay_category_in_a_narrow_column_pages_inside_the_frame(
    browser: Any, server: Server, ovcat: str, lang: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    url = f"{server.base}/t/ovcat/overlay?category=U2360&max_rows=2&page_seconds=2&lang={lang}"
    page = open_rows(browser, COLUMN, url)
    page.wait_for_selector("section.overlay.layout-column")  # fitted: the fit sets the layout
    assert page.evaluate(INSIDE)
    shown = page.locator("tbody tr[data-start-no]:not([hidden])").count()
    total = page.locator("tbody tr[data-start-no]").count()
    assert total == 5
    assert shown == 2
    # Whichever page a slow machine got to first: each one inside the frame, every member on
    # one of them as the pages turn.
    assert page.locator("standings-table .pager").inner_text() in ("1 / 3", "2 / 3", "3 / 3")
    seen: set[int] = set()
    deadline = time.monotonic() + 60
    while seen != {4, 5, 6, 7, 8}:
        assert time.monotonic() < deadline, f"{seen} in a minute of pages turning"
        pager, shown_now = page.evaluate(PAGE)
        seen |= set(shown_now)
        assert page.evaluate(INSIDE)
        page.wait_for_function(  # the next page
            "(was) => document.querySelector('standings-table .pager').textContent !== was",
            arg=pager,
        )
    page.screenshot(path=SHOTS / f"overlay-category-480x1080-{lang}.png")
    assert page.errors == []
    page.close()


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Unknown category JUNK: this tournament's categories are U2360."),
        ("it", "Categoria sconosciuta JUNK: le categorie di questo torneo sono U2360."),
    ],
)
def test_overlay_names_an_unknown_category(
    browser: Any, server: Server, ovcat: str, lang: str, said: str
) -> None:
    page = open_rows(browser, FULL_HD, f"{server.base}/t/ovcat/overlay?category=JUNK&lang={lang}")
    page.wait_for_selector(".ov-error:not([hidden])")
    assert page.locator(".ov-error").inner_text() == said
    assert page.locator("tbody tr[data-start-no]").count() == 8  # every player instead
    assert page.locator(".ov-head .ov-cat").count() == 0
    assert page.errors == []
    page.close()


def test_screen_shows_the_category(browser: Any, server: Server, ovcat: str) -> None:
    page = open_rows(browser, FULL_HD, f"{server.base}/t/ovcat/screen?category=U2360&lang=en")
    page.wait_for_selector(".screen-page[data-kind='standings'] tr[data-start-no]")
    assert page.locator(".screen-head .screen-cat").inner_text().strip() == "· Under 2360"
    assert {n for _, n in ranks(page)} == {4, 5, 6, 7, 8}
    assert ranks(page)[0][0] == 1
    page.screenshot(path=SHOTS / "screen-category-1920x1080-en.png")
    assert page.errors == []
    page.close()
