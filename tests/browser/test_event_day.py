"""The first hours of an event, in the browser only: from an empty store, the organiser link
`livetb serve` printed → /new → the arbiter token and the console → players from the pairing
program's TRF list → round 1 pasted as TRF, boards in FIDE's publication order → every
result by keyboard → close → a late entry with a zero-point bye for round 1 → round 2 pasted
as TRF with the late entrant → the public standings and the printed pairings. Nothing is
typed on the server after `livetb serve`. Names, ratings, federations and FIDE ids are
swiss-1003's (tests/data)."""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import LIVETB, _free_port

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SHOTS = Path(os.environ.get("LIVETB_SHOTS", "/tmp/livetb-shots")) / "event-day"
SOURCE = Path(__file__).parents[1] / "data/conformance/individual-swiss/swiss-1003.trf"
HEADER = ["012 Open di Rovigo 2025", "022 Rovigo", "032 ITA", "042 2025/05/10", "062 12", "072 12"]

# Round 1 as the pairing program made it (11 players: 1-6, 7-2, 3-8, 9-4, 5-10, 11 the
# pairing-allocated bye) and as it was played; round 2 after the late entry of #12.
ROUND_1 = {1: (6, "w"), 2: (7, "b"), 3: (8, "w"), 4: (9, "b"), 5: (10, "w"),
           6: (1, "b"), 7: (2, "w"), 8: (3, "b"), 9: (4, "w"), 10: (5, "b")}  # fmt: skip
RESULTS_1 = {1: "1", 2: "1", 3: "=", 4: "0", 5: "1", 6: "0", 7: "0", 8: "=", 9: "1", 10: "0"}
ROUND_2 = {1: (9, "b"), 2: (5, "w"), 3: (11, "b"), 4: (7, "w"), 5: (2, "b"), 6: (8, "b"),
           7: (4, "b"), 8: (6, "w"), 9: (1, "w"), 10: (12, "w"), 11: (3, "w"),
           12: (10, "b")}  # fmt: skip


def players() -> dict[int, str]:
    """swiss-1003's 001 lines up to column 80 (start number to birth date), by start number."""
    lines = [ln for ln in SOURCE.read_text().splitlines() if ln.startswith("001")]
    return {int(ln[4:8]): ln[:80].ljust(80) for ln in lines[:12]}


def block(rnd: dict[int, tuple[int, str]], no: int, results: dict[int, str] | None) -> str:
    """A player's round block: opponent, colour, result (blank while unplayed); no pairing:
    the pairing-allocated bye (U) for a player of the round, else a zero-point bye (Z)."""
    if no not in rnd:
        return "  0000 - U" if no <= 11 else "  0000 - Z"
    opponent, colour = rnd[no]
    return f"  {opponent:4d} {colour} {(results or {}).get(no, ' ')}"


Round = tuple[dict[int, tuple[int, str]], dict[int, str] | None]


def trf(rounds: list[Round], field: int, points: dict[int, str] | None = None) -> str:
    """The pairing program's file: the header, then each player with its round blocks."""
    people = players()
    body = [
        f"{people[no]}{(points or {}).get(no, '0.0'):>4} {no:>4}"
        + "".join(block(rnd, no, res) for rnd, res in rounds)
        for no in range(1, field + 1)
    ]
    return "\n".join(HEADER + body) + "\n"


# Points after round 1 (the U counts a win; #12's Z nothing), as the file and the standings say.
POINTS = {1: "1.0", 2: "1.0", 3: "0.5", 5: "1.0", 8: "0.5", 9: "1.0", 11: "1.0"}


def name(no: int) -> str:
    return players()[no][14:47].strip()


def who(no: int) -> str:
    return f"{name(no)} ({no})"


class FirstStart:
    """`livetb serve` over a new store; what it printed goes to a file (nothing left unread
    in a pipe), where the organiser's link is read from."""

    def __init__(self, db: Path) -> None:
        self.base = f"http://127.0.0.1:{_free_port()}"
        self.out = db.with_suffix(".out")
        cmd = [LIVETB, "serve", "--db", str(db), "--port", self.base.rsplit(":", 1)[1]]
        with self.out.open("w") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.base}/api/tournaments", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"livetb serve did not answer within 60 s: {self.out.read_text()}")

    def organiser_link(self) -> str:
        (url,) = [ln.strip() for ln in self.out.read_text().splitlines() if "/new#token=" in ln]
        return url

    def get(self, path: str, token: str) -> Any:
        request = urllib.request.Request(
            self.base + path, headers={"Authorization": f"Bearer {token}"}
        )
        with urllib.request.urlopen(request, timeout=30) as resp:
            return json.loads(resp.read())

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


