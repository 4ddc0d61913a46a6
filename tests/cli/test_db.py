"""`livetb import`, `standings --db [--at-seq]` and `rebuild`: the event store as the source of
the standings, at any point of the log."""

from __future__ import annotations

import json
from pathlib import Path

from livetb.events.schema import TournamentCreated
from livetb.events.sqlite import SqliteStore
from tests.cli.test_cli import SWISS, run

CHECKS = json.loads(SWISS.with_name("swiss-1005.expected.json").read_text())


def imported(tmp_path: Path, *extra: str) -> tuple[str, str]:
    db = str(tmp_path / "t.sqlite")
    code, out, err = run("import", str(SWISS), "--db", db, "--unrated-rating", "1400", *extra)
    assert code == 0, err
    return db, out.strip()


def test_standings_from_the_store_equal_the_file(tmp_path: Path) -> None:
    db, _ = imported(tmp_path, "--tiebreaks", "PTS,BH/C1,BH,SB,WIN,BWG")
    _, out, _ = run("standings", "--db", db, "--format", "json")
    data = json.loads(out)
    _, file_out, _ = run(
        "standings",
        str(SWISS),
        "--tiebreaks",
        "PTS,BH/C1,BH,SB,WIN,BWG",
        "--format",
        "json",
        "--unrated-rating",
        "1400",
    )
    from_file = json.loads(file_out)
    assert [(r["rank"], r["start_no"], r["values"]) for r in data["standings"]] == [
        (r["rank"], r["start_no"], r["values"]) for r in from_file["standings"]
    ]
    assert data["after_round"] == 11 and data["round_in_progress"] is None
    assert all(s == "final" for r in data["standings"] for s in r["statuses"])


def test_time_travel_to_the_close_of_round_3(tmp_path: Path) -> None:
    """--at-seq N: the standings right after RoundClosed(3) equal the corpus check."""
    db, tid = imported(tmp_path, "--tiebreaks", "PTS,BH/C1,BH,SB,WIN,BWG")
    with SqliteStore(db) as store:
        seq = next(
            r.seq
            for r in store.read(tid)
            if type(r.event).__name__ == "RoundClosed" and r.event.round == 3  # type: ignore[union-attr]
        )
    _, out, _ = run("standings", "--db", db, "--at-seq", str(seq), "--format", "json")
    data = json.loads(out)
    assert data["seq"] == seq and data["after_round"] == 3
    check = next(
        c
        for c in CHECKS["checks"]
        if c["after_round"] == 3 and c["tiebreaks"] == ["PTS", "BH/C1", "BH", "SB", "WIN", "BWG"]
    )
    rows = {str(r["start_no"]): r for r in data["standings"]}
    for no, rank in check["ranks"].items():
        assert rows[no]["rank"] == rank


def test_rebuild_from_zero_gives_identical_standings(tmp_path: Path) -> None:
    db, tid = imported(tmp_path)
    _, before, _ = run("standings", "--db", db, "--format", "json")
    code, out, _ = run("rebuild", "--db", db)
    assert code == 0 and out.startswith(f"{tid}: rebuilt ")
    with SqliteStore(db) as store:
        assert store.latest_snapshot(tid) is not None
    _, after, _ = run("standings", "--db", db, "--format", "json")  # snapshot + empty tail
    assert json.loads(after) == json.loads(before)


def test_store_errors_are_reported(tmp_path: Path) -> None:
    db, _ = imported(tmp_path)
    code, _, err = run("standings", "--db", db, "--tournament", "t-nope")
    assert code == 2 and "--tournament t-nope: not in this store" in err
    code, _, err = run("standings", "--db", str(tmp_path / "missing.sqlite"))
    assert code == 2 and "no such event store" in err
    code, _, err = run("standings")
    assert code == 2 and "give either a TRF file or --db" in err


def unreadable_log(db: str) -> None:
    """What `import` wrote before it checked tie-break lists: a log no reader can fold."""
    created = TournamentCreated(name="Poisoned", rounds=3, tiebreaks=("PTS", "NOPE"))
    with SqliteStore(db) as store:
        store.append("t-poisoned", 0, [created], actor="import")


def test_import_refuses_what_a_reader_would_and_writes_nothing(tmp_path: Path) -> None:
    """A TRF with `212 PTS, NOPE` was refused by `standings`, accepted by `import`."""
    bad = tmp_path / "bad.trf"
    bad.write_text(SWISS.read_text().replace("\n001 ", "\n212 PTS, NOPE\n001 ", 1))
    db = tmp_path / "t.sqlite"
    assert run("standings", str(bad))[0] == 2
    code, out, err = run("import", str(bad), "--db", str(db), "--unrated-rating", "1400")
    assert (code, out) == (2, "")
    assert "unknown tie-break 'NOPE'" in err and "Traceback" not in err
    assert not db.exists()  # refused before the store was opened


def test_one_unreadable_tournament_does_not_stop_the_rebuild_of_the_others(
    tmp_path: Path,
) -> None:
    db, tid = imported(tmp_path)
    unreadable_log(db)
    code, out, err = run("rebuild", "--db", db)
    assert code == 2
    assert out.startswith(f"{tid}: rebuilt ")
    assert "tournament t-poisoned: its event log cannot be read: unknown tie-break 'NOPE'" in err
    assert "1 of 2 tournament(s) could not be rebuilt" in err
    code, _, err = run("standings", "--db", db, "--tournament", "t-poisoned")
    assert code == 2 and "t-poisoned: its event log cannot be read" in err
    assert run("standings", "--db", db, "--tournament", tid)[0] == 0
