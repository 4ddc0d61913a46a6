"""What one participant can still reach once the running round is over, exactly: over the
results of the other unfinished boards, the best and the worst rank and prize it takes in the
standings the round's close publishes (type C values over rounds 1..K), each the value of
some combination of those results (pure).

The standings after the close are read from one `Context` over rounds 1..K in which every
unfinished board has a result (`World.play`; a board not set yet reads as drawn). A row's sort
key is its values in the tie-break list's order (DE: its place within the group tied on the
values before it), then its playoff position and lot, then its start number, as the live
standings order rows (`livetb/projections/ranking.py`); equal keys share the rank.

Most boards cannot change what participant X takes. With X on P points after the round:

- X's prize depends only on the participants who finish on P or more: an allocation reads its
  lists from the top and settles X's points group before it offers anybody below it anything
  (`livetb/engine/prizes.py`). The rank likewise counts who finishes above.
- Without one prize per player (each list is allocated on its own), or with one list of
  prizes, the places above X's points group go to whoever is there: only how many finish with
  more than P counts, and the order inside the group. A board whose players end on the same
  side of P whatever its result adds a constant; one that can move a player across P adds one
  of a few counts, summed over such boards as a set (capped at the list's number of prizes:
  past the last place nothing is paid). Only the boards that can put a player on exactly P,
  and those the group's tie-breaks read (`reach` opponent hops: BH its members' opponents'
  boards, AOB two hops), are enumerated result by result.
- With one prize per player and several lists, who takes which prize can depend on the order
  of anybody above X: every board with a player who can finish on P or more is enumerated,
  and the boards read by the tie-breaks of whoever can finish level with somebody else.
- Under `shared` a points group shares its places equally whatever its order; only the cents
  of an uneven split go to its best-ranked members. The boards are enumerated first without
  the tie-breaks, X taken first and last in its group: the tie-breaks are enumerated too only
  when that cent depends on them.

An enumeration visits every combination, one board changing at a time (the context takes a
board's result only when a value not kept yet is read, and forgets only what that board's
players reach), and is not started when it would read more than `BUDGET` standings: the
caller then states sound bounds as bounds (`exact: false`). The ranks are read here; the
prizes in `livetb/engine/prize_reach.py`, which also has the bounds.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from decimal import Decimal

import msgspec

from livetb.engine.catalogue import Tiebreak, tiebreak_of
from livetb.engine.context import Context
from livetb.engine.direct_encounter import direct_encounter
from livetb.engine.model import Code, Entry
from livetb.engine.modifiers import Spec
from livetb.engine.prizes import MAIN
from livetb.engine.result import Number
from livetb.engine.standings import column

# Standings read per question at most: every combination of 8 boards' results.
BUDGET = 3**8
# A board's played results from White's side, in the outlook's order: 1-0, ½-½, 0-1.
RESULTS = ((Code.WIN, Code.LOSS), (Code.DRAW, Code.DRAW), (Code.LOSS, Code.WIN))
DRAWN = 1  # what a board not set yet reads as (`unfinished=Code.DRAW`)
Lists = Mapping[str, frozenset[int] | None]  # each list's members (None: all), main first
Key = tuple[object, ...]
_NULL = Decimal("Infinity")  # an undefined value sorts after every defined one


class World:
    """Round K as its close leaves it, one unfinished board's result at a time.

    `ctx` is a context over rounds 1..K that reads an unfinished game as a draw (and has no
    explanations); `games` are the unfinished boards (white, black); `tails` each
    participant's playoff position and lot. The sort keys the close would give are kept by
    the results they read, so a key is computed once per combination of those boards."""

    def __init__(
        self,
        ctx: Context,
        specs: Sequence[Spec],
        games: Sequence[tuple[int, int]],
        tails: Mapping[int, tuple[int, int]],
    ) -> None:
        ctx.explain = False
        self.ctx = ctx
        self.specs = tuple(specs)
        self._tbs = tuple(map(tiebreak_of, self.specs))
        self.rnd = ctx.upto
        self.games = tuple(games)
        self.board = {no: i for i, game in enumerate(self.games) for no in game}
        self.results = [DRAWN] * len(self.games)
        self.tails = tails
        self.hops = _hops(self._tbs)
        points = ctx.scoring.points
        drawn = points(Code.DRAW)
        # Each board player's points for each result of its board.
        self._points: dict[int, tuple[Decimal, ...]] = {}
        for game in self.games:
            for side, no in enumerate(game):
                base = ctx.score(no) - drawn
                self._points[no] = tuple(base + points(codes[side]) for codes in RESULTS)
        # The context takes a board's result only when a value not kept yet is read.
        self._applied = [DRAWN] * len(self.games)
        self._stale: set[int] = set()
        self._keys: dict[tuple[int, tuple[int, ...]], Key] = {}
        self._deps: dict[int, tuple[int, ...]] = {}
        self._orders: dict[tuple[object, ...], list[tuple[int, Key]]] = {}

    def play(self, i: int, result: int) -> None:
        """Board `i` ends with `result` (an index of `RESULTS`)."""
        if self.results[i] != result:
            self.results[i] = result
            self._stale.add(i)

    def _sync(self) -> None:
        """The context takes the results played since it last read them."""
        rnd, by_no = self.rnd, self.ctx.by_no
        changed = []
        for i in self._stale:
            result = self.results[i]
            if self._applied[i] == result:
                continue
            self._applied[i] = result
            for no, code in zip(self.games[i], RESULTS[result], strict=True):
                p = by_no[no]
                e = p.entries[rnd - 1]
                entries = (*p.entries[: rnd - 1], Entry(code, e.opponent, e.colour),
                           *p.entries[rnd:])  # fmt: skip
                changed.append(msgspec.structs.replace(p, entries=entries))
        self._stale.clear()
        if changed:
            self.ctx.update(changed, rnd)

    def points(self, no: int) -> Decimal:
        """Participant `no`'s points with the boards as played."""
        i = self.board.get(no)
        return self.ctx.score(no) if i is None else self._points[no][self.results[i]]

    def possible(self, no: int) -> tuple[Decimal, ...]:
        """Participant `no`'s points for each result of its unfinished board (one value when it
        has none)."""
        got = self._points.get(no)
        return got if got is not None else (self.ctx.score(no),)

    def around(self, nos: Iterable[int], hops: int) -> set[int]:
        """`nos` and the participants within `hops` opponents of them (rounds 1..K)."""
        rounds = self.ctx.rounds
        out = set(nos)
        frontier = set(out)
        for _ in range(hops):
            frontier = {r.opponent for n in frontier for r in rounds(n) if r.opponent} - out
            out |= frontier
        return out

    def boards_of(self, nos: Iterable[int]) -> set[int]:
        board = self.board
        return {board[n] for n in nos if n in board}

    def _deps_of(self, no: int) -> tuple[int, ...]:
        """The unfinished boards participant `no`'s tie-break values read."""
        deps = self._deps.get(no)
        if deps is None:
            if self.hops is None:
                deps = tuple(range(len(self.games)))
            else:
                deps = tuple(sorted(self.boards_of(self.around((no,), self.hops))))
            self._deps[no] = deps
        return deps

    def order(self, nos: Collection[int]) -> list[tuple[int, Key]]:
        """`nos` in the standings' order after the close, each with its sort key. `nos` must
        hold everyone tied with any of them on the values before a group tie-break (DE)."""
        keys: dict[int, Key] = {}
        missing: list[tuple[int, tuple[int, tuple[int, ...]]]] = []
        results = self.results
        memos = tuple((no, tuple(results[i] for i in self._deps_of(no))) for no in nos)
        # The order is a function of its members' keys, which read the same boards as DE.
        known = self._orders.get(memos)
        if known is not None:
            return known
        for memo in memos:
            key = self._keys.get(memo)
            if key is None:
                missing.append((memo[0], memo))
            else:
                keys[memo[0]] = key
        if missing or any(tb.group for tb in self._tbs):
            self._sync()
        if missing:
            todo = [no for no, _ in missing]
            columns = [
                None if tb.group else column(self.ctx, spec, todo)
                for spec, tb in zip(self.specs, self._tbs, strict=True)
            ]
            for j, (no, memo) in enumerate(missing):
                key = tuple(0 if c is None else part(c[j]) for c in columns)
                self._keys[memo] = keys[no] = key
        for i, tb in enumerate(self._tbs):
            if tb.group:  # places within each group tied on the values before it
                groups: dict[Key, list[int]] = {}
                for no in nos:
                    groups.setdefault(keys[no][:i], []).append(no)
                for members in groups.values():
                    places = direct_encounter(self.ctx, sorted(members)) if len(members) > 1 else {}
                    for no in members:
                        key = keys[no]
                        keys[no] = (*key[:i], places.get(no, 1), *key[i + 1 :])
        tails = self.tails
        ranked = sorted(((*keys[no], *tails.get(no, (0, 0))), no) for no in nos)
        found = self._orders[memos] = [(no, key) for key, no in ranked]
        return found


