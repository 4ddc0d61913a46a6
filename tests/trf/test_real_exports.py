"""Two exports of the shapes pairing programs write, cut from the corpus' swiss-1003 (30
players, 9 rounds, C.07 2024; files in tests/data/exports, each says how it was cut):

- during round 2: round 2 paired with no results, and round 3's byes and absences entered
  ahead (`0000 - H` for #25 and #28, `0000 - Z` for #4 and #6), TRF.md 4.8;
- finished, with the round-5 game #12 v #2 lost by both players (`0` on both sides).

Both are read by `livetb standings FILE` and by `livetb import`, with the same values from the
file and from the log, and the values are the FIDE reference's for the same rounds
(tests/data/conformance/individual-swiss/swiss-1003.expected.json) where the cut changes
nothing, and computed by hand where it does."""

from __future__ import annotations

import contextlib
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from livetb.cli import main
from livetb.engine.model import Code, Entry
from livetb.errors import TrfError
from livetb.events.schema import (
    ByeRequested,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
)
from livetb.events.sqlite import SqliteStore
from livetb.events.state import TournamentState
from livetb.interchange.importer import events_from_tournament
from livetb.trf import load_trf, parse_trf
from livetb.trf.writer import write_trf

DATA = Path(__file__).parents[1] / "data"
EXPORTS = DATA / "exports"
ROUND_2_PAIRED = EXPORTS / "swiss-1003-round-2-paired.trf"
LOST_BY_BOTH = EXPORTS / "swiss-1003-lost-by-both.trf"
REFERENCE = DATA / "conformance" / "individual-swiss" / "swiss-1003.expected.json"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def reference(after_round: int, tiebreaks: list[str]) -> dict[str, Any]:
    """The reference's check after `after_round` whose list starts with `tiebreaks`, cut to
    those tie-breaks."""
    checks = json.loads(REFERENCE.read_text())["checks"]
    check = next(
        c
        for c in checks
        if c["after_round"] == after_round
        and c["tiebreaks"][: len(tiebreaks)] == tiebreaks
        and not c.get("treat_round_as_final")
    )
    n = len(tiebreaks)
    return {**check, "values": {int(no): v[:n] for no, v in check["values"].items()}}


def values(doc: dict[str, Any]) -> dict[int, list[Decimal]]:
    return {r["start_no"]: [Decimal(str(v)) for v in r["values"]] for r in doc["standings"]}


def table(doc: dict[str, Any]) -> list[tuple[int, int, list[Any]]]:
    """Rank, start number and values of each row: what a file's table and the log's share."""
    return [(r["rank"], r["start_no"], r["values"]) for r in doc["standings"]]


def as_decimals(row: list[Any]) -> list[Decimal]:
    return [Decimal(str(v)) for v in row]


def standings(*argv: str) -> dict[str, Any]:
    code, out, err = run("standings", *argv, "--format", "json")
    assert code == 0, err
    doc: dict[str, Any] = json.loads(out)
    return doc


def import_and_read(tmp_path: Path, file: Path, tiebreaks: str) -> tuple[str, dict[str, Any]]:
    db = str(tmp_path / "events.sqlite")
    code, out, err = run("import", str(file), "--db", db, "--tiebreaks", tiebreaks)
    assert code == 0, err
    tid = out.strip()
    return tid, standings("--db", db, "--tournament", tid)


def logged(tmp_path: Path, tid: str) -> list[object]:
    with SqliteStore(str(tmp_path / "events.sqlite")) as store:
        return [rec.event for rec in store.read(tid)]


# --- round 2 paired, round 3's absences entered ahead --------------------------------------


LIVE = ["PTS", "BH/C1", "BH", "SB", "WIN", "BWG"]


def test_the_round_being_paired_is_the_last_with_a_pairing() -> None:
    imported = load_trf(ROUND_2_PAIRED)
    t = imported.tournament
    by_no = {p.start_no: p for p in t.participants}
    assert t.played_rounds == 2
    assert by_no[1].entry(2) == Entry(Code.PENDING, 8, "w")
    # round 3 holds no pairing: what it says is announced for that round, not played
    assert imported.announced_byes == (
        (3, 4, Code.ZERO_BYE),
        (3, 6, Code.ZERO_BYE),
        (3, 25, Code.HALF_BYE),
        (3, 28, Code.HALF_BYE),
    )
    assert by_no[4].entry(3) == Entry(Code.ZERO_BYE)


