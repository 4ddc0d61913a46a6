"""The crosstable: every participant in standings order, each round's opponent, colour, result
and points, the total and the tie-break values of the standings row.

A row's rank, values and statuses are the standings' (`StandingsProjection.standings`), so the
crosstable and the standings never disagree; the rounds are read through the same engine
context the standings' own-result tie-breaks read (rounds 1..K, an unfinished game worth
nothing yet), so a cell's points are those the totals add. Opponents are given by start
number: a reader finds their rank in the same document.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

import msgspec

from livetb.engine.context import Context
from livetb.errors import NotFound
from livetb.projections.standings import StandingsProjection, fmt
from livetb.wire.standings import Status, Value


class CrossCell(msgspec.Struct):
    """One participant's round."""

    round: int
    opponent: int | None  # the scheduled opponent (also for forfeits); None for byes
    colour: Literal["w", "b"] | None
    result: str  # the TRF result code: 1 = 0 W D L + - H F U Z X, or * for a game not finished
    points: str  # what the round adds to the total (0.0 while its game runs)


class CrossRow(msgspec.Struct):
    rank: int
    start_no: int
    name: str
    rating: int | None
    title: str
    federation: str
    points: str  # the rounds' points added up
    values: list[Value]  # the standings row's, one per tie-break
    statuses: list[Status]
    rounds: list[CrossCell]  # rounds 1..K, K the last paired


class Crosstable(msgspec.Struct):
    seq: int
    after_round: int
    round_in_progress: int | None
    rounds: int  # the tournament's rounds (planned)
    paired: int  # the last round paired: each row has this many cells
    tiebreaks: list[str]
    rows: list[CrossRow]  # in standings order


def build(projection: StandingsProjection) -> Crosstable:
    """The crosstable of an individual tournament (NotFound for a team tournament, whose
    standings rows are teams)."""
    state = projection.state
    created = state.created
    assert created is not None
    if created.kind == "team":
        raise NotFound.of("api.team_crosstable")
    ctx = Context(
        state.tournament(),
        state.paired,
        edition=state.edition,
        unrated_rating=created.unrated_rating,
    )
    ctx.explain = False
    rows = []
    for row in projection.standings():
        p = state.participants[row.start_no]
        rounds = ctx.rounds(row.start_no)
        cells = [
            CrossCell(r.rnd, r.opponent, r.colour, r.code.value, str(fmt(r.points))) for r in rounds
        ]
        total = str(fmt(sum((r.points for r in rounds), Decimal(0))))
        rows.append(CrossRow(
            row.rank, row.start_no, row.name, p.rating, p.title, p.federation, total,
            list(row.values), list(row.statuses), cells,
        ))  # fmt: skip
    running = state.paired if state.paired > state.closed else None
    tiebreaks = [spec.text for spec in projection.specs]
    return Crosstable(
        projection.seq, state.closed, running, created.rounds, state.paired, tiebreaks, rows
    )