def part(value: Number | None) -> object:
    """A value's place in a sort key, best first (`lines.part_of`'s order)."""
    return _NULL if value is None else -value


def _hops(tbs: Sequence[Tiebreak]) -> int | None:
    """How many opponents away a result can move a value of the list (None: anybody's)."""
    most = 0
    for tb in tbs:
        if tb.group:  # DE reads the games inside the tied group: its members' own boards
            continue
        # KS's limit moves with the pairings, not with results: the opponents' scores.
        hops = 1 if tb.code == "KS" else tb.reach
        if hops is None:
            return None
        most = max(most, hops)
    return most


def combinations(world: World, boards: Sequence[int]) -> Iterator[None]:
    """Set every combination of results on `boards`, one board changing at a time (a
    reflected Gray code); yield after each."""
    digits = [0] * len(boards)
    step = [1] * len(boards)
    for i in boards:
        world.play(i, 0)
    yield
    while True:
        j = 0
        while j < len(boards):
            d = digits[j] + step[j]
            if 0 <= d <= 2:
                break
            step[j] = -step[j]
            j += 1
        else:
            return
        digits[j] = d
        world.play(boards[j], d)
        yield


def _offset(order: list[tuple[int, Key]], no: int) -> int:
    """Those of the group ranked above participant `no` (its equals share its rank)."""
    mine = next(key for n, key in order if n == no)
    return next(i for i, (_, key) in enumerate(order) if key == mine)


