"""Under a broadcast delay every public page says so, in both languages: `<html
data-connection="delayed">` and "delayed 15 min" ("in differita di 15 min") where the page
says whether it is live, never a green "live" badge; a reader with a token of the tournament
reads live and is told "live"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server, open_page

SHOTS = Path("/tmp/shots/delayed")
WORDS = {"en": "delayed 15 min", "it": "in differita di 15 min"}
# (name, viewport, path, where the page says it): every public page, at its sizes.
PAGES = [
    ("standings-390x844", (390, 844), "", ".live"),
    ("standings-1366x768", (1366, 768), "", ".live"),
    ("card-390x844", (390, 844), "/player/3", ".live"),
    ("prizes-390x844", (390, 844), "/prizes", ".live"),
    ("screen-1920x1080", (1920, 1080), "/screen", ".live"),
    ("overlay-1920x1080", (1920, 1080), "/overlay", ".overlay .state"),
    ("overlay-400x1080", (400, 1080), "/overlay", ".overlay .state"),
    ("ticker-1920x80", (1920, 80), "/overlay", ".live"),
]


@pytest.fixture(scope="module")
def late(server: Server) -> str:
    token = server.tournament("late", ["PTS", "BH/C1", "BH"], players=10)
    status, body = server.call("PATCH", "/api/tournaments/late", {"public_delay": 900}, token)
    assert status == 200, body
    return token


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize(("name", "size", "path", "where"), PAGES, ids=[p[0] for p in PAGES])
def test_a_public_page_says_it_is_delayed(
    browser: Any, server: Server, late: str, lang: str, name: str, size: tuple[int, int],
    path: str, where: str,
) -> None:  # fmt: skip
    w, h = size
    url = f"{server.base}/t/late{path}?lang={lang}"
    page = open_page(browser, {"width": w, "height": h}, url)
    page.wait_for_selector("html[data-connection='delayed']", state="attached", timeout=60_000)
    said = page.locator(where).first
    said.wait_for()  # shown, not only in the page
    assert WORDS[lang] in said.inner_text()
    badge = page.locator(".live").first
    assert badge.get_attribute("data-state") == "delayed"
    assert badge.text_content() == WORDS[lang]  # not "live" ("in diretta")
    page.screenshot(path=SHOTS / f"{name}-{lang}.png")
    assert page.errors == []
    page.close()


def test_a_token_of_the_tournament_reads_live_and_is_told_so(
    browser: Any, server: Server, late: str
) -> None:
    url = f"{server.base}/t/late#token={late}"
    page = open_page(browser, {"width": 1366, "height": 768}, url, live=True)
    badge = page.locator(".live")
    assert (badge.get_attribute("data-state"), badge.inner_text()) == ("live", "live")
    assert page.errors == []
    page.close()
