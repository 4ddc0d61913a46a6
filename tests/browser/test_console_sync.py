"""The console's sync with the pairing program's file, in a real browser: a real tournament
(swiss-1003 of the conformance corpus) cut into the files a pairing program writes; the file
chosen with the file input or dropped on the drop zone, previewed in words, then applied; a
result entered in the console that the file contradicts; a file that is not TRF."""

from __future__ import annotations

import itertools
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from livetb.engine.model import Code, Entry
from livetb.trf import parse_trf
from livetb.trf.writer import write_trf
from tests.browser.conftest import Server
from tests.browser.test_console import events, key_in
from tests.interchange.sync_cuts import cuts

SWISS = Path("tests/data/conformance/individual-swiss/swiss-1003.trf")
SHOTS = Path(os.environ.get("LIVETB_SHOTS", "/tmp/livetb-shots")) / "sync"
LAPTOP = {"width": 1280, "height": 800}
BIG_LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
SHOWN = {"1-0": "1–0", "0-1": "0–1", "1/2-1/2": "½–½"}  # as the pages write results
KEYS = {"1-0": "1", "0-1": "0", "1/2-1/2": "="}  # the grid's keys
# White's code in the file -> the game's result.
RESULT = {Code.WIN: "1-0", Code.LOSS: "0-1", Code.DRAW: "1/2-1/2"}

# A file dropped on the drop zone, as a browser delivers it: a DataTransfer with a File.
DROP = """([text, name]) => {
    const data = new DataTransfer();
    data.items.add(new File([text], name, { type: "text/plain" }));
    const zone = document.querySelector("#sync-drop");
    const init = { dataTransfer: data, bubbles: true, cancelable: true };
    for (const type of ["dragenter", "dragover", "drop"]) {
        zone.dispatchEvent(new DragEvent(type, init));
    }
}"""

_numbers = itertools.count(1)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """swiss-1003 as the pairing program saves it: round 1 paired, half played, whole."""
    folder = tmp_path_factory.mktemp("sync-files")
    made = {}
    for cut in cuts(SWISS):
        if cut.label.startswith("round 1"):
            path = folder / f"{cut.label.replace(' ', '-')}.trf"
            path.write_text(cut.text)
            made[cut.label] = path
    return made


