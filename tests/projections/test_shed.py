"""What a round event replaced is freed a piece at a time (`shed`), the engine's tournament
(every participant with its rounds) included: freed whole, at 10,000 players, it held a
settle slice 2-5 ms."""

from __future__ import annotations

from livetb.demo.tournament import swiss_events
from livetb.events.state import TournamentState
from livetb.projections.close import shed


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
