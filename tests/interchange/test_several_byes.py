"""A round with several pairing-allocated byes, as Vega wrote Hobsons Bay Cup 2024's round 1
(three `( bye )` worth a point, each `U`): `standings`, `import` and `sync` read it alike, with
the reader's one warning; the log holds every PAB, folds to the file's standings and exports
it back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import msgspec
import pytest

from livetb.cli import main
from livetb.engine.model import Code, Entry, Tournament
from livetb.errors import (
    InvalidInput,
    ParticipantPairedTwice,
    ParticipantWithdrawnError,
    UnknownParticipant,
)
from livetb.events.commands import PairRound, decide
from livetb.events.schema import AnyEvent, ParticipantWithdrawn, RoundPaired
from livetb.events.sqlite import SqliteStore
from livetb.events.state import fold
from livetb.events.store import MemoryStore
from livetb.interchange import sync
from livetb.interchange.export import trf_text
from livetb.interchange.importer import events_from_tournament
from livetb.interchange.trf_commands import pairing_from_trf, round_boards
from livetb.projections.standings import StandingsProjection
from livetb.trf import load_trf, parse_trf
from livetb.trf.writer import write_trf

CUP = Path("tests/data/real/hobsons-bay-cup-2024.trf")  # 43 players, 7 rounds
PABS = (4, 30, 42)  # round 1's three `U`
WARNING = (
    "line 51, columns 92-99 (round 1): found 'U for #4, #30, #42'; expected one "
    "pairing-allocated bye per round; each U is read as one"
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def rows(capsys: pytest.CaptureFixture[str], *source: str) -> list[tuple[int, int, list[object]]]:
    code, out, err = run(capsys, "standings", *source, "--format", "json")
    assert code == 0, err
    return [(r["rank"], r["start_no"], r["values"]) for r in json.loads(out)["standings"]]


def round_one_paired(t: Tournament) -> str:
    """The file Vega gives out once round 1 is paired: its games without results, its byes."""

    def cut(e: Entry) -> Entry:
        return Entry(Code.PENDING, e.opponent, e.colour) if e.opponent is not None else e

    people = tuple(msgspec.structs.replace(p, entries=(cut(p.entries[0]),)) for p in t.participants)
    return write_trf(msgspec.structs.replace(t, participants=people), "trf16")


def test_the_log_holds_every_pab_of_the_round() -> None:
    t = load_trf(CUP).tournament
    events = events_from_tournament(t)
    first = next(e for e in events if isinstance(e, RoundPaired))
    assert (first.round, first.bye, first.more_byes) == (1, 4, (30, 42))
    state = fold(events)
    assert [state.entry(no, 1) for no in PABS] == [Entry(Code.PAB)] * 3
    assert state.tournament().participants == tuple(
        msgspec.structs.replace(p, declared_points=None, declared_rank=None)
        for p in sorted(t.participants, key=lambda p: p.start_no)
    )


def test_round_boards_gives_every_pab() -> None:
    t = load_trf(CUP).tournament
    boards, byes = round_boards(t, 1)
    assert byes == PABS
    # the 32 others who played round 1 are on 16 boards (7 took a half-point bye, 1 was absent)
    seated = sorted(no for b in boards for no in (b.white, b.black))
    assert seated == sorted(p.start_no for p in t.participants if p.entry(1).opponent)
    assert len(boards) == 16
    paired = pairing_from_trf(round_one_paired(t).encode(), 1)
    assert (paired.boards, paired.bye, paired.more_byes) == (boards, 4, (30, 42))


def test_standings_import_and_sync_read_it_with_one_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "t.sqlite")
    theirs = rows(capsys, str(CUP))
    code, out, err = run(capsys, "import", str(CUP), "--db", db)
    assert code == 0, err
    assert err.splitlines() == [f"livetb: warning: {CUP}: {WARNING}"]
    assert rows(capsys, "--db", db, "--tournament", out.strip()) == theirs
    # the file a pairing program gives out once round 1 is paired, synced into a new log
    paired = tmp_path / "round1.trf"
    paired.write_text(round_one_paired(load_trf(CUP).tournament))
    code, out, err = run(capsys, "sync", str(paired), "--db", db, "--tournament", "cup")
    assert code == 0, err
    warned = [x for x in err.splitlines() if "warning" in x]
    line = next(n for n, x in enumerate(paired.read_text().splitlines(), 1) if x[:8] == "001   42")
    assert warned == [f"livetb: warning: {paired}: {WARNING.replace('line 51', f'line {line}')}"]
    with SqliteStore(db) as store:
        (pairing,) = [r.event for r in store.read("cup") if isinstance(r.event, RoundPaired)]
    assert (pairing.bye, pairing.more_byes) == (4, (30, 42))


def test_sync_plans_the_round_one_file() -> None:
    text = round_one_paired(load_trf(CUP).tournament)
    imported = parse_trf(text, "round1.trf")
    made = sync.plan([], imported, "round1.trf", sync.player_lines(text.encode()))
    (pair,) = [s.command for s in made.steps if isinstance(s.command, PairRound)]
    assert (pair.bye, pair.more_byes, len(pair.boards)) == (4, (30, 42), 16)
    state = fold(made.events)
    assert state.rounds[1].more_pabs == (30, 42)
    described = sync.describe(next(s for s in made.steps if s.command is pair), "en", made)
    assert described[0].count("pairing-allocated bye") == 3


@pytest.mark.parametrize("version", ["trf16", "trf26"])
def test_the_export_round_trips_every_pab(version: Literal["trf16", "trf26"]) -> None:
    events = events_from_tournament(load_trf(CUP).tournament)
    with MemoryStore() as store:
        store.append("cup", 0, events, actor="import")
        projection = StandingsProjection.rebuild(store.read("cup"))
    back = parse_trf(trf_text(projection, version), "export.trf")
    by_no = {p.start_no: p for p in back.tournament.participants}
    assert [by_no[no].entry(1) for no in PABS] == [Entry(Code.PAB)] * 3
    again = events_from_tournament(back.tournament)
    assert [e for e in again if isinstance(e, RoundPaired)] == [
        e for e in events if isinstance(e, RoundPaired)
    ]


def before_round_one() -> list[AnyEvent]:
    events = events_from_tournament(load_trf(CUP).tournament)
    return events[: next(i for i, e in enumerate(events) if isinstance(e, RoundPaired))]


def test_decide_checks_further_byes_as_the_bye() -> None:
    events = before_round_one()
    state = fold(events)
    boards, _ = round_boards(load_trf(CUP).tournament, 1)
    pair = PairRound(round=1, boards=boards, bye=4, more_byes=(30, 42))
    assert decide(state, pair) == [RoundPaired(round=1, boards=boards, bye=4, more_byes=(30, 42))]
    seated = boards[0].white
    with pytest.raises(ParticipantPairedTwice) as twice:
        decide(state, msgspec.structs.replace(pair, more_byes=(30, seated)))
    assert twice.value.as_dict()["field"] == "more_byes[1]"
    with pytest.raises(UnknownParticipant) as unknown:
        decide(state, msgspec.structs.replace(pair, more_byes=(30, 44)))
    assert unknown.value.as_dict()["field"] == "more_byes[1]"
    with pytest.raises(InvalidInput):
        decide(state, msgspec.structs.replace(pair, bye=None))
    state.apply(ParticipantWithdrawn(start_no=42, from_round=1))
    with pytest.raises(ParticipantWithdrawnError):
        decide(state, pair)
