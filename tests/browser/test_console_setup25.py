"""The console's categories and prizes tab in a real browser: two categories and a prize table
defined through the forms and read back with GET; a bad amount shown at its field with nothing
written; the broadcast delay set and said; K set per player (with no Edit buttons once round 1
is paired); the audit trail naming the new events in words, in English and Italian."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server
from tests.browser.test_console import events

DESKTOP = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
SHOTS = Path("/tmp/shots/console25")

_numbers = itertools.count(1)


@pytest.fixture
def opened(server: Server, browser: Any) -> Iterator[Any]:
    """A console on a fresh 8-player tournament with round 1 paired: (page, tid, token)."""
    pages: list[Any] = []

    def open_(lang: str = "en", viewport: dict[str, int] = DESKTOP) -> tuple[Any, str, str]:
        tid = f"setup25-{next(_numbers)}"
        token = server.tournament(tid, ["PTS", "BH"], players=8)
        page = browser.new_page(viewport=viewport)
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.errors = errors
        pages.append(page)
        page.goto(f"{server.base}/t/{tid}/arbiter?lang={lang}#token={token}")
        page.wait_for_selector("[role='tab']")
        return page, tid, token

    yield open_
    for page in pages:
        assert page.errors == []
        page.close()


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def fill_row(page: Any, kind: str, index: int, values: dict[str, str]) -> None:
    row = page.locator(f"#panel-setup .{kind}-row").nth(index)
    for key, value in values.items():
        field = row.locator(f"[data-path$='.{key}']")
        if field.evaluate("n => n.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


def submit_categories(page: Any, rows: list[dict[str, str]], tone: str) -> None:
    """The set-up tab's categories form with `rows`, submitted; its status then says `tone`."""
    page.click("#tab-setup")
    page.wait_for_selector("#cat-current li")
    add_category = page.locator("#panel-setup .categories-form .actions button[type='button']")
    for i, values in enumerate(rows):
        add_category.click()
        fill_row(page, "category", i, values)
    page.click("#panel-setup .categories-form button[type='submit']")
    page.wait_for_selector(f"#cat-status[data-tone='{tone}']")


def define_categories_and_prizes(page: Any) -> None:
    u2370 = {"code": "U2370", "name": "Under 2370", "rating_max": "2369"}
    submit_categories(page, [u2370, {"code": "TOP", "name": "Top two", "members": "1, 2"}], "ok")
    page.wait_for_selector("#cat-current li[data-code='TOP']")
    # The prize form's lists follow the categories just saved.
    page.wait_for_selector("#panel-setup .prizes-form")
    add_prize = page.locator("#panel-setup .prizes-form .actions button[type='button']")
    page.select_option("#pz-rule", "shared")
    add_prize.click()
    fill_row(page, "prize", 0, {"list": "main", "place": "1", "amount": "150"})
    add_prize.click()
    fill_row(page, "prize", 1, {"list": "main", "place": "2", "amount": "75.50"})
    add_prize.click()
    fill_row(page, "prize", 2, {"list": "U2370", "place": "1", "amount": "0", "label": "Cup"})
    page.click("#panel-setup .prizes-form button[type='submit']")
    page.wait_for_selector("#pz-status[data-tone='ok']")
    page.wait_for_selector(".prize-awards")