def post_trf(server: Server, tid: str, token: str, text: str) -> int:
    request = urllib.request.Request(
        f"{server.base}/api/tournaments/{tid}/sync",
        data=text.encode(),
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "text/plain"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as resp:
            return int(resp.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


def round_one(server: Server, files: dict[str, Path]) -> tuple[str, str]:
    """A tournament made by syncing the file of round 1 paired (no results); id and token."""
    tid = f"sync-{next(_numbers)}"
    token = server.token(tid)
    assert post_trf(server, tid, token, files["round 1 paired"].read_text()) == 200
    return tid, token


def file_results(path: Path) -> dict[tuple[int, int], str]:
    """(white, black) -> result of every round 1 game the file has a result for."""
    t = parse_trf(path.read_bytes(), str(path)).tournament
    found = {}
    for p in t.participants:
        e = p.entry(1)
        if e.colour == "w" and e.opponent is not None and e.code in RESULT:
            found[(p.start_no, e.opponent)] = RESULT[e.code]
    return found


def record_line(path: Path, no: int) -> int:
    """The line of `no`'s 001 record in the file, counted from 1."""
    lines = path.read_text().splitlines()
    return next(i for i, text in enumerate(lines, 1) if text.startswith(f"001 {no:>4} "))


def boards(server: Server, tid: str) -> list[dict[str, Any]]:
    return list(server.get(f"/api/tournaments/{tid}/rounds/1")["games"])


@pytest.fixture
def opened(server: Server, browser: Any) -> Iterator[Any]:
    """The console's Sync tab on (tid, token) at a viewport; page errors collected."""
    pages: list[Any] = []

    def open_(tid: str, token: str, viewport: dict[str, int] = LAPTOP, lang: str = "en") -> Any:
        page = browser.new_page(viewport=viewport)
        page.errors = []
        page.on("pageerror", lambda err: page.errors.append(str(err)))
        pages.append(page)
        page.goto(f"{server.base}/t/{tid}/arbiter?lang={lang}#token={token}")
        page.wait_for_selector("[data-board='1']")
        return page

    yield open_
    for page in pages:
        page.close()


def sync_tab(page: Any) -> None:
    """The Sync tab by keyboard: from the Results tab, two steps right."""
    page.focus("#tab-results")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-sync"
    assert page.is_visible("#sync-file")


def status(page: Any) -> str:
    return str(page.locator("#sync-status").inner_text())


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def test_round_one_results_are_previewed_then_applied_then_nothing_to_add(
    server: Server, opened: Any, files: dict[str, Path]
) -> None:
    tid, token = round_one(server, files)
    whole = files["round 1 whole"]
    results = file_results(whole)
    games = boards(server, tid)
    assert len(games) == len(results) == 14  # 28 players in round 1's files, every game played
    page = opened(tid, token)
    sync_tab(page)
    before = len(events(server, tid))

    page.set_input_files("#sync-file", str(whole))
    page.wait_for_selector("#sync-apply")
    assert status(page).startswith("round-1-whole.trf read: check what it adds")
    lines = page.locator("#sync-preview ul.events li").all_inner_texts()
    expected = [
        f"round 1, board {g['board']}: {SHOWN[results[(g['white'], g['black'])]]}" for g in games
    ]
    assert lines == [*expected, "closed round 1"]
    assert "adds 15 event(s)" in page.locator("#sync-preview").inner_text()
    assert len(events(server, tid)) == before  # a preview writes nothing
    assert page.evaluate("document.activeElement.id") == "sync-apply"
    shot(page, "preview-1280.png")
    page.set_viewport_size(PHONE)
    shot(page, "preview-390.png")
    page.set_viewport_size(LAPTOP)

    page.keyboard.press("Enter")  # Apply, from the keyboard
    page.wait_for_selector("#sync-status[data-tone='ok']")
    assert status(page).startswith("round-1-whole.trf applied: 15 event(s) written (#")
    recorded = events(server, tid, "ResultRecorded")
    assert {(e["board"], e["result"]) for e in recorded} == {
        (g["board"], results[(g["white"], g["black"])]) for g in games
    }
    assert len(events(server, tid, "RoundClosed")) == 1
    page.click("#tab-results")
    for g in games:  # the grid heard the results through the feed
        row = page.locator(f".board-row[data-board='{g['board']}']")
        row.wait_for()
        page.wait_for_selector(f".board-row[data-board='{g['board']}'][data-state='confirmed']")
    page.click("#tab-sync")

    after = len(events(server, tid))
    page.set_input_files("#sync-file", str(whole))  # the same file again
    page.wait_for_selector("#sync-status:has-text('nothing to add')")
    assert status(page) == (
        "round-1-whole.trf: nothing to add, the log already says what the file says."
    )
    assert page.is_hidden("#sync-preview")
    assert len(events(server, tid)) == after
    assert page.errors == []


def test_a_result_entered_here_that_the_file_contradicts_is_a_choice(
    server: Server, opened: Any, files: dict[str, Path]
) -> None:
    tid, token = round_one(server, files)
    half = files["round 1 half"]
    results = file_results(half)
    games = boards(server, tid)
    game = next(g for g in games if (g["white"], g["black"]) in results)
    theirs = results[(game["white"], game["black"])]
    mine = "0-1" if theirs == "1-0" else "1-0"
    names = {
        p["start_no"]: p["name"] for p in server.get(f"/api/tournaments/{tid}")["participants"]
    }
    page = opened(tid, token, PHONE)
    page.focus("input[name='board']")
    key_in(page, game["board"], KEYS[mine])
    page.wait_for_selector(f".board-row[data-board='{game['board']}'][data-state='confirmed']")
    before = len(events(server, tid))

    sync_tab(page)
    page.set_input_files("#sync-file", str(half))
    page.wait_for_selector("#sync-preview button[data-prefer='file']")
    assert page.locator("#sync-status").get_attribute("data-tone") == "error"
    assert status(page) == (
        "round-1-half.trf contradicts 1 result(s) entered here: "
        "nothing is written until you choose which results stand."
    )
    conflict = page.locator("#sync-preview ul.conflicts li").all_inner_texts()
    white, black = game["white"], game["black"]
    line = record_line(half, white)
    assert conflict == [
        f"Round 1, board {game['board']}, {names[white]} ({white}) – {names[black]} ({black}): "
        f"entered here {SHOWN[mine]}, in the file {SHOWN[theirs]} (line {line})"
    ]
    assert page.locator("#sync-apply").count() == 0  # nothing to apply before the choice
    assert len(events(server, tid)) == before
    shot(page, "conflict-390.png")

    assert page.evaluate("document.activeElement.dataset.prefer") == "file"
    page.keyboard.press("Enter")  # the file's results
    page.wait_for_selector("#sync-apply")
    assert page.locator("button[data-prefer='file']").get_attribute("aria-pressed") == "true"
    lines = page.locator("#sync-preview ul.events li").all_inner_texts()
    reason = f"sync: {half.name}, line {line}"  # the file as the arbiter chose it
    assert (
        f"round 1, board {game['board']}: {SHOWN[mine]} → {SHOWN[theirs]} (reason: {reason})"
        in lines
    )
    assert len(events(server, tid)) == before
    shot(page, "prefer-file-390.png")

    page.keyboard.press("Enter")  # Apply
    page.wait_for_selector("#sync-status[data-tone='ok']")
    corrected = events(server, tid, "ResultCorrected")
    assert [(e["round"], e["board"], e["result"]) for e in corrected] == [
        (1, game["board"], theirs)
    ]
    page.click("#tab-results")
    row = f".board-row[data-board='{game['board']}']"
    # The row was already confirmed with the console's result: wait for the file's one, which
    # comes through the feed, not with the sync's answer.
    theirs_pressed = f"button[data-result='{theirs}'][aria-pressed='true']"
    page.wait_for_selector(f"{row}[data-state='confirmed'] {theirs_pressed}")
    assert page.locator(f"{row} button[aria-pressed='true']").inner_text() == SHOWN[theirs]
    assert page.errors == []


def test_a_dropped_file_that_is_not_trf_is_refused_with_its_line(
    server: Server, opened: Any, files: dict[str, Path]
) -> None:
    tid, token = round_one(server, files)
    page = opened(tid, token, PHONE)
    sync_tab(page)
    before = len(events(server, tid))
    page.evaluate(DROP, ["name,rating\nRossi,2000\n", "players.csv"])
    page.wait_for_selector("#sync-preview ul.issues li")
    assert status(page) == "players.csv is not a TRF file that can be read; nothing was written:"
    assert page.locator("#sync-status").get_attribute("data-tone") == "error"
    assert page.locator("#sync-preview ul.issues li").all_inner_texts() == [
        "line 1 (001 records): found no 001 line, expected at least one player record"
    ]
    assert page.locator("#sync-apply").count() == 0
    assert len(events(server, tid)) == before
    shot(page, "refused-390.png")
    assert page.errors == []


def test_keeping_the_results_entered_here_in_italian(
    server: Server, browser: Any, files: dict[str, Path]
) -> None:
    tid, token = round_one(server, files)
    half = files["round 1 half"]
    results = file_results(half)
    games = boards(server, tid)
    game = next(g for g in games if (g["white"], g["black"]) in results)
    theirs = results[(game["white"], game["black"])]
    mine = "1/2-1/2" if theirs != "1/2-1/2" else "1-0"
    page = browser.new_page(viewport=LAPTOP)
    try:
        page.goto(f"{server.base}/t/{tid}/arbiter?lang=it#token={token}")
        page.wait_for_selector("[data-board='1']")
        page.focus("input[name='board']")
        key_in(page, game["board"], KEYS[mine])
        page.wait_for_selector(f".board-row[data-board='{game['board']}'][data-state='confirmed']")
        sync_tab(page)
        assert page.locator("#tab-sync").inner_text() == "Sincronizza"
        page.set_input_files("#sync-file", str(half))
        page.wait_for_selector("#sync-preview button[data-prefer='log']")
        page.click("#sync-preview button[data-prefer='log']")
        page.wait_for_selector("#sync-apply")
        lines = page.locator("#sync-preview ul.events li").all_inner_texts()
        kept = (
            f"turno 1, scacchiera {game['board']}: resta {SHOWN[mine]} "
            f"(tralasciato il {SHOWN[theirs]} del file)"
        )
        assert lines[-1] == kept
        others = {g["board"] for g in games if (g["white"], g["black"]) in results} - {
            game["board"]
        }
        assert len(lines) == len(others) + 1  # the file's other results, and the kept board
        shot(page, "kept-1280-it.png")
        page.click("#sync-apply")
        page.wait_for_selector("#sync-status[data-tone='ok']")
        assert (
            page.locator("#sync-status")
            .inner_text()
            .startswith(f"round-1-half.trf applicato: {len(others)} eventi scritti (#")
        )
        assert events(server, tid, "ResultCorrected") == []
        recorded = {e["board"]: e["result"] for e in events(server, tid, "ResultRecorded")}
        assert recorded[game["board"]] == mine
        assert set(recorded) == others | {game["board"]}
    finally:
        page.close()


def test_a_file_pairing_round_one_otherwise_is_refused_in_words(
    server: Server, opened: Any, files: dict[str, Path], tmp_path: Path
) -> None:
    tid, token = round_one(server, files)
    # Round 1 as published is 16-1 and 2-17; this file has 17-1 and 2-16.
    t = parse_trf(files["round 1 paired"].read_bytes(), "paired").tournament
    swapped = {
        1: Entry(Code.PENDING, 17, "b"),
        17: Entry(Code.PENDING, 1, "w"),
        2: Entry(Code.PENDING, 16, "w"),
        16: Entry(Code.PENDING, 2, "b"),
    }
    people = tuple(
        msgspec.structs.replace(p, entries=(swapped[p.start_no],)) if p.start_no in swapped else p
        for p in t.participants
    )
    assert [(p.entry(1).opponent, p.entry(1).colour) for p in t.participants[:2]] == [
        (16, "b"),
        (17, "w"),
    ]
    other = tmp_path / "repaired.trf"
    other.write_text(write_trf(msgspec.structs.replace(t, participants=people)))
    page = opened(tid, token)
    sync_tab(page)
    before = len(events(server, tid))
    page.set_input_files("#sync-file", str(other))
    page.wait_for_selector("#sync-status[data-tone='error']")
    assert status(page).startswith(
        "repaired.trf cannot be followed from the log as it stands: it pairs a round otherwise"
    )
    assert page.is_hidden("#sync-preview")
    assert len(events(server, tid)) == before
    assert page.errors == []


def undeclared(text: str) -> str:
    """The file as a pairing program may save it before the round count is set: no `XXR`,
    no `142`, no `132` round dates."""
    return "".join(
        line for line in text.splitlines(keepends=True) if line[:3] not in {"XXR", "142", "132"}
    )


def test_a_file_without_a_round_count_asks_for_it_then_creates_the_tournament(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    tid = f"sync-new-{next(_numbers)}"
    token = server.token(tid)  # an arbiter token made for the id beforehand
    (cut,) = [c for c in cuts(SWISS) if c.label == "round 2 paired"]
    club = tmp_path / "club-open.trf"
    club.write_text(undeclared(cut.text))
    t = parse_trf(club.read_bytes(), "club").tournament
    names = {p.start_no: p.name for p in t.participants}
    page = browser.new_page(viewport=BIG_LAPTOP)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        page.goto(f"{server.base}/t/{tid}/arbiter#token={token}")
        page.wait_for_selector("#sync-file")
        assert page.locator("h1").inner_text() == f"Tournament {tid}: not created yet"
        assert page.evaluate("document.activeElement.id") == "sync-file"

        page.set_input_files("#sync-file", str(club))
        page.wait_for_selector("#sync-rounds")
        assert status(page) == (
            "club-open.trf does not say how many rounds the tournament has: "
            "enter the number to go on."
        )
        assert page.evaluate("document.activeElement.id") == "sync-rounds"
        assert page.locator("label[for='sync-rounds']").inner_text() == "Number of rounds"
        hint = page.locator("#sync-rounds-hint").inner_text()
        assert "declares no round count" in hint
        described = page.get_attribute("#sync-rounds", "aria-describedby")
        assert described == "sync-rounds-hint"
        limits = [page.get_attribute("#sync-rounds", bound) for bound in ("min", "max")]
        assert limits == ["1", "99"]
        shot(page, "rounds-1366.png")
        page.set_viewport_size(PHONE)
        assert (
            page.evaluate("getComputedStyle(document.querySelector('#sync-rounds')).fontSize")
            == "16px"
        )
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        shot(page, "rounds-390.png")
        page.set_viewport_size(BIG_LAPTOP)

        page.keyboard.press("Enter")  # no number yet: the form says so, nothing is sent
        assert page.evaluate("document.querySelector('#sync-rounds').validationMessage") == (
            "Enter a number of rounds from 1 to 99."
        )
        page.keyboard.type("7")
        page.keyboard.press("Enter")
        page.wait_for_selector("#sync-apply")
        assert (
            status(page)
            == "club-open.trf read: check what it adds, then apply. Nothing is written before."
        )
        preview = page.locator("#sync-preview")
        assert "The tournament will have 7 rounds." in preview.inner_text()
        lines = preview.locator("ul.events > li")
        assert lines.first.inner_text().startswith(
            "created the tournament Generated individual swiss #1003, 7 rounds"
        )
        paired = preview.locator("ul.events > li:has(ul.boards)")
        assert paired.count() == 2  # rounds 1 and 2, each with its boards by name
        boards = paired.first.locator("ul.boards > li").all_inner_texts()
        assert paired.first.inner_text().startswith("published round 1: 14 boards")
        assert len(boards) == 14
        pairs = {
            (p.start_no, p.entry(1).opponent) for p in t.participants if p.entry(1).colour == "w"
        }
        said = {line.split(": ", 1)[1] for line in boards}
        assert said == {f"{names[w]} – {names[b]}" for w, b in pairs if b is not None}
        with pytest.raises(urllib.error.HTTPError):  # a preview writes nothing
            server.get(f"/api/tournaments/{tid}")
        shot(page, "new-preview-1366.png")
        page.set_viewport_size(PHONE)
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        shot(page, "new-preview-390.png")
        page.set_viewport_size(BIG_LAPTOP)

        page.keyboard.press("Enter")  # Apply: the tournament exists, its console opens
        page.wait_for_selector("[data-board='1']")
        assert server.get(f"/api/tournaments/{tid}")["rounds"] == 7
        notice = page.locator(".notice")
        assert notice.inner_text().startswith("club-open.trf applied: ")
        assert notice.get_attribute("data-tone") == "ok"
        round_one = server.get(f"/api/tournaments/{tid}/rounds/1")["games"]
        first = next(g for g in round_one if g["board"] == 1)
        assert boards[0] == f"board 1: {names[first['white']]} – {names[first['black']]}"
        assert page.locator(".sub .state").inner_text().startswith("Round 2")

        page.click("#tab-audit")  # the sync's record of the file, in words
        page.locator("#panel-audit").get_by_role("button", name="Show").click()
        page.wait_for_selector(".audit li[data-type='FileSynced']")
        assert (
            page.locator(".audit li[data-type='FileSynced']")
            .inner_text()
            .endswith("club-open.trf synced: rounds 1–2")
        )
        assert errors == []
    finally:
        page.close()


def test_an_older_file_is_explained_and_may_be_synced_anyway(
    server: Server, opened: Any, files: dict[str, Path]
) -> None:
    tid, token = round_one(server, files)
    assert post_trf(server, tid, token, files["round 1 whole"].read_text()) == 200
    page = opened(tid, token, PHONE)
    sync_tab(page)
    before = len(events(server, tid))
    page.set_input_files("#sync-file", str(files["round 1 paired"]))  # no results: older
    page.wait_for_selector("#sync-force")
    assert status(page) == (
        "round-1-paired.trf looks older than the files synced before: nothing was written."
    )
    assert page.locator("#sync-status").get_attribute("data-tone") == "error"
    reasons = page.locator("#sync-why ul.reasons li").all_inner_texts()
    assert reasons == ["round 1: 0 results, upload.trf had 14"], reasons
    assert page.evaluate("document.activeElement.id") == "sync-force"
    assert page.locator("#sync-force").inner_text() == "Sync this file anyway"
    assert page.locator("#sync-apply").count() == 0
    shot(page, "stale-390.png")
    page.keyboard.press("Enter")  # anyway: previewed again, with force=1
    page.wait_for_selector("#sync-status[data-tone='ok']")
    # The file adds nothing the log lacks: the sync's own record of it is no change.
    assert status(page) == (
        "round-1-paired.trf: nothing to add, the log already says what the file says."
    )
    assert len(events(server, tid)) == before
    assert page.errors == []


def test_an_italian_console_gives_the_reasons_in_italian(
    server: Server, opened: Any, files: dict[str, Path], tmp_path: Path
) -> None:
    """The server words a refusal in English; the console words each reason in its own
    language from the refusal's `why` (a foreign file, then an older one)."""
    tid, token = round_one(server, files)
    assert post_trf(server, tid, token, files["round 1 whole"].read_text()) == 200
    other = tmp_path / "altro.trf"
    text = files["round 1 whole"].read_text()
    other.write_text(
        text.replace("012 Generated individual swiss #1003", "012 Semilampo di Primavera")
    )
    page = opened(tid, token, PHONE, "it")
    sync_tab(page)
    page.set_input_files("#sync-file", str(other))
    page.wait_for_selector("#sync-force")
    assert status(page) == "altro.trf sembra il file di un altro torneo: non è stato scritto nulla."
    differences = page.locator("#sync-why ul.differences li").all_inner_texts()
    assert differences == [
        "si chiama «Semilampo di Primavera», upload.trf sincronizzato prima era "
        "«Generated individual swiss #1003»"
    ]
    page.set_input_files("#sync-file", str(files["round 1 paired"]))
    page.wait_for_selector("#sync-why ul.reasons")
    reasons = page.locator("#sync-why ul.reasons li").all_inner_texts()
    assert reasons == ["turno 1: 0 risultati, upload.trf ne aveva 14"]
    shot(page, "stale-it-390.png")
    assert page.errors == []


def test_another_tournaments_file_names_its_differences(
    server: Server, opened: Any, files: dict[str, Path], tmp_path: Path
) -> None:
    tid, token = round_one(server, files)
    other = tmp_path / "other.trf"
    text = files["round 1 whole"].read_text()
    other.write_text(text.replace("012 Generated individual swiss #1003", "012 Spring Rapid"))
    page = opened(tid, token)
    sync_tab(page)
    page.set_input_files("#sync-file", str(other))
    page.wait_for_selector("#sync-force")
    assert status(page) == "other.trf looks like another tournament's file: nothing was written."
    differences = page.locator("#sync-why ul.differences li").all_inner_texts()
    assert any("Spring Rapid" in d for d in differences)
    page.click("#sync-force")
    page.wait_for_selector("#sync-apply")
    assert "You chose to sync other.trf anyway." in page.locator("#sync-preview").inner_text()
    lines = page.locator("#sync-preview ul.events > li").all_inner_texts()
    assert len(lines) == 15  # round 1's results and its close
    page.click("#sync-apply")
    page.wait_for_selector("#sync-status[data-tone='ok']")
    assert status(page).startswith("other.trf applied: 15 event(s) written (#")
    assert len(events(server, tid, "ResultRecorded")) == 14
    assert page.errors == []


def test_a_file_with_another_round_count_is_refused_in_words(
    server: Server, opened: Any, files: dict[str, Path], tmp_path: Path
) -> None:
    tid, token = round_one(server, files)  # 9 rounds, as the file declares
    seven = tmp_path / "seven.trf"
    text = files["round 1 whole"].read_text()
    seven.write_text(text.replace("XXR 9", "XXR 7").replace("142 9", "142 7"))
    page = opened(tid, token)
    sync_tab(page)
    before = len(events(server, tid))
    page.set_input_files("#sync-file", str(seven))
    page.wait_for_selector("#sync-status[data-tone='error']")
    said = status(page)
    assert said.startswith("The file's round count is not the tournament's, nothing was written:")
    assert "7" in said and "9" in said  # the server's message names both
    assert page.is_hidden("#sync-preview")
    assert page.locator("#sync-force").count() == 0  # no way round it from here
    assert len(events(server, tid)) == before
    assert page.errors == []


def test_a_refused_file_is_said_in_the_consoles_language(
    server: Server, opened: Any, files: dict[str, Path]
) -> None:
    """Each issue's place, what was found and what was expected, in the catalog's words."""
    tid, token = round_one(server, files)
    page = opened(tid, token, LAPTOP, "it")
    sync_tab(page)
    page.evaluate(DROP, ["name,rating\nRossi,2000\n", "players.csv"])
    page.wait_for_selector("#sync-preview ul.issues li")
    assert status(page) == "players.csv non è un file TRF leggibile; non è stato scritto nulla:"
    assert page.locator("#sync-preview ul.issues li").all_inner_texts() == [
        "riga 1 (record 001): trovato nessuna riga 001, atteso almeno un record di giocatore"
    ]
    lines = files["round 1 paired"].read_text().splitlines()
    line = next(text for text in lines if text.startswith("001"))
    broken = line[:48] + "20x0" + line[52:89]  # no round: no opponent outside the file
    page.evaluate(DROP, [broken + "\n", "broken.trf"])
    page.wait_for_selector("#sync-preview ul.issues li:has-text('Elo')")
    no = int(line[4:8])
    assert page.locator("#sync-preview ul.issues li").all_inner_texts() == [
        f"riga 1, colonne 49–52 (001 #{no}, Elo): trovato 20x0, atteso cifre o spazi"
    ]
    shot(page, "refused-it-1366.png")
    assert page.errors == []
