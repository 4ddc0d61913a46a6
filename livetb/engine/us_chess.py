"""US Chess and other non-FIDE tie-breaks of seed 003 (USCF rules, Just & Burg 2003).

| code | name                         | rule                                                       |
|------|------------------------------|------------------------------------------------------------|
| MM   | Modified Median              | MED; above 50 % only the lowest dropped, below the highest |
| MED  | Median (Harkness), also HARK | SOLK less the highest and lowest (2 each from 9 rounds)    |
| SOLK | Solkoff                      | opponents' scores, nothing dropped                         |
| CUM  | Cumulative                   | sum of running scores, less unplayed points won            |
| OCUM | Opponents' Cumulative        | sum of the opponents' CUM                                  |
| KASH | Kashdan                      | 4 / 2 / 1 for win / draw / loss, 0 when unplayed           |
| MB   | Most Blacks                  | games played with Black                                    |
| RBT  | Result between tied players  | computed as DE (`direct_encounter.py`)                     |
| TFL  | Time of first loss           | the later the first loss, the better                       |

Preset: `--system uscf` is the US Chess recommended order, PTS, MM, SOLK, CUM, OCUM (`USCF`).

Unplayed games, as seed 003 gives them: an opponent's unplayed games count ½ point each
(a draw's value) in the opponent's score; a player's own unplayed games count zero; Cumulative
subtracts 1 for an unplayed win and ½ for an unplayed draw; Kashdan gives 0. Where the seed is
silent we choose, and `/O` selects the other reading:

- MM, MED, SOLK, OCUM: an own unplayed round "counts zero" as an entry of 0 in the list of
  opponents' scores, so the median's low cut drops it first. `/O`: it gives no entry at all
  (the median then cuts the lowest real opponent).
- MM, MED with nine or more rounds: two scores are dropped at each end (the seed says so for the
  Median only; we carry it over to MM). `/M1` (or `/M2`) fixes the number dropped.
- MM's "exactly 50 %": of the rounds counted so far (after round K, K × ½ of a win). After the
  last round this is the scheduled maximum too, so the two readings differ only mid-event, where
  the scheduled maximum would put nearly everyone below 50 %; that reading is not offered.
- RBT has no other reading either (see below): the live projection decides tied groups by DE.
- MB: games played over the board with Black; `/O`: forfeits count with their scheduled colour.
- TFL: a forfeit loss is a loss; `/O`: only losses over the board count. A player without a
  loss gets rounds + 1 (ranks above every loss).
- OCUM: each opponent's CUM as above, an own unplayed round an entry of 0 (`/O`: none).
- RBT: the seed covers two tied players who met; a draw, more than two or players who did not
  all meet are left open. We apply C.07's Direct Encounter (DE), which answers all three; it is
  the same tie-break, so `RBT` is an alias of `DE` and has no other reading.
"""

from __future__ import annotations

from decimal import Decimal

from livetb.engine.context import ZERO, Context
from livetb.engine.modifiers import Spec
from livetb.engine.result import (
    BLACK,
    BLACK_FORFEIT,
    FIRST_LOSS,
    RUNNING_SCORE,
    Opponent,
    Outcome,
    Part,
    Reason,
    RoundResult,
    UnplayedZero,
    Value,
    outcome,
)

KASHDAN = {"win": Decimal(4), "draw": Decimal(2), "loss": Decimal(1)}
USCF = ("PTS", "MM", "SOLK", "CUM", "OCUM")


def us_opponent_score(ctx: Context, opponent: int) -> Decimal:
    """The opponent's score with each of the opponent's unplayed games counted as a draw."""
    return sum((r.points if r.played else ctx.draw for r in ctx.rounds(opponent)), ZERO)


def _entries(ctx: Context, spec: Spec, no: int, of: object) -> list[Part]:
    """One entry per round: the opponent's value `of(opponent)` for a game played, 0 for an
    own unplayed round (none with `/O`)."""
    parts = []
    for r in ctx.rounds(no):
        if r.played and r.opponent is not None:
            parts.append(Part(r.rnd, of(r.opponent), Opponent(r.opponent)))  # type: ignore[operator]
        elif not spec.other:
            parts.append(Part(r.rnd, ZERO, UnplayedZero(outcome(r.code))))
    return parts


