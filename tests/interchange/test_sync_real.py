"""Acceptance: every real individual event of tests/data/real, cut into the files a pairing
program writes over the event (`sync_cuts`: registration, each round paired, half its results,
all of them, late entrants, one wrong result corrected), synced file after file by the
planner in memory. After every file the log's standings, computed as `livetb standings --db
--tournament` computes them (and as the live server folds them in, event by event), are the
file's, computed as `livetb standings FILE` does; a file that declares no round count is
synced, and its standings computed, with the count given, as `--rounds N` gives it."""

from __future__ import annotations

import datetime as dt
import io
import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from livetb.cli.parsers import build_parser
from livetb.cli.standings import standings_command
from livetb.cli.tables import write
from livetb.errors import LivetbError, RoundsRequired
from livetb.events.schema import (
    AnyEvent,
    ParticipantRegistered,
    Recorded,
    ResultCorrected,
    RoundPaired,
)
from livetb.interchange import sync
from livetb.interchange.trf_commands import round_boards
from livetb.projections.standings import StandingsProjection
from livetb.trf import parse_trf
from tests.interchange.sync_cuts import REAL, Event, event

TIEBREAKS = "PTS,BH/C1,BH,SB,DE,WIN,BWG"  # types A (BH/C1, BH, SB), B (DE), C (WIN), D (BWG)
AT = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
Rows = list[tuple[int, int, list[object]]]
# over 5 s each on an idle machine: 179 players and 21 rounds (64 files), 112 and 20 (61)
BIG = {"world-blitz-open-2021", "lichess-zulfikar-bullet-2020"}
SLOW = pytest.mark.slow
# a Swiss, a round robin, a Swiss with late entrants and absences, cut without their XXR
UNDECLARED = (
    "hobsons-bay-western-swiss-2026",
    "hobsons-bay-western-minor-2024",
    "ilmenau-gerd-fornahl-2024",
)


def file_standings(path: Path, rounds: int | None = None) -> Rows:
    """`livetb standings FILE --tiebreaks … --format json [--rounds N]`."""
    argv = ["standings", str(path), "--tiebreaks", TIEBREAKS, "--format", "json"]
    argv += [] if rounds is None else ["--rounds", str(rounds)]
    out = io.StringIO()
    assert standings_command(build_parser().parse_args(argv), out) == 0
    return _rows(out.getvalue())


def log_standings(records: Sequence[Recorded]) -> Rows:
    """`livetb standings --db … --tournament … --format json`: the log folded from zero."""
    return projected(StandingsProjection.rebuild(records))


def projected(projection: StandingsProjection) -> Rows:
    out = io.StringIO()
    write(projection, "json", out)
    return _rows(out.getvalue())


def _rows(text: str) -> Rows:
    return [(r["rank"], r["start_no"], r["values"]) for r in json.loads(text)["standings"]]


def appended(records: list[Recorded], events: Sequence[AnyEvent]) -> list[Recorded]:
    return records + [
        Recorded(tournament_id="t", seq=len(records) + n, at=AT, actor=sync.ACTOR, event=e)
        for n, e in enumerate(events, start=1)
    ]


def synced(ev: Event, tmp_path: Path) -> tuple[list[Recorded], bytes]:
    """Every file of the event synced in order, the standings compared after each (also
    the live server's, its projection fed each sync's events); the log and the last file."""
    records: list[Recorded] = []
    live = StandingsProjection()
    rounds = None if ev.declared else ev.rounds
    data = b""
    for i, cut in enumerate(ev.cuts):
        name = f"{i:02}.trf"
        trf = tmp_path / name
        data = cut.text.encode()
        trf.write_bytes(data)
        try:
            made = sync.plan(
                records,
                parse_trf(data, str(trf)),
                name,
                sync.player_lines(data),
                tiebreaks=TIEBREAKS.split(","),
                rounds=rounds,
            )
        except LivetbError as err:
            pytest.fail(f"{cut.label}: {type(err).__name__}: {err}")
        new = appended(records, made.events)[len(records) :]
        for rec in new:
            live.apply(rec)
        records += new
        theirs = file_standings(trf, rounds)
        assert projected(live) == theirs, f"{cut.label}: live"
        # The log folded from zero, as `standings --db` reads it, at each round's end and
        # the last file (in between, the live projection equals a rebuild: the
        # incremental properties check that after every event).
        if cut.label.endswith("whole") or i == len(ev.cuts) - 1:
            assert log_standings(records) == theirs, cut.label
    again = sync.plan(records, parse_trf(data), "again.trf", sync.player_lines(data), rounds=rounds)
    assert again.events == [], "the last file again adds nothing"
    return records, data


def check_log(ev: Event, records: Sequence[Recorded], last: bytes) -> None:
    """One correction, the wrong result's; the late entrants registered once the round
    before their first was paired; every round paired as the last file pairs it."""
    log = [rec.event for rec in records]
    corrections = [e.round for e in log if isinstance(e, ResultCorrected)]
    assert corrections == ([] if ev.wrong_round is None else [ev.wrong_round])
    paired_before: dict[int, int] = {}
    rounds = 0
    for e in log:
        if isinstance(e, RoundPaired):
            rounds = e.round
        elif isinstance(e, ParticipantRegistered):
            paired_before[e.start_no] = rounds
    assert {no: paired_before[no] + 1 for no in ev.late} == ev.late
    final = parse_trf(last).tournament
    paired = [e for e in log if isinstance(e, RoundPaired)]
    assert [e.round for e in paired] == list(range(1, final.played_rounds + 1))
    for e in paired:
        assert e.boards == round_boards(final, e.round)[0], f"round {e.round}"


@pytest.mark.parametrize(
    "path", [pytest.param(p, id=p.stem, marks=SLOW if p.stem in BIG else ()) for p in REAL]
)
def test_every_file_of_a_real_event_syncs_to_its_own_standings(path: Path, tmp_path: Path) -> None:
    ev = event(path)
    check_log(ev, *synced(ev, tmp_path))


@pytest.mark.parametrize("stem", UNDECLARED)
def test_files_without_a_round_count_sync_with_the_count_given(stem: str, tmp_path: Path) -> None:
    ev = event(Path(f"tests/data/real/{stem}.trf"), undeclared=True)
    assert not ev.declared
    first = ev.cuts[0].text.encode()
    with pytest.raises(RoundsRequired):
        sync.plan([], parse_trf(first), "00.trf", sync.player_lines(first))
    records, last = synced(ev, tmp_path)
    check_log(ev, records, last)