class Counts:
    """The combinations to read when a list's places above X's points group go to whoever
    is there: each yields the participants above P per list (of the enumerated boards and
    those without a board) and X's points group; `sums` are what the other boards can add
    (`caps`: each list's count capped there; None: the lowest and highest only, one list)."""

    def __init__(
        self,
        world: World,
        no: int,
        lists: Lists,
        caps: Sequence[int] | None,
        ordered: bool,
        budget: int,
    ) -> None:
        self.world, self.no = world, no
        self.points = p = world.points(no)
        own = world.board.get(no)
        others = [i for i in range(len(world.games)) if i != own]
        members = list(lists.values())

        def inside(n: int) -> tuple[int, ...]:
            return tuple(m is None or n in m for m in members)

        playing = {n for i in others for n in world.games[i]}
        base = [0] * len(members)
        level = [no]
        for n in world.ctx.by_no:
            if n == no or n in playing:
                continue
            q = world.points(n)
            if q > p:
                base = [b + c for b, c in zip(base, inside(n), strict=True)]
            elif q == p:
                level.append(n)
        on_p = [n for n in playing if p in world.possible(n)]
        self.level, self.on_p = level, on_p
        enumerated: set[int] = set()
        if len(level) > 1 or on_p:
            hops = world.hops if ordered else 0
            self.fits = hops is not None
            if hops is None:
                return
            enumerated = world.boards_of(world.around([*level, *on_p], hops)) - {own}
        # Each board's count above P per list, for each of its results.
        counts: dict[int, list[tuple[int, ...]]] = {}
        for i in others:
            per: list[tuple[int, ...]] = []
            for result in range(3):
                row = [0] * len(members)
                for n in world.games[i]:
                    if world.possible(n)[result] > p:
                        row = [r + c for r, c in zip(row, inside(n), strict=True)]
                per.append(tuple(row))
            counts[i] = per
        self.counts = counts
        self.enumerated = sorted(enumerated)
        self.base = tuple(base)
        combos = 3 ** len(self.enumerated)
        sums: set[tuple[int, ...]] = {(0,) * len(members)}
        low = high = 0
        for i in others:
            if i in enumerated:
                continue
            options = set(counts[i])
            if caps is None:
                low += min(o[0] for o in options)
                high += max(o[0] for o in options)
                continue
            sums = {
                tuple(min(s + o, cap) for s, o, cap in zip(a, b, caps, strict=True))
                for a in sums
                for b in options
            }
            if combos * len(sums) > budget:
                self.fits = False
                return
        self.low, self.high = low, high
        self.sums = sums if caps is not None else {(low,), (high,)}
        self.fits = combos * len(self.sums) <= budget

    def __iter__(self) -> Iterator[tuple[tuple[int, ...], list[int]]]:
        world, p, counts = self.world, self.points, self.counts
        for _ in combinations(world, self.enumerated):
            above = list(self.base)
            for i in self.enumerated:
                above = [a + c for a, c in zip(above, counts[i][world.results[i]], strict=True)]
            group = self.level + [n for n in self.on_p if world.points(n) == p]
            yield tuple(above), group


def ranks(world: World, no: int, budget: int | None = None) -> tuple[int, int] | None:
    """Participant `no`'s best and worst rank after the close over every result of the other
    unfinished boards (its own board as set); None when that reads more than `budget`
    standings (`BUDGET`)."""
    counted = Counts(world, no, {MAIN: None}, None, True, BUDGET if budget is None else budget)
    if not counted.fits:
        return None
    best = worst = None
    for (above,), group in counted:
        if len(group) > 1:
            above += _offset(world.order(group), no)
        best = above if best is None or above < best else best
        worst = above if worst is None or above > worst else worst
    assert best is not None and worst is not None
    return 1 + best + counted.low, 1 + worst + counted.high
