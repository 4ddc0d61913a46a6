"""`livetb sync` refusals (exit 2, nothing written), `--rounds`, `--force`, a participant's every
field through sync and export, and `--watch` back in step after a conflict settled elsewhere."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

import pytest

from livetb.cli import main
from livetb.events.schema import GameResult
from livetb.events.sqlite import SqliteStore
from livetb.interchange.trf_commands import round_boards
from livetb.trf import parse_trf
from tests.cli.running import run
from tests.interchange.sync_cuts import SWISSES, cuts

REAL = Path("tests/data/real")


def pipe(lines: IO[str] | None, into: queue.Queue[str]) -> None:
    """Every line of a child's output, as it comes, into `into`."""
    for line in lines or ():
        into.put(line)


def bare(text: str) -> str:
    """The file without its round count (no XXR, no 142), as JaVaFo and Vega often save it."""
    return "".join(line for line in text.splitlines(True) if line[:3] not in ("XXR", "142"))


def test_refusals_exit_2_and_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "t.sqlite")
    files = {c.label: c.text for c in cuts(SWISSES[0])}
    trf = tmp_path / "vega.trf"
    base = ("sync", str(trf), "--db", db, "--tournament", "open")

    trf.write_text(bare(files["players"]))
    code, _, err = run(capsys, *base)
    assert code == 2 and "declares no number of rounds" in err and "--rounds N" in err
    assert SqliteStore(db).head("open") == 0
    code, _, err = run(capsys, *base, "--rounds", "0")
    assert code == 2 and "expected a number of rounds, 1-99" in err
    rounds = parse_trf(files["players"].encode()).tournament.rounds
    for label in ("players", "round 1 paired", "round 1 whole", "round 2 paired"):
        trf.write_text(bare(files[label]))
        extra = ("--rounds", str(rounds)) if label == "players" else ()
        assert run(capsys, *base, *extra)[0] == 0, label
    head = SqliteStore(db).head("open")

    trf.write_text(files["round 1 whole"])  # saved again from an older copy
    code, _, err = run(capsys, *base)
    assert code == 2 and "older than what the log took from files" in err
    assert "it pairs rounds up to 1, vega.trf synced before paired up to 2" in err
    code, _, err = run(capsys, *base, "--lang", "it")  # the same refusal, in Italian
    said = (
        "\nlivetb: vega.trf è più vecchio di quanto il registro ha preso dai file: abbina i "
        "turni fino al 1, vega.trf sincronizzato prima li abbinava fino al 2; "
    )
    assert code == 2 and said in err
    trf.write_text(bare(files["round 2 paired"]) + "XXR 11\n")
    code, _, err = run(capsys, *base)
    assert code == 2 and f"vega.trf declares 11 rounds, the tournament has {rounds}" in err
    trf.write_text(cuts(SWISSES[1])[0].text)  # another event's registration
    code, _, err = run(capsys, *base)
    assert code == 2 and "another tournament's file" in err
    code, _, err = run(capsys, *base, "--lang", "it")
    assert code == 2 and "vega.trf è il file di un altro torneo: si chiama «" in err
    assert SqliteStore(db).head("open") == head

    trf.write_text(files["round 1 whole"])
    code, out, _ = run(capsys, *base, "--force")
    assert code == 0 and "nothing to sync" in out  # only the record of what it showed
    assert SqliteStore(db).head("open") == head + 1


def test_sex_and_birth_dates_round_trip_through_sync_and_both_exports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = REAL / "gros-2010-trfkt.trf"
    db = str(tmp_path / "t.sqlite")
    assert run(capsys, "sync", str(source), "--db", db, "--tournament", "gros")[0] == 0
    want = {
        p.start_no: (p.sex, p.birth_date)
        for p in parse_trf(source.read_bytes()).tournament.participants
    }
    assert sum(1 for sex, born in want.values() if sex and born) > 40
    for fmt in ("trf16", "trf26"):
        out = tmp_path / f"gros.{fmt}"
        code, _, err = run(
            capsys, "export", "--db", db, "--tournament", "gros", "--format", fmt, "-o", str(out)
        )
        assert code == 0, err
        back = parse_trf(out.read_bytes()).tournament.participants
        assert {p.start_no: (p.sex, p.birth_date) for p in back} == want, fmt


