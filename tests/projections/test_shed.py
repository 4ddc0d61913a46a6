"""What a round event replaced is freed a piece at a time (`shed`), the engine's tournament
(every participant with its rounds) included: freed whole, at 10,000 players, it held a
settle slice 2-5 ms."""

from __future__ import annotations

from livetb.demo.tournament import swiss_events
from livetb.events.schema import ParticipantRegistered, ParticipantUpdated, TournamentCreated
from livetb.events.state import TournamentState
from livetb.projections.close import shed
from livetb.projections.standings import StandingsProjection
from tests.projections.closing import recorded


def test_an_engine_tournament_nothing_else_holds_is_freed_a_participant_at_a_time() -> None:
    state = TournamentState()
    for event in swiss_events(600, 2):
        state.apply(event)
    retired: object = (None, (state.tournament(), None))
    calls = 0
    while retired is not None:
        retired = shed(retired)
        calls += 1
    # One call lays the pieces out; then no call frees more than one participant.
    assert calls > 600


def test_what_something_else_still_holds_is_left_whole() -> None:
    state = TournamentState()
    for event in swiss_events(30, 2):
        state.apply(event)
    held = state.tournament()
    retired: object = (held,)
    calls = 0
    while retired is not None:
        retired = shed(retired)
        calls += 1
    assert calls == 2  # laid out, then let go of at once: `held` keeps it
    assert len(held.participants) == 30


def test_the_rows_a_rebuild_made_are_freed_by_settle_not_by_the_next_event() -> None:
    # A load rebuilds every row and keeps what it changed until the next event: freed then,
    # at 10,000 players, that event's apply took 4 ms.
    entries = [
        e for e in swiss_events(600, 2) if isinstance(e, TournamentCreated | ParticipantRegistered)
    ]
    log = recorded(entries)
    projection = StandingsProjection.rebuild(log)
    assert not projection.unsettled  # nothing paired: no close to prepare
    [rec] = recorded([ParticipantUpdated(start_no=7, name="Renamed")], start=len(log) + 1)
    delta = projection.apply(rec)
    assert [change.start_no for change in delta.changes] == [7]
    assert projection.unsettled  # the rebuild's 600 rows, for `settle` to free
    slices = 1
    while projection.settle(4):
        slices += 1
    assert not projection.unsettled and slices > 1


def test_a_small_dict_of_big_tables_is_taken_apart_not_freed_whole() -> None:
    # A close retires DE's groups by column ({index: DirectEncounters}): freed with the dict,
    # 10,000 rows' groups held a settle slice 3-8 ms.
    state = TournamentState()
    for event in swiss_events(600, 2):
        state.apply(event)
    retired: object = (None, {3: state.tournament()})
    calls = 0
    while retired is not None:
        retired = shed(retired)
        calls += 1
    assert calls > 600