@pytest.fixture
def first_start(tmp_path: Path) -> Iterator[FirstStart]:
    server = FirstStart(tmp_path / "event.sqlite")
    yield server
    server.stop()


def shoot(page: Any, step: str) -> None:
    """The step at laptop width, then at 390 px, where nothing may scroll sideways."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{step}-1280.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.screenshot(path=str(SHOTS / f"{step}-390.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    page.set_viewport_size(LAPTOP)
    assert width <= 390, f"{step}: {width} px wide at 390 px"


def table_rows(page: Any, rows: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in row.split("\t")] for row in page.locator(rows).all_inner_texts()
    ]


def key_in(page: Any, board: int, key: str) -> None:
    """Board number, Space, the result key, Enter: the keyboard path, nothing clicked."""
    page.keyboard.type(str(board))
    page.keyboard.press("Space")
    page.keyboard.type(key)
    page.keyboard.press("Enter")


def test_the_first_hours_of_a_swiss_in_the_browser(first_start: FirstStart, browser: Any) -> None:
    server = first_start
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))

    # /new from the link serve printed on the store's first start.
    page.goto(server.organiser_link())
    page.wait_for_selector("#app[aria-busy='false']")
    page.fill("#s-id", "rovigo-2025")
    page.fill("#s-name", "Open di Rovigo 2025")
    page.fill("#s-rounds", "5")
    page.fill("#s-date", "2025-05-10")
    shoot(page, "01-new")
    page.get_by_role("button", name="Create the tournament").click()
    token = page.locator("#arbiter-token").input_value()
    assert token.startswith("ltb_")
    shoot(page, "02-created")
    page.get_by_role("link", name="Open the arbiters' console").click()
    page.get_by_role("heading", level=1, name="Open di Rovigo 2025").wait_for()
    api = "/api/tournaments/rovigo-2025"

    # Players: the pairing program's list, previewed, then registered (eleven; #12 comes late).
    page.click("#tab-players")
    page.fill("#pl-trf", trf([], 11))
    page.locator("#panel-players").get_by_role("button", name="Preview").click()
    page.wait_for_selector(".players-preview tbody tr")
    previewed = table_rows(page, ".players-preview tbody tr")
    assert len(previewed) == 11
    assert previewed[0] == ["1", "Larsen, Rafael", "2424", "IM", "GER", "78286370"]
    assert previewed[10] == ["11", "Weber, Magnus", "2136", "", "HUN", "56394444"]
    assert server.get(api, token)["participants"] == []  # a preview writes nothing
    shoot(page, "03-players-preview")
    page.get_by_role("button", name="Register them all").click()
    page.wait_for_selector("#panel-players .status[data-tone='ok']")
    assert [p["name"] for p in server.get(api, token)["participants"]] == [
        name(no) for no in range(1, 12)
    ]

    # Round 1 as TRF: start-number order would put 3-8 on board 2; FIDE publishes 7-2 there.
    page.click("#tab-pairings")
    assert page.input_value("#p-round") == "1"
    page.fill("#p-trf", trf([(ROUND_1, None)], 11))
    page.locator("#panel-pairings").get_by_role("button", name="Preview", exact=True).click()
    page.wait_for_selector("text=Round 1: 5 boards")
    published = [(1, 6), (7, 2), (3, 8), (9, 4), (5, 10)]
    rows = table_rows(page, "#panel-pairings table.reorder tbody tr")
    assert [r[:3] for r in rows] == [
        [str(b), who(w), who(k)] for b, (w, k) in enumerate(published, start=1)
    ]
    assert page.locator("#panel-pairings .preview").inner_text().count(f"{who(11)}") == 1
    shoot(page, "04-round-1-preview")
    page.get_by_role("button", name="Publish the pairings").click()
    page.wait_for_selector("text=Round 1 published")
    rnd = server.get(f"{api}/rounds/1", token)
    assert [(g["board"], g["white"], g["black"]) for g in rnd["games"]] == [
        (b, w, k) for b, (w, k) in enumerate(published, start=1)
    ]
    assert rnd["bye"] == 11

    # Every result by keyboard, as the slips give them (board, result), then close.
    page.click("#tab-results")
    page.wait_for_selector("[data-board='5']")
    grid = [page.locator(f"[data-board='{b}']").inner_text() for b in range(1, 6)]
    assert [(name(w) in g, name(k) in g) for g, (w, k) in zip(grid, published, strict=True)] == [
        (True, True)
    ] * 5
    page.focus("#q-board")
    for board, (white, _) in enumerate(published, start=1):
        key_in(page, board, RESULTS_1[white])
        page.wait_for_selector(f"[data-board='{board}'][data-state='confirmed']")
    shoot(page, "05-results")
    page.click("[data-action='close-round']")
    page.wait_for_selector(".notice[data-tone='ok']:has-text('Round 1 closed')")
    recorded = server.get(f"{api}/rounds/1", token)["games"]
    assert [(g["board"], g["result"]) for g in recorded] == [
        (1, "1-0"), (2, "0-1"), (3, "1/2-1/2"), (4, "1-0"), (5, "1-0")
    ]  # fmt: skip

    # A late entry: #12, with a zero-point bye for round 1.
    page.click("#tab-players")
    page.wait_for_selector("#pl-missed-1")
    assert page.input_value("#pl-no") == "12"
    assert page.locator("fieldset.late select").count() == 1
    page.fill("#pl-name", name(12))
    page.fill("#pl-rating", "2172")
    page.fill("#pl-fed", "IND")
    page.fill("#pl-fide", "75496825")
    page.select_option("#pl-missed-1", "zero")
    shoot(page, "06-late-entry")
    page.locator("#pl-missed-1").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Register"
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#panel-players .status[data-tone='ok']:has-text('{name(12)}')")
    tail = [e["event"] for e in server.get(f"{api}/events?limit=1000", token)["events"]][-2:]
    assert tail == [
        {"type": "ParticipantRegistered", "v": 1, "start_no": 12, "name": "Schmidt, Igor",
         "rating": 2172, "title": "", "federation": "IND", "fide_id": "75496825",
         "sex": "", "birth_date": ""},
        {"type": "ByeRequested", "v": 1, "start_no": 12, "round": 1, "points": "zero"},
    ]  # fmt: skip

    # Round 2 from the pairing program's file with #12 in it (Z in round 1).
    page.click("#tab-pairings")
    assert page.input_value("#p-round") == "2"
    page.fill("#p-trf", trf([(ROUND_1, RESULTS_1), (ROUND_2, None)], 12, POINTS))
    page.locator("#panel-pairings").get_by_role("button", name="Preview", exact=True).click()
    page.wait_for_selector("text=Round 2: 6 boards")
    # By the higher score in the pair, the sum, then the higher player's start number.
    second = [(9, 1), (2, 5), (11, 3), (8, 6), (4, 7), (10, 12)]
    rows = table_rows(page, "#panel-pairings table.reorder tbody tr")
    assert [r[:3] for r in rows] == [
        [str(b), who(w), who(k)] for b, (w, k) in enumerate(second, start=1)
    ]
    shoot(page, "07-round-2-preview")
    page.get_by_role("button", name="Publish the pairings").click()
    page.wait_for_selector("text=Round 2 published")
    context.close()

    # The public standings: #12 on 0 after round 1, and round 2's boards as published.
    public = browser.new_page(viewport=LAPTOP)
    public.goto(f"{server.base}/t/rovigo-2025")
    public.wait_for_selector("#pairings tbody tr[data-board='6']")
    late = public.locator("tbody tr[data-start-no='12']")
    cells = late.locator("td").all_inner_texts()
    assert cells[3] == "Schmidt, Igor" and cells[7] == "0.0"
    pts = {
        int(tr.get_attribute("data-start-no")): tr.locator("td").nth(7).inner_text()
        for tr in public.locator("section.board tbody tr").all()
    }
    assert pts == {no: POINTS.get(no, "0.0") for no in range(1, 13)}
    boards = table_rows(public, "#pairings table.pairings tbody tr")
    assert [[r[0], r[1], r[-1]] for r in boards] == [
        [str(b), who(w), who(k)] for b, (w, k) in enumerate(second, start=1)
    ]
    shoot(public, "08-standings")
    public.close()

    # The notice board: round 2 printed with its board numbers and the points before it.
    printed = browser.new_page(viewport=LAPTOP)
    printed.emulate_media(media="print")
    printed.goto(f"{server.base}/t/rovigo-2025?print=pairings")
    printed.wait_for_selector("body[data-print-ready] #pairings th.pts")
    printed.screenshot(path=str(SHOTS / "09-print-pairings.png"), full_page=True)
    score = {no: POINTS.get(no, "0.0") for no in range(1, 13)}
    assert table_rows(printed, "#pairings table.pairings tbody tr") == [
        [str(b), who(w), score[w], "playing", score[k], who(k)]
        for b, (w, k) in enumerate(second, start=1)
    ]
    printed.close()
    assert errors == []
