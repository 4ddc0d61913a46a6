"""US Chess and other non-FIDE tie-breaks of seed 003 (USCF rules, Just & Burg 2003).

| code | name                          | rule                                               |
|------|-------------------------------|----------------------------------------------------|
| CUM  | Cumulative                    | sum of running scores, less unplayed points won    |
| KASH | Kashdan                       | 4 / 2 / 1 for win / draw / loss, 0 when unplayed   |
| TFL  | Time of first loss            | the later the first loss, the better               |
"""

from __future__ import annotations

from decimal import Decimal

from livetb.engine.context import ZERO, Context
from livetb.engine.result import Part, Value
from livetb.engine.spec import Spec

KASHDAN = {"win": Decimal(4), "draw": Decimal(2), "loss": Decimal(1)}


def cumulative(ctx: Context, spec: Spec, no: int) -> Value:
    """CUM: running score after each round, summed; each unplayed point won is taken off
    (a full point for an unplayed win, a half for an unplayed draw)."""
    running, total, parts = ZERO, ZERO, []
    for r in ctx.rounds(no):
        running += r.points
        total += running
        parts.append(Part(r.rnd, running))
        if not r.played:
            total -= r.points
    return Value(total, tuple(parts))


def kashdan(ctx: Context, spec: Spec, no: int) -> Value:
    """KASH: 4 per win, 2 per draw, 1 per loss over the board; unplayed rounds give 0."""
    parts = []
    for r in ctx.rounds(no):
        if r.played:
            kind = "win" if r.points == ctx.win else "draw" if r.points == ctx.draw else "loss"
            parts.append(Part(r.rnd, KASHDAN[kind], kind))
    return Value(sum((p.amount for p in parts), ZERO), tuple(parts))


def first_loss(ctx: Context, spec: Spec, no: int) -> Value:
    """TFL: the round of the first loss (over the board or by forfeit); rounds + 1 if none."""
    for r in ctx.rounds(no):
        if r.points < ctx.draw and r.opponent is not None:
            return Value(r.rnd, (Part(r.rnd, r.rnd, "first loss"),))
    return Value(ctx.upto + 1)
