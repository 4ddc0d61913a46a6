"""Apply a tie-break list in order and rank (C.07 2024 Art. 4.2, 2023 [4.2]).

Participants still equal after the whole list share a rank (1, 2, 2, 4); drawing lots is an
explicit, seeded operation (`draw_lots`), never an implicit fallback.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable

import msgspec

from livetb.engine import buchholz
from livetb.engine.catalogue import TIEBREAKS, Compute, tiebreak_of
from livetb.engine.context import Context
from livetb.engine.modifiers import Spec
from livetb.engine.result import Number, Value

# The individual tie-breaks computed one participant at a time (DE: per tied group, `rank`).
CATALOGUE: dict[str, Compute] = {
    code: tb.compute
    for code, tb in TIEBREAKS.items()
    if tb.compute is not None and not tb.team_only
}


def compute(ctx: Context, spec: Spec, no: int) -> Value:
    """One tie-break for one participant: the unit the live projections recompute."""
    return CATALOGUE[spec.code](ctx, spec, no)


def column(ctx: Context, spec: Spec, nos: Collection[int]) -> list[Number | None]:
    """`compute(ctx, spec, no).value` for each of `nos`, in order: what the live projections
    recompute in bulk (without explanations, BH, FB and SB skip the `Value` machinery and
    keep their values in the context: `buchholz.totals_of`)."""
    sums = tiebreak_of(spec).sums
    if sums is not None and not ctx.explain:
        fore, sb = sums
        return list(buchholz.totals_of(ctx, spec, nos, fore, sb))
    fn = CATALOGUE[spec.code]
    return [fn(ctx, spec, no).value for no in nos]


def affected_by(ctx: Context, spec: Spec, changed: Iterable[int]) -> frozenset[int]:
    """Participants whose value of `spec` can change when the results of `changed` change.

    Own-result tie-breaks touch only those participants; opponent-score ones (BH, FB, SB)
    their opponents too; averages of opponents' values (APRO, APPO) one hop, AOB two hops
    away; Koya and the group tie-break DE can move anyone (the record's `reach`).
    """
    hops = tiebreak_of(spec).reach
    if hops is None:
        return frozenset(ctx.start_nos)
    out = set(changed)
    frontier = set(out)
    for _ in range(hops):
        frontier = {r.opponent for no in frontier for r in ctx.rounds(no) if r.opponent} - out
        out |= frontier
    return frozenset(out)


class Row(msgspec.Struct, frozen=True):
    rank: int
    start_no: int
    name: str
    values: tuple[Number | None, ...]


class Standings(msgspec.Struct, frozen=True):
    edition: str
    after_round: int
    tiebreaks: tuple[str, ...]
    rows: tuple[Row, ...]


def rank(ctx: Context, specs: tuple[Spec, ...]) -> Standings:
    """Compute every value and rank by the list, in order."""
    nos = ctx.start_nos
    values: dict[int, list[Number | None]] = {no: [] for no in nos}
    groups: list[list[int]] = [sorted(nos)]
    for spec in specs:
        tb = tiebreak_of(spec)
        if tb.places is not None:
            by_no: dict[int, Number | None] = {}
            for group in groups:
                by_no.update(tb.places(ctx, group))
        else:  # in bulk: without explanations, the sums skip the `Value` machinery
            by_no = dict(zip(nos, column(ctx, spec, nos), strict=True))
        for no in nos:
            values[no].append(by_no[no])
        groups = split_ties(groups, by_no, tb.lower_is_better)
    rows = rows_of(groups, values, lambda no: ctx.by_no[no].name)
    return Standings(ctx.edition.value, ctx.upto, tuple(s.text for s in specs), rows)


def split_ties(
    groups: list[list[int]], column: dict[int, Number | None], lower_is_better: bool
) -> list[list[int]]:
    """Order each tied group by one tie-break and split it where the values differ; best
    first, an undefined value (null) after every defined one."""
    sign = 1 if lower_is_better else -1

    def key(no: int) -> tuple[int, Number]:
        v = column[no]
        return (1, 0) if v is None else (0, sign * v)

    out: list[list[int]] = []
    for group in groups:
        previous = None
        for no in sorted(group, key=key):
            if previous is not None and key(previous) == key(no):
                out[-1].append(no)
            else:
                out.append([no])
            previous = no
    return out


def rows_of(
    groups: list[list[int]],
    values: dict[int, list[Number | None]],
    name_of: Callable[[int], str],
) -> tuple[Row, ...]:
    """Shared ranks: everyone in a group still tied takes the group's first position."""
    rows: list[Row] = []
    position = 1
    for group in groups:
        rows.extend(Row(position, no, name_of(no), tuple(values[no])) for no in sorted(group))
        position += len(group)
    return tuple(rows)


def lot_numbers(start_nos: Iterable[int], seed: int) -> dict[int, int]:
    """A drawing of lots (2024 4.2): each participant's lot, reproducible from `seed` and
    independent of the current order."""
    drawn = sorted(start_nos)
    random.Random(seed).shuffle(drawn)
    return {no: lot for lot, no in enumerate(drawn)}


def draw_lots(standings: Standings, seed: int) -> Standings:
    """Break every tie left after the whole list by lot; the ranks become 1..n."""
    lots = lot_numbers((r.start_no for r in standings.rows), seed)
    ordered = sorted(standings.rows, key=lambda r: (r.rank, lots[r.start_no]))
    rows = tuple(msgspec.structs.replace(r, rank=i) for i, r in enumerate(ordered, start=1))
    return msgspec.structs.replace(standings, rows=rows)
