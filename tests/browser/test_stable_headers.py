"""Every page's column headers are the codes the tournament chose (`<th data-tb="BH/C1">`
showing `BH/C1`, the full name as its accessible name), the same on a fresh load and after a
result, a close and a pairing, and none is cut; the ticker shares its whole line among its
items and a given name that does not fit ends in a whole "…", never a dot of one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server, open_page

SHOTS = Path("/tmp/shots/headers")
CODES = ["PTS", "BH/C1", "BH", "SB"]
NAMES = {"PTS": "Points", "BH/C1": "Buchholz Cut-1", "BH": "Buchholz", "SB": "Sonneborn-Berger"}
PLAYERS = 20
T = "/api/tournaments/heads"
# (name, viewport, path): every page with a standings table, at the sizes they are used at.
PAGES = [
    ("overlay-1920x1080", (1920, 1080), "/overlay"),
    ("overlay-400x1080", (400, 1080), "/overlay"),
    ("screen-1920x1080", (1920, 1080), "/screen"),
    ("standings-1366x768", (1366, 768), ""),
    ("standings-390x844", (390, 844), ""),
]

# Each tie-break header: its code, its text, its accessible name, whether its text is cut.
HEADS = """() => [...document.querySelectorAll('table.standings thead th.tb')].map((th) => ({
  tb: th.dataset.tb, text: th.textContent, label: th.getAttribute('aria-label'),
  cut: th.getClientRects().length > 0 && th.scrollWidth > th.clientWidth + 1,
}))"""
# The given names a ticker cut, each with the width of a whole " …" in its own type.
ELLIPSES = """() => [...document.querySelectorAll('tr[data-start-no]:not([hidden]) .gn')]
  .filter((gn) => gn.scrollWidth > gn.clientWidth + 0.5).map((gn) => {
    const probe = document.createElement('span');
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre';
    probe.style.font = getComputedStyle(gn).font;
    probe.textContent = ' …';
    document.body.append(probe);
    const whole = probe.getBoundingClientRect().width;
    probe.remove();
    return { room: gn.clientWidth, whole };
  })"""
# How much of the ticker's line its items leave empty, and the gap between two of them.
LINE = """() => {
  const line = document.querySelector('table.standings').getBoundingClientRect();
  const items = [...document.querySelectorAll('tr[data-start-no]')].filter((r) => !r.hidden);
  const body = document.querySelector('table.standings tbody');
  const gap = parseFloat(getComputedStyle(body).columnGap);
  return { left: line.right - items[items.length - 1].getBoundingClientRect().right, gap,
           items: items.length, width: line.width };
}"""


@pytest.fixture(scope="module")
def heads(server: Server) -> str:
    return server.tournament("heads", CODES, players=PLAYERS)


def cell(no: int, code: str, text: str) -> str:
    """A wait for a row's value: the rows are in the page even when not shown."""
    return (
        f"() => document.querySelector(\"tr[data-start-no='{no}'] td[data-tb='{code}']\")"
        f"?.textContent === '{text}'"
    )


def statuses(wanted: str) -> str:
    return (
        "() => [...document.querySelectorAll('table.standings thead th.tb')]"
        f".every((th) => th.dataset.status === '{wanted}')"
    )


def test_headers_are_the_codes_through_a_result_a_close_and_a_pairing(
    browser: Any, server: Server, heads: str
) -> None:
    pages = {
        name: open_page(
            browser,
            {"width": w, "height": h},
            f"{server.base}/t/heads{path}",
            "table.standings thead th.tb",
            live=True,
        )
        for name, (w, h), path in PAGES
    }
    first = {}
    for name, page in pages.items():
        shown = page.evaluate(HEADS)
        codes = [h["tb"] for h in shown]
        assert codes == CODES[: len(codes)] and codes, name  # the tournament's order
        assert all(h["text"] == h["tb"] and h["label"] == NAMES[h["tb"]] for h in shown), shown
        assert not any(h["cut"] for h in shown), (name, shown)
        first[name] = shown
        page.screenshot(path=SHOTS / f"{name}-fresh.png")

    def step(what: str, wait: str) -> None:
        for name, page in pages.items():
            page.wait_for_function(wait, timeout=60_000)
            assert page.evaluate(HEADS) == first[name], (what, name)
            page.screenshot(path=SHOTS / f"{name}-{what}.png")

    for board in range(1, PLAYERS // 2 + 1):  # round 1: every board, white wins
        game = {"board": board, "result": "1-0"}
        assert server.call("POST", f"{T}/rounds/1/results", game, heads)[0] == 201
    step("results", cell(2 * PLAYERS // 2 - 1, "PTS", "1.0"))
    assert server.call("POST", f"{T}/rounds/1/close", {}, heads)[0] == 201
    step("close", statuses("final"))
    boards = []
    for k in range(PLAYERS // 4):  # round 2: 1-3, 2-4, 5-7, 6-8, …
        boards += [(4 * k + 1, 4 * k + 3), (4 * k + 2, 4 * k + 4)]
    pairing = {
        "boards": [{"board": b, "white": w, "black": x} for b, (w, x) in enumerate(boards, 1)]
    }
    assert server.call("POST", f"{T}/rounds/2/pairings", pairing, heads)[0] == 201
    step(
        "pairing",
        "() => document.querySelector(\"thead th[data-tb='PTS']\")"
        ".dataset.status === 'provisional'",
    )
    game = {"board": 1, "result": "1-0"}
    assert server.call("POST", f"{T}/rounds/2/results", game, heads)[0] == 201
    step("result", cell(1, "PTS", "2.0"))
    for page in pages.values():
        assert page.errors == []
        page.close()


@pytest.mark.parametrize(
    ("w", "h", "lang"), [(1920, 80, "en"), (1280, 100, "it"), (1920, 200, "en")]
)
def test_a_ticker_uses_its_line_and_shows_whole_ellipses(
    browser: Any, server: Server, heads: str, w: int, h: int, lang: str
) -> None:
    url = f"{server.base}/t/heads/overlay?layout=ticker&lang={lang}"
    page = open_page(browser, {"width": w, "height": h}, url, "tr[data-start-no]", live=True)
    page.wait_for_function(
        "() => document.querySelector('.overlay').style.getPropertyValue('--ov-item')"
    )
    page.wait_for_function(
        "() => !document.querySelector('.overlay').classList.contains('measuring')"
    )
    line = page.evaluate(LINE)
    assert line["items"] >= 2 and line["left"] <= line["gap"] + 1, line  # no item's room left over
    cut = page.evaluate(ELLIPSES)
    assert cut, "the long given name of start no. 1 is cut"  # Maximiliana Alexandrovna
    assert all(c["room"] >= c["whole"] - 0.5 for c in cut), cut
    page.screenshot(path=SHOTS / f"ticker-{w}x{h}-{lang}.png")
    assert page.errors == []
    page.close()
