"""Rating-based tie-breaks (C.07 2024 Art. 9, 10; 2023 Art. 8, 9), on the FIDE B.02 tables.

| code | name                                  | type | 2024 | 2023 |
|------|---------------------------------------|------|------|------|
| ARO  | average rating of opponents (+ cuts)  | D    | 9.1  | 8.1  |
| TPR  | tournament performance rating         | D    | 9.2  | 8.2  |
| PTP  | perfect tournament performance        | D    | 9.3  | 8.3  |
| APRO | average TPR of opponents              | B, D | 10.3 | 9.3  |
| APPO | average PTP of opponents              | B, D | 10.4 | 9.4  |

Only games played over the board count. Without a rating for every participant (or a rating
given to the unrated, 2024 4.5) these tie-breaks are undefined (null).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from livetb.engine.context import ZERO, Context
from livetb.engine.fide_tables import DIFF_TO_PD, SCORE_TO_DP
from livetb.engine.modifiers import Spec
from livetb.engine.result import (
    OpponentRating,
    OpponentValue,
    Part,
    Reason,
    Value,
    average,
    half_up,
)

Games = list[tuple[int, int, Decimal, int]]  # (round, opponent's rating, rating points, opponent)
# Rating points are always 1 / ½ / 0, whatever the tournament's scoring (X counts 0).
_RATING_POINTS = {"1": Decimal(1), "W": Decimal(1), "=": Decimal("0.5"), "D": Decimal("0.5")}


def expected(own: int, opponent: int) -> int:
    """Expected score in hundredths (B.02 8.1(b)), differences capped at 800."""
    diff = max(-800, min(800, opponent - own))
    return DIFF_TO_PD[-diff] if diff < 0 else 100 - DIFF_TO_PD[diff]


def average_rating(ratings: list[int]) -> int | None:
    avg = average(ratings, "1")
    return None if avg is None else int(avg)


def performance(score: Decimal, ratings: list[int]) -> int | None:
    """TPR: ARO + dp(p), p = the fraction scored, in hundredths rounded half up."""
    aro = average_rating(ratings)
    if aro is None:
        return None
    p = int(half_up(score * 100 / len(ratings), "1"))
    return aro + SCORE_TO_DP[p]


def perfect_performance(score: Decimal, ratings: list[int]) -> int | None:
    """PTP: the lowest rating whose expected score against these opponents reaches the score."""
    if not ratings:
        return None
    if score == 0:
        return min(ratings) - 800
    target = score * 100
    low, high = (
        min(ratings) - 800,
        max(ratings) + 800,
    )  # expected(low) = 0 < target <= expected(high)
    while high - low > 1:
        mid = (low + high) // 2
        if sum(expected(mid, r) for r in ratings) >= target:
            high = mid
        else:
            low = mid
    return high


def _games(ctx: Context, no: int) -> Games:
    """(round, opponent's rating, rating points, opponent) of each game played over the board."""
    out = []
    for r in ctx.rounds(no):
        if r.played and r.opponent is not None:
            rating = ctx.rating(r.opponent)
            if rating is not None:
                out.append((r.rnd, rating, _RATING_POINTS.get(r.code.value, ZERO), r.opponent))
    return out


def _parts(games: Games) -> tuple[Part, ...]:
    return tuple(Part(rnd, rating, OpponentRating(opponent)) for rnd, rating, _, opponent in games)


def average_rating_of_opponents(ctx: Context, spec: Spec, no: int) -> Value:
    """ARO, 2024 9.1; Cut-n drops the lowest ratings, Median-n also the highest."""
    if not ctx.rated:
        return Value(None)
    games = sorted(_games(ctx, no), key=lambda g: g[1])
    low = min(spec.cut_low, ctx.upto)
    high = min(spec.cut_high, ctx.upto - low)
    kept = games[low : len(games) - high] if low + high < len(games) else []
    dropped = [g for g in games if g not in kept]  # the `low` lowest ratings, then the highest
    return Value(
        average_rating([g[1] for g in kept]),
        _parts(sorted(games)),
        tuple((g[0], Reason.LOWEST if i < low else Reason.HIGHEST) for i, g in enumerate(dropped)),
    )


def tpr(ctx: Context, no: int) -> int | None:
    return _memo(
        ctx, "TPR", no, lambda g: performance(sum((x[2] for x in g), ZERO), [x[1] for x in g])
    )


def ptp(ctx: Context, no: int) -> int | None:
    return _memo(
        ctx,
        "PTP",
        no,
        lambda g: perfect_performance(sum((x[2] for x in g), ZERO), [x[1] for x in g]),
    )


def _memo(
    ctx: Context,
    code: str,
    no: int,
    compute: Callable[[Games], int | None],
) -> int | None:
    key = (code, no)
    if key not in ctx.memo:
        ctx.memo[key] = compute(_games(ctx, no)) if ctx.rated else None
    return ctx.memo[key]  # type: ignore[return-value]


def performance_rating(ctx: Context, spec: Spec, no: int) -> Value:
    """TPR, 2024 9.2: ARO plus the rating difference of the fraction scored (B.02 8.1(a))."""
    return Value(tpr(ctx, no), _parts(_games(ctx, no)) if ctx.rated else ())


def perfect_performance_rating(ctx: Context, spec: Spec, no: int) -> Value:
    """PTP, 2024 9.3: the lowest rating for which the rating change would be zero."""
    return Value(ptp(ctx, no), _parts(_games(ctx, no)) if ctx.rated else ())


def _average_of(
    ctx: Context, no: int, of: Callable[[Context, int], int | None], code: str
) -> Value:
    parts = []
    for r in ctx.rounds(no):
        if r.played and r.opponent is not None:
            value = of(ctx, r.opponent)
            if value is not None:
                parts.append(Part(r.rnd, value, OpponentValue(r.opponent, code)))
    avg = average([p.amount for p in parts], "1")
    return Value(None if avg is None else int(avg), tuple(parts))


def average_performance_of_opponents(ctx: Context, spec: Spec, no: int) -> Value:
    """APRO, 2024 10.3: average TPR of the opponents, rounded half up."""
    return _average_of(ctx, no, tpr, "TPR")


def average_perfect_performance_of_opponents(ctx: Context, spec: Spec, no: int) -> Value:
    """APPO, 2024 10.4: average PTP of the opponents, rounded half up."""
    return _average_of(ctx, no, ptp, "PTP")
