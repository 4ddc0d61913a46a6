"""The standings as documents: the `--format json` contract of a computed table (`JsonStandings`)
and of the live projection (`DbStandings`, also the REST body and the feed's snapshot). Shared
by the CLI, the server and the client, so none of them imports another."""

from __future__ import annotations

import msgspec

from livetb.engine.editions import edition_for
from livetb.engine.result import Number
from livetb.engine.standings import Standings
from livetb.projections.standings import Row, StandingsProjection


class JsonRow(msgspec.Struct):
    rank: int
    start_no: int
    name: str
    values: list[str | int | None]


class JsonStandings(msgspec.Struct):
    """The `--format json` contract other tools rely on."""

    edition: str
    after_round: int
    tiebreaks: list[str]
    standings: list[JsonRow]


def format_value(v: Number | str | None) -> str | int | None:
    """Decimals as strings (never floats), whole counts and ratings as ints."""
    if v is None or isinstance(v, int | str):
        return v
    if v == v.to_integral_value() and v.as_tuple().exponent >= 0:
        return f"{v:.1f}"
    return str(v)


def standings_json(st: Standings) -> JsonStandings:
    rows = [
        JsonRow(r.rank, r.start_no, r.name, [format_value(v) for v in r.values]) for r in st.rows
    ]
    return JsonStandings(st.edition, st.after_round, list(st.tiebreaks), rows)


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
