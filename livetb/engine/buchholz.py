"""Opponent-score tie-breaks and their modifiers (C.07 2024 Art. 8-10, 14, 16).

| code | name                         | type | 2024      | 2023      |
|------|------------------------------|------|-----------|-----------|
| BH   | Buchholz (+ Cut-n, Median-n) | C    | 8.1       | 7.1       |
| AOB  | average of opponents' BH     | C    | 8.2       | 7.2       |
| FB   | Fore Buchholz                | D    | 9.4       | 8.4       |
| SB   | Sonneborn-Berger (+ Cut-1)   | B, C | 10.1      | 9.1       |

Unplayed rounds: a played round contributes the opponent's adjusted score (`Context.adjusted`);
an own unplayed round contributes the participant's own score (2024 16.4, 2023 14.5), capped in
the 2026 edition, or the virtual opponent's score in the legacy rules (seed 004). In round robins
forfeits are ordinary games and rest rounds contribute nothing (2024 16.2).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from decimal import Decimal

import msgspec

from livetb.engine.context import ZERO, Context, Plan, Round, Terms
from livetb.engine.editions import Edition
from livetb.engine.model import PLAYED
from livetb.engine.modifiers import Spec
from livetb.engine.result import (
    Opponent,
    OpponentValue,
    OwnUnplayed,
    OwnUnplayedCapped,
    Part,
    Reason,
    TermSource,
    Value,
    VirtualOpponent,
    average,
    outcome,
)


class Term(msgspec.Struct, frozen=True):
    """One round's entry in a BH-type sum: the opponent's (or own) score, and the product
    with the points scored for SB."""

    rnd: int
    score: Decimal
    product: Decimal  # = score for BH, score x points scored for SB
    voluntary: bool  # an own voluntarily unplayed round: cut first (2024 16.5)
    source: TermSource


def terms(ctx: Context, no: int, *, fore: bool, sb: bool) -> list[Term]:
    """Every round's term for participant `no`, with where it comes from (the explaining
    path: the bulk sums read `_raw_terms`)."""
    out = []
    for r in ctx.rounds(no):
        term = _term(ctx, no, r, fore)
        if term is not None:
            score, voluntary, how = term
            product = score * r.points if sb else score
            out.append(Term(r.rnd, score, product, voluntary, _source(r, how)))
    return out


# How a term was found (for `--explain`): the opponent's score, a virtual opponent (legacy),
# the own score capped (2026), the own score.
_OPPONENT, _VIRTUAL, _CAPPED, _OWN = range(4)


def _source(r: Round, how: int) -> TermSource:
    if how == _OPPONENT:
        assert r.opponent is not None  # `_term` reads an opponent's score only when there is one
        return Opponent(r.opponent)
    kind = outcome(r.code)
    if how == _VIRTUAL:
        return VirtualOpponent(kind)
    return OwnUnplayedCapped(kind) if how == _CAPPED else OwnUnplayed(kind)


def _term(ctx: Context, no: int, r: Round, fore: bool) -> tuple[Decimal, bool, int] | None:
    opp = r.opponent
    # FB: the final round's pairing counts as a game whatever happened to it.
    if opp is not None and (r.played or ctx.rr or (fore and ctx.final and r.rnd == ctx.upto)):
        return ctx.adjusted(opp, fore), False, _OPPONENT
    if ctx.rr:
        return None  # a round robin's rest round
    if ctx.edition is Edition.LEGACY:
        return _virtual_opponent(ctx, no, r), r.voluntary, _VIRTUAL
    score = ctx.own_score(no, fore)
    term = _own_term(ctx, score, opp, fore)
    return term, r.voluntary, _OWN if term is score else _CAPPED


def _own_term(ctx: Context, own: Decimal, opp: int | None, fore: bool) -> Decimal:
    """An own unplayed round's term: the own score (2024 16.4), in 2026 at most the scheduled
    opponent's score, or rounds x draw points without one (`opp` None or 0)."""
    if ctx.edition.caps_own_unplayed:
        cap = ctx.adjusted(opp, fore) if opp else ctx.draw * ctx.upto
        if cap < own:
            return cap
    return own


