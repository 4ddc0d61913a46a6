"""`livetb sync` over real tournaments cut as a pairing program writes them during the event:
after every file the log's standings are the file's, and the log is what it should be."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from livetb.events.schema import FileSynced, GameResult, ResultCorrected, RoundPaired
from livetb.events.sqlite import SqliteStore
from livetb.interchange.trf_commands import round_boards
from livetb.trf import parse_trf
from tests.cli.running import run, standings
from tests.interchange.sync_cuts import SWISSES, cuts

TIEBREAKS = "PTS,BH/C1,BH,SB,DE,WIN,BWG"


@pytest.mark.parametrize("path", SWISSES, ids=lambda p: p.stem)
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
        code, said, err = run(capsys, *sync, "--dry-run")
        assert code == 0, (cut.label, err)
        assert (SqliteStore(db).head(tid) if i else 0) == before  # a dry run writes nothing
        code, out, err = run(capsys, *sync)
        assert code == 0, (cut.label, err)
        assert out.splitlines()[:-1] == said.splitlines()[:-1]  # the words, then written
        if cut.label.endswith("paired"):
            assert f"round {cut.label.split()[1]}: pair " in said
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


@pytest.mark.parametrize("path", sorted(Path("tests/data/exports").glob("*.trf")), ids=str)
def test_the_real_exports_sync_to_their_own_standings(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A round paired with absences entered ahead; a game lost by both players."""
    db = str(tmp_path / "t.sqlite")
    sync = ("sync", str(path), "--db", db, "--tournament", "t", "--tiebreaks", TIEBREAKS)
    assert run(capsys, *sync)[0] == 0
    mine = standings(capsys, "--db", db, "--tournament", "t")
    assert mine == standings(capsys, str(path), "--tiebreaks", TIEBREAKS)
    code, out, _ = run(capsys, *sync)
    assert code == 0 and "nothing to sync" in out


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
    names = {p.start_no: p.name for p in truth.participants}
    told = next(p for p in truth.participants if p.start_no == board.white).entry(1).code.value
    another: dict[str, GameResult] = {"1": "0-1", "0": "1-0", "=": "1-0"}
    other = another[told]
    with SqliteStore(db) as store:
        TournamentService(store).execute(
            tid, RecordResult(round=1, board=1, result=other), actor="arbiter:1a2b"
        )
        head = store.head(tid)
    code, _, err = run(capsys, "sync", str(whole), *base)
    assert code == 3
    assert f"round 1, board 1: {names[board.white]} (#{board.white}) – " in err
    assert f"{names[board.black]} (#{board.black}): the log has {other}" in err
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


def test_watch_syncs_every_saved_version_once_and_never_a_half_written_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A script saves 20 versions, each in two halves with a pause longer than the watcher's
    settling time: the half is read (and refused as TRF), then the whole is synced."""
    import os
    import queue
    import signal
    import subprocess
    import sys
    import threading
    import time

    from livetb.errors import TrfError

    versions = [c.text for c in cuts(SWISSES[0])][:21]
    for text in versions[1:]:
        with pytest.raises(TrfError):
            parse_trf(text[: len(text) // 2])  # what the watcher may catch
    trf, db = tmp_path / "live.trf", str(tmp_path / "live.sqlite")
    trf.write_text(versions[0])
    args = ["sync", str(trf), "--db", db, "--tournament", "t", "--tiebreaks", TIEBREAKS]
    proc = subprocess.Popen(
        [sys.executable, "-m", "livetb", *args, "--watch"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ | {"LIVETB_LANG": "en"},
    )
    lines: queue.Queue[str] = queue.Queue()

    said: list[str] = []  # stderr, read as it comes: a full pipe would stall the watcher

    def read() -> None:
        for line in proc.stdout or ():
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    errors = threading.Thread(target=lambda: said.extend(proc.stderr or ()), daemon=True)
    errors.start()
    try:
        assert "events appended" in lines.get(timeout=30)
        time.sleep(0.5)  # the watcher is watching
        for text in versions[1:]:
            half = len(text) // 2
            with trf.open("w") as f:  # not atomic: as a program saving
                f.write(text[:half])
                f.flush()
                time.sleep(0.3)
                f.write(text[half:])
            assert "events appended" in lines.get(timeout=30)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0
    finally:
        proc.kill()
    assert lines.get(timeout=30).startswith("stopped")
    assert lines.empty()
    errors.join(timeout=30)
    # the late pair's numbering gap only
    assert [x for x in "".join(said).splitlines() if "warning" not in x] == []
    # The same versions synced one by one: the same log, event for event.
    one, ref = tmp_path / "one.trf", str(tmp_path / "ref.sqlite")
    for text in versions:
        one.write_text(text)
        code, _, _ = run(capsys, "sync", str(one), "--db", ref, *args[4:])
        assert code == 0
    with SqliteStore(db) as a, SqliteStore(ref) as b:
        watched = [rec.event for rec in a.read("t")]
        expected = [rec.event for rec in b.read("t")]
    assert [_unnamed(e) for e in watched] == [_unnamed(e) for e in expected]
    assert sum(isinstance(e, ResultCorrected) for e in watched) == 1


def _unnamed(event: object) -> object:
    """A correction's reason, and a sync's record, name the file it came from: compared
    without it."""
    if isinstance(event, ResultCorrected):
        return (event.round, event.board, event.result, event.reason.split(", line")[1])
    if isinstance(event, FileSynced):
        return msgspec.structs.replace(event, source="")
    return event
