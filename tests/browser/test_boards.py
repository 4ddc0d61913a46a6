"""Every player finds their board, in a real browser against a real server: the card names the
running round's board, colour and opponent (or the bye, or the absence), the standings' search
finds the searched player's board among the round's pairings, the round prints in alphabetical
order of players, and the crosstable shows (and prints) each round's opponent rank, colour and
result. Every value is checked against the API's own answer."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server, open_page

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
SHOTS = Path("/tmp/shots/boards")  # looked at by people, not asserted on
NAMES = {
    1: "Zanetti, Paolo", 2: "Ábrahám, Tamás", 3: "Bianchi, Luca", 4: "Adams-Berg, Ivan",
    5: "Ölund, Erik", 6: "Costa, Ivan", 7: "Adams, Ana", 8: "Rossi, Mario", 9: "Ferrari, Sara",
    10: "Greco, Marco", 11: "Ricci, Elena", 12: "Marino, Davide", 13: "Conti, Laura",
}  # fmt: skip
# By surname as English sorts it: Á among the A's, "Adams" before "Adams-Berg", Ö among the O's.
BY_NAME = [2, 7, 4, 3, 13, 6, 9, 10, 12, 5, 11, 8, 1]


def boards(*games: tuple[int, int]) -> list[dict[str, int]]:
    return [{"board": b, "white": w, "black": k} for b, (w, k) in enumerate(games, start=1)]


@pytest.fixture(scope="module")
def tid(server: Server) -> str:
    """13 players, round 3 of 5 running with board 1 finished: 9 on the pairing-allocated bye,
    8 on a requested half-point bye, 10 neither paired nor on a bye (absent)."""
    tid = "boards"
    token = server.token(tid)
    t = f"/api/tournaments/{tid}"
    body = {"name": "Boards open", "rounds": 5, "tiebreaks": ["PTS", "BH/C1", "BH", "WIN"]}
    assert server.call("PUT", t, body, token)[0] == 201
    for no, name in NAMES.items():
        person = {"start_no": no, "name": name, "rating": 2300 - 20 * no}
        assert server.call("POST", f"{t}/participants", person, token)[0] == 201
    steps: list[tuple[str, object]] = [
        ("rounds/1/pairings", {"boards": boards((1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12)),
                               "bye": 13}),
        *[("rounds/1/results", {"board": b, "result": "1/2-1/2" if b == 3 else "1-0"})
          for b in range(1, 7)],
        ("rounds/1/close", {}),
        ("byes", {"start_no": 11, "round": 2, "points": "half"}),
        ("rounds/2/pairings",
         {"boards": boards((13, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 12))}),
        *[("rounds/2/results", {"board": b, "result": r})
          for b, r in enumerate(["0-1", "0-1", "0-1", "1/2-1/2", "0-1", "+-"], start=1)],
        ("rounds/2/close", {}),
        ("byes", {"start_no": 8, "round": 3, "points": "half"}),
        ("rounds/3/pairings", {"boards": boards((1, 3), (5, 2), (4, 6), (7, 11), (12, 13)),
                               "bye": 9}),
        ("rounds/3/results", {"board": 1, "result": "1-0"}),
    ]  # fmt: skip
    for path, step in steps:
        status, answer = server.call("POST", f"{t}/{path}", step, token)
        assert status == 201, (path, answer)
    return tid


def seats(server: Server, tid: str, rnd: int) -> dict[int, tuple[int, str, int]]:
    """Round `rnd` as the API publishes it: start no -> (board, colour, opponent)."""
    found: dict[int, tuple[int, str, int]] = {}
    for g in server.get(f"/api/tournaments/{tid}/rounds/{rnd}")["games"]:
        found[g["white"]] = (g["board"], "White", g["black"])
        found[g["black"]] = (g["board"], "Black", g["white"])
    return found


def lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line]


def no_page_scroll(page: Any) -> None:
    """Nothing wider than the screen: a wide table scrolls inside its own box."""
    assert page.evaluate("document.scrollingElement.scrollWidth") <= page.viewport_size["width"]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_card_shows_the_running_board_colour_and_opponent(
    browser: Any, server: Server, tid: str, size: dict[str, int]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    rows = {r["start_no"]: r for r in server.get(f"/api/tournaments/{tid}/standings")["standings"]}
    round_3 = seats(server, tid, 3)
    for no in sorted(round_3) if size is PHONE else [1, 2]:  # each player at a board, on a phone
        board, colour, opponent = round_3[no]
        page = open_page(browser, size, f"{server.base}/t/{tid}/player/{no}", ".card .game")
        game = page.locator("[data-board]")
        assert game.count() == 1  # the running game, and nothing else on the card
        assert game.get_attribute("data-board") == str(board)
        assert (game.get_attribute("data-round"), game.get_attribute("data-opponent")) == (
            "3", str(opponent),
        )  # fmt: skip
        assert game.locator(".game-seat").inner_text() == f"Board {board} · {colour}"
        mine = rows[opponent]
        assert game.locator(".game-opponent").inner_text() == (
            f"against {NAMES[opponent]} · start no. {opponent} · rank {mine['rank']} · "
            f"{mine['values'][0]} points"
        )
        link = game.locator(".game-opponent a")
        assert link.get_attribute("href") == f"/t/{tid}/player/{opponent}?lang=en"
        # The game at the top: above the rank and the points.
        top = page.evaluate("document.querySelector('.card .game').getBoundingClientRect().top")
        facts = page.evaluate("document.querySelector('.card .facts').getBoundingClientRect().top")
        assert top < facts < size["height"]
        if no in (1, 3):
            assert game.locator(".game-result").inner_text() == "Result: 1–0"
        else:
            assert game.locator(".game-result").count() == 0
        if no == 2:
            page.screenshot(path=str(SHOTS / f"card-{size['width']}.png"))
        no_page_scroll(page)
        assert page.errors == []
        page.close()


def test_a_bye_or_an_absence_is_said_instead_of_a_board(
    browser: Any, server: Server, tid: str
) -> None:
    expected = {
        9: ("pab", "Pairing-allocated bye"),
        8: ("requested", "Requested bye (half point)"),
        10: ("absent", "Not paired (absent)"),
    }
    for no, (kind, words) in expected.items():
        page = open_page(browser, PHONE, f"{server.base}/t/{tid}/player/{no}", ".card .game")
        assert page.locator("[data-board]").count() == 0
        game = page.locator(".card .game")
        assert game.get_attribute("data-bye") == kind
        assert lines(game.inner_text()) == ["Round 3", words]
        if no == 10:
            page.screenshot(path=str(SHOTS / "card-absent-390.png"))
        page.close()
    page = open_page(browser, PHONE, f"{server.base}/t/{tid}/player/9?lang=it", ".card .game")
    assert lines(page.locator(".card .game").inner_text()) == [
        "Turno 3", "Bye assegnato dall'abbinamento",
    ]  # fmt: skip
    page.close()


def test_the_search_finds_the_searched_players_board(
    browser: Any, server: Server, tid: str
) -> None:
    round_3 = seats(server, tid, 3)
    page = open_page(browser, PHONE, f"{server.base}/t/{tid}", "#pairings tr[data-board]")
    pairings = page.locator("#pairings table.pairings tbody tr")
    assert pairings.count() == 5
    # By name, accents or none: Ricci plays board 4.
    page.fill("#search", "ricci")
    board = round_3[11][0]
    shown = page.locator("#pairings table.pairings tbody tr:visible")
    assert [r.get_attribute("data-board") for r in shown.all()] == [str(board)]
    assert shown.locator("td.found").inner_text() == "Ricci, Elena (11)"
    assert page.locator("output.count").inner_text() == f"1 of 13 shown · board {board}"
    page.screenshot(path=str(SHOTS / "search-390.png"), full_page=True)
    page.fill("#search", "Olund")
    assert [r.get_attribute("data-board") for r in shown.all()] == [str(round_3[5][0])]
    # By start number: 2 plays board 2; two players found, two boards.
    page.fill("#search", "2")
    assert [r.get_attribute("data-board") for r in shown.all()] == [str(round_3[2][0])]
    page.fill("#search", "Adams")
    first, second = sorted([round_3[7][0], round_3[4][0]])  # in the order of the boards
    assert page.locator("output.count").inner_text() == (
        f"2 of 13 shown · boards {first} and {second}"
    )
    # A bye and an absence: no board, said where the boards are.
    page.fill("#search", "Ferrari")
    assert shown.count() == 0
    assert page.locator("#pairings ul.byes:not(.absent) li:visible").all_inner_texts() == [
        "Ferrari, Sara (9): pairing-allocated bye"
    ]
    page.fill("#search", "Greco")
    assert page.locator("#pairings ul.absent li:visible").all_inner_texts() == [
        "Greco, Marco (10): not paired (absent)"
    ]
    assert page.locator("output.count").inner_text() == "1 of 13 shown"
    page.fill("#search", "")
    assert pairings.locator("visible=true").count() == 5
    assert page.locator("#pairings ul.absent").is_hidden()
    no_page_scroll(page)
    assert page.errors == []
    page.close()


def test_the_pairings_print_in_alphabetical_order(browser: Any, server: Server, tid: str) -> None:
    round_3 = seats(server, tid, 3)
    page = browser.new_page(viewport=DESKTOP)
    page.emulate_media(media="print")
    page.goto(f"{server.base}/t/{tid}?print=pairings&order=name")
    page.wait_for_selector("body[data-print-ready] #pairings table.by-name")
    page.screenshot(path=str(SHOTS / "print-by-name.png"), full_page=True)
    table = page.locator("#pairings table.by-name")
    assert table.locator("thead th").all_inner_texts() == ["Player", "Bd", "Colour", "Opponent"]
    rows = table.locator("tbody tr")
    assert [int(r.get_attribute("data-start-no")) for r in rows.all()] == BY_NAME
    for row in rows.all():
        no = int(row.get_attribute("data-start-no"))
        cells = row.locator("th, td").all_inner_texts()
        if no in round_3:
            board, colour, opponent = round_3[no]
            assert row.get_attribute("data-board") == str(board)
            assert cells == [f"{NAMES[no]} ({no})", str(board), colour,
                             f"{NAMES[opponent]} ({opponent})"]  # fmt: skip
        else:
            words = {9: "pairing-allocated bye", 8: "requested bye (half point)",
                     10: "not paired (absent)"}[no]  # fmt: skip
            assert cells == [f"{NAMES[no]} ({no})", words]
    assert page.locator("h2").inner_text() == "Round 3: pairings by name"
    assert not page.locator("section.board").is_visible()  # the standings are not printed
    assert not page.locator(".top nav.links").is_visible()
    page.close()


def crosstable_cell(cell: dict[str, Any], ranks: dict[int, int], colour: dict[str, str]) -> str:
    """A cell as the page must write it, from the API's data (English)."""
    if cell["opponent"] is None:
        if cell["result"] == "Z":
            return "–"
        return f"bye {score(cell['points'])}"
    mark = {"+": "+", "-": "−", "*": "*"}.get(cell["result"]) or score(cell["points"])
    return f"{ranks[cell['opponent']]}{colour[cell['colour']]}{mark}"


