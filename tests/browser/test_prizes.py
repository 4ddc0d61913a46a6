"""The prizes page `/t/{id}/prizes` in a real browser against a real server: every list's
places with who takes them now, a share said as shared, a place nobody takes said so, the
status provisional then final; a POSTed result redraws the list live (no reload) and says so
in the page's polite status; English and Italian, phone and desktop."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server, prize_table

PHONE = {"width": 390, "height": 844}
FULL_HD = {"width": 1920, "height": 1080}
SHOTS = Path("/tmp/shots/prize")  # looked at by people, not asserted on
T = "/api/tournaments/{}"


def build(server: Server, tid: str) -> str:
    """8 players (rated 2390 … 2320: `Server.tournament`), round 1 paired 1-2, 3-4, 5-6, 7-8;
    category TOP (1-4); prizes shared, one per player. Its token."""
    prizes = [
        {"list": "main", "place": 1, "amount": "500"},
        {"list": "main", "place": 2, "amount": "300"},
        {"list": "main", "place": 3, "amount": "100", "label": "Medal"},
        {"list": "TOP", "place": 1, "amount": "150"},
    ]
    return server.tournament(
        tid,
        ["PTS", "BH"],
        categories=[{"code": "TOP", "name": "Top seeds", "members": [1, 2, 3, 4]}],
        prizes=prize_table("shared", prizes),
        results=[(1, "1-0"), (2, "0-1"), (3, "1/2-1/2")],
    )


def rows(page: Any, code: str) -> list[str]:
    cells = page.locator(f'section.prize-list[data-list="{code}"] tbody tr')
    return [" | ".join(c.split()) for c in cells.all_inner_texts()]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_prize_list_live_on_phone_and_desktop(browser: Any, server: Server, lang: str) -> None:
    tid = f"prize-page-{lang}"
    token = build(server, tid)
    page = browser.new_page(viewport=PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{server.base}/t/{tid}/prizes?lang={lang}")
    page.wait_for_selector('section.prize-list[data-list="main"] tbody tr')
    doc = server.get(f"{T.format(tid)}/prizes")
    # 1 and 4 won (1 point), 5 and 6 drew, 7-8 unfinished: 1 and 4 share 1st-2nd (400
    # each); TOP's 150 has nobody left but 2 and 3 (0 points, tied): 75 each. Main 3rd: the
    # ½-point pair 5, 6 (50 each).
    shares = {(a["start_no"], a["list"], a["amount"]) for a in doc["awards"]}
    assert shares == {(1, "main", "400.00"), (4, "main", "400.00"), (5, "main", "50.00"),
                      (6, "main", "50.00"), (2, "TOP", "75.00"), (3, "TOP", "75.00")}  # fmt: skip
    main = rows(page, "main")
    euro = (lambda v: f"€{v}") if lang == "en" else (lambda v: f"{v} | €")
    assert main[0].startswith(f"1–2 | {euro('400')} | ")
    shared = "shared by 2" if lang == "en" else "diviso fra 2"
    assert shared in page.locator('section.prize-list[data-list="main"]').inner_text()
    assert page.locator(".prize-status").inner_text() == (
        "Provisional: the prizes if the tournament ended now" if lang == "en"
        else "Provvisori: i premi se il torneo finisse ora"
    )  # fmt: skip
    assert page.locator('section.prize-list[data-list="TOP"] h2').inner_text() == "Top seeds"
    page.screenshot(path=SHOTS / f"prizes-390x844-{lang}.png", full_page=True)
    first = page.locator('section.prize-list[data-list="main"] tbody tr').first.element_handle()
    # 7 beats 8: 1, 4 and 7 on 1 point share 1st-3rd (900 / 3 = 300); 5 and 6 drop out.
    status, _ = server.call("POST", f"{T.format(tid)}/rounds/1/results",
                            {"board": 4, "result": "1-0"}, token)  # fmt: skip
    assert status == 201
    page.wait_for_function(
        "() => document.querySelector('section.prize-list[data-list=\"main\"] tbody tr')"
        ".innerText.includes('1–3')"
    )
    assert first.evaluate("row => row.isConnected") is False  # redrawn, not reloaded
    said = page.locator(".prizes-page [role=status]").inner_text()
    assert said == ("Prize list updated" if lang == "en" else "Lista dei premi aggiornata")
    assert len(page.locator('section.prize-list[data-list="main"] tbody tr').all()) == 3
    assert page.evaluate("() => performance.getEntriesByType('navigation').length") == 1
    assert not errors
    page.close()
    desk = browser.new_page(viewport=FULL_HD)
    desk.goto(f"{server.base}/t/{tid}/prizes?lang={lang}")
    desk.wait_for_selector('section.prize-list[data-list="TOP"] tbody tr')
    desk.screenshot(path=SHOTS / f"prizes-1920x1080-{lang}.png", full_page=True)
    desk.close()


def test_a_tournament_without_prizes_says_so(browser: Any, server: Server) -> None:
    tid = "prize-none"
    server.tournament(tid, ["PTS"])
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server.base}/t/{tid}/prizes?lang=en")
    page.wait_for_selector(".prize-lists .hint")
    assert page.locator(".prize-lists").inner_text() == "No prizes defined yet."
    page.close()


def test_a_trophy_is_its_label_and_a_share_names_every_place_it_takes(
    browser: Any, server: Server
) -> None:
    """A trophy without an amount is its label, never "€0"; a points group wider than the
    paid places names every place it occupies ("1st–8th shared by 8"), not just the paid
    ones; before the first result nobody is listed as a winner."""
    trophy = [
        {"list": "main", "place": 1, "amount": "100"},
        {"list": "main", "place": 2, "amount": "60"},
        {"list": "main", "place": 3, "amount": "0", "label": "Trophy"},
    ]
    server.tournament("trophy", ["PTS", "BH"], prizes=prize_table("ranking", trophy))
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server.base}/t/trophy/prizes?lang=en")
    page.wait_for_selector('section.prize-list[data-list="main"] tbody tr')
    # Round 1 paired, no result: every place unawarded.
    assert rows(page, "main") == [
        "1 | €100 | not | awarded", "2 | €60 | not | awarded", "3 | Trophy | not | awarded"
    ]  # fmt: skip
    page.close()

    server.tournament(
        "trophy-won", ["PTS", "BH"], prizes=prize_table("ranking", trophy),
        results=[(b, "1-0") for b in range(1, 5)],
    )  # fmt: skip
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server.base}/t/trophy-won/prizes?lang=en")
    page.wait_for_selector('section.prize-list[data-list="main"] tbody tr[data-start-no]')
    # 1, 3, 5, 7 on a point, in start-number order while BH waits for the close.
    third = page.locator('section.prize-list[data-list="main"] tbody tr[data-place="3"]')
    assert third.locator("td.amount").inner_text() == "Trophy"
    assert "€0" not in page.locator('section.prize-list[data-list="main"]').inner_text()
    page.close()

    server.tournament(
        "eight-share", ["PTS", "BH"], prizes=prize_table("shared", trophy[:2]),
        results=[(b, "1/2-1/2") for b in range(1, 5)],
    )  # fmt: skip
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server.base}/t/eight-share/prizes?lang=en")
    page.wait_for_selector('section.prize-list[data-list="main"] tbody tr[data-start-no]')
    main = rows(page, "main")
    # All eight on ½: places 1-8, of which two paid: 160 / 8 = 20 each.
    assert main[0].startswith("1–8 | €20 | ") and len(main) == 8
    shares = page.locator('section.prize-list[data-list="main"] .shared').all_inner_texts()
    assert shares == ["1st–8th shared by 8"] * 8
    page.close()
