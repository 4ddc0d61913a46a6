"""A round event folded a piece at a time (`StandingsProjection.stepwise`): between pieces a
reader reads the standings as they were before the event, whole; once done, the projection and
the delta are exactly what folding it at once gives."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from livetb.events.schema import AnyEvent, RoundClosed, RoundPaired
from livetb.projections.document import to_json
from livetb.projections.standings import StandingsProjection
from tests.projections.test_incremental import recorded, tournaments


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments(), st.integers(1, 3), st.lists(st.integers(0, 3), min_size=1, max_size=20))
def test_a_round_event_in_pieces_reads_as_before_until_done_then_as_folded_at_once(
    events: list[AnyEvent], chunk: int, budgets: list[int]
) -> None:
    """Rows `chunk` at a time (every pairing and close of these small fields in several
    pieces), settled a little between events now and then (the close takes what is left)."""
    stepped, whole = StandingsProjection(), StandingsProjection()
    for k, rec in enumerate(recorded(events)):
        expected = whole.apply(rec)
        steps = stepped.stepwise(rec, chunk)
        if steps is None:
            assert (
                not isinstance(rec.event, RoundPaired | RoundClosed) or len(stepped.lines) <= chunk
            )
            assert stepped.apply(rec) == expected
        else:
            before = (stepped.seq, to_json(stepped), stepped.state.paired, stepped.state.closed)
            pieces = 0
            while steps.advance():
                pieces += 1
                now = (stepped.seq, to_json(stepped), stepped.state.paired, stepped.state.closed)
                assert now == before, f"a reader saw the fold of seq {rec.seq} half done"
            assert pieces > 1
            assert steps.result == expected
        assert to_json(stepped) == to_json(whole)
        assert stepped.state == whole.state
        budget = budgets[k % len(budgets)]
        if budget:
            stepped.settle(budget)
            whole.settle(budget)


@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(tournaments(players=(300, 340), rounds_=(2, 3)))
def test_a_large_fields_rounds_in_pieces_equal_a_rebuild(events: list[AnyEvent]) -> None:
    """Hundreds of rows, pieces of the default size: after each round event folded in pieces
    the standings are those computed from scratch."""
    log = recorded(events)
    stepped = StandingsProjection()
    for k, rec in enumerate(log, start=1):
        steps = stepped.stepwise(rec)
        if steps is None:
            stepped.apply(rec)
            continue
        steps.finish()
        assert stepped.standings() == StandingsProjection.rebuild(log[:k]).standings()
