"""TRF export: every corpus file imported, exported as TRF-16 and TRF-2026
and read back gives the same standings at every round (values and ranks), and importing the
export gives the same events; a property over generated tournaments; CSV and HTML."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from livetb.cli import main
from livetb.demo.tournament import swiss_events
from livetb.engine.context import Context
from livetb.engine.model import Code
from livetb.engine.spec import parse_list
from livetb.engine.standings import rank
from livetb.errors import ExportUnsupported
from livetb.events.schema import ByeRequested
from livetb.events.sqlite import SqliteStore
from livetb.events.state import fold
from livetb.interchange.importer import events_from_tournament, team_rosters
from livetb.trf import load_trf, parse_trf
from livetb.trf.writer import write_trf
from tests.conformance import CORPUS

SPECS = sorted(CORPUS.glob("*/*.expected.json"))


def run(*argv: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    assert code == 0, f"livetb {' '.join(argv)}: {err.getvalue()}"
    return out.getvalue()


def table(trf: Path, tiebreaks: str, k: int, unrated: int | None) -> object:
    extra = [] if unrated is None else ["--unrated-rating", str(unrated)]
    argv = ["standings", str(trf), "--format", "json", "--tiebreaks", tiebreaks]
    return json.loads(run(*argv, "--after-round", str(k), *extra))


@pytest.mark.parametrize("spec_path", SPECS, ids=lambda p: p.parent.name + "/" + p.stem)
def test_corpus_round_trip_at_every_round(spec_path: Path, tmp_path: Path) -> None:
    spec = json.loads(spec_path.read_text())
    original = spec_path.with_name(spec["file"])
    db = str(tmp_path / "events.sqlite")
    run("import", str(original), "--db", db)
    exports = {}
    for fmt in ("trf16", "trf26"):
        exports[fmt] = tmp_path / f"{fmt}.trf"
        run("export", "--db", db, "--format", fmt, "--output", str(exports[fmt]))
    tiebreaks = ",".join(spec["checks"][0]["tiebreaks"])
    rounds = max(len(p.entries) for p in load_trf(original).tournament.participants)
    for k in range(0, rounds + 1):
        want = table(original, tiebreaks, k, spec["unrated_rating"])
        for fmt, path in exports.items():
            got = table(path, tiebreaks, k, spec["unrated_rating"])
            assert got == want, f"{fmt} after round {k}"
    # import -> export -> import: the same events
    first = load_trf(original)
    events = events_from_tournament(first.tournament, teams=team_rosters(first, "a"))
    for fmt, path in exports.items():
        again = load_trf(path)
        assert again.warnings == (), fmt
        assert events_from_tournament(again.tournament, teams=team_rosters(again, "b")) == events


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(4, 24),
    rounds=st.integers(1, 7),
    seed=st.integers(0, 10_000),
    cut=st.floats(0.3, 1.0),
    version=st.sampled_from(["trf16", "trf26"]),
)
def test_generated_tournaments_read_back_the_same(
    players: int, rounds: int, seed: int, cut: float, version: str
) -> None:
    rounds = min(rounds, players - 1)
    events = swiss_events(players, rounds, seed)
    # the log at any point: mid-round, between rounds, or complete
    state = fold(events[: max(1 + players, int(len(events) * cut))])
    t = state.tournament()
    # byes requested for a round not yet paired travel on 240 lines
    announced = sorted(
        (rnd, no, code)
        for rnd, b in state.byes.items()
        if rnd > state.paired
        for no, code in b.items()
    )
    parsed = parse_trf(write_trf(t, version, announced=announced))  # type: ignore[arg-type]
    assert list(parsed.announced_byes) == announced
    back = parsed.tournament
    strip = lambda p: (p.start_no, p.name, p.rating, p.entries)  # noqa: E731
    assert [strip(p) for p in back.participants] == [strip(p) for p in t.participants]
    assert (back.rounds, back.start_date, back.tiebreaks) == (t.rounds, t.start_date, t.tiebreaks)
    complete = state.closed
    specs = parse_list(",".join(t.tiebreaks))
    for k in range(complete + 1):
        cut_t = _upto(t, k)
        assert rank(Context(_upto(back, k), k), specs) == rank(Context(cut_t, k), specs)


def _upto(t, k):  # type: ignore[no-untyped-def]
    import msgspec

    people = tuple(msgspec.structs.replace(p, entries=p.entries[:k]) for p in t.participants)
    return msgspec.structs.replace(t, participants=people)


def test_a_bye_announced_for_the_next_round_comes_back(tmp_path: Path) -> None:
    events = swiss_events(6, 3, 2)
    paired = [i for i, e in enumerate(events) if type(e).__name__ == "RoundPaired"]
    cut = events[: paired[1]]  # round 1 closed, round 2 not paired yet
    cut.append(ByeRequested(start_no=3, round=2, points="half"))
    db = str(tmp_path / "events.sqlite")
    with SqliteStore(db) as store:
        store.append("t", 0, cut, actor="test")
    for fmt in ("trf16", "trf26"):
        text = run("export", "--db", db, "--format", fmt)
        assert "240 H   2    3" in text.splitlines()
        again = parse_trf(text)
        assert again.announced_byes == ((2, 3, Code.HALF_BYE),)
        reimported = events_from_tournament(again.tournament, announced=again.announced_byes)
        assert reimported[-1] == ByeRequested(start_no=3, round=2, points="half")


def test_what_no_field_holds_is_refused() -> None:
    state = fold(swiss_events(4, 1, 1))
    t = state.tournament()
    long = t.participants[0].__class__(1, "N" * 34)
    with pytest.raises(ExportUnsupported, match="longer than its 33 TRF columns"):
        write_trf(t.__class__("x", (long,), 1))


def test_csv_and_html_exports(tmp_path: Path) -> None:
    trf = CORPUS / "individual-swiss" / "swiss-1005.trf"
    db = str(tmp_path / "events.sqlite")
    run("import", str(trf), "--db", db)
    csv_text = run("export", "--db", db, "--format", "csv")
    assert csv_text.splitlines()[0] == "rank,start_no,name,PTS,BH/C1,BH,DE,WIN,BWG"
    assert len(csv_text.splitlines()) == 1 + 60
    page = run("export", "--db", db, "--format", "html")
    assert page.startswith("<!doctype html>") and page.count("<tr>") == 1 + 60
    assert "After round 11 (C.07 edition 2024)" in page