def test_categories_prizes_delay_and_k_through_the_console(server: Server, opened: Any) -> None:
    page, tid, token = opened()
    t = f"/api/tournaments/{tid}"
    define_categories_and_prizes(page)
    status, cats = server.call("GET", f"{t}/categories", None, token)
    assert status == 200
    got = {c["code"]: c for c in cats["categories"]}
    assert got["U2370"]["rating_max"] == 2369
    assert got["TOP"]["members"] == [1, 2]
    assert got["TOP"]["start_nos"] == [1, 2]
    status, prizes = server.call("GET", f"{t}/prizes", None, token)
    assert prizes["rule"] == "shared"
    assert (prizes["currency"], prizes["one_prize_per_player"]) == ("EUR", True)
    assert [(p["list"], p["place"], p["amount"], p["label"]) for p in prizes["prizes"]] == [
        ("main", 1, "150.00", ""),
        ("main", 2, "75.50", ""),
        ("U2370", 1, "0.00", "Cup"),
    ]
    # The saved table comes back into the form, row for row.
    assert page.locator("#panel-setup .prize-row").count() == 3
    page.locator("#pz-awards").scroll_into_view_if_needed()
    assert page.locator("#pz-awards p").first.inner_text().startswith("Provisional: who would win")
    # Round 1 paired, no result yet: nobody is awarded anything (eight tied on 0 are no
    # ranking to pay).
    assert page.locator(".prize-awards tbody tr").all_inner_texts() == ["No prize awarded yet."]
    shot(page, "prizes-desktop-en")

    page.fill("#delay-amount", "15")
    page.select_option("#delay-unit", "60")
    page.click("#delay-h ~ button[type='submit']")
    page.wait_for_selector("#delay-status[data-tone='ok']")
    assert server.call("GET", t, None, token)[1]["public_delay"] == 900
    assert page.locator("#delay-now").inner_text() == "Public pages are 15 min behind"
    page.wait_for_selector("#console-delay:not([hidden])")
    assert page.locator("#console-delay").inner_text() == "Public pages are 15 min behind"
    page.set_viewport_size(PHONE)
    shot(page, "setup-phone-en")
    page.set_viewport_size(DESKTOP)
    shot(page, "setup-desktop-en")

    page.click("#tab-players")
    # Round 1 is paired: the details are fixed, so no Edit button is offered; K still is.
    page.wait_for_selector("#pl-fixed:not([hidden])")
    assert page.locator(".players-list button", has_text="Edit").count() == 0
    # The K in effect shows in each field: 20, FIDE's default under 2400.
    page.locator("#pl-k-1").scroll_into_view_if_needed()  # read when its row is seen
    page.wait_for_selector("#pl-k-1[placeholder='20']")
    page.fill("#pl-k-3", "10")
    page.press("#pl-k-3", "Enter")
    page.wait_for_selector("#panel-players .status[data-tone='ok']")
    assert server.call("GET", f"{t}/participants/3/rating", None, token)[1]["k"] == 10
    page.wait_for_selector("#pl-k-3[placeholder='10']")
    shot(page, "players-desktop-en")

    page.click("#tab-audit")
    page.click("#panel-audit button[type='submit']")
    page.wait_for_selector("#panel-audit li[data-type='ParticipantKSet']")
    said = {
        kind: page.locator(f"#panel-audit li[data-type='{kind}']").first.inner_text()
        for kind in ["CategoriesDefined", "PrizesDefined", "PublicDelaySet", "ParticipantKSet"]
    }
    assert "defined 2 categories: U2370 (Under 2370), TOP (Top two)" in said["CategoriesDefined"]
    assert said["PrizesDefined"].endswith(
        "set the prize table: 3 prizes in EUR, shared among tied players, one prize per player"
    )
    assert "set the broadcast delay to 15 min" in said["PublicDelaySet"]
    assert "set K to 10 for" in said["ParticipantKSet"] and "(3)" in said["ParticipantKSet"]
    assert "{" not in page.locator("#panel-audit ol").inner_text()  # no raw JSON, no placeholder
    shot(page, "audit-desktop-en")


def test_a_k_being_typed_survives_the_console_hearing_news(server: Server, opened: Any) -> None:
    page, tid, token = opened()
    page.click("#tab-players")
    page.fill("#pl-k-2", "40")
    # The console rereads the tournament whenever it hears of a change elsewhere; the field
    # being typed in, its text and its focus stay, so Enter sets 40 rather than clearing K.
    page.evaluate("document.dispatchEvent(new CustomEvent('livetb:info'))")
    assert page.evaluate("document.activeElement.id") == "pl-k-2"
    page.press("#pl-k-2", "Enter")
    page.wait_for_selector("#panel-players .status[data-tone='ok']")
    t = f"/api/tournaments/{tid}"
    assert server.call("GET", f"{t}/participants/2/rating", None, token)[1]["k"] == 40
    assert [e["k"] for e in events(server, tid, "ParticipantKSet")] == [40]


