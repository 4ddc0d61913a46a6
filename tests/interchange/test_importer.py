"""TRF to events: the imported log replays to exactly the tournament in the file, decide accepts
it command by command, and `livetb import` / `livetb replay` work on a SQLite store."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import re
from decimal import Decimal
from pathlib import Path
from typing import TypeVar

import msgspec
import pytest

from livetb.app.service import TournamentService
from livetb.cli import main
from livetb.engine.model import Code, Entry, Tournament
from livetb.engine.teams import Roster
from livetb.errors import ImportUnsupported
from livetb.events.commands import (
    CloseRound,
    CreateTournament,
    PairRound,
    RecordResult,
    RegisterParticipant,
    RequestBye,
    WithdrawParticipant,
)
from livetb.events.replay import replay
from livetb.events.schema import (
    AnyEvent,
    Board,
    ByeRequested,
    ParticipantRegistered,
    ParticipantWithdrawn,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    ScoringSpec,
    TeamRegistered,
    TournamentCreated,
)
from livetb.events.sqlite import SqliteStore
from livetb.events.state import TournamentState, fold
from livetb.events.store import MemoryStore
from livetb.interchange.importer import events_from_tournament
from livetb.trf import load_trf, parse_trf
from tests.builders import beats, draws, forfeit_win, full_bye, half_bye, pab, round_robin, swiss
from tests.trf.test_reader import TRF16

CORPUS = Path(__file__).parent.parent / "data" / "conformance"
E = TypeVar("E")
INDIVIDUAL = sorted(CORPUS.glob("individual-*/*.trf"))


def assert_round_trip(t: Tournament) -> TournamentState:
    """Folding the imported events gives every participant the file's entries, round by round
    (codes, opponents, colours), and the file's details."""
    state = fold(events_from_tournament(t))
    played = t.played_rounds
    assert state.paired == state.closed == played
    folded = {p.start_no: p for p in state.tournament().participants}
    assert sorted(folded) == sorted(p.start_no for p in t.participants)
    for p in t.participants:
        mine = folded[p.start_no]
        assert mine.entries == p.entries[:played], f"#{p.start_no}"
        for rnd in range(played + 1, len(p.entries) + 1):  # byes requested ahead
            assert state.byes.get(rnd, {}).get(p.start_no, Code.ZERO_BYE) is p.entry(rnd).code
        assert (mine.name, mine.rating, mine.title, mine.federation, mine.fide_id) == (
            p.name,
            p.rating,
            p.title,
            p.federation,
            p.fide_id,
        )
    return state


@pytest.mark.parametrize("path", INDIVIDUAL, ids=lambda p: p.stem)
def test_corpus_files_round_trip(path: Path) -> None:
    t = load_trf(path).tournament
    state = assert_round_trip(t)
    created = state.created
    assert created is not None
    assert (created.name, created.rounds, created.system, created.start_date) == (
        t.name,
        t.rounds,
        t.system,
        t.start_date,
    )
    assert created.scoring == ScoringSpec(
        win=Decimal("1.0"), draw=Decimal("0.5"), loss=Decimal("0.0"), pab=Decimal("1.0")
    )


