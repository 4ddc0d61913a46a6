"""The sync planner: the commands that bring a log to a pairing program's file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import msgspec
import pytest

from livetb.engine.model import Code, Entry
from livetb.errors import InvalidInput, SyncMismatch
from livetb.events.commands import RegisterParticipant, UpdateParticipant
from livetb.events.schema import (
    AnyEvent,
    ByeRequested,
    ParticipantRegistered,
    ParticipantUpdated,
    ParticipantWithdrawn,
    Recorded,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
)
from livetb.events.state import fold
from livetb.interchange import sync
from livetb.interchange.importer import events_from_tournament
from livetb.interchange.trf_commands import round_boards
from livetb.trf import parse_trf
from livetb.trf.writer import write_trf
from tests.interchange.sync_cuts import SWISSES, cuts, finished, late_pair

EXPORTS = sorted(Path("tests/data/exports").glob("*.trf"))
AT = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def recorded(events: list[AnyEvent], actor: str = sync.ACTOR) -> list[Recorded]:
    return [
        Recorded(tournament_id="t", seq=i, at=AT, actor=actor, event=e)
        for i, e in enumerate(events, start=1)
    ]


def synced(data: bytes, log: list[Recorded] = (), **kw: object) -> sync.Plan:  # type: ignore[assignment]
    imported = parse_trf(data, "f.trf")
    return sync.plan(list(log), imported, "f.trf", sync.player_lines(data), **kw)  # type: ignore[arg-type]


def entries(events: list[AnyEvent]) -> object:
    return [p.entries for p in fold(events).tournament().participants]


@pytest.mark.parametrize("path", [*SWISSES, *EXPORTS], ids=lambda p: p.stem)
def test_one_sync_of_a_whole_file_reads_it_as_the_import_does(path: Path) -> None:
    data = path.read_bytes()
    made = synced(data)
    imported = events_from_tournament(
        parse_trf(data).tournament, announced=parse_trf(data).announced_byes
    )
    assert entries(made.events) == entries(imported)
    # The import reads a trailing run of absences as a withdrawal; a sync never withdraws
    # anyone: those rounds are absences, each its own zero-point bye.
    logged = fold(imported)
    expected = {rnd: dict(byes) for rnd, byes in logged.byes.items()}
    for no, since in logged.withdrawn.items():
        for rnd in range(since, logged.paired + 1):
            expected.setdefault(rnd, {})[no] = Code.ZERO_BYE
    assert fold(made.events).byes == expected
    assert fold(made.events).withdrawn == {}
    assert [e for e in made.events if isinstance(e, RoundPaired)] == [
        e for e in imported if isinstance(e, RoundPaired)
    ]
    assert synced(data, recorded(made.events)).events == []  # read again: nothing to add


def test_the_absences_entered_ahead_are_logged_for_their_round() -> None:
    data = Path("tests/data/exports/swiss-1003-round-2-paired.trf").read_bytes()
    ahead = [(e.start_no, e.points) for e in synced(data).events if isinstance(e, ByeRequested)]
    assert {(25, "half"), (28, "half"), (4, "zero"), (6, "zero")} <= set(ahead)


def test_a_game_lost_by_both_is_recorded_as_0_0() -> None:
    data = Path("tests/data/exports/swiss-1003-lost-by-both.trf").read_bytes()
    made = synced(data)
    paired = next(e for e in made.events if isinstance(e, RoundPaired) and e.round == 5)
    board = next(b.board for b in paired.boards if (b.white, b.black) == (12, 2))
    results = [e for e in made.events if isinstance(e, ResultRecorded) and e.round == 5]
    assert ResultRecorded(round=5, board=board, result="0-0") in results


def test_late_entrants_register_with_their_missed_rounds_as_the_file_gives_them() -> None:
    files = {c.label: c.text.encode() for c in cuts(SWISSES[0])}
    log = recorded(synced(files["players"]).events)
    log = recorded([r.event for r in log] + synced(files["round 1 whole"], log).events)
    made = synced(files["round 2 paired"], log)
    late = sorted(late_pair(parse_trf(Path(SWISSES[0]).read_bytes()).tournament))
    registered = [s.command for s in made.steps if isinstance(s.command, RegisterParticipant)]
    assert [(c.start_no, c.missed) for c in registered] == [(no, {1: "absent"}) for no in late]
    # the same entrant with a half-point bye in round 1
    t = finished(SWISSES[0])
    people = tuple(
        msgspec.structs.replace(p, entries=(Entry(Code.HALF_BYE), *p.entries[1:2]))
        if p.start_no == late[0]
        else msgspec.structs.replace(p, entries=p.entries[:2])
        for p in t.participants
    )
    half = write_trf(msgspec.structs.replace(t, participants=people)).encode()
    steps = synced(half, log).steps
    made_late = next(
        s
        for s in steps
        if isinstance(s.command, RegisterParticipant) and s.command.start_no == late[0]
    )
    assert made_late.events[1:] == [ByeRequested(start_no=late[0], round=1, points="half")]


def test_details_change_before_round_1_only() -> None:
    data = cuts(SWISSES[0])[0].text.encode()
    log = recorded(synced(data).events)
    renamed = data.replace(b"Hansen, Dina     ", b"Hansen-Berg, Dina")
    made = synced(renamed, log)
    assert [s.command for s in made.steps] == [
        UpdateParticipant(start_no=1, name="Hansen-Berg, Dina")
    ]
    assert made.events == [ParticipantUpdated(start_no=1, name="Hansen-Berg, Dina")]
    round_1 = cuts(SWISSES[0])[1].text.encode()
    log = recorded([r.event for r in log] + synced(round_1, log).events)
    later = synced(round_1.replace(b"Hansen, Dina     ", b"Hansen-Berg, Dina"), log)
    assert later.events == [] and later.unchanged_details == [(1, ("name",))]


def test_a_round_paired_otherwise_in_the_log_is_a_mismatch() -> None:
    files = [c.text.encode() for c in cuts(SWISSES[1])]
    log = recorded(synced(files[1]).events)  # round 1 paired
    t = parse_trf(files[1]).tournament
    b1, b2 = round_boards(t, 1)[0][:2]
    swapped = [e for e in (r.event for r in log)]
    for i, e in enumerate(swapped):
        if isinstance(e, RoundPaired):
            boards = (
                msgspec.structs.replace(b1, black=b2.black),
                msgspec.structs.replace(b2, black=b1.black),
            )
            swapped[i] = msgspec.structs.replace(e, boards=boards + e.boards[2:])
    with pytest.raises(SyncMismatch, match="round 1 is paired otherwise") as caught:
        synced(files[2], recorded(swapped))
    italian = caught.value.words("it")  # the catalog's words (`sync.err.paired_otherwise`)
    assert "il turno 1 è abbinato diversamente nel registro (solo nel registro: " in italian
    assert italian.endswith("; una sincronizzazione non cambia un abbinamento pubblicato")


def test_a_run_of_absences_is_never_a_withdrawal() -> None:
    data = SWISSES[0].read_bytes()
    t = parse_trf(data).tournament
    made = synced(data)
    gone = [e for e in events_from_tournament(t) if isinstance(e, ParticipantWithdrawn)]
    assert gone  # the import reads some as withdrawals; the sync does not
    assert not [e for e in made.events if isinstance(e, ParticipantWithdrawn)]
    for e in gone:  # each of those rounds is an absence of its own
        assert all(
            ByeRequested(start_no=e.start_no, round=rnd, points="zero") in made.events
            for rnd in range(e.from_round, t.played_rounds + 1)
        )
    closes = [e for e in made.events if isinstance(e, RoundClosed)]
    assert len(closes) == t.rounds
    assert sum(isinstance(e, ParticipantRegistered) for e in made.events) == len(t.participants)


def test_an_existing_tournaments_tiebreaks_are_not_changed_by_a_sync() -> None:
    data = cuts(SWISSES[0])[0].text.encode()
    log = recorded(synced(data, tiebreaks=["PTS", "SB"]).events)
    assert synced(data, log, tiebreaks=["PTS", "SB"]).events == []
    with pytest.raises(InvalidInput, match="the tournament has its list already, PTS,SB"):
        synced(data, log, tiebreaks=["PTS", "BH"])