def test_a_bad_amount_shown_at_its_field_and_nothing_written(server: Server, opened: Any) -> None:
    page, tid, _ = opened(viewport=PHONE)
    page.click("#tab-setup")
    page.wait_for_selector("#panel-setup .prizes-form")
    add_prize = page.locator("#panel-setup .prizes-form .actions button[type='button']")
    add_prize.click()
    fill_row(page, "prize", 0, {"place": "1", "amount": "100"})
    add_prize.click()
    fill_row(page, "prize", 1, {"place": "2", "amount": "12.345"})  # finer than a cent
    page.click("#panel-setup .prizes-form button[type='submit']")
    page.wait_for_selector("#pz-status[data-tone='error']")
    bad = page.locator("#panel-setup .prize-row").nth(1).locator("[data-path='$.prizes[1].amount']")
    assert bad.get_attribute("aria-invalid") == "true"
    error = page.locator(f"#{bad.get_attribute('aria-describedby')}").inner_text()
    assert error
    assert page.evaluate("document.activeElement.dataset.path") == "$.prizes[1].amount"
    good = page.locator("[data-path='$.prizes[0].amount']")
    assert good.get_attribute("aria-invalid") is None
    assert events(server, tid, "PrizesDefined") == []
    # Inputs are 16 px on a phone (no zoom on focus).
    assert bad.evaluate("n => getComputedStyle(n).fontSize") == "16px"
    bad.scroll_into_view_if_needed()
    shot(page, "prize-error-phone-en")


def test_italian_console_sets_and_describes_in_italian(server: Server, opened: Any) -> None:
    page, _, _ = opened(lang="it", viewport=PHONE)
    define_categories_and_prizes(page)
    page.fill("#delay-amount", "90")
    page.select_option("#delay-unit", "1")
    page.click("#delay-h ~ button[type='submit']")
    page.wait_for_selector("#delay-status[data-tone='ok']")
    assert page.locator("#delay-now").inner_text() == "Le pagine pubbliche sono 1 min 30 s indietro"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing runs off a phone
    shot(page, "setup-phone-it")
    page.set_viewport_size(DESKTOP)
    page.locator("#panel-setup .prizes-form").scroll_into_view_if_needed()
    shot(page, "setup-desktop-it")
    page.click("#tab-players")
    page.fill("#pl-k-2", "40")
    page.press("#pl-k-2", "Enter")
    page.wait_for_selector("#panel-players .status[data-tone='ok']")
    page.click("#tab-audit")
    page.click("#panel-audit button[type='submit']")
    page.wait_for_selector("#panel-audit li[data-type='ParticipantKSet']")
    text = page.locator("#panel-audit ol").inner_text()
    assert "ha definito 2 categorie: U2370 (Under 2370), TOP (Top two)" in text
    assert "la tabella dei premi: 3 premi in EUR, divisi tra i pari punti" in text
    assert "ha impostato il ritardo di trasmissione a 1 min 30 s" in text
    assert "ha impostato K a 40 per" in text
    shot(page, "audit-desktop-it")
    page.set_viewport_size(PHONE)
    shot(page, "audit-phone-it")


def test_a_refused_category_is_shown_at_its_field(server: Server, opened: Any) -> None:
    page, tid, _ = opened()
    u2000 = {"code": "U2000", "name": "Under 2000", "rating_max": "1999"}
    juniors = {"code": "JUN", "name": "Juniors", "members": "3, 99"}
    submit_categories(page, [u2000, juniors], "error")
    bad = page.locator("[aria-invalid='true']")
    assert bad.count() == 1
    assert bad.get_attribute("data-path") == "$.categories[1].members"
    said = page.locator(f"#{bad.get_attribute('aria-describedby')}").inner_text()
    assert said == "There is no participant with that number. (99)"
    assert events(server, tid, "CategoriesDefined") == []
    bad.scroll_into_view_if_needed()
    shot(page, "category-error-desktop-en")


