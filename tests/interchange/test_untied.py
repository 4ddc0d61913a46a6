"""A group tie-break (DE) of a participant nobody is tied with is a dash in the CLI tables and
the CSV/HTML exports, while the JSON contracts keep its value."""

from __future__ import annotations

import contextlib
import csv
import io
import json
from pathlib import Path

from livetb.cli import main
from livetb.engine.untied import alone
from tests.conformance import CORPUS

TRF = CORPUS / "individual-swiss" / "swiss-1005.trf"


def run(*argv: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    assert code == 0, f"livetb {' '.join(argv)}: {err.getvalue()}"
    return out.getvalue()


def test_alone_reads_only_the_keys_before_the_group_column() -> None:
    rows = [("2.0", "3.5", 1, 2), ("1.5", "3.5", 1, 1), ("1.5", "3.5", 2, 1), ("1.0", "2.0", 1, 0)]
    assert alone(["PTS", "BH", "DE", "WIN"], rows) == [{2}, set(), set(), {2}]
    # The same points but another BH: nobody shares every key before DE.
    assert alone(["PTS", "BH", "DE"], [("1.5", "3.5", 1), ("1.5", "3.0", 1)]) == [{2}, {2}]
    assert alone(["PTS", "EDE"], [("4", 1), ("4", 2), ("2", 1)]) == [set(), set(), {1}]
    assert alone(["PTS", "BH"], [("1.0", "2.0")]) == [frozenset()]


def test_exports_and_tables_dash_de_of_whoever_nobody_is_tied_with(tmp_path: Path) -> None:
    db = str(tmp_path / "events.sqlite")
    run("import", str(TRF), "--db", db)
    doc = json.loads(run("standings", "--db", db, "--format", "json"))
    assert doc["tiebreaks"] == ["PTS", "BH/C1", "BH", "DE", "WIN", "BWG"]
    rows = doc["standings"]
    keys = [tuple(r["values"][:3]) for r in rows]
    lone = {r["start_no"] for r, k in zip(rows, keys, strict=True) if keys.count(k) == 1}
    tied = {r["start_no"] for r in rows} - lone
    assert lone and tied  # the file has both
    assert all(r["values"][3] is not None for r in rows)  # JSON keeps every value
    by_no = {r["start_no"]: r for r in rows}

    exported = list(csv.reader(io.StringIO(run("export", "--db", db, "--format", "csv"))))
    de = {int(line[1]): line[3 + 3] for line in exported[1:]}
    assert {no for no, v in de.items() if v == "-"} == lone
    assert all(de[no] == str(by_no[no]["values"][3]) for no in tied)

    page = run("export", "--db", db, "--format", "html")
    assert page.count('title="nobody is tied with this participant: no group to decide">–<') == (
        len(lone)
    )

    live_csv = list(csv.reader(io.StringIO(run("standings", "--db", db, "--format", "csv"))))
    assert {int(line[1]) for line in live_csv[1:] if line[6] == "-"} == lone

    drawn = run("standings", "--db", db, "--format", "table")
    cells = {}
    for line in drawn.splitlines():
        parts = [p.strip() for p in line.split("│")]
        if len(parts) > 7 and parts[2].isdigit():
            cells[int(parts[2])] = parts[7]
    assert {no for no, v in cells.items() if v == "–"} == lone
    assert all(cells[no] == str(by_no[no]["values"][3]) for no in tied)

    # The file's own table (computed from the TRF) draws the same dashes, its JSON the values.
    from_file = run("standings", str(TRF), "--format", "csv")
    file_rows = list(csv.reader(io.StringIO(from_file)))[1:]
    assert {int(line[1]) for line in file_rows if line[6] == "-"} == lone
    file_json = json.loads(run("standings", str(TRF), "--format", "json"))
    assert all(r["values"][3] is not None for r in file_json["standings"])
