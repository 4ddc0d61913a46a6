"""Every outcome of a running round's unfinished boards as its close publishes it: the log with
those played results recorded and the round closed, folded from scratch by the standings
projection. Nothing of the exact reach (`livetb/engine/reach.py`) is used: it is what the
outlooks are checked against."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterator, Sequence
from decimal import Decimal

from livetb.events.schema import (
    AnyEvent,
    Board,
    GameResult,
    PrizesDefined,
    Recorded,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
)
from livetb.projections.prizes import prize_list
from livetb.projections.standings import StandingsProjection

AT = dt.datetime(2026, 5, 1, tzinfo=dt.UTC)
PLAYED: tuple[GameResult, ...] = ("1-0", "1/2-1/2", "0-1")  # white's side; OUTCOMES order
Combo = tuple[int, ...]  # each open board's result, an index of PLAYED (White's side)


def recorded(events: Sequence[AnyEvent], start: int = 1) -> list[Recorded]:
    return [
        Recorded(tournament_id="t", seq=i, at=AT, actor="test", event=e)
        for i, e in enumerate(events, start=start)
    ]


def running_round(events: Sequence[AnyEvent]) -> int:
    return max(e.round for e in events if isinstance(e, RoundPaired))


def closings(
    events: Sequence[AnyEvent], open_boards: Sequence[Board]
) -> Iterator[tuple[Combo, StandingsProjection]]:
    """Each combination of played results of `open_boards`, and the standings after the close
    it leads to."""
    rnd = running_round(events)
    for combo in itertools.product(range(3), repeat=len(open_boards)):
        ended: list[AnyEvent] = [
            ResultRecorded(round=rnd, board=b.board, result=PLAYED[r])
            for b, r in zip(open_boards, combo, strict=True)
        ]
        log = recorded([*events, *ended, RoundClosed(round=rnd)])
        yield combo, StandingsProjection.rebuild(log)


def own_result(no: int, combo: Combo, open_boards: Sequence[Board]) -> int | None:
    """The index of OUTCOMES (win, draw, loss from `no`'s side) of `no`'s open game, None
    when `no` has no open game."""
    for b, r in zip(open_boards, combo, strict=True):
        if no == b.white:
            return r
        if no == b.black:
            return 2 - r
    return None


def taken(closed: StandingsProjection, table: PrizesDefined) -> dict[int, Decimal]:
    """Each participant's total in the prize list of `closed` under `table` (the table set in
    the throwaway projection's state: the standings do not depend on it)."""
    closed.state.prizes = table
    out: dict[int, Decimal] = {}
    for a in prize_list(closed).awards:
        out[a.start_no] = out.get(a.start_no, Decimal(0)) + Decimal(a.amount)
    return out
