"""A projection as the standings document (`livetb.wire.standings.DbStandings`)."""

from __future__ import annotations

from livetb.engine.editions import edition_for
from livetb.projections.standings import StandingsProjection
from livetb.wire.standings import DbStandings


def to_json(p: StandingsProjection) -> DbStandings:
    state = p.state
    created = state.created
    assert created is not None
    edition = state.edition or edition_for(created.start_date)
    running = state.paired if state.paired > state.closed else None
    return DbStandings(
        p.seq, edition.value, state.closed, running, [s.text for s in p.specs], p.standings()
    )
