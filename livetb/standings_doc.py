"""The live standings as a document (`DbStandings`): the `livetb standings --db` JSON, the REST
body and the feed's snapshot. Shared by the CLI, the server and the client, so none of them
imports another. (A table computed from a file has its own contract, `livetb.cli.output`.)"""

from __future__ import annotations

import msgspec

from livetb.engine.editions import edition_for
from livetb.projections.standings import Row, StandingsProjection


class DbStandings(msgspec.Struct):
    """The CLI's JSON contract plus the log position and each value's status."""

    seq: int
    edition: str
    after_round: int
    round_in_progress: int | None
    tiebreaks: list[str]
    standings: list[Row]


def to_json(p: StandingsProjection) -> DbStandings:
    state = p.state
    created = state.created
    assert created is not None
    edition = state.edition or edition_for(created.start_date)
    running = state.paired if state.paired > state.closed else None
    return DbStandings(
        p.seq, edition.value, state.closed, running, [s.text for s in p.specs], p.standings()
    )
