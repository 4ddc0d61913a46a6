"""Direct Encounter (C.07 2024 Art. 6; 2023 5.1), type A.

The tied participants are ranked by the points scored against each other (an opponent met
several times counts with the average of those games). In a Swiss event, where not all of them
met, a participant is placed only when it is bound to stay ahead whatever the missing games
give (each missing game counted as a win for the others); once a place cannot be assigned,
everybody left stays tied. DE is then applied again to every subset still tied, with only the
games inside that subset, until nothing changes.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from livetb.engine.context import ZERO, Context


def direct_encounter(ctx: Context, group: list[int]) -> dict[int, int]:
    """Places within `group` (1 = best; equal places stay tied), computed recursively."""
    places: dict[int, int] = {}
    _place(ctx, group, 1, places)
    return places


def _place(ctx: Context, group: list[int], first: int, places: dict[int, int]) -> None:
    tiers = _single_run(ctx, group) if len(group) > 1 else [group]
    if len(tiers) == 1:
        places.update((no, first) for no in group)
        return
    for tier in tiers:
        _place(ctx, tier, first, places)
        first += len(tier)


def _single_run(ctx: Context, group: list[int]) -> list[list[int]]:
    """One application of DE to `group`: its members split into ordered tiers."""
    members = set(group)
    scored: dict[int, Decimal] = {}
    met: dict[int, int] = {}
    for no in group:
        games: dict[int, list[Decimal]] = defaultdict(list)
        for r in ctx.rounds(no):
            # Forfeits do not count (2024 6.1), except in round robins where they are games.
            if r.opponent in members and (r.played or ctx.rr):
                games[r.opponent].append(r.points)
        scored[no] = sum((sum(g, ZERO) / len(g) for g in games.values()), ZERO)
        met[no] = len(games)
    others = len(group) - 1
    if ctx.rr or all(n == others for n in met.values()):
        order = sorted(group, key=lambda no: (-scored[no], no))
        return _split(order, lambda a, b: scored[a] == scored[b])
    best = {no: scored[no] + (others - met[no]) * ctx.win for no in group}
    order = sorted(group, key=lambda no: (-scored[no], -best[no], no))
    tiers = []
    for i, no in enumerate(order[:-1]):
        if scored[no] <= max(best[o] for o in order[i + 1 :]):
            tiers.append(order[i:])  # not bound to be ahead: everyone left stays tied
            return tiers
        tiers.append([no])
    tiers.append(order[-1:])
    return tiers


def _split(order: list[int], same: object) -> list[list[int]]:
    tiers: list[list[int]] = []
    for no in order:
        if tiers and same(tiers[-1][-1], no):  # type: ignore[operator]
            tiers[-1].append(no)
        else:
            tiers.append([no])
    return tiers
