"""`livetb standings --db … --category CODE [--rating-change]` and `livetb export --category`:
a real tournament of the corpus imported, categories defined in its log, the category's rows
and ranks as the main standings give them, and the Δ column in the table, JSON and CSV."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from livetb.events.categories import CategorySpec
from livetb.events.commands import DefineCategories, decide
from livetb.events.sqlite import SqliteStore
from livetb.events.state import TournamentState
from livetb.projections import ratings
from tests.cli.test_cli import SWISS, run


def imported_with_categories(tmp_path: Path) -> tuple[str, TournamentState]:
    db = str(tmp_path / "t.sqlite")
    code, out, err = run("import", str(SWISS), "--db", db)
    assert code == 0, err
    tid = out.strip()
    with SqliteStore(db) as store:
        state = TournamentState()
        for rec in store.read(tid):
            state.apply(rec.event)
        command = DefineCategories(
            categories=(
                CategorySpec(code="U2000", name="Under 2000", rating_max=1999),
                CategorySpec(code="W", name="Women", sex="w"),
            )
        )
        events = decide(state, command)
        store.append(tid, state.seq, events, actor="test")
        for event in events:
            state.apply(event)
    return db, state


def test_a_category_from_the_store_is_the_main_ranking_restricted(tmp_path: Path) -> None:
    db, state = imported_with_categories(tmp_path)
    _, out, _ = run("standings", "--db", db, "--format", "json")
    main = json.loads(out)["standings"]
    code, out, err = run("standings", "--db", db, "--format", "json", "--category", "U2000")
    assert code == 0, err
    rows = json.loads(out)["standings"]
    members = {p.start_no for p in state.participants.values() if (p.rating or 0) <= 1999}
    assert [r["start_no"] for r in rows] == [
        r["start_no"] for r in main if r["start_no"] in members
    ]
    for row in rows:  # one more than the members ranked above in the main ranking
        main_rank = next(r["rank"] for r in main if r["start_no"] == row["start_no"])
        above = sum(1 for r in main if r["start_no"] in members and r["rank"] < main_rank)
        assert row["rank"] == above + 1
    assert len(rows) > 3


def test_the_rating_change_column_in_table_json_and_csv(tmp_path: Path) -> None:
    db, state = imported_with_categories(tmp_path)
    totals = {no: ratings.of(state, no).total for no in state.participants}
    _, out, _ = run("standings", "--db", db, "--format", "json", "--rating-change")
    rows = json.loads(out)["standings"]
    assert {r["start_no"]: r["rating_change"] for r in rows} == totals
    assert any(v is not None for v in totals.values())
    _, out, _ = run("standings", "--db", db, "--format", "csv", "--rating-change")
    table = list(csv.DictReader(io.StringIO(out)))
    assert {int(r["start_no"]): r["rating_change"] or None for r in table} == totals
    code, out, _ = run("standings", "--db", db, "--rating-change", "--lang", "it")
    assert code == 0 and "Δ" in out
    someone = next(v for v in totals.values() if v is not None and "." in v)
    assert someone.replace(".", ",") in out  # the Italian decimal comma


def test_export_and_bad_requests(tmp_path: Path) -> None:
    db, _ = imported_with_categories(tmp_path)
    code, out, err = run("export", "--db", db, "--format", "csv", "--category", "W")
    assert code == 0, err
    assert out.splitlines()[0].startswith("rank,start_no,name")
    code, out, err = run("export", "--db", db, "--format", "html", "--rating-change")
    assert code == 0 and '<th scope="col">Δ</th>' in out
    code, _, err = run("standings", "--db", db, "--category", "U1800")
    assert code == 2
    assert err.startswith("livetb: --category: category 'U1800': no such category (defined: ")
    assert "U2000" in err
    code, _, err = run("standings", "--db", db, "--category", "U1800", "--lang", "it")
    assert code == 2
    assert err.startswith("livetb: --category: categoria 'U1800': non esiste (definite: ")
    code, _, err = run("export", "--db", db, "--format", "trf26", "--category", "W")
    assert code != 0 and "csv and html" in err
    code, _, err = run("standings", str(SWISS), "--category", "W")
    assert code != 0 and "TRF file defines no categories" in err