def test_watch_is_back_in_step_once_the_conflict_is_settled_in_the_console(tmp_path: Path) -> None:
    """A result entered in the console that the file contradicts stops the watcher; the arbiter
    corrects it to the file's in the console; the watcher syncs the unchanged file by itself."""
    from livetb.app.service import TournamentService
    from livetb.events.commands import CorrectResult, RecordResult

    files = {c.label: c.text for c in cuts(SWISSES[1])}
    db, trf = str(tmp_path / "t.sqlite"), tmp_path / "live.trf"
    trf.write_text(files["round 1 paired"])
    assert main(["sync", str(trf), "--db", db, "--tournament", "t"]) == 0
    truth = parse_trf(files["round 1 whole"].encode()).tournament
    board = round_boards(truth, 1)[0][0]
    told = next(p for p in truth.participants if p.start_no == board.white).entry(1).code.value
    same: dict[str, GameResult] = {"1": "1-0", "0": "0-1", "=": "1/2-1/2"}
    another: dict[str, GameResult] = {"1": "0-1", "0": "1-0", "=": "1-0"}
    theirs, other = same[told], another[told]
    with SqliteStore(db) as store:
        TournamentService(store).execute(
            "t", RecordResult(round=1, board=1, result=other), actor="arbiter:1a2b"
        )
    trf.write_text(files["round 1 whole"])
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "livetb",
            "sync",
            str(trf),
            "--db",
            db,
            "--tournament",
            "t",
            "--watch",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ | {"LIVETB_LANG": "en"},
    )
    said: queue.Queue[str] = queue.Queue()
    out: queue.Queue[str] = queue.Queue()
    threading.Thread(target=pipe, args=(proc.stderr, said), daemon=True).start()
    threading.Thread(target=pipe, args=(proc.stdout, out), daemon=True).start()
    try:
        while "waiting for the file to be saved again or the log to change" not in said.get(
            timeout=60
        ):
            pass
        with SqliteStore(db) as store:
            TournamentService(store).execute(
                "t",
                CorrectResult(round=1, board=1, result=theirs, reason="as the scoresheet says"),
                actor="arbiter:1a2b",
            )
        lines = [out.get(timeout=60)]
        while "back in step" not in lines[-1]:
            lines.append(out.get(timeout=60))
        assert "events appended" in lines[0]
    finally:
        proc.kill()
        proc.wait(timeout=30)
    with SqliteStore(db) as store:
        state_events = [r.event for r in store.read("t")]
    assert type(state_events[-1]).__name__ == "FileSynced"


def test_standings_and_import_take_the_round_count_a_file_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Round 3 of 7 saved without its count: with `--rounds 7` it reads as the file that
    declares 7 (round 3 is not the final round: no Fore-Buchholz terms)."""
    files = {c.label: c.text for c in cuts(SWISSES[0])}
    full, lacking = tmp_path / "full.trf", tmp_path / "bare.trf"
    full.write_text(files["round 3 whole"])
    lacking.write_text(bare(files["round 3 whole"]))
    tiebreaks = ("--tiebreaks", "PTS,BH/C1,BH,SB,FB,WIN", "--format", "json")
    _, want, _ = run(capsys, "standings", str(full), *tiebreaks)
    code, got, err = run(capsys, "standings", str(lacking), "--rounds", "7", *tiebreaks)
    assert code == 0, err
    assert got == want
    code, _, err = run(capsys, "standings", str(full), "--rounds", "5")
    assert code == 2 and "rounds 5: " in err and "declares 7" in err
    db = str(tmp_path / "t.sqlite")
    code, _, err = run(capsys, "import", str(lacking), "--db", db, "--rounds", "7")
    assert code == 0, err
    with SqliteStore(db) as store:
        (tid,) = store.tournaments()
        created = next(store.read(tid)).event
    assert created.rounds == 7  # type: ignore[union-attr]