def score(points: str) -> str:
    whole, _, frac = points.partition(".")
    if frac.strip("0") == "":
        return whole
    assert frac.rstrip("0") == "5"
    return "½" if whole == "0" else f"{whole}½"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_crosstable_shows_each_rounds_opponent_rank_colour_and_result(
    browser: Any, server: Server, tid: str, size: dict[str, int]
) -> None:
    standings = server.get(f"/api/tournaments/{tid}/standings")
    doc = server.get(f"/api/tournaments/{tid}/crosstable")
    ranks = {r["start_no"]: r["rank"] for r in standings["standings"]}
    page = open_page(browser, size, f"{server.base}/t/{tid}/crosstable", "cross-table tbody tr")
    page.screenshot(path=str(SHOTS / f"crosstable-{size['width']}.png"), full_page=True)
    heads = page.locator("cross-table thead th").all_inner_texts()
    assert heads == ["Rk", "Name", "1", "2", "3", "Pts", "BH/C1", "BH", "WIN"]
    rows = page.locator("cross-table tbody tr")
    # The standings' order, ranks and values.
    assert [int(r.get_attribute("data-start-no")) for r in rows.all()] == [
        r["start_no"] for r in standings["standings"]
    ]
    colour = {"w": "w", "b": "b"}
    for tr, row, line in zip(rows.all(), doc["rows"], standings["standings"], strict=True):
        assert row["start_no"] == line["start_no"]
        texts = tr.locator("th, td").all_inner_texts()
        cells = [crosstable_cell(c, ranks, colour) for c in row["rounds"]]
        assert texts == [str(line["rank"]), line["name"], *cells, *map(str, line["values"])]
        for td, c in zip(tr.locator("td.rnd").all(), row["rounds"], strict=True):
            if c["opponent"] is not None:
                assert td.get_attribute("data-opponent-rank") == str(ranks[c["opponent"]])
    # Round 3 of player 2: Black against 5 on board 2, still playing; round 2 of 10: a forfeit
    # win; 13's first round the pairing-allocated bye.
    two = page.locator("cross-table tr[data-start-no='2'] td.rnd")
    assert two.nth(2).inner_text() == f"{ranks[5]}b*"
    assert two.nth(2).get_attribute("title") == (
        f"Round 3: Black against Ölund, Erik (rank {ranks[5]}): game in progress, 0.0 points"
    )
    assert page.locator("cross-table tr[data-start-no='10'] td.rnd").nth(1).inner_text() == (
        f"{ranks[12]}w+"
    )
    assert page.locator("cross-table tr[data-start-no='13'] td.rnd").first.inner_text() == "bye 1"
    assert page.locator("cross-table tr[data-start-no='10'] td.rnd").nth(2).inner_text() == "–"
    no_page_scroll(page)
    if size is PHONE:  # the rounds scroll sideways in the table's own box, the names stay
        box = page.locator("cross-table .scroll")
        assert box.evaluate("b => b.scrollWidth > b.clientWidth")
        name = page.locator("cross-table tbody th.name").first
        before = name.bounding_box()
        box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
        page.wait_for_function("document.querySelector('cross-table .scroll').scrollLeft > 0")
        assert name.bounding_box()["x"] == before["x"]
        page.screenshot(path=str(SHOTS / "crosstable-390-scrolled.png"))
    assert page.errors == []
    page.close()


def test_the_crosstable_prints_on_a4_landscape(browser: Any, server: Server, tid: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.add_init_script("window.print = () => { document.body.dataset.printed = '1'; }")
    page.emulate_media(media="print")
    page.goto(f"{server.base}/t/{tid}?print=crosstable")  # the standings' notice board link
    page.wait_for_selector("body[data-print='crosstable'][data-print-ready] cross-table tbody tr")
    assert page.url == f"{server.base}/t/{tid}/crosstable?print=crosstable"
    page.wait_for_selector("body[data-printed]")  # the dialog was opened once the table was in
    page.screenshot(path=str(SHOTS / "print-crosstable.png"), full_page=True)
    assert page.locator("cross-table tbody tr").count() == 13
    assert not page.locator(".top nav.links").is_visible()
    assert page.locator("cross-table .legend").is_visible()  # the notation, on paper too
    pdf = page.pdf(prefer_css_page_size=True)
    (SHOTS / "crosstable.pdf").write_bytes(pdf)
    box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)
    assert box is not None
    width, height = float(box.group(1)), float(box.group(2))
    assert (round(width), round(height)) == (842, 595)  # A4 landscape, in points
    page.close()