def _raw_terms(ctx: Context, no: int, fore: bool) -> Terms:
    """Every term's score, whether it is an own voluntarily unplayed round, and the points
    scored in its round, cached in the context: what BH, its cuts, FB and SB share when
    nothing is explained. `fore` only matters when round K is the last one
    (`Context.adjusted`, `Context.own_score`, `_term` read it only then)."""
    fore = fore and ctx.final
    cache = ctx.bh_terms[fore]
    cached = cache.get(no)
    if cached is not None:
        return cached
    adjusted, known = ctx.adjusted, ctx.adjusted_cache[fore]
    opps = ctx.term_opponents(no, fore)
    if opps is not None:  # the usual row: every term an opponent's score, none voluntary
        try:
            scores = tuple(map(known.__getitem__, opps))
        except KeyError:  # `adjusted` not computed yet for one of them
            scores = tuple([adjusted(opp, fore) for opp in opps])
        cached = cache[no] = (scores, _NOT_VOLUNTARY[: len(opps)], None)
        return cached
    rr, upto = ctx.rr, ctx.upto
    usual = not rr and ctx.edition is not Edition.LEGACY
    own: Decimal | None = None  # the own score, read once (`_term`'s own case)
    terms: list[Decimal] = []
    voluntary: list[bool] = []
    points: list[Decimal] = []
    for r in ctx.rounds(no):
        opp = r.opponent
        if opp is not None and (r.code in PLAYED or rr or (fore and r.rnd == upto)):
            score = known.get(opp)  # `_term`'s first case
            terms.append(adjusted(opp, fore) if score is None else score)
            voluntary.append(False)
        elif usual:
            if own is None:
                own = ctx.own_score(no, fore)
            terms.append(_own_term(ctx, own, opp, fore))
            voluntary.append(r.voluntary)
        else:
            term = _term(ctx, no, r, fore)
            if term is None:
                continue
            terms.append(term[0])
            voluntary.append(term[1])
        points.append(r.points)
    cached = cache[no] = (tuple(terms), tuple(voluntary), tuple(points))
    return cached


_NOT_VOLUNTARY = (False,) * 256  # sliced: more rounds than any tournament has


def _virtual_opponent(ctx: Context, no: int, r: Round) -> Decimal:
    """Seed 004: Svon = SPR + (1 - SfPR) + 0.5 (n - R)."""
    before = sum((x.points for x in ctx.rounds(no)[: r.rnd - 1]), ZERO)
    return virtual_opponent(before, r.points, ctx.upto, r.rnd, ctx.win, ctx.draw)


def virtual_opponent(
    before: Decimal, got: Decimal, n: int, rnd: int, win: Decimal, draw: Decimal
) -> Decimal:
    """Pre-2023 FIDE (seed 004): score before the round + what the round did not give + a draw
    for every later round."""
    return before + (win - got) + draw * (n - rnd)


def cut(
    ctx: Context, items: list[Term], low: int, high: int
) -> tuple[list[Term], list[tuple[Term, Reason]]]:
    """Drop `low` least and `high` most significant terms (2024 14.1-14.4), each with why.
    Own voluntarily unplayed rounds go first among the low cuts (2024 16.5, 2023 14.6), unless
    the lowest term overall is smaller than the smallest of them (which only SB can produce)."""
    low = min(low, ctx.upto)
    high = min(high, ctx.upto - low)
    legacy = ctx.edition is Edition.LEGACY
    kept, dropped = list(items), []
    for _ in range(low):
        if not kept:
            break
        lowest = min(kept, key=lambda t: (t.score, t.product))
        first = min(kept, key=lambda t: (not t.voluntary, t.score, t.product))
        if legacy or lowest.product > first.product:
            first = lowest
        kept.remove(first)
        # The legacy rules cut the lowest, voluntary or not.
        dropped.append(
            (first, Reason.VOLUNTARY if first.voluntary and not legacy else Reason.LOWEST)
        )
    for _ in range(high):
        if not kept:
            break
        highest = min(kept, key=lambda t: (-t.score, -t.product))
        kept.remove(highest)
        dropped.append((highest, Reason.HIGHEST))
    return kept, dropped