def test_the_provisional_awards_name_shared_places_and_a_trophy_by_its_label(
    server: Server, opened: Any
) -> None:
    page, tid, token = opened()
    t = f"/api/tournaments/{tid}"
    define_categories_and_prizes(page)
    for board, result in [(1, "1-0"), (2, "1-0"), (3, "1-0"), (4, "1-0")]:
        status, _ = server.call(
            "POST", f"{t}/rounds/1/results", {"board": board, "result": result}, token
        )
        assert status == 201
    doc = server.call("GET", f"{t}/prizes", None, token)[1]
    page.reload()
    page.click("#tab-setup")
    page.wait_for_selector(".prize-awards tbody tr[data-start-no]")
    rows = page.locator(".prize-awards tbody tr[data-start-no]")
    assert rows.count() == len(doc["awards"])
    ordinal = {1: "1st", 2: "2nd", 3: "3rd"}
    for i, a in enumerate(doc["awards"]):
        prize, no, _name, amount = rows.nth(i).locator("td").all_inner_texts()
        assert no == str(a["start_no"])
        first, last = (ordinal.get(p, f"{p}th") for p in a["places"])
        assert f"({first}–{last} shared by {a['shared']})" in prize
        if a["list"] == "U2370":  # the Cup, shared by the three under 2370 on 0
            assert (amount, a["amount"]) == ("Cup", "0.00")
    # Four won: they share the 1st and 2nd prizes, places 1-4; three of the losers share the
    # U2370 Cup, places 1-3 of that list.
    assert [(a["list"], a["shared"]) for a in doc["awards"]] == [("main", 4)] * 4 + [
        ("U2370", 3)
    ] * 3
    assert "€0" not in page.locator(".prize-awards").inner_text()
    # The public prize list says the same: each sharer of the Cup, the Cup.
    page.goto(f"{server.base}/t/{tid}/prizes?lang=en")
    page.wait_for_selector("table.prizes tr[data-start-no]")
    cup = [a["start_no"] for a in doc["awards"] if a["list"] == "U2370"]
    cells = [
        page.locator(f"table.prizes tr[data-start-no='{no}'] td.amount").last.inner_text()
        for no in cup
    ]
    assert cells == ["Cup"] * 3
    assert "€0" not in page.locator("main").inner_text()
    assert page.errors == []


def test_the_prize_table_is_held_until_it_has_loaded(server: Server, browser: Any) -> None:
    tid = "setup25-held"
    token = server.tournament(tid, ["PTS", "BH"], players=8)
    t = f"/api/tournaments/{tid}"
    table = {"rule": "ranking", "prizes": [{"list": "main", "place": 1, "amount": "100"}]}
    assert server.call("PUT", f"{t}/prizes", table, token)[0] == 200
    page = browser.new_page(viewport=PHONE)
    held: list[Any] = []  # the console's first read of the prize table, answered later
    page.route(f"**{t}/prizes", lambda route: held.append(route))
    page.goto(f"{server.base}/t/{tid}/arbiter?lang=en#token={token}")
    page.click("#tab-setup")
    form = page.locator("#panel-setup .prizes-form")
    while not held:  # the route's handler runs while Playwright waits
        page.wait_for_timeout(20)
    # Unread, the table cannot be added to nor saved: a save would drop the prize it holds.
    assert form.get_attribute("aria-busy") == "true"
    assert form.locator(".actions button[type='button']").is_disabled()
    assert form.locator("button[type='submit']").is_disabled()
    for route in held:
        route.continue_()
    page.unroute(f"**{t}/prizes")
    form.locator(".actions button[type='button']").click()  # waits until enabled
    fill_row(page, "prize", 1, {"amount": "50"})
    form.locator("button[type='submit']").click()
    page.wait_for_selector("#pz-status[data-tone='ok']")
    prizes = server.call("GET", f"{t}/prizes", None, token)[1]["prizes"]
    assert [(p["place"], p["amount"]) for p in prizes] == [(1, "100.00"), (2, "50.00")]
    page.close()