def test_standings_of_the_file_are_the_references_after_round_1() -> None:
    doc = standings(str(ROUND_2_PAIRED), "--tiebreaks", ",".join(LIVE))
    assert (doc["after_round"], doc["round_in_progress"]) == (1, 2)
    want = reference(1, LIVE)["values"]
    got = values(doc)
    # Round 2's byes count at once in the live view (#27 PAB, #29 half-point bye); the other
    # rows are the reference's after round 1, #4 and #6 (absent in round 3) included.
    assert got[27] == as_decimals(["1.0", "0.0", "1.0", "0.00", 1, 0])
    assert got[29] == as_decimals(["1.0", "0.0", "0.5", "0.25", 0, 0])
    assert {no: as_decimals(v) for no, v in want.items() if no not in (27, 29)} == {
        no: v for no, v in got.items() if no not in (27, 29)
    }
    # by hand: #4 drew #19 (½), #6 beat #21 (0): BH is the opponent's round-1 score
    assert got[4][:3] == as_decimals(["0.5", "0.0", "0.5"]) and got[4][4] == 0
    assert got[6][:3] == as_decimals(["1.0", "0.0", "0.0"]) and got[6][4] == 1
    # Fore-Buchholz for round 2, its games drawn: the reference's FB with round 2 the last
    checks = json.loads(REFERENCE.read_text())["checks"]
    fb = next(c for c in checks if c["after_round"] == 2 and c["tiebreaks"] == ["FB", "FB/C1"])
    predicted = {r["start_no"]: Decimal(r["fb_prediction"]) for r in doc["standings"]}
    assert predicted == {int(no): Decimal(str(v[0])) for no, v in fb["values"].items()}


def test_standings_after_round_1_of_the_file_equal_the_reference() -> None:
    doc = standings(str(ROUND_2_PAIRED), "--tiebreaks", ",".join(LIVE), "--after-round", "1")
    check = reference(1, LIVE)
    assert values(doc) == {no: as_decimals(v) for no, v in check["values"].items()}
    assert {r["start_no"]: r["rank"] for r in doc["standings"]} == {
        int(no): rank for no, rank in check["ranks"].items()
    }


def test_import_logs_the_absences_for_round_3_and_leaves_round_2_running(
    tmp_path: Path,
) -> None:
    tid, from_log = import_and_read(tmp_path, ROUND_2_PAIRED, ",".join(LIVE))
    assert from_log == standings(str(ROUND_2_PAIRED), "--tiebreaks", ",".join(LIVE))
    events = logged(tmp_path, tid)
    paired = [e for e in events if isinstance(e, RoundPaired)]
    assert [p.round for p in paired] == [1, 2] and len(paired[1].boards) == 14
    assert paired[1].bye == 27
    assert [e.round for e in events if isinstance(e, RoundClosed)] == [1]
    assert not any(isinstance(e, ResultRecorded) and e.round == 2 for e in events)
    ahead = events[events.index(paired[1]) + 1 :]
    assert sorted((e.start_no, e.points) for e in ahead if isinstance(e, ByeRequested)) == [
        (4, "zero"),
        (6, "zero"),
        (25, "half"),
        (28, "half"),
    ]
    assert all(isinstance(e, ByeRequested) and e.round == 3 for e in ahead)


def test_points_with_or_without_the_byes_entered_ahead() -> None:
    """JaVaFo counts a bye entered for the next round in the points (TRF.md 4.4.7), other
    programs do not: both read; any other total is still refused."""
    text = ROUND_2_PAIRED.read_text()
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("001   28"))
    assert lines[at][80:84] == " 1.5"
    without = [*lines[:at], lines[at][:80] + " 1.0" + lines[at][84:], *lines[at + 1 :]]
    assert parse_trf("\n".join(without)).tournament.played_rounds == 2
    wrong = [*lines[:at], lines[at][:80] + " 2.0" + lines[at][84:], *lines[at + 1 :]]
    with pytest.raises(TrfError, match=r"001 #28, points\): found '2.0'; expected 1.5"):
        parse_trf("\n".join(wrong))


# --- a game lost by both players ----------------------------------------------------------


