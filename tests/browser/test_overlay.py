"""The broadcast overlay fits any OBS source: at each frame size, in both languages, the panel
stays inside the frame, no name is cut, a page holds exactly the rows the frame shows (one
more would not fit) with a page indicator when there are more; unknown columns are named on
the overlay; a team event gets its match scoreboard."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server, open_page

SHOTS = Path("/tmp/shots/overlay")
SIZES = [(1920, 1080), (1280, 720), (480, 1080), (600, 400), (1920, 200)]
TIEBREAKS = ["PTS", "BH/C1", "BH", "SB", "FB"]
# The panel once fitted: the fit (on the frame after the rows come) gives it its layout class,
# the whole fit in that one task.
FITTED = "section.overlay[class*='layout-']"

# Every visible element of the panel inside the viewport; every name whole (a given name may
# take an ellipsis, never the surname: the name cell itself is not clipped).
CHECK = """() => {
  const panel = document.querySelector('.overlay');
  const seen = (e) => e.getClientRects().length > 0;
  const out = [...panel.querySelectorAll('*')].filter(seen).filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5
      || r.bottom > innerHeight + 0.5);
  }).map((e) => e.tagName + '.' + e.className);
  const on = 'tr[data-start-no]:not([hidden]) ';
  const names = [...panel.querySelectorAll(
    `${on}td.name, ${on}[data-name], ${on}[data-name] .sn`)];
  const cut = names.filter((n) => n.scrollWidth > n.clientWidth + 0.5 && n.clientWidth > 0)
    .map((n) => n.textContent);
  const rows = [...panel.querySelectorAll('tr[data-start-no]')];
  const pager = panel.querySelector('standings-table .pager');
  return {
    out, cut, rendered: rows.length,
    shown: rows.filter((r) => !r.hidden && seen(r)).length,
    hiddenOk: rows.filter((r) => r.hidden).every((r) => !seen(r)),
    pager: pager && !pager.hidden ? pager.textContent : null,
    connection: document.documentElement.dataset.connection,
  };
}"""

# Whether one more row a page would overflow the frame less the panel's margin (or, in a
# ticker, the line).
ONE_MORE = """() => {
  const table = document.querySelector('standings-table');
  const box = document.querySelector('.overlay');
  const m = parseFloat(box.style.getPropertyValue('--ov-margin')) || 0;
  const was = table.getAttribute('rows');
  const shown = () => [...table.querySelectorAll('tr[data-start-no]')].filter((r) => !r.hidden);
  table.setAttribute('rows', String(shown().length + 1));
  const panel = document.querySelector('.overlay').getBoundingClientRect();
  const line = table.querySelector('table').getBoundingClientRect(); // the page indicator beside
  const over = panel.bottom > innerHeight - m + 0.5 || panel.right > innerWidth - m + 0.5
    || panel.top < m - 0.5
    || shown().some((r) => r.getBoundingClientRect().right > line.right + 0.5);
  table.setAttribute('rows', was);
  return over;
}"""


@pytest.fixture(scope="module")
def field(server: Server) -> str:
    """40 players, round 1 paired, 14 of its 20 games finished; the token."""
    token = server.tournament("forty", TIEBREAKS, players=40)
    for board in range(1, 15):
        result = ["1-0", "0-1", "1/2-1/2"][board % 3]
        path = "/api/tournaments/forty/rounds/1/results"
        assert server.call("POST", path, {"board": board, "result": result}, token)[0] == 201
    return token


def open_overlay(browser: Any, server: Server, size: tuple[int, int], query: str) -> Any:
    viewport = {"width": size[0], "height": size[1]}
    url = f"{server.base}/t/forty/overlay?{query}"
    return open_page(browser, viewport, url, ".overlay tr[data-start-no]", FITTED, live=True)


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("top", [10, 40])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_overlay_fits_the_frame(
    browser: Any, server: Server, field: str, size: tuple[int, int], top: int, lang: str
) -> None:
    page = open_overlay(browser, server, size, f"top={top}&lang={lang}")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"overlay-{size[0]}x{size[1]}-top{top}-{lang}.png")
    got = page.evaluate(CHECK)
    assert got["out"] == [], got["out"]
    assert got["cut"] == [], got["cut"]
    assert got["connection"] == "live"
    assert got["hiddenOk"]
    shown, rendered = got["shown"], got["rendered"]
    assert rendered == top  # the others are not rendered or carry `hidden`
    assert 1 <= shown <= top
    if shown < top:
        assert got["pager"] == f"1 / {math.ceil(top / shown)}"
        assert page.evaluate(ONE_MORE), f"a page holds every row the frame shows: {got}"
    else:
        assert got["pager"] is None
    assert page.errors == []
    page.close()


def test_the_layout_follows_the_frames_shape(browser: Any, server: Server, field: str) -> None:
    expected = {(1920, 1080): "panel", (480, 1080): "column", (1920, 200): "ticker"}
    for size, layout in expected.items():
        page = open_overlay(browser, server, size, "top=10")
        assert page.locator(f".overlay.layout-{layout}").count() == 1, (size, layout)
        page.close()
    page = open_overlay(browser, server, (1920, 1080), "top=10&layout=column&position=bottom")
    box = page.locator(".overlay.layout-column").bounding_box()
    assert box["y"] + box["height"] > 1000  # at the bottom edge
    page.close()


def test_position_scale_and_max_rows(browser: Any, server: Server, field: str) -> None:
    page = open_overlay(browser, server, (1920, 1080), "top=40&position=bottom-right&max_rows=6")
    box = page.locator(".overlay").bounding_box()
    assert box["x"] + box["width"] > 1850 and box["y"] + box["height"] > 1000
    assert page.evaluate(CHECK)["shown"] == 6
    assert page.evaluate(CHECK)["pager"] == "1 / 7"
    small = page.locator(".overlay td.name").first.bounding_box()["height"]
    page.goto(f"{server.base}/t/forty/overlay?top=40&max_rows=6&scale=1.5")
    page.wait_for_selector(".overlay tr[data-start-no]")
    page.wait_for_selector(FITTED)
    assert page.locator(".overlay td.name").first.bounding_box()["height"] > small * 1.3
    page.close()


def test_rows_page_in_turn(browser: Any, server: Server, field: str) -> None:
    page = open_overlay(browser, server, (1280, 720), "top=40&page_seconds=1")
    first = page.evaluate(CHECK)["pager"]  # whichever page a slow machine got to first
    assert first is not None
    at, pages = (int(n) for n in first.split(" / "))
    assert pages > 1
    page.wait_for_function(  # then the next one, round and round
        "() => document.querySelector('standings-table .pager').textContent"
        f".startsWith('{at % pages + 1} / ')",
        timeout=30_000,
    )
    page.close()


def test_an_unknown_column_is_named_on_the_overlay(
    browser: Any, server: Server, field: str
) -> None:
    page = open_overlay(browser, server, (1920, 1080), "top=10&columns=pts,XYZ,bhc1,ARO")
    error = page.locator(".overlay .ov-error")
    error.wait_for()
    text = error.inner_text()
    assert "XYZ" in text and "ARO" in text and "BH/C1" in text  # the known ones listed too
    heads = page.locator(".overlay thead th.tb").evaluate_all("hs => hs.map((h) => h.dataset.tb)")
    assert heads == ["PTS", "BH/C1"]  # bhc1 is BH/C1 written otherwise
    assert page.evaluate(CHECK)["out"] == []
    page.screenshot(path=SHOTS / "overlay-unknown-column-en.png")
    page.close()


def test_no_underlines_and_round_progress(browser: Any, server: Server, field: str) -> None:
    page = open_overlay(browser, server, (1920, 1080), "top=10")
    lines = page.evaluate(
        "() => [...document.querySelectorAll('.overlay *')].filter((e) => "
        "getComputedStyle(e).textDecorationLine !== 'none').map((e) => e.tagName)"
    )
    assert lines == []
    assert "14 / 20" in page.locator(".overlay .state").inner_text()
    page.close()


def test_a_team_event_shows_its_matches(browser: Any, server: Server) -> None:
    token = server.token("teams")
    t = "/api/tournaments/teams"
    body = {"name": "Team cup", "rounds": 3, "kind": "team", "tiebreaks": ["MPTS", "GPTS"]}
    assert server.call("PUT", t, body, token)[0] == 201
    for no in range(1, 9):
        person = {"start_no": no, "name": f"Player {no}", "rating": 2000}
        assert server.call("POST", f"{t}/participants", person, token)[0] == 201
    for number, name, members in [(1, "Alpha", [1, 2]), (2, "Beta", [3, 4]),
                                  (3, "Gamma", [5, 6]), (4, "Delta", [7, 8])]:  # fmt: skip
        team = {"number": number, "name": name, "members": members}
        assert server.call("POST", f"{t}/teams", team, token)[0] == 201
    boards = [
        {"board": 1, "white": 1, "black": 3}, {"board": 2, "white": 4, "black": 2},
        {"board": 3, "white": 5, "black": 7}, {"board": 4, "white": 8, "black": 6},
    ]  # fmt: skip
    assert server.call("POST", f"{t}/rounds/1/pairings", {"boards": boards}, token)[0] == 201
    for board, result in [(1, "1-0"), (2, "1/2-1/2")]:
        body = {"board": board, "result": result}
        assert server.call("POST", f"{t}/rounds/1/results", body, token)[0] == 201
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{server.base}/t/teams/overlay?layout=scoreboard")
    page.wait_for_selector(".overlay .matches tr[data-match]")
    rows = page.locator(".overlay .matches tr[data-match]")
    assert rows.count() == 2
    first = rows.first.locator("td").all_inner_texts()
    assert first[:3] == ["Alpha", "1.5 – 0.5", "Beta"]
    assert page.evaluate(CHECK.replace("tr[data-start-no]", "tr[data-match]"))["out"] == []
    page.screenshot(path=SHOTS / "overlay-teams-1920-en.png")
    # The panel of a team event: the matches above the teams' standings, all inside the frame.
    page.goto(f"{server.base}/t/teams/overlay?lang=it")
    page.wait_for_selector(".overlay tr[data-start-no]")
    page.wait_for_selector(FITTED)
    assert page.locator(".overlay .matches tr[data-match]").count() == 2
    assert page.locator(".overlay tr[data-start-no]:not([hidden])").count() == 4
    assert page.evaluate(CHECK)["out"] == []
    page.screenshot(path=SHOTS / "overlay-teams-1920-it.png")
    page.close()


def test_a_broadcast_delay_is_said_on_the_overlay(browser: Any, server: Server) -> None:
    token = server.tournament("delayed", ["PTS", "BH"], players=4)
    path = "/api/tournaments/delayed"
    assert server.call("PATCH", path, {"public_delay": 900}, token)[0] == 200
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{server.base}/t/delayed/overlay?lang=it")
    page.wait_for_selector(".overlay tr[data-start-no]")
    assert "in differita di 15 min" in page.locator(".overlay .state").inner_text()
    page.close()


def test_a_delay_set_while_on_air_is_said_within_seconds(browser: Any, server: Server) -> None:
    token = server.tournament("onair", ["PTS", "BH"], players=4)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{server.base}/t/onair/overlay")
    page.wait_for_selector("html[data-connection='live']")
    page.wait_for_selector(".overlay tr[data-start-no]")
    assert "delayed" not in page.locator(".overlay .state").inner_text()
    path = "/api/tournaments/onair"
    assert server.call("PATCH", path, {"public_delay": 600}, token)[0] == 200
    page.wait_for_function(
        "() => document.querySelector('.overlay .state').textContent.includes('delayed 10 min')",
        timeout=60_000,  # the overlay reads its settings again every 10 s
    )
    page.close()
