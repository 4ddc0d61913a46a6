"""The venue screen: standings and pairings pages take turns (a pairings page within the first
two), board numbers readable, each player's points beside the name, and on every page a QR
code, made on the server, that decodes to the phone standings URL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import zxingcpp

from tests.browser.conftest import Server, open_page

SHOTS = Path("/tmp/shots/overlay")
FULL_HD = {"width": 1920, "height": 1080}

KIND = "() => document.querySelector('.screen-page').dataset.kind"

# The QR image as the browser drew it, in grey levels, for the decoder.
PIXELS = """async () => {
  const img = document.querySelector('.qr img');
  await img.decode();
  const side = 400;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = side;
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, side, side);
  g.drawImage(img, 20, 20, side - 40, side - 40);
  const rgba = g.getImageData(0, 0, side, side).data;
  const grey = [];
  for (let i = 0; i < rgba.length; i += 4) grey.push(rgba[i]);
  return { side, grey };
}"""

# WCAG contrast of the first board number's text against its background.
CONTRAST = """() => {
  const cell = document.querySelector('.pairings td.board');
  const rgb = (c) => c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const s = getComputedStyle(cell);
  const a = lum(s.color);
  const b = lum(s.backgroundColor);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


# Whether the page fits the screen: no scrolling, and each of the rows `selector` names (hidden
# ones have an empty box) above its bottom edge.
FITS = """(selector) => document.documentElement.scrollHeight <= innerHeight
  && [...document.querySelectorAll(selector)]
    .every((r) => r.getBoundingClientRect().bottom <= innerHeight)"""


@pytest.fixture(scope="module")
def field(server: Server) -> str:
    """40 players, round 1 paired with 14 of its 20 games finished; the token."""
    token = server.tournament("hall", ["PTS", "BH/C1", "BH", "SB"], players=40)
    for board in range(1, 15):
        result = ["1-0", "0-1", "1/2-1/2"][board % 3]
        path = "/api/tournaments/hall/rounds/1/results"
        assert server.call("POST", path, {"board": board, "result": result}, token)[0] == 201
    return token


def open_screen(browser: Any, server: Server, lang: str, seconds: int = 3) -> Any:
    url = f"{server.base}/t/hall/screen?page_seconds={seconds}&lang={lang}"
    rows = ".screen-page[data-kind='standings'] tr[data-start-no]"
    return open_page(browser, FULL_HD, url, rows, live=True)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_pairings_come_second_with_points_and_readable_boards(
    browser: Any, server: Server, field: str, lang: str
) -> None:
    page = open_screen(browser, server, lang)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"screen-1920-standings-{lang}.png")
    shown = page.locator("tr[data-start-no]:not([hidden])").count()
    assert 10 <= shown < 40  # a page of the field, the rest hidden
    assert page.evaluate(FITS, "tr[data-start-no]")
    page.wait_for_function(f"() => ({KIND})() === 'pairings'", timeout=30_000)
    zero = "0.0" if lang == "en" else "0,0"  # points before round 1, the language's way
    # The points before the round come from a second read; until it is in, today's points
    # show (board 1 is finished: 0 and 1).
    page.wait_for_function(
        "(zero) => { const tr = document.querySelector('.pairings tbody tr[data-board]');"
        " return tr && [...tr.querySelectorAll('td.pts')].map((td) => td.textContent).join('|')"
        " === `${zero}|${zero}`; }",
        arg=zero,
    )
    page.screenshot(path=SHOTS / f"screen-1920-pairings-{lang}.png")
    boards = page.locator(".pairings tbody tr[data-board]")
    assert boards.count() >= 10
    first = boards.first
    assert first.locator("td.pts").count() == 2  # White's and Black's, beside their names
    assert first.locator("td.pts").all_inner_texts() == [zero, zero]
    assert page.evaluate(CONTRAST) >= 7
    assert page.evaluate(FITS, ".pairings tr")
    # Back to the standings (page 2) on the next turn, the QR code still there.
    page.wait_for_function(f"() => ({KIND})() === 'standings'", timeout=30_000)
    assert page.locator(".screen-page").get_attribute("data-page") == "2"
    assert page.locator(".qr img").is_visible()
    assert page.errors == []
    page.close()


def test_the_qr_code_decodes_to_the_phone_standings_url(
    browser: Any, server: Server, field: str
) -> None:
    page = open_screen(browser, server, "it", seconds=60)
    drawn = page.evaluate(PIXELS)
    side = drawn["side"]
    image = memoryview(bytes(drawn["grey"])).cast("B", (side, side))
    found = zxingcpp.read_barcodes(image)
    assert [code.text for code in found] == [f"{server.base}/t/hall?lang=it"]
    page.close()


def test_a_result_fills_in_on_the_pairings_page(browser: Any, server: Server, field: str) -> None:
    page = open_screen(browser, server, "en")
    page.wait_for_function(f"() => ({KIND})() === 'pairings'", timeout=30_000)
    cell = page.locator(".pairings tr[data-board='15'] td.result")
    assert cell.get_attribute("data-done") == "false"
    path = "/api/tournaments/hall/rounds/1/results"
    assert server.call("POST", path, {"board": 15, "result": "0-1"}, field)[0] == 201
    page.wait_for_function(
        "() => document.querySelector(\".pairings tr[data-board='15'] td.result\")"
        ".textContent === '0–1'",
        timeout=30_000,
    )
    assert "15 / 20" in page.locator(".screen-head .sub").inner_text().replace(" of ", " / ")
    page.close()


# The words of the player names on the pairings page (split at spaces and hyphens) that the
# browser broke across lines: a word's range has boxes at more than one height.
BROKEN_WORDS = """() => {
  const broken = [];
  for (const td of document.querySelectorAll('.pairings td.white, .pairings td.black')) {
    const text = td.firstChild;
    for (const m of text.textContent.matchAll(/[^\\s-]+/g)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_phone_shows_pairings_with_names_broken_only_between_words(
    browser: Any, server: Server, field: str, lang: str
) -> None:
    url = f"{server.base}/t/hall/screen?page_seconds=3&lang={lang}"
    page = open_page(browser, {"width": 390, "height": 844}, url, "tr[data-start-no]", live=True)
    page.wait_for_function(f"() => ({KIND})() === 'pairings'", timeout=30_000)
    assert page.evaluate(BROKEN_WORDS) == []
    assert page.evaluate(FITS, ".pairings tr")
    # Whole words take no boards away: at least the 4 a page holds with names broken anywhere.
    assert page.locator(".pairings tbody tr[data-board]").count() >= 4
    assert page.evaluate(KIND) == "pairings"  # still: the rows measured were on the screen
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"screen-390-pairings-{lang}.png")
    assert page.errors == []
    page.close()