def test_the_trf_md_example_as_events() -> None:
    """TRF.md 11: round 1 1-3 1-0, 4-2 =; round 2 2-1 =, 3 half-point bye, 4 PAB;
    round 3 1-4 0-1, 3-2 forfeit won by Black."""
    t = parse_trf(TRF16).tournament
    events = events_from_tournament(t)
    assert events == [
        TournamentCreated(
            name="Example Spring Rapid",
            rounds=3,
            system="swiss",
            tiebreaks=("PTS", "BH/C1", "BH", "DE", "WIN", "BWG"),
            start_date=dt.date(2025, 3, 1),
        ),
        ParticipantRegistered(
            start_no=1,
            name="Alder, Adam",
            rating=2250,
            title="FM",
            federation="NOR",
            fide_id="99000011",
            sex="m",
            birth_date="1990/04/12",
        ),
        ParticipantRegistered(
            start_no=2,
            name="Birch, Berit",
            rating=2180,
            federation="SWE",
            fide_id="99000022",
            sex="w",
            birth_date="1985/11/30",
        ),
        ParticipantRegistered(
            start_no=3,
            name="Cedar, Carl",
            rating=2105,
            federation="NOR",
            fide_id="99000033",
            sex="m",
            birth_date="2001/07/01",
        ),
        ParticipantRegistered(
            start_no=4,
            name="Dogwood, Dina",
            rating=1990,
            federation="DEN",
            fide_id="99000044",
            sex="w",
            birth_date="1999/02/28",
        ),
        RoundPaired(round=1, boards=(Board(1, 1, 3), Board(2, 4, 2))),
        ResultRecorded(round=1, board=1, result="1-0"),
        ResultRecorded(round=1, board=2, result="1/2-1/2"),
        RoundClosed(round=1),
        ByeRequested(start_no=3, round=2, points="half"),
        RoundPaired(round=2, boards=(Board(1, 2, 1),), bye=4),
        ResultRecorded(round=2, board=1, result="1/2-1/2"),
        RoundClosed(round=2),
        RoundPaired(round=3, boards=(Board(1, 1, 4), Board(2, 3, 2))),
        ResultRecorded(round=3, board=1, result="0-1"),
        ResultRecorded(round=3, board=2, result="-+"),
        RoundClosed(round=3),
    ]
    assert_round_trip(t)


def test_the_file_tiebreaks_or_an_override() -> None:
    t = msgspec.structs.replace(parse_trf(TRF16).tournament, tiebreaks=("PTS", "SB"))
    created = events_from_tournament(t)[0]
    assert isinstance(created, TournamentCreated) and created.tiebreaks == ("PTS", "SB")
    created = events_from_tournament(t, tiebreaks=["PTS", "WIN"], edition="2024")[0]
    assert isinstance(created, TournamentCreated)
    assert (created.tiebreaks, created.edition) == (("PTS", "WIN"), "2024")
    rr = round_robin(3, "ABCD").build()
    created = events_from_tournament(rr)[0]
    assert isinstance(created, TournamentCreated)
    assert created.tiebreaks == ("PTS", "DE", "SB", "WIN", "BWG")