def test_a_prize_table_being_edited_keeps_its_rows_when_categories_are_saved(
    server: Server, opened: Any
) -> None:
    page, tid, token = opened()
    page.click("#tab-setup")
    add_prize = page.locator("#panel-setup .prizes-form .actions button[type='button']")
    add_prize.click()
    fill_row(page, "prize", 0, {"place": "1", "amount": "80"})
    page.select_option("#pz-rule", "shared")
    submit_categories(page, [{"code": "U2370", "name": "Under 2370", "rating_max": "2369"}], "ok")
    # The unsaved row and rule stay, and the row's lists now offer the new category.
    list_ = page.locator("#panel-setup .prize-row [data-path='$.prizes[0].list']")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.prize-row select option')]"
        ".some((o) => o.value === 'U2370')"
    )
    assert page.locator("#panel-setup .prize-row").count() == 1
    assert page.input_value("[data-path='$.prizes[0].amount']") == "80"
    assert page.input_value("#pz-rule") == "shared"
    list_.select_option("U2370")
    page.click("#panel-setup .prizes-form button[type='submit']")
    page.wait_for_selector("#pz-status[data-tone='ok']")
    doc = server.call("GET", f"/api/tournaments/{tid}/prizes", None, token)[1]
    assert doc["rule"] == "shared"
    assert [(p["list"], p["place"], p["amount"]) for p in doc["prizes"]] == [("U2370", 1, "80.00")]


def test_a_second_save_while_the_first_is_on_its_way_writes_once(
    server: Server, opened: Any
) -> None:
    page, tid, _ = opened(viewport=PHONE)
    page.click("#tab-setup")
    page.locator("#panel-setup .prizes-form .actions button[type='button']").click()
    fill_row(page, "prize", 0, {"place": "1", "amount": "100"})
    held: list[Any] = []  # the table's PUTs, answered once both clicks are in
    page.route(
        f"**/api/tournaments/{tid}/prizes",
        lambda route: held.append(route) if route.request.method == "PUT" else route.continue_(),
    )
    save = page.locator("#panel-setup .prizes-form button[type='submit']")
    save.click()
    while not held:  # the route's handler runs while Playwright waits
        page.wait_for_timeout(20)
    save.click()  # bad Wi-Fi: no answer yet, so the arbiter clicks again
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => setTimeout(r)))")
    for route in held:
        route.continue_()
    page.wait_for_selector("#pz-status[data-tone='ok']")
    page.unroute(f"**/api/tournaments/{tid}/prizes")
    assert len(held) == 1
    assert len(events(server, tid, "PrizesDefined")) == 1


def test_a_refusal_at_its_field_is_in_the_consoles_language(server: Server, opened: Any) -> None:
    page, tid, _ = opened(lang="it", viewport=PHONE)
    narrow = {"code": "U1800", "name": "Under 1800", "rating_min": "1900", "rating_max": "1799"}
    submit_categories(page, [narrow], "error")
    bad = page.locator("[aria-invalid='true']")
    assert bad.get_attribute("data-path") == "$.categories[0].rating_max"
    said = page.locator(f"#{bad.get_attribute('aria-describedby')}").inner_text()
    assert said == "1799: inferiore a rating_min 1900"
    page.reload()
    page.wait_for_selector("[role='tab']")
    page.click("#tab-setup")
    page.wait_for_selector("#panel-setup .prizes-form")
    page.locator("#panel-setup .prizes-form .actions button[type='button']").click()
    # An Italian amount, with a decimal comma, finer than a cent: said back as it was typed.
    fill_row(page, "prize", 0, {"place": "1", "amount": "12,345"})
    page.click("#panel-setup .prizes-form button[type='submit']")
    page.wait_for_selector("#pz-status[data-tone='error']")
    bad = page.locator("[data-path='$.prizes[0].amount']")
    assert bad.get_attribute("aria-invalid") == "true"
    said = page.locator(f"#{bad.get_attribute('aria-describedby')}").inner_text()
    assert said == "importo 12,345: non è un multiplo di 0,01 EUR"
    assert events(server, tid, "CategoriesDefined") == events(server, tid, "PrizesDefined") == []
    bad.scroll_into_view_if_needed()
    shot(page, "prize-error-phone-it")
    page.set_viewport_size(DESKTOP)
    bad.scroll_into_view_if_needed()
    shot(page, "prize-error-desktop-it")