def solkoff(ctx: Context, spec: Spec, no: int) -> Value:
    """SOLK: the sum of the opponents' scores (their unplayed games as draws)."""
    parts = _entries(ctx, spec, no, lambda opp: us_opponent_score(ctx, opp))
    return Value(sum((p.amount for p in parts), ZERO), tuple(parts))


def median(ctx: Context, spec: Spec, no: int) -> Value:
    """MED (Harkness): SOLK less the highest and the lowest entry; two each from 9 rounds."""
    n = spec.cut_high or (2 if ctx.upto >= 9 else 1)
    return _drop(ctx, spec, no, low=n, high=n)


def modified_median(ctx: Context, spec: Spec, no: int) -> Value:
    """MM: as MED at exactly 50 %; above it only the lowest entries are dropped, below it
    only the highest."""
    n = spec.cut_high or (2 if ctx.upto >= 9 else 1)
    half = ctx.upto * ctx.win / 2
    score = ctx.score(no)
    low = n if score >= half else 0
    high = n if score <= half else 0
    return _drop(ctx, spec, no, low, high)


def _drop(ctx: Context, spec: Spec, no: int, low: int, high: int) -> Value:
    parts = _entries(ctx, spec, no, lambda opp: us_opponent_score(ctx, opp))
    ordered = sorted(parts, key=lambda p: (p.amount, p.rnd))
    lows = ordered[: min(low, len(ordered))]
    highs = ordered[len(lows) :][::-1][:high]
    cut = [(p.rnd, Reason.LOWEST) for p in lows] + [(p.rnd, Reason.HIGHEST) for p in highs]
    dropped = {p.rnd for p in lows + highs}
    kept = sum((p.amount for p in parts if p.rnd not in dropped), ZERO)
    return Value(kept, tuple(parts), tuple(sorted(cut)))


def cumulative(ctx: Context, spec: Spec, no: int) -> Value:
    """CUM: running score after each round, summed; each unplayed point won is taken off
    (a full point for an unplayed win, a half for an unplayed draw)."""
    running, total, parts = ZERO, ZERO, []
    for r in ctx.rounds(no):
        running += r.points
        total += running
        parts.append(Part(r.rnd, running, RUNNING_SCORE))
        if not r.played:
            total -= r.points
    return Value(total, tuple(parts))


def opponents_cumulative(ctx: Context, spec: Spec, no: int) -> Value:
    """OCUM: the sum of the opponents' Cumulative scores."""
    parts = _entries(ctx, spec, no, lambda opp: cumulative(ctx, spec, opp).value)
    return Value(sum((p.amount for p in parts), ZERO), tuple(parts))


def kashdan(ctx: Context, spec: Spec, no: int) -> Value:
    """KASH: 4 per win, 2 per draw, 1 per loss over the board; unplayed rounds give 0."""
    parts = []
    for r in ctx.rounds(no):
        if r.played:
            kind: Outcome = (
                "win" if r.points == ctx.win else "draw" if r.points == ctx.draw else "loss"
            )
            parts.append(Part(r.rnd, KASHDAN[kind], RoundResult(kind)))
    return Value(sum((p.amount for p in parts), ZERO), tuple(parts))


def most_blacks(ctx: Context, spec: Spec, no: int) -> Value:
    """MB: games played with Black (`/O`: forfeits too, by their scheduled colour)."""
    parts = [
        Part(r.rnd, 1, BLACK if r.played else BLACK_FORFEIT)
        for r in ctx.rounds(no)
        if r.colour == "b" and r.opponent is not None and (r.played or spec.other)
    ]
    return Value(len(parts), tuple(parts))


def first_loss(ctx: Context, spec: Spec, no: int) -> Value:
    """TFL: the round of the first loss (over the board or by forfeit; `/O`: over the board
    only); rounds + 1 if none."""
    for r in ctx.rounds(no):
        if r.points < ctx.draw and r.opponent is not None and (r.played or not spec.other):
            return Value(r.rnd, (Part(r.rnd, r.rnd, FIRST_LOSS),))
    return Value(ctx.upto + 1)
