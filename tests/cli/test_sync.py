"""`livetb sync` over real tournaments cut as a pairing program writes them during the event:
after every file the log's standings are the file's, and the log is what it should be."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from livetb.cli import main
from livetb.events.schema import ResultCorrected, RoundPaired
from livetb.events.sqlite import SqliteStore
from livetb.interchange.trf_commands import round_boards
from livetb.trf import parse_trf
from tests.interchange.sync_cuts import SWISSES, cuts

TIEBREAKS = "PTS,BH/C1,BH,SB,DE,WIN,BWG"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def standings(capsys: pytest.CaptureFixture[str], *source: str) -> object:
    code, out, err = run(capsys, "standings", *source, "--format", "json")
    assert code == 0, err
    table = json.loads(out)
    return [(r["rank"], r["start_no"], r["values"]) for r in table["standings"]]


@pytest.mark.parametrize("path", SWISSES[:4], ids=lambda p: p.stem)
def test_every_file_of_the_event_syncs_to_its_own_standings(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, tid = str(tmp_path / "t.sqlite"), "open"
    files = cuts(path)
    for i, cut in enumerate(files):
        trf = tmp_path / f"{i:02}.trf"
        trf.write_text(cut.text)
        sync = ("sync", str(trf), "--db", db, "--tournament", tid, "--tiebreaks", TIEBREAKS)
        before = SqliteStore(db).head(tid) if i else 0
        code, out, err = run(capsys, *sync, "--dry-run")
        assert code == 0, (cut.label, err)
        assert (SqliteStore(db).head(tid) if i else 0) == before  # a dry run writes nothing
        code, out, err = run(capsys, *sync)
        assert code == 0, (cut.label, err)
        if i == 0:
            continue  # players only: the file has no round, its table no row values to compare
        mine = standings(capsys, "--db", db, "--tournament", tid)
        theirs = standings(capsys, str(trf), "--tiebreaks", TIEBREAKS)
        assert mine == theirs, cut.label
    head = SqliteStore(db).head(tid)
    code, out, _ = run(capsys, *sync)  # the last file again: nothing to add
    assert code == 0 and "nothing to sync" in out
    with SqliteStore(db) as store:
        assert store.head(tid) == head
        log = [rec.event for rec in store.read(tid)]
    corrections = [e for e in log if isinstance(e, ResultCorrected)]
    assert len(corrections) == 1
    assert corrections[0].round == 2 and corrections[0].reason.startswith("sync: ")
    final = parse_trf(files[-1].text).tournament
    for paired in (e for e in log if isinstance(e, RoundPaired)):
        assert paired.boards == round_boards(final, paired.round)[0]


def test_a_result_entered_in_the_log_that_the_file_contradicts_is_a_conflict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Round 1's first board recorded by the arbiter (not by a sync) otherwise than the file."""
    from livetb.app.service import TournamentService
    from livetb.events.commands import RecordResult

    db, tid = str(tmp_path / "t.sqlite"), "open"
    files = {c.label: c.text for c in cuts(SWISSES[1])}
    paired, whole = tmp_path / "paired.trf", tmp_path / "whole.trf"
    paired.write_text(files["round 1 paired"])
    whole.write_text(files["round 1 whole"])
    base = ("--db", db, "--tournament", tid)
    assert run(capsys, "sync", str(paired), *base)[0] == 0
    truth = parse_trf(files["round 1 whole"]).tournament
    board = round_boards(truth, 1)[0][0]
    told = truth.participants[board.white - 1].entry(1).code.value
    other = {"1": "0-1", "0": "1-0", "=": "1-0"}[told]
    with SqliteStore(db) as store:
        TournamentService(store).execute(
            tid, RecordResult(round=1, board=1, result=other), actor="arbiter:1a2b"
        )
        head = store.head(tid)
    code, _, err = run(capsys, "sync", str(whole), *base)
    assert code == 3
    assert f"round 1 board 1 (#{board.white} – #{board.black}): the log has {other}" in err
    assert SqliteStore(db).head(tid) == head  # nothing written
    code, out, _ = run(capsys, "sync", str(whole), *base, "--prefer", "log", "--dry-run")
    assert code == 0 and f"kept the log's {other}" in out
    code, _, err = run(capsys, "sync", str(whole), *base, "--prefer", "file")
    assert code == 0, err
    with SqliteStore(db) as store:
        tail = [rec.event for rec in store.read(tid, head)]
    fixes = [e for e in tail if isinstance(e, ResultCorrected)]
    assert [(e.round, e.board) for e in fixes] == [(1, 1)]
    assert fixes[0].reason == f"sync: whole.trf, line {_line(files['round 1 whole'], board.white)}"


def _line(text: str, no: int) -> int:
    for n, line in enumerate(text.splitlines(), start=1):
        if line.startswith("001") and int(line[4:8]) == no:
            return n
    raise AssertionError(no)


def test_a_file_that_is_not_trf_is_refused_with_its_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "t.sqlite")
    bad = tmp_path / "bad.trf"
    bad.write_text("012 Open\n001 abc\n")
    code, _, err = run(capsys, "sync", str(bad), "--db", db, "--tournament", "open")
    assert code == 2 and "line 2" in err
    assert SqliteStore(db).head("open") == 0