def only(events: list[AnyEvent], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def test_withdrawal_late_entry_and_full_point_bye() -> None:
    """A (late entry) misses rounds 1-2; E gets a full-point bye in round 2; F plays round 1
    and is absent to the end: one withdrawal from round 2, no byes."""
    t = swiss(4, "ABCDEF")
    t.round(1, beats("B", "C"), draws("D", "E"), forfeit_win("F", over="A"))
    t.round(2, beats("C", "B"), pab("D"), full_bye("E"))
    t.round(3, beats("A", "B"), draws("C", "D"), half_bye("E"))
    t.round(4, beats("A", "C"), beats("E", "B"), pab("D"))
    tournament = t.build()
    events = events_from_tournament(tournament)
    assert only(events, ParticipantWithdrawn) == [ParticipantWithdrawn(start_no=6, from_round=2)]
    assert only(events, ByeRequested) == [
        ByeRequested(start_no=1, round=2, points="zero"),
        ByeRequested(start_no=5, round=2, points="full"),
        ByeRequested(start_no=5, round=3, points="half"),
    ]
    kinds = [type(e).__name__ for e in events]
    # requests and withdrawals come after the previous round closes, before the pairing
    at = kinds.index("ParticipantWithdrawn")
    assert kinds[at - 1 : at + 4] == [
        "RoundClosed",
        "ParticipantWithdrawn",
        "ByeRequested",
        "ByeRequested",
        "RoundPaired",
    ]
    state = assert_round_trip(tournament)
    assert state.withdrawn == {6: 2}


def test_a_single_absence_is_a_bye_unless_it_ends_a_finished_tournament() -> None:
    t = swiss(3, "ABCD")
    t.round(1, beats("A", "B"), beats("C", "D"))
    t.round(2, beats("A", "C"), pab("B"))  # D absent in round 2: a bye, the file goes on
    t.round(3, beats("A", "D"), beats("B", "C"))
    finished = t.build()
    assert only(events_from_tournament(finished), ByeRequested) == [
        ByeRequested(start_no=4, round=2, points="zero")
    ]
    partial = msgspec.structs.replace(finished, rounds=9)
    t2 = swiss(3, "ABCD")
    t2.round(1, beats("A", "B"), beats("C", "D"))
    t2.round(2, beats("A", "C"), beats("B", "D"))
    t2.round(3, beats("A", "B"), pab("C"))  # D absent in the last round
    last_of_three = t2.build()
    assert only(events_from_tournament(last_of_three), ParticipantWithdrawn) == [
        ParticipantWithdrawn(start_no=4, from_round=3)
    ]
    of_nine = msgspec.structs.replace(last_of_three, rounds=9)
    assert only(events_from_tournament(of_nine), ByeRequested) == [
        ByeRequested(start_no=4, round=3, points="zero")
    ]
    for each in (finished, partial, last_of_three, of_nine):
        assert_round_trip(each)


def test_round_robin_rest_rounds_are_just_unpaired() -> None:
    t = round_robin(3, "ABC")
    t.round(1, beats("A", "B"))
    t.round(2, draws("C", "A"))
    t.round(3, beats("B", "C"))
    events = events_from_tournament(t.build())
    assert only(events, ByeRequested) == [] and only(events, ParticipantWithdrawn) == []
    assert only(events, RoundPaired)[1] == RoundPaired(round=2, boards=(Board(1, 3, 1),))
    assert_round_trip(t.build())


def test_byes_requested_ahead_of_the_pairing() -> None:
    """A file written after round 2 with a half-point bye already known for round 3."""
    t = swiss(5, "ABCD")
    t.round(1, beats("A", "B"), beats("C", "D"))
    t.round(2, beats("A", "C"), beats("B", "D"))
    t.round(3, half_bye("B"))
    tournament = t.build()
    events = events_from_tournament(tournament)
    assert events[-1] == ByeRequested(start_no=2, round=3, points="half")
    assert only(events, RoundPaired)[-1].round == 2
    assert_round_trip(tournament)


EXPORTS = sorted((Path(__file__).parents[1] / "data" / "exports").glob("*.trf"))


def test_absences_announced_for_the_next_round() -> None:
    """A file written during round 3 (TRF.md 4.8): round 4's column has B's half-point bye and
    D's `0000 - Z`, both also in `announced` (as the reader gives them). Each is logged once,
    after round 3's events; D, gone since round 2, needs none (the withdrawal says it)."""
    t = swiss(5, "ABCD")
    t.round(1, beats("A", "B"), beats("C", "D"))
    t.round(2, beats("A", "C"), pab("B"))
    t.round(3, beats("B", "C"), pab("A"))
    t.round(4, half_bye("B"))
    announced = [(4, 2, Code.HALF_BYE), (4, 4, Code.ZERO_BYE), (4, 3, Code.ZERO_BYE)]
    events = events_from_tournament(t.build(), announced=announced)
    assert only(events, ParticipantWithdrawn) == [ParticipantWithdrawn(start_no=4, from_round=2)]
    tail = events[events.index(only(events, RoundClosed)[-1]) + 1 :]
    assert tail == [
        ByeRequested(start_no=2, round=4, points="half"),
        ByeRequested(start_no=3, round=4, points="zero"),
    ]
    with pytest.raises(ImportUnsupported, match=r"round 3 \(#3\): expected a round after the last"):
        events_from_tournament(t.build(), announced=[(3, 3, Code.ZERO_BYE)])


@pytest.mark.parametrize("path", [*INDIVIDUAL[:3], INDIVIDUAL[-1], *EXPORTS], ids=lambda p: p.stem)
def test_decide_accepts_every_imported_log(path: Path) -> None:
    """The importer writes only logs the command rules allow: re-issued as commands, each event
    is accepted and the new log is the same (a game lost by both and absences entered ahead
    included: tests/data/exports)."""
    commands = {
        TournamentCreated: CreateTournament,
        ParticipantRegistered: RegisterParticipant,
        ParticipantWithdrawn: WithdrawParticipant,
        ByeRequested: RequestBye,
        RoundPaired: PairRound,
        ResultRecorded: RecordResult,
        RoundClosed: CloseRound,
    }
    imported = load_trf(path)
    events = events_from_tournament(imported.tournament, announced=imported.announced_byes)
    store = MemoryStore()
    service = TournamentService(store)
    for seq, event in enumerate(events, start=1):
        fields = msgspec.structs.asdict(event)
        del fields["v"]
        command = commands[type(event)](**fields)
        assert service.execute("t-1", command, expected_seq=seq - 1)[0] == seq
    assert [r.event for r in store.read("t-1")] == events


def test_what_no_event_can_say() -> None:
    t = swiss(2, "ABCD")
    t.round(1, beats("A", "B"), pab("C"), pab("D"))
    # Two sections' byes in one individual round: both PABs (`more_byes`), as the file has them
    (paired,) = [e for e in events_from_tournament(t.build()) if isinstance(e, RoundPaired)]
    assert (paired.bye, paired.more_byes) == (3, (4,))
    # Only the players of one team make a team's bye: #4 plays for no team.
    with pytest.raises(ImportUnsupported, match=r"round 1: 2 pairing-allocated byes \(#3, #4\)"):
        events_from_tournament(t.build(), teams=(Roster(1, "A", (1, 3)), Roster(2, "B", (2,))))
    short = swiss(1, "AB")
    short.set("A", 1, Entry(Code.SHORT_WIN, 2, "w"))
    short.set("B", 1, Entry(Code.SHORT_LOSS, 1, "b"))
    with pytest.raises(ImportUnsupported, match="round 1: #1 v #2 is W/L"):
        events_from_tournament(short.build())
    blind = swiss(1, "AB")
    blind.set("A", 1, Entry(Code.FORFEIT_WIN, 2, None))
    blind.set("B", 1, Entry(Code.FORFEIT_LOSS, 1, None))
    with pytest.raises(ImportUnsupported, match="has no colours"):
        events_from_tournament(blind.build())


# --- the command line ----------------------------------------------------------------------


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


SWISS = CORPUS / "individual-swiss" / "swiss-1008.trf"


def test_cli_import_prints_only_the_new_id(tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite"
    code, out, err = run("import", str(SWISS), "--db", str(db))
    assert (code, err) == (0, "")
    assert re.fullmatch(r"t-[0-9a-f]{8}\n", out)
    tid = out.strip()
    with SqliteStore(db) as store:
        assert store.tournaments() == [tid]
        records = list(store.read(tid))
    assert [r.event for r in records] == events_from_tournament(load_trf(SWISS).tournament)
    assert {r.actor for r in records} == {"import"}
    # a second import is a second tournament
    code, again, _ = run("import", str(SWISS), "--db", str(db), "--tiebreaks", "PTS,SB")
    assert code == 0 and again != out
    with SqliteStore(db) as store:
        created = next(store.read(again.strip())).event
    assert isinstance(created, TournamentCreated) and created.tiebreaks == ("PTS", "SB")


def test_cli_import_refusals(tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite"
    team = CORPUS / "team-swiss" / "team-swiss-1201.trf"
    scored = tmp_path / "scored.trf"  # 3 match points a win: not expressible in events yet
    scored.write_text(team.read_text() + "362 TW 3.0   TD 1.0   TL 0.0\n")
    code, out, err = run("import", str(scored), "--db", str(db))
    assert (code, out) == (2, "")
    assert "match points) cannot be imported yet: found matches the board games" in err
    code, _, err = run("import", str(SWISS), "--db", str(db), "--tiebreaks", "PTS,NOPE")
    assert code == 2 and "NOPE" in err
    with SqliteStore(db) as store:
        assert store.tournaments() == []  # nothing half-imported


def test_cli_import_of_a_team_file_gives_the_files_team_standings(tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite"
    team = CORPUS / "team-swiss" / "team-swiss-1202.trf"  # whole-team byes included
    code, out, err = run("import", str(team), "--db", str(db))
    assert (code, err) == (0, "")
    tid = out.strip()
    with SqliteStore(db) as store:
        events = [r.event for r in store.read(tid)]
    created = events[0]
    assert isinstance(created, TournamentCreated) and created.kind == "team"
    assert created.tiebreaks == ("MPTS", "GPTS", "EDE", "EMGSB/C1", "BH:MP/C1")
    assert sum(isinstance(e, TeamRegistered) for e in events) == 13
    assert any(isinstance(e, RoundPaired) and e.team_bye for e in events)
    _, from_db, _ = run("standings", "--db", str(db), "--format", "json")
    _, from_file, _ = run("standings", str(team), "--format", "json")
    db_rows, file_rows = json.loads(from_db)["standings"], json.loads(from_file)["standings"]
    assert [(r["rank"], r["start_no"], r["values"]) for r in db_rows] == [
        (r["rank"], r["start_no"], r["values"]) for r in file_rows
    ]
    assert all(r["statuses"] == ["final"] * 5 for r in db_rows)


def test_cli_replay_into_a_new_tournament(tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite"
    _, out, _ = run("import", str(CORPUS / "individual-rr" / "rr-1101.trf"), "--db", str(db))
    source = out.strip()
    # --speed 0 is quiet: the new id and the count, not one line per event ...
    code, out, err = run(
        "replay", "--db", str(db), "--tournament", source, "--speed", "0", "--into", "t-quiet"
    )
    assert (code, err, out) == (0, "", f"t-quiet: 32 events replayed from {source}\n")
    # ... unless --echo asks for them
    code, out, err = run(
        "replay", "--db", str(db), "--tournament", source, "--speed", "0", "--into", "t-copy",
        "--echo",
    )  # fmt: skip
    assert (code, err) == (0, "")
    lines = out.splitlines()
    with SqliteStore(db) as store:
        original = [r.event for r in store.read(source)]
        copy = list(store.read("t-copy"))
    assert len(lines) == len(original) == len(copy) == 1 + 6 + 5 * (1 + 3 + 1)
    assert [r.event for r in copy] == original
    assert {r.actor for r in copy} == {"replay"}
    tid, seq, data = lines[7].split(" ", 2)
    assert (tid, seq) == ("t-copy", "8")
    assert json.loads(data) == {
        "type": "RoundPaired",
        "v": 1,
        "round": 1,
        "boards": [
            {"board": 1, "white": 1, "black": 6},
            {"board": 2, "white": 2, "black": 5},
            {"board": 3, "white": 3, "black": 4},
        ],
        "bye": None,
        "team_bye": [],
        "more_byes": [],
    }
    # replaying into a tournament that exists, or from one that does not
    code, _, err = run("replay", "--db", str(db), "--tournament", source, "--into", "t-copy")
    assert code == 2 and "tournament t-copy already exists" in err
    code, _, err = run("replay", "--db", str(db), "--tournament", "t-nope", "--speed", "0")
    assert code == 2 and "tournament t-nope does not exist" in err
    code, _, err = run("replay", "--db", str(tmp_path / "none.sqlite"), "--tournament", source)
    assert code == 2 and "no such event store" in err
    assert not (tmp_path / "none.sqlite").exists()


def test_replay_keeps_the_rhythm_divided_by_speed() -> None:
    """Gaps of 10 min and 30 s at speed 60 become 10 s and 0.5 s; events stored together
    are 1 s / speed apart."""
    times = iter(
        [
            dt.datetime(2025, 5, 1, 9, 0, tzinfo=dt.UTC),
            dt.datetime(2025, 5, 1, 9, 10, tzinfo=dt.UTC),
            dt.datetime(2025, 5, 1, 9, 10, 30, tzinfo=dt.UTC),
        ]
    )
    store = MemoryStore(clock=lambda: next(times, dt.datetime(2025, 6, 1, tzinfo=dt.UTC)))
    created = TournamentCreated(name="Open", rounds=3)
    store.append("t-1", 0, [created, ParticipantRegistered(start_no=1, name="A")], actor="a")
    store.append("t-1", 2, [ParticipantRegistered(start_no=2, name="B")], actor="a")
    store.append("t-1", 3, [ParticipantRegistered(start_no=3, name="C")], actor="a")
    waits: list[float] = []
    copied = list(replay(store, "t-1", "t-2", speed=60, sleep=waits.append))
    assert waits == pytest.approx([1 / 60, 10.0, 0.5])
    assert [r.seq for r in copied] == [1, 2, 3, 4]
    assert [r.event for r in copied] == [r.event for r in store.read("t-1")]