def _sum(ctx: Context, spec: Spec, no: int, *, fore: bool, sb: bool) -> Value:
    if not ctx.explain:
        return Value(total_of(ctx, spec, no, fore, sb))
    kept, dropped = cut(ctx, terms(ctx, no, fore=fore, sb=sb), spec.cut_low, spec.cut_high)
    total = sum((t.product for t in kept), ZERO)
    every = sorted(kept + [t for t, _ in dropped], key=_rnd)
    return Value(
        total,
        tuple(Part(t.rnd, t.product, t.source) for t in every),
        tuple((t.rnd, why) for t, why in dropped),
    )


def total_of(ctx: Context, spec: Spec, no: int, fore: bool, sb: bool) -> Decimal:
    """`_sum`'s total without explanations: the same terms and the same cuts as `cut`, added
    exactly (Decimal sums this small are exact, and an exact sum's exponent is its terms'
    least whatever their order: the same Decimal, exponent included). Cached in the context
    with the terms (FB before the last round is BH, for one)."""
    return totals_of(ctx, spec, (no,), fore, sb)[0]


def totals_of(
    ctx: Context, spec: Spec, nos: Collection[int], fore: bool, sb: bool
) -> list[Decimal]:
    """`total_of` for each of `nos`, in order (the cut and the cache key worked out once)."""
    fore = fore and ctx.final
    low = min(spec.cut_low, ctx.upto)
    high = min(spec.cut_high, ctx.upto - low)
    key = (low << 9) | (high << 1) | sb  # an int: the garbage collector skips such dicts
    sums = ctx.bh_sums[fore].setdefault(key, {})
    if 4 * len(nos) > len(ctx.by_no):
        # Most rows (a pairing, a close): every score as an opponent first, so that each row's
        # terms are read in one go (`_plan_sum`, `_raw_terms`).
        adjusted, known = ctx.adjusted, ctx.adjusted_cache[fore]
        for no in ctx.by_no:
            if no not in known:
                adjusted(no, fore)
    out = []
    plain = not (sb or low or high)
    cut1 = not sb and low == 1 and not high
    plan_of, score_of = ctx.term_plan, ctx.adjusted_cache[fore].__getitem__
    for no in nos:
        cached = sums.get(no)
        if cached is None:
            if plain:
                plan = plan_of(no, fore)
                if plan is None:
                    cached = _total(ctx, no, fore, sb, low, high)
                else:
                    cached = _plan_sum(ctx, no, fore, plan, score_of)
            elif cut1 and no not in ctx.bh_terms[fore]:
                cached = _cut1_sum(ctx, no, fore, score_of)
            else:
                cached = _total(ctx, no, fore, sb, low, high)
            sums[no] = cached
        out.append(cached)
    return out


def _cut1_sum(ctx: Context, no: int, fore: bool, score_of: Callable[[int], Decimal]) -> Decimal:
    """Cut-1 of a usual row (every term an opponent's score, none voluntary: `term_opponents`)
    read straight from its opponents' scores, the least one dropped (the first of equals, as
    `_cut_scores`: an equal value, possibly another exponent), no term kept; else `_total`.
    The same Decimal as `_total`'s: the same terms added exactly."""
    opps = ctx.term_opponents(no, fore)
    if not opps:
        return _total(ctx, no, fore, False, 1, 0)
    try:
        scores = list(map(score_of, opps))
    except KeyError:  # an opponent's score as an opponent not computed yet
        scores = [ctx.adjusted(opp, fore) for opp in opps]
    del scores[scores.index(min(scores))]
    return sum(scores, ZERO)


def _plan_sum(
    ctx: Context, no: int, fore: bool, plan: Plan, score_of: Callable[[int], Decimal]
) -> Decimal:
    """A sum without cuts from the row's `term_plan`: its opponents' scores added as they are
    read, then each own unplayed round's term (`_own_term`), no term kept. The sum is exact,
    so it is `_total`'s Decimal (value and exponent) in any order. `fore` as in `totals_of`
    (only when round K is the last one)."""
    opps, owns = plan
    try:
        total = sum(map(score_of, opps), ZERO)
    except KeyError:  # an opponent's score as an opponent not computed yet
        total = sum([ctx.adjusted(opp, fore) for opp in opps], ZERO)
    if owns:
        own = ctx.own_score(no, fore)
        for opp in owns:
            total += _own_term(ctx, own, opp, fore)
    return total


