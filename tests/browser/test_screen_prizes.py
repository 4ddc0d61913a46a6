"""The venue screen's prize page in a real browser: with a prize table, a page of the live
prize list ends each cycle, every list with its places, amounts (the currency formatted by the
browser from the exact decimal strings) and who takes them now, provisional said in words; a
result redraws it live; a tournament without prizes has no such page. English and Italian."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server, open_page, prize_table

FULL_HD = {"width": 1920, "height": 1080}
SHOTS = Path("/tmp/shots/pages25")
T = "/api/tournaments/{}"
KIND = "() => document.querySelector('.screen-page').dataset.kind"

# Record in `kinds` every kind of page the screen shows from now on, in turn.
WATCH_KINDS = """() => {
  const section = document.querySelector('.screen-page');
  window.kinds = [section.dataset.kind];
  new MutationObserver(() => {
    const kind = section.dataset.kind;
    if (kind && kinds.at(-1) !== kind) kinds.push(kind);
  }).observe(section, { attributes: true, attributeFilter: ['data-kind'] });
}"""

TOP = {"code": "TOP", "name": "Top seeds", "members": [1, 2, 3, 4]}


def build(server: Server, tid: str) -> str:
    """8 players, round 1 paired 1-2, 3-4, 5-6, 7-8 with three results in; category TOP
    (1-4); prizes by ranking, one per player. Its token."""
    prizes = [
        {"list": "main", "place": 1, "amount": "500"},
        {"list": "main", "place": 2, "amount": "300.50"},
        {"list": "TOP", "place": 1, "amount": "150"},
    ]
    return server.tournament(
        tid,
        ["PTS", "BH"],
        categories=[TOP],
        prizes=prize_table("ranking", prizes),
        results=[(1, "1-0"), (2, "0-1"), (3, "1/2-1/2")],
    )


def open_screen(browser: Any, server: Server, tid: str, lang: str) -> Any:
    url = f"{server.base}/t/{tid}/screen?page_seconds=3&lang={lang}"
    rows = ".screen-page[data-kind='standings'] tr[data-start-no]"
    return open_page(browser, FULL_HD, url, rows, live=True)


def winners(page: Any, code: str) -> list[tuple[str, str, str]]:
    return [
        tuple(r)
        for r in page.eval_on_selector_all(
            f".screen-prize-list[data-list='{code}'] tbody tr",
            "rs => rs.map(r => [...r.cells].map(c => c.innerText.trim()))",
        )
    ]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_prize_page_in_the_cycle_updates_live(browser: Any, server: Server, lang: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    tid = f"sprize{lang}"
    token = build(server, tid)
    page = open_screen(browser, server, tid, lang)
    page.wait_for_function(f"{KIND} === 'prizes'", timeout=30_000)
    doc = server.get(f"{T.format(tid)}/prizes")
    assert doc["status"] == "provisional"
    status_word = {"en": "Provisional", "it": "Provvisori"}[lang]
    assert page.locator(".screen .prize-status").inner_text().startswith(status_word[:6])
    assert (
        page.locator(".screen-page .page-title").inner_text()
        == {"en": "Prizes", "it": "Premi"}[lang]
    )
    names = {a["start_no"]: a["name"] for a in doc["awards"]}
    main = winners(page, "main")
    money = {"en": ("€500.00", "€300.50"), "it": ("500,00\xa0€", "300,50\xa0€")}[lang]
    assert [m[:2] for m in main] == [("1", money[0]), ("2", money[1])]
    expect = [a for a in doc["awards"] if a["list"] == "main"]
    assert [m[2] for m in main] == [names[a["start_no"]] for a in expect]
    assert len(winners(page, "TOP")) == 1
    page.screenshot(path=SHOTS / f"screen-prizes-1920x1080-{lang}.png")
    # The arbiter raises the first prize: the page follows without a reload.
    raised = prize_table(
        "ranking",
        [
            {"list": "main", "place": 1, "amount": "650.25"},
            {"list": "main", "place": 2, "amount": "300.50"},
            {"list": "TOP", "place": 1, "amount": "150"},
        ],
    )
    assert server.call("PUT", f"{T.format(tid)}/prizes", raised, token)[0] == 200
    shown = {"en": "€650.25", "it": "650,25\xa0€"}[lang]
    page.wait_for_function(
        "(shown) => document.querySelector(\".screen-prize-list[data-list='main'] td.amount\")"
        "?.innerText.trim() === shown",
        arg=shown,
        timeout=30_000,
    )
    assert page.errors == []
    page.close()


def test_no_prize_table_no_prize_page(browser: Any, server: Server) -> None:
    server.tournament("sprizenone", ["PTS", "BH"])
    page = open_screen(browser, server, "sprizenone", "en")
    page.evaluate(WATCH_KINDS)
    # Standings again after the pairings: the cycle came round, past where a prize page
    # would end it.
    page.wait_for_function(
        "() => kinds.includes('pairings')"
        " && kinds.lastIndexOf('standings') > kinds.indexOf('pairings')"
    )
    kinds = set(page.evaluate("() => kinds"))
    assert "prizes" not in kinds
    assert "standings" in kinds
    page.close()


def test_a_long_prize_table_fits_the_page(browser: Any, server: Server) -> None:
    """30 places overall and 10 in a category: every row on the one page, inside the screen."""
    tid = "sprizelong"
    table = [{"list": "main", "place": p, "amount": str(1000 - 30 * p)} for p in range(1, 31)]
    table += [{"list": "TOP", "place": p, "amount": "50"} for p in range(1, 11)]
    server.tournament(tid, ["PTS", "BH"], categories=[TOP], prizes=prize_table("ranking", table))
    page = open_screen(browser, server, tid, "en")
    page.wait_for_function(f"{KIND} === 'prizes'", timeout=30_000)
    assert len(winners(page, "main")) == 30
    assert len(winners(page, "TOP")) == 10
    bottom = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('.screen-prize-list tr')]"
        ".map(r => r.getBoundingClientRect().bottom))"
    )
    assert bottom <= FULL_HD["height"]
    page.screenshot(path=SHOTS / "screen-prizes-long-1920x1080-en.png")
    assert page.errors == []
    page.close()
