"""`livetb standings --db` honours every flag `livetb standings FILE` takes: with a tie-break
list, a round, `--as-final` or `--explain` the table is computed from the log, and it equals
the file's for every corpus file."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from livetb.cli import main
from tests.conformance import CORPUS

SPECS = sorted(CORPUS.glob("*/*.expected.json"))


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def imported(trf: Path, db: Path) -> str:
    code, out, err = run("import", str(trf), "--db", str(db))
    assert code == 0, err
    return out.strip()


@pytest.mark.parametrize("spec_path", SPECS, ids=lambda p: p.parent.name + "/" + p.stem)
def test_db_and_file_give_the_same_table_at_several_rounds(spec_path: Path, tmp_path: Path) -> None:
    spec = json.loads(spec_path.read_text())
    trf = spec_path.with_name(spec["file"])
    db = tmp_path / "events.sqlite"
    tid = imported(trf, db)
    rounds = max(check["after_round"] for check in spec["checks"])
    unrated = spec["unrated_rating"]
    extra = [] if unrated is None else ["--unrated-rating", str(unrated)]
    compared = 0
    for check in spec["checks"][:1]:
        tiebreaks = ",".join(check["tiebreaks"])
        for k in sorted({1, (rounds + 1) // 2, rounds}):
            for final in ([], ["--as-final"]):
                flags = ["--tiebreaks", tiebreaks, "--after-round", str(k), *final, *extra]
                a = run("standings", str(trf), "--format", "json", *flags)
                b = run(
                    "standings", "--db", str(db), "--tournament", tid, "--format", "json", *flags
                )
                assert a[0] == 0 and b[0] == 0, (a[2], b[2])
                assert json.loads(b[1]) == json.loads(a[1]), f"after round {k} {final}"
                compared += 1
    assert compared >= 2


def test_db_honours_csv_explain_and_edition(tmp_path: Path) -> None:
    trf = CORPUS / "individual-swiss" / "swiss-1005.trf"
    db = tmp_path / "events.sqlite"
    imported(trf, db)
    for flags in (
        ["--format", "csv", "--after-round", "3"],
        ["--explain", "4", "--tiebreaks", "PTS,BH/C1,SB"],
        ["--edition", "2023", "--format", "json", "--unrated-rating", "1400"],
        ["--tiebreaks", "PTS,WIN,BH", "--format", "csv", "--draw-lots", "7"],
    ):
        from_file = run("standings", str(trf), *flags)
        from_db = run("standings", "--db", str(db), *flags)
        assert from_db == from_file, flags
    # csv without computing flags: the live table, not a silently printed rich table
    code, out, _ = run("standings", "--db", str(db), "--format", "csv")
    assert code == 0 and out.startswith("rank,start_no,name,")


def test_flags_that_mean_nothing_are_refused(tmp_path: Path) -> None:
    trf = CORPUS / "individual-swiss" / "swiss-1005.trf"
    db = tmp_path / "events.sqlite"
    imported(trf, db)
    code, _, err = run("standings", str(trf), "--at-seq", "3")
    assert code == 2 and "--at-seq: only with --db" in err
    code, _, err = run("standings", "--db", str(db), "--draw-lots", "3")
    assert code == 2 and "--draw-lots" in err
