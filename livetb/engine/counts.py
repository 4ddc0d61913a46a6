"""Type B tie-breaks from the participant's own results (C.07 2024 Art. 7; 2023 Art. 6).

| code | name                         | 2024 | 2023 |
|------|------------------------------|------|------|
| PTS  | points                       |  -   |  -   |
| WIN  | rounds scored as a win       | 7.1  | 6.1  |
| WON  | games won over the board     | 7.2  | 6.2  |
| BPG  | games played with Black      | 7.3  | 6.3  |
| BWG  | games won with Black         | 7.4  | 6.4  |
| PS   | progressive scores (+ Cut-1) | 7.5  | 6.5  |
| GE   | games elected to play (REP)  | 7.6  | 6.6  |
| STD  | standard points 1/½/0 (2026) |  -   |  -   |
"""

from __future__ import annotations

from decimal import Decimal

from livetb.engine.context import ZERO, Context, Round
from livetb.engine.model import Code
from livetb.engine.modifiers import Spec
from livetb.engine.result import RUNNING_SCORE, Part, Reason, RoundResult, Value, outcome

# The counts test `played` (a property of a property) last: the live standings count every
# participant's rounds on each pairing.


def _count(ctx: Context, rounds: list[Round]) -> Value:
    """How many of `rounds` (the ones a count selects)."""
    if not ctx.explain:
        return Value(len(rounds))
    return Value(len(rounds), tuple(Part(r.rnd, 1, RoundResult(outcome(r.code))) for r in rounds))


def points(ctx: Context, spec: Spec, no: int) -> Value:
    """PTS: the standings score."""
    if not ctx.explain:
        return Value(ctx.score(no))
    parts = tuple(Part(r.rnd, r.points, RoundResult(outcome(r.code))) for r in ctx.rounds(no))
    return Value(ctx.score(no), parts)


def wins(ctx: Context, spec: Spec, no: int) -> Value:
    """WIN, 2024 7.1: rounds scored as a win, played or not (PAB, FPB and forfeit wins count)."""
    win = ctx.win
    return _count(ctx, [r for r in ctx.rounds(no) if r.points == win])


def games_won(ctx: Context, spec: Spec, no: int) -> Value:
    """WON, 2024 7.2: games won over the board."""
    win = ctx.win
    return _count(ctx, [r for r in ctx.rounds(no) if r.points == win and r.played])


def black_games(ctx: Context, spec: Spec, no: int) -> Value:
    """BPG, 2024 7.3: games played over the board with Black."""
    return _count(ctx, [r for r in ctx.rounds(no) if r.colour == "b" and r.played])


def black_wins(ctx: Context, spec: Spec, no: int) -> Value:
    """BWG, 2024 7.4: games won over the board with Black."""
    win = ctx.win
    return _count(
        ctx, [r for r in ctx.rounds(no) if r.colour == "b" and r.points == win and r.played]
    )


def games_elected(ctx: Context, spec: Spec, no: int) -> Value:
    """GE/REP, 2024 7.6: rounds minus requested byes and forfeit losses (PAB counts)."""
    win = ctx.win
    return _count(
        ctx, [r for r in ctx.rounds(no) if r.played or r.code is Code.PAB or r.points == win]
    )


def progressive(ctx: Context, spec: Spec, no: int) -> Value:
    """PS, 2024 7.5: sum of the running score after each round; Cut-n drops the first n."""
    running, total, parts, cut = ZERO, ZERO, [], []
    for r in ctx.rounds(no):
        running += r.points
        if r.rnd <= spec.cut_low:
            cut.append((r.rnd, Reason.EARLY))
        else:
            total += running
        parts.append(Part(r.rnd, running, RUNNING_SCORE))
    return Value(total, tuple(parts), tuple(cut))


def standard_points(ctx: Context, spec: Spec, no: int) -> Value:
    """STD (2026): the score re-counted as 1 / ½ / 0 for results above, at, below a draw."""
    parts = tuple(
        Part(r.rnd, _standard(r.points, ctx.draw), RoundResult(outcome(r.code)))
        for r in ctx.rounds(no)
    )
    return Value(sum((p.amount for p in parts), ZERO), parts)


def _standard(points: Decimal, draw: Decimal) -> Decimal:
    if points > draw:
        return Decimal(1)
    return Decimal("0.5") if points == draw else ZERO
