"""The best and worst prize a participant can still take once the running round is over, for
one result of its own game (the card's "what I need", extended to prizes; pure).

`exact`: each is what the participant takes after the round's close in some combination of
results of the other unfinished boards, read as `livetb/engine/reach.py` reads the ranks (its
docstring says which boards are read and why the others cannot change the prize). When that
would read more standings than the budget allows, `bounds` gives sound bounds from points
alone, which the card states as bounds:

The counting is the rank ranges' (`livetb/projections/outlook.py`): the other participants
either have their points for the round or play one of the other unfinished boards, each board
independent, and a tie on points counts as possibly above while tie-breaks are open. For each
list L the participant X belongs to, on P points:

- `above`: who finishes with more points than P whatever happens (summed over boards as the
  minimum over each board's outcomes);
- `level`: who can finish with P or more (the maximum over each board's outcomes).

Worst: X's group in L ends at place `1 + level` or before, and a group's share is never less
than the prize of its last place, so X takes at least `a(L, 1 + level)`. With one prize per
player, X takes at least the largest of those over its lists (the largest offer goes first:
when L's place `1 + level` is given, everyone L could place above X has a prize or X has one
as large); without it, X takes each list's.

Best: X's group starts at place `1 + above` or after, and a share is never more than the
prize of the group's first place. With one prize per player, someone surely above X in L can
leave L's places to X by taking a prize in another list:

- under `ranking` (one participant a place, prizes given in decreasing order of amount),
  someone who left L for another list took a prize at least as large as the one X takes; so
  for a place p of L worth v, only those of the surely-above who belong to another list
  paying v or more can have left, and p is reachable when `p ≥ 1 + above(v)` counting the
  others;
- under `shared` and `hort`, a group's offer can be smaller than its places' prizes, so only
  those who belong to no other list with prizes surely stay.

The best is the largest prize so reachable over X's lists; without one prize per player, the
sum of each list's `a(L, 1 + above)`.

The bounds hold for the prize taken under every rule; `tests/projections/test_prize_outlook.py`
checks `exact` by brute force on small tournaments, and `tests/engine/test_reach.py` the bounds
where the budget is exceeded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import NamedTuple

from livetb.engine import reach
from livetb.engine.prizes import Award, Standing, Table, allocate, amounts_of
from livetb.engine.reach import Counts, Key, Lists, World, combinations, part

# A player of one list: its points after the round, and the largest prize it could take in
# another list (0: none), by outcome of its board when it plays one.
Other = tuple[Decimal, Decimal]
BoardPoints = tuple[tuple[Other | None, Other | None], ...]  # per outcome; None: not a member


class Place(NamedTuple):
    """A prize of a list: its amount and place."""

    list: str
    place: int
    amount: Decimal


class Bound(NamedTuple):
    """An amount and the prizes it is made of (one with one prize per player)."""

    amount: Decimal
    prizes: tuple[Place, ...]


class Field(NamedTuple):
    """What list L looks like from X's side for one result: the others' fixed points and
    their boards."""

    fixed: Sequence[Other]
    boards: Sequence[BoardPoints]


def level(points: Decimal, field: Field) -> int:
    """Others of the list that can finish on `points` or more."""
    n = sum(q >= points for q, _ in field.fixed)
    for board in field.boards:
        n += max(sum(o is not None and o[0] >= points for o in outcome) for outcome in board)
    return n


_ANY = Decimal("1e-9")  # below every prize: `above(stay=_ANY)` counts who has no other list


def above(points: Decimal, field: Field, stay: Decimal | None = None) -> int:
    """Others of the list that finish with more than `points` whatever happens; with `stay`,
    only those who cannot take a prize of `stay` or more in another list."""

    def counts(o: Other | None) -> bool:
        return o is not None and o[0] > points and (stay is None or o[1] < stay)

    n = sum(counts(o) for o in field.fixed)
    for board in field.boards:
        n += min(sum(counts(o) for o in outcome) for outcome in board)
    return n


def bounds(
    points: Decimal,
    fields: Mapping[str, Field],
    amounts: Mapping[str, Sequence[Decimal]],
    one_prize_per_player: bool,
    ranking: bool,
) -> tuple[Bound, Bound]:
    """The best and the worst prize of a participant finishing on `points`, over the lists
    it belongs to (`fields`, in the lists' order), each list's amounts by place (`ranking`:
    the table's rule is `ranking`)."""
    best: list[Place] = []
    worst: list[Place] = []
    for name, field in fields.items():
        paid = amounts.get(name, ())
        low = 1 + level(points, field)
        if low <= len(paid):
            worst.append(Place(name, low, paid[low - 1]))
        if not one_prize_per_player:
            high = 1 + above(points, field)
        elif ranking:
            high = next(
                (p for p, v in enumerate(paid, 1) if p >= 1 + above(points, field, stay=v)),
                len(paid) + 1,
            )
        else:
            high = 1 + above(points, field, stay=_ANY)
        if high <= len(paid):
            best.append(Place(name, high, paid[high - 1]))
    if one_prize_per_player:
        return _largest(best), _largest(worst)
    return _sum(best), _sum(worst)


def _largest(places: list[Place]) -> Bound:
    if not places:
        return Bound(Decimal(0), ())
    top = max(places, key=lambda p: p.amount)  # the first of the largest: lists' order
    return Bound(top.amount, (top,))


def _sum(places: list[Place]) -> Bound:
    return Bound(sum((p.amount for p in places), Decimal(0)), tuple(places))


class Take(NamedTuple):
    """What a participant takes in one outcome: the amount and its awards."""

    amount: Decimal
    awards: tuple[Award, ...]


NOTHING = Take(Decimal(0), ())


class Reached(NamedTuple):
    """The best and worst a participant takes; `exact`: each is taken in some outcome (else
    they are bounds)."""

    best: Take
    worst: Take
    exact: bool


class _Tally:
    """What the outcomes read so far give X: the most and the least it can take, and the
    best and worst it does take in an outcome whose take is known (`seen`). With the order
    inside X's points group unread, an outcome gives X's take first and last in its group:
    known when they agree. `bounds` (sound: nothing pays more or less): once outcomes that
    take them are seen, nothing later can change the answer."""

    def __init__(self, bounds: tuple[Decimal, Decimal] | None) -> None:
        self.bounds = bounds
        self.high: Take | None = None
        self.low: Take | None = None
        self.best_seen: Take | None = None
        self.worst_seen: Take | None = None

    def see(self, high: Take, low: Take | None = None) -> bool:
        """One outcome: `high` with X first in its group and `low` with X last (`low`
        None: the order is known). Whether the answer is settled."""
        if low is None:
            low = high
        if self.high is None or high.amount > self.high.amount:
            self.high = high
        if self.low is None or low.amount < self.low.amount:
            self.low = low
        if high.amount == low.amount:
            if self.best_seen is None or high.amount > self.best_seen.amount:
                self.best_seen = high
            if self.worst_seen is None or low.amount < self.worst_seen.amount:
                self.worst_seen = low
        bounds, best, worst = self.bounds, self.best_seen, self.worst_seen
        return (
            bounds is not None
            and best is not None
            and worst is not None
            and best.amount >= bounds[0]
            and worst.amount <= bounds[1]
        )

    @property
    def exact(self) -> bool:
        """The most and the least are taken in outcomes seen."""
        high, low, best, worst = self.high, self.low, self.best_seen, self.worst_seen
        return (
            high is not None
            and low is not None
            and best is not None
            and worst is not None
            and best.amount >= high.amount
            and worst.amount <= low.amount
        )

    def reached(self) -> Reached:
        if self.exact:
            assert self.best_seen is not None and self.worst_seen is not None
            return Reached(self.best_seen, self.worst_seen, True)
        assert self.high is not None and self.low is not None
        return Reached(self.high, self.low, False)


def exact(
    world: World,
    no: int,
    table: Table,
    lists: Lists,
    limits: tuple[Decimal, Decimal] | None = None,
    budget: int | None = None,
) -> Reached | None:
    """Participant `no`'s best and worst prize after the close over every result of the other
    unfinished boards (its own board as set), `lists` the main list and the categories in
    their order; None when that reads more than `budget` standings. Under `shared`, when the
    tie-breaks cannot all be read and X's cent depends on them, the amounts are bounds.
    `limits`: sound bounds on the best and worst (`bounds`), which end the reading once
    taken."""
    if budget is None:
        budget = reach.BUDGET
    amounts = amounts_of(table)
    paying = [name for name in lists if name in amounts]
    mine = [name for name in paying if (m := lists[name]) is None or no in m]
    if not mine:
        return Reached(NOTHING, NOTHING, True)
    if not table.one_prize_per_player or len(paying) == 1:
        chosen = {name: lists[name] for name in mine}

        def run(ordered: bool) -> _Tally | None:
            return _by_counts(world, no, table, chosen, ordered, _Tally(limits), budget)
    else:
        chosen = {name: lists[name] for name in paying}

        def run(ordered: bool) -> _Tally | None:
            return _by_order(world, no, table, chosen, ordered, _Tally(limits), budget)

    if table.rule == "shared":
        loose = run(False)
        if loose is None:
            return None
        if loose.exact:
            return loose.reached()
        tight = run(True)
        return (tight or loose).reached()
    tally = run(True)
    return tally.reached() if tally is not None else None


def _by_counts(
    world: World, no: int, table: Table, lists: Lists, ordered: bool, tally: _Tally, budget: int
) -> _Tally | None:
    """Each list on its own (or one list): its award to X from the count above P and X's
    points group in order (`ordered`; else X first and X last)."""
    amounts = amounts_of(table)
    names = list(lists)
    caps = [len(amounts[name]) for name in names]
    counted = Counts(world, no, lists, caps, ordered, budget)
    if not counted.fits:
        return None
    tables = {
        name: Table(table.rule, table.one_prize_per_player, table.currency,
                    tuple(p for p in table.prizes if p.list == name))
        for name in names
    }  # fmt: skip
    p = counted.points
    taken: dict[object, tuple[Award, ...]] = {}

    def award(name: str, above: int, order: list[tuple[int, Key | None]]) -> tuple[Award, ...]:
        """X's award of list `name` with `above` before its group, the group in `order`."""
        if above >= len(amounts[name]):
            return ()
        m = lists[name]
        group = [(n, key) for n, key in order if m is None or n in m]
        ranks: list[tuple[int, int]] = []
        for j, (n, key) in enumerate(group):
            first = j if j == 0 or key is None or key != group[j - 1][1] else ranks[-1][1]
            ranks.append((n, first))
        memo = (name, above, tuple(ranks))
        got = taken.get(memo)
        if got is None:
            higher = p + 1
            rows = [Standing(-1 - k, 1, higher) for k in range(above)]
            rows += [Standing(n, above + 1 + first, p) for n, first in ranks]
            got = taken[memo] = tuple(
                a for a in allocate(tables[name], {name: rows}) if a.start_no == no
            )
        return got

    def take(above: tuple[int, ...], order: list[tuple[int, Key | None]]) -> Take:
        awards = tuple(a for name, n in zip(names, above, strict=True)
                       for a in award(name, n, order))  # fmt: skip
        return Take(sum((a.amount for a in awards), Decimal(0)), awards)

    for above, group in counted:
        if ordered and len(group) > 1:
            orders: list[list[tuple[int, Key | None]]] = [list(world.order(group))]
        else:
            rest: list[tuple[int, Key | None]] = [(n, None) for n in sorted(group) if n != no]
            orders = [[(no, None), *rest], [*rest, (no, None)]]
        for extra in counted.sums:
            total = tuple(min(a + e, c) for a, e, c in zip(above, extra, caps, strict=True))
            if tally.see(*(take(total, order) for order in orders)):
                return tally
    return tally


def _by_order(
    world: World, no: int, table: Table, lists: Lists, ordered: bool, tally: _Tally, budget: int
) -> _Tally | None:
    """One prize per player over several lists: the allocation over everyone who can finish
    on P or more, in the standings' order (`ordered`; else by points, X first and X last
    among its equals)."""
    p = world.points(no)
    own = world.board.get(no)
    playing = {n for i, g in enumerate(world.games) if i != own for n in g}
    fixed = [n for n in world.ctx.by_no if n not in playing and world.points(n) >= p]
    board_players = [n for n in playing if max(world.possible(n)) >= p]
    # Who can finish level with somebody else on P or more: their tie-breaks count.
    seen: dict[Decimal, int] = {}
    for n in [*fixed, *board_players]:
        for q in set(world.possible(n)):
            if q >= p:
                seen[q] = seen.get(q, 0) + 1
    level = {n for n in [*fixed, *board_players]
             if any(seen.get(q, 0) > 1 for q in world.possible(n))}  # fmt: skip
    boards = world.boards_of(board_players)
    if ordered and level:
        if world.hops is None:
            return None
        boards |= world.boards_of(world.around(level, world.hops))
    if own is not None:
        boards.discard(own)
    enumerated = sorted(boards)
    if 3 ** len(enumerated) > budget:
        return None
    candidates = [*fixed, *board_players]
    # X's take depends on who is where only through the lists each row belongs to: rows
    # with the same lists are interchangeable (X is told apart), their points through who
    # is level with whom (not under `ranking`), their ranks through who shares one (`hort`).
    members = list(lists.values())
    lists_of = {n: 1 + sum(1 << k for k, m in enumerate(members) if m is None or n in m)
                for n in candidates}  # fmt: skip
    lists_of[no] = 0
    levels, ranked = table.rule != "ranking", table.rule == "hort"
    taken: dict[tuple[tuple[int, int, int], ...], Take] = {}

    def allocated(rows: Sequence[tuple[Key, Decimal, int]], by_points: bool = False) -> Take:
        """X's take from the allocation over `rows` ((sort key, points, start no), best
        first), ranks shared by equal keys (`by_points`: by equal points)."""
        standings: list[tuple[int, int, Decimal]] = []
        shape: list[tuple[int, int, int]] = []
        first, previous, level, before = 0, None, 0, None
        for j, (key, points, n) in enumerate(rows):
            mark = key[0] if by_points else key
            if j == 0 or mark != previous:
                first, previous = j + 1, mark
            if points != before:
                level, before = level + 1, points
            standings.append((n, first, points))
            shape.append((lists_of[n], level if levels else 0, first if ranked else 0))
        memo = tuple(shape)
        got = taken.get(memo)
        if got is None:
            got = taken[memo] = _allocated(no, table, lists, standings)
        return got

    for _ in combinations(world, enumerated):
        finishers = [(n, q) for n in candidates if (q := world.points(n)) >= p]
        if ordered:
            tied = [n for n, _ in finishers if n in level]
            keys: dict[int, Key] = dict(world.order(tied)) if tied else {}
            rows = sorted((keys.get(n) or (part(q),), q, n) for n, q in finishers)
            done = tally.see(allocated(rows))
        else:
            high = sorted(((part(q), n != no, n), q, n) for n, q in finishers)
            low = sorted(((part(q), n == no, n), q, n) for n, q in finishers)
            done = tally.see(allocated(high, True), allocated(low, True))
        if done:
            break
    return tally


def _allocated(
    no: int, table: Table, lists: Lists, rows: Sequence[tuple[int, int, Decimal]]
) -> Take:
    """X's take from the allocation over `rows` ((start no, rank, points), best first)."""
    standings = [Standing(n, rank, points) for n, rank, points in rows]
    by_list = {
        name: standings if m is None else [s for s in standings if s.start_no in m]
        for name, m in lists.items()
    }
    awards = tuple(a for a in allocate(table, by_list) if a.start_no == no)
    return Take(sum((a.amount for a in awards), Decimal(0)), awards)
