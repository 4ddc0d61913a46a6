"""A game lost by both players over the board, `0-0`: a result like any other for the commands
(recorded once, corrected to and from, closing its round), folded as a loss on each side."""

from __future__ import annotations

import pytest

from livetb.engine.model import Code, Entry
from livetb.errors import BoardHasResult, InvalidInput
from livetb.events.commands import (
    CloseRound,
    CorrectResult,
    RecordResult,
    decide,
    decode_command,
)
from livetb.events.schema import (
    AnyEvent,
    Board,
    ParticipantRegistered,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    TournamentCreated,
)
from livetb.events.state import TournamentState


def round_1() -> TournamentState:
    """Four players, round 1 paired: board 1 is 1 v 2, board 2 is 3 v 4."""
    state = TournamentState()
    events: list[AnyEvent] = [TournamentCreated(name="Club", rounds=3)]
    events += [ParticipantRegistered(start_no=no, name=f"P{no}") for no in range(1, 5)]
    events.append(RoundPaired(round=1, boards=(Board(1, 1, 2), Board(2, 3, 4))))
    for event in events:
        state.apply(event)
    return state


def test_0_0_is_recorded_and_folded_as_a_loss_for_each() -> None:
    state = round_1()
    events = decide(state, RecordResult(round=1, board=1, result="0-0"))
    assert events == [ResultRecorded(round=1, board=1, result="0-0")]
    assert state.apply(events[0]) == frozenset({1, 2})
    assert state.entry(1, 1) == Entry(Code.LOSS, 2, "w")
    assert state.entry(2, 1) == Entry(Code.LOSS, 1, "b")
    assert all(p.entries[0].code.played for p in state.tournament().participants[:2])
    # once recorded, only a correction changes it
    with pytest.raises(BoardHasResult, match="already has the result 0-0"):
        decide(state, RecordResult(round=1, board=1, result="1-0"))
    state.apply(ResultRecorded(round=1, board=2, result="1-0"))
    assert decide(state, CloseRound(round=1)) == [RoundClosed(round=1)]


def test_a_result_corrected_to_and_from_0_0() -> None:
    state = round_1()
    state.apply(ResultRecorded(round=1, board=1, result="0-1"))
    to_0_0 = CorrectResult(round=1, board=1, result="0-0", reason="both flags", expected="0-1")
    (event,) = decide(state, to_0_0)
    assert event == ResultCorrected(round=1, board=1, result="0-0", reason="both flags")
    state.apply(event)
    assert (state.entry(1, 1).code, state.entry(2, 1).code) == (Code.LOSS, Code.LOSS)
    back = CorrectResult(round=1, board=1, result="0-1", reason="appeal", expected="0-0")
    (event,) = decide(state, back)
    state.apply(event)
    assert (state.entry(1, 1).code, state.entry(2, 1).code) == (Code.LOSS, Code.WIN)


def test_0_0_over_the_wire_and_what_is_still_no_result() -> None:
    body = '{"type": "RecordResult", "round": 1, "board": 1, "result": "0-0"}'
    assert decode_command(body) == RecordResult(round=1, board=1, result="0-0")
    with pytest.raises(InvalidInput, match=r"\$\.result"):
        decode_command(body.replace('"0-0"', '"0-1/2"'))
