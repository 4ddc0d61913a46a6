"""The standings on a phone (390×844, 40 players): at least ten whole rows in the first screen,
each with rank, name, points and the first tie-break; the other values one tap away; the
legend behind a button, not a paragraph before the table. And the one standings component
everywhere: a delta rewrites the rows it changed, not the others."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server, open_page

PHONE = {"width": 390, "height": 844}
FULL_HD = {"width": 1920, "height": 1080}
SHOTS = Path("/tmp/shots/front")
CODES = ["PTS", "BH/C1", "BH", "SB", "DE", "FB"]


@pytest.fixture(scope="module")
def forty(server: Server) -> Iterator[str]:
    """40 players, round 1 paired and half its boards played; the token."""
    token = server.tournament("forty", CODES, players=40)
    for board in range(1, 11):
        result = ["1-0", "0-1", "1/2-1/2"][board % 3]
        body = {"board": board, "result": result}
        assert server.call("POST", "/api/tournaments/forty/rounds/1/results", body, token)[0] == 201
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield token


def open_forty(browser: Any, server: Server, size: dict[str, int], lang: str = "en") -> Any:
    url = f"{server.base}/t/forty?lang={lang}"
    rows = "table.standings tbody.rows tr[data-start-no]"
    return open_page(browser, size, url, rows, live=True)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_ten_whole_rows_in_the_first_screen(
    browser: Any, server: Server, forty: str, lang: str
) -> None:
    page = open_forty(browser, server, PHONE, lang)
    inside = page.evaluate(
        """() => [...document.querySelectorAll('tr[data-start-no]')].filter((tr) => {
            const box = tr.getBoundingClientRect();
            return !tr.hidden && box.height > 0 && box.top >= 0 && box.bottom <= innerHeight;
        }).length"""
    )
    assert inside >= 10, inside
    first = page.locator("tbody.rows tr[data-start-no]").first
    # Rank, name, points and the first tie-break shown; the others not, until asked for.
    for part in ["td.rank", "[data-name]", "td[data-tb='PTS']", "td[data-tb='BH/C1']"]:
        assert first.locator(part).is_visible(), part
    assert not first.locator("td[data-tb='SB']").is_visible()
    first.locator("td.more button").click()
    assert first.locator("td.more button").get_attribute("aria-expanded") == "true"
    assert first.locator("td[data-tb='SB']").is_visible()
    assert first.locator("td[data-tb='FB']").is_visible()
    # No paragraph of legend above the table: one line that opens it.
    legend = page.locator("standings-table details.legend")
    assert legend.locator("ul").is_hidden()
    legend.locator("summary").click()
    assert legend.locator("li").count() >= 3  # final, provisional, pending or predicted
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    page.screenshot(path=SHOTS / f"standings-390-{lang}.png")
    assert page.errors == []
    page.close()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_desktop_table_in_both_languages(
    browser: Any, server: Server, forty: str, lang: str
) -> None:
    page = open_forty(browser, server, FULL_HD, lang)
    assert page.locator("thead th.tb").count() == len(CODES)
    assert page.locator("tbody.rows tr[data-start-no]:not([hidden])").count() == 40
    page.screenshot(path=SHOTS / f"standings-1920-{lang}.png")
    assert page.errors == []
    page.close()


def test_a_delta_rewrites_only_the_rows_it_changed(
    browser: Any, server: Server, forty: str
) -> None:
    page = open_forty(browser, server, FULL_HD)
    page.evaluate(
        """() => document.querySelectorAll('tr[data-start-no]').forEach((tr) => {
            tr._kept = true;
            tr.querySelectorAll('td').forEach((td) => { td._kept = true; });
        })"""
    )
    body = {"board": 20, "result": "0-1"}  # 40 beats 39: it climbs into the leading group
    assert server.call("POST", "/api/tournaments/forty/rounds/1/results", body, forty)[0] == 201
    page.wait_for_function(
        "() => document.querySelector(\"tr[data-start-no='40'] td[data-tb='PTS'] .v\")"
        ".textContent === '1.0'"
    )
    kept = page.evaluate(
        """() => [...document.querySelectorAll('tr[data-start-no]')].every(
            (tr) => tr._kept && [...tr.querySelectorAll('td')].every((td) => td._kept))"""
    )
    assert kept  # every row and cell is the element it was: updated in place, moved, not made
    assert page.locator("tr[data-start-no='40']").get_attribute("data-rank") == "1"
    # The table's own polite status says who moved.
    page.wait_for_function(
        "() => document.querySelector('standings-table [role=status]').textContent"
        ".includes('Player 40 up to rank 1')"
    )
    assert page.errors == []
    page.close()


def test_a_group_tie_break_shows_a_dash_for_a_player_nobody_is_tied_with(
    browser: Any, server: Server
) -> None:
    token = server.tournament("dash", ["PTS", "DE", "BH"], players=4)
    for board, result in [(1, "1-0"), (2, "1/2-1/2")]:
        body = {"board": board, "result": result}
        assert server.call("POST", "/api/tournaments/dash/rounds/1/results", body, token)[0] == 201
    page = browser.new_page(viewport=FULL_HD)
    page.goto(f"{server.base}/t/dash")
    page.wait_for_selector("tr[data-start-no='4'] td[data-tb='DE']")
    # 1 alone on 1 point, 2 alone on 0: a dash, with a tooltip; 3 and 4 share ½: their DE.
    for no in (1, 2):
        cell = page.locator(f"tr[data-start-no='{no}'] td[data-tb='DE']")
        assert cell.inner_text() == "–"
        assert "does not apply" in (cell.get_attribute("title") or "")
    for no in (3, 4):
        assert page.locator(f"tr[data-start-no='{no}'] td[data-tb='DE']").inner_text() != "–"
    json_values = {
        r["start_no"]: r["values"][1]
        for r in server.get("/api/tournaments/dash/standings")["standings"]
    }
    assert json_values[1] is not None  # the JSON keeps its value
    page.close()


def test_moves_leave_the_rows_in_order_without_overlap(
    browser: Any, server: Server, forty: str
) -> None:
    page = open_forty(browser, server, FULL_HD)
    # Three results in a burst: each delta lands while the previous slide is still running.
    for board, result in [(11, "0-1"), (12, "0-1"), (13, "0-1")]:
        body = {"board": board, "result": result}
        assert server.call("POST", "/api/tournaments/forty/rounds/1/results", body, forty)[0] == 201
    games = server.get("/api/tournaments/forty/rounds/1")["games"]
    winners = [g["black"] for g in games if g["board"] in (11, 12, 13)]
    assert len(winners) == 3
    for no in winners:  # all three deltas are shown
        page.wait_for_selector(f"tr[data-start-no='{no}'] td[data-tb='PTS']:has-text('1.0')")
    page.wait_for_function("() => !document.querySelector('tbody.rows tr.moving')")  # slid
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('tbody.rows tr[data-start-no]')]
            .filter((tr) => !tr.hidden)
            .map((tr) => {
                const box = tr.getBoundingClientRect();
                const moved = getComputedStyle(tr).transform;
                return [Number(tr.dataset.rank), box.top, box.bottom, moved];
            })"""
    )
    ranks = [rank for rank, *_ in boxes]
    assert ranks == sorted(ranks)
    for (_, _, bottom, _), (_, top, _, _) in pairwise(boxes):
        assert top >= bottom - 0.5  # each row below the one before it, none on top of another
    assert {transform for *_, transform in boxes} == {"none"}
    assert page.errors == []
    page.close()


def test_columns_in_any_notation_and_an_unknown_code_said(
    browser: Any, server: Server, forty: str
) -> None:
    page = open_forty(browser, server, FULL_HD)
    found = page.evaluate(
        """() => new Promise((done) => {
            const table = document.createElement('standings-table');
            table.setAttribute('columns', 'pts, bhc1, BH-C1, SB, XYZ');
            table.setAttribute('top', '3');
            table.setAttribute('tournament', 'forty');
            table.addEventListener('columns-error', (e) => {
                requestAnimationFrame(() => done({
                    unknown: e.detail.unknown,
                    heads: [...table.querySelectorAll('thead th.tb')].map((th) => th.dataset.tb),
                    shown: table.querySelectorAll('tbody tr[data-start-no]:not([hidden])').length,
                }));
            });
            document.body.append(table);
        })"""
    )
    assert found == {"unknown": ["XYZ"], "heads": ["PTS", "BH/C1", "SB"], "shown": 3}
    page.close()