def _total(ctx: Context, no: int, fore: bool, sb: bool, low: int, high: int) -> Decimal:
    scores, voluntary, points = _raw_terms(ctx, no, fore)
    if not sb:
        if not low and not high:
            return sum(scores, ZERO)
        if low == 1 and not high and scores and True not in voluntary:  # `_cut_scores`, Cut-1
            i = scores.index(min(scores))
            return sum(scores[:i] + scores[i + 1 :], ZERO)
        return _cut_scores(ctx, list(scores), list(voluntary), low, high)
    if points is None:  # every round a term (`_raw_terms`' usual row)
        points = tuple(r.points for r in ctx.rounds(no))
    products = [s * p for s, p in zip(scores, points, strict=True)]
    if not low and not high:
        return sum(products, ZERO)
    kept = list(zip(scores, products, voluntary, strict=True))
    legacy = ctx.edition is Edition.LEGACY
    for _ in range(low):
        if not kept:
            break
        lowest = min(kept, key=_low)
        first = min(kept, key=_low_voluntary_first)
        if legacy or lowest[1] > first[1]:
            first = lowest
        kept.remove(first)  # an equal tuple earlier in the list would have been the minimum
    for _ in range(high):
        if not kept:
            break
        kept.remove(min(kept, key=_high))
    return sum((t[1] for t in kept), ZERO)


def _cut_scores(
    ctx: Context, scores: list[Decimal], voluntary: list[bool], low: int, high: int
) -> Decimal:
    """`cut` where each product is its score (BH, FB): the same term dropped each time, the
    first of the least (voluntary ones first) or of the most significant in round order."""
    legacy = ctx.edition is Edition.LEGACY
    for _ in range(low):
        if not scores:
            break
        if legacy or True not in voluntary:
            i = scores.index(min(scores))
        else:
            least = min(s for s, v in zip(scores, voluntary, strict=True) if v)
            i = next(
                i
                for i, (s, v) in enumerate(zip(scores, voluntary, strict=True))
                if v and s == least
            )
        del scores[i], voluntary[i]
    for _ in range(high):
        if not scores:
            break
        i = scores.index(max(scores))
        del scores[i], voluntary[i]
    return sum(scores, ZERO)


def _low(t: tuple[Decimal, Decimal, bool]) -> tuple[Decimal, Decimal]:
    return t[0], t[1]


def _low_voluntary_first(t: tuple[Decimal, Decimal, bool]) -> tuple[bool, Decimal, Decimal]:
    return not t[2], t[0], t[1]


def _high(t: tuple[Decimal, Decimal, bool]) -> tuple[Decimal, Decimal]:
    return -t[0], -t[1]


def _rnd(t: Term) -> int:
    return t.rnd


def buchholz(ctx: Context, spec: Spec, no: int) -> Value:
    """BH, 2024 8.1: sum of the opponents' scores."""
    return _sum(ctx, spec, no, fore=False, sb=False)


def fore_buchholz(ctx: Context, spec: Spec, no: int) -> Value:
    """FB, 2024 9.4: BH as if every game of the final round were a draw."""
    return _sum(ctx, spec, no, fore=True, sb=False)


def sonneborn_berger(ctx: Context, spec: Spec, no: int) -> Value:
    """SB, 2024 10.1: sum of each opponent's score times the points scored against them."""
    return _sum(ctx, spec, no, fore=False, sb=True)


def average_of_buchholz(ctx: Context, spec: Spec, no: int) -> Value:
    """AOB, 2024 8.2: average BH of the opponents played over the board, to 0.01 half up."""
    parts = tuple(
        Part(r.rnd, _plain_bh(ctx, r.opponent), OpponentValue(r.opponent, "BH"))
        for r in ctx.rounds(no)
        if r.played and r.opponent is not None
    )
    return Value(average([p.amount for p in parts], "0.01"), parts)


def _plain_bh(ctx: Context, no: int) -> Decimal:
    key = ("BH", no)
    if key not in ctx.memo:
        ctx.memo[key] = buchholz(ctx, _PLAIN, no).value
    return ctx.memo[key]  # type: ignore[return-value]


_PLAIN = Spec("BH")
