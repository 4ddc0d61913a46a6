"""The folded state holds one int object per start number, however its events were read: the
projection's tables, keyed by start numbers, then match them by identity."""

from __future__ import annotations

import datetime as dt

import msgspec

from livetb.events.schema import (
    AnyEvent,
    Board,
    ByeRequested,
    ParticipantRegistered,
    Recorded,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
)
from livetb.events.state import TournamentState, fold
from livetb.projections.standings import StandingsProjection

NOS = (1001, 1002, 1003, 1004, 1005)  # beyond the ints Python keeps one object for


def read_back(events: list[AnyEvent]) -> list[AnyEvent]:
    """The events as a store returns them: decoded, a new int for every mention."""
    return [msgspec.json.decode(msgspec.json.encode(e), type=AnyEvent) for e in events]


def events() -> list[AnyEvent]:
    log: list[AnyEvent] = [
        TournamentCreated(name="t", rounds=3, start_date=dt.date(2026, 5, 1), tiebreaks=("PTS",))
    ]
    log += [ParticipantRegistered(start_no=no, name=f"P{no}") for no in NOS]
    log += [
        RoundPaired(round=1, boards=(Board(1, 1001, 1002), Board(2, 1003, 1004)), bye=1005),
        ResultRecorded(round=1, board=1, result="1-0"),
        ByeRequested(start_no=1002, round=2),
    ]
    return log


def assert_one_object_each(state: TournamentState) -> None:
    own = {no: p.start_no for no, p in state.participants.items()}
    assert all(no is own[no] for no in state.participants)
    (paired,) = state.rounds.values()
    assert paired.pab is own[1005]
    for game in paired.games.values():
        assert game.white is own[game.white] and game.black is own[game.black]
    assert all(no is own[no] for no in paired.seat)
    assert all(no is own[no] for byes in state.byes.values() for no in byes)


def test_events_read_back_fold_into_one_object_per_start_number() -> None:
    decoded = read_back(events())
    assert decoded == events()
    registered = next(e for e in decoded if isinstance(e, ParticipantRegistered))
    paired = next(e for e in decoded if isinstance(e, RoundPaired))
    assert paired.boards[0].white == registered.start_no
    assert paired.boards[0].white is not registered.start_no  # what the state makes one
    assert_one_object_each(fold(decoded))


def test_a_restored_snapshot_holds_one_object_per_start_number() -> None:
    at = dt.datetime(2026, 5, 1, tzinfo=dt.UTC)
    log = [
        Recorded(tournament_id="t", seq=k, at=at, actor="test", event=e)
        for k, e in enumerate(read_back(events()), start=1)
    ]
    live = StandingsProjection.rebuild(log)
    restored = StandingsProjection.restore(live.snapshot())
    assert_one_object_each(restored.state)
    assert restored.standings() == live.standings()
