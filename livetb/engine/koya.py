"""Koya system (C.07 2024 10.2; 2023 9.2), with the Limit modifier (2024 14.5; 2023 13.5).

| code | name  | type | 2024 | 2023 |
|------|-------|------|------|------|
| KS   | Koya  | B, C | 10.2 | 9.2  |
"""

from __future__ import annotations

from decimal import Decimal

from livetb.engine.context import ZERO, Context
from livetb.engine.modifiers import Spec
from livetb.engine.result import KOYA_LIMIT, Opponent, Part, Reason, Value

HALF = Decimal("0.5")


def limit(ctx: Context, spec: Spec) -> Decimal:
    """The score an opponent needs: a share of the maximum possible, moved in half points."""
    games = ctx.upto
    if ctx.rr:
        n = len(ctx.start_nos)
        if games % n == 0:
            games -= games // n  # odd round robin: everyone sits out once per cycle
        games -= sum(1 for no in ctx.start_nos if ctx.last_paired(no) == 0)
    return spec.ks_percent * ctx.win * games / 100 + spec.ks_steps * HALF


def koya(ctx: Context, spec: Spec, no: int) -> Value:
    """KS: points scored against the participants who reached the limit. Explained as the
    limit (a part of round 0), then every round with an opponent, those below it cut."""
    lim = limit(ctx, spec)
    parts, cut, total = [Part(0, lim, KOYA_LIMIT)], [], ZERO
    for r in ctx.rounds(no):
        if r.opponent is None:
            continue
        parts.append(Part(r.rnd, r.points, Opponent(r.opponent)))
        if ctx.score(r.opponent) >= lim:
            total += r.points
        else:
            cut.append((r.rnd, Reason.BELOW_LIMIT))
    return Value(total, tuple(parts), tuple(cut))