FINAL = ["PTS", "WIN", "WON", "BPG", "BWG", "GE", "BH", "SB", "ARO", "TPR"]
# Round 5: #12 (White) v #2 (Black) was 0-1 in the reference's file, here 0-0. #2's opponents:
OPPONENTS_OF_2 = (17, 9, 8, 10, 12, 3, 16, 1, 6)
# By hand, from the reference's values for the 0-1 game (after round 9):
HAND = {
    # 6.5 -> 5.5; a win (and a win with Black) fewer; still 9 games, 4 with Black; BH unchanged
    # (no opponent's score moves); SB 32.75 - 7.0 (#12's score, now times 0); ARO unchanged,
    # TPR = 2237 + dp(5.5/9 = 0.61) = 2237 + 80
    2: ["5.5", 6 - 1, 6 - 1, 4, 4 - 1, 9, "48.0", "25.75", 2237, 2317],
    # scored 0 against #2 either way: only BH moves, #2's score 1 lower (48.0 -> 47.0)
    12: ["7.0", 6, 6, 4, 3, 9, "47.0", "35.25", 2266, 2486],
    # beat #2: BH 1 lower, SB 1 x 1 lower
    3: ["6.5", 4, 4, 4, 2, 9, "47.5", "33.50", 2239, 2405],
    6: ["6.0", 4, 4, 4, 1, 8, "48.0", "30.25", 2151, 2344],
    # drew with #2: BH 1 lower, SB ½ x 1 lower
    8: ["5.5", 5, 5, 4, 1, 8, "47.0", "25.75", 2190, 2331],
    # lost to #2: BH 1 lower, SB unchanged
    17: ["4.5", 4, 4, 4, 1, 9, "39.5", "16.50", 2058, 2058],
    9: ["4.5", 4, 4, 5, 2, 9, "46.0", "20.25", 2185, 2185],
    10: ["5.0", 4, 4, 4, 1, 9, "43.0", "21.00", 2120, 2163],
    16: ["4.5", 3, 3, 5, 2, 9, "42.5", "18.75", 2157, 2157],
    1: ["4.5", 4, 4, 5, 2, 9, "47.0", "19.75", 2214, 2214],
}


def test_the_game_is_read_as_lost_by_both() -> None:
    t = load_trf(LOST_BY_BOTH).tournament
    by_no = {p.start_no: p for p in t.participants}
    assert by_no[2].entry(5) == Entry(Code.LOSS, 12, "b")
    assert by_no[12].entry(5) == Entry(Code.LOSS, 2, "w")


def test_standings_of_the_file_count_the_game_as_played_and_lost_by_each() -> None:
    doc = standings(str(LOST_BY_BOTH), "--tiebreaks", ",".join(FINAL))
    assert doc["after_round"] == 9
    got = values(doc)
    assert {no: got[no] for no in HAND} == {no: as_decimals(v) for no, v in HAND.items()}
    # whoever did not meet #2 keeps the reference's values
    want = reference(9, FINAL[:6])["values"]
    rest = reference(9, [*FINAL[:6], "PS", "PS/C1", "BH"])["values"]
    unaffected = set(want) - {2, *OPPONENTS_OF_2}
    assert len(unaffected) == 20
    for no in unaffected:
        assert got[no][:6] == as_decimals(want[no]), no
        assert got[no][6] == Decimal(str(rest[no][8])), no


def test_import_records_it_as_0_0_and_reads_back_the_same(tmp_path: Path) -> None:
    tid, from_log = import_and_read(tmp_path, LOST_BY_BOTH, ",".join(FINAL))
    from_file = standings(str(LOST_BY_BOTH), "--tiebreaks", ",".join(FINAL))
    assert (from_log["after_round"], from_log["round_in_progress"]) == (9, None)
    assert table(from_log) == table(from_file)
    events = logged(tmp_path, tid)
    (pairing,) = [e for e in events if isinstance(e, RoundPaired) and e.round == 5]
    (board,) = [b for b in pairing.boards if (b.white, b.black) == (12, 2)]
    recorded = [e for e in events if isinstance(e, ResultRecorded) and e.round == 5]
    assert [e.result for e in recorded if e.board == board.board] == ["0-0"]
    assert sum(isinstance(e, RoundClosed) for e in events) == 9


def test_a_0_0_game_round_trips_through_the_writer(tmp_path: Path) -> None:
    """Log -> TRF (`0` on both sides) -> the same tournament, in TRF-2026 and TRF-16."""
    t = load_trf(LOST_BY_BOTH).tournament
    state = TournamentState()
    for event in events_from_tournament(t):
        state.apply(event)
    folded = state.tournament()
    for version in ("trf26", "trf16"):
        text = write_trf(folded, version)
        line_2 = next(line for line in text.splitlines() if line.startswith("001    2 "))
        assert line_2[129:139] == "    12 b 0"
        again = parse_trf(text).tournament
        assert [p.entries for p in again.participants] == [p.entries for p in t.participants]
    db = str(tmp_path / "events.sqlite")
    code, _, err = run("import", str(LOST_BY_BOTH), "--db", db, "--tiebreaks", ",".join(FINAL))
    assert code == 0, err
    exported = tmp_path / "exported.trf"
    code, _, err = run("export", "--db", db, "--output", str(exported))
    assert code == 0, err
    assert table(standings(str(exported), "--tiebreaks", ",".join(FINAL))) == table(
        standings(str(LOST_BY_BOTH), "--tiebreaks", ",".join(FINAL))
    )
