"""The standings order: every row's sort key in an ordered structure, and its tie flag.

A row's rank is 1 + the number of rows with a smaller key; it shares the rank of the row above
when their keys are equal. Both are read from the order, never stored per row, so a result
that moves one row past a thousand others costs the same as one that moves it past none:

- the order is a `SortedList` of `(key, start_no)`: a row's position, its rank, a removal or
  an insertion are O(log n);
- equal keys are the *same* tuple object, so `is` tells a tie (and comparing two tied entries
  stops at that identity);
- moving a row changes the tie flags at two places only: of the row that followed it at its
  old place (it now follows the row that was above), and of the row itself and the one that
  now follows it at its new place.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from sortedcontainers import SortedList

from livetb.projections.delta import Changes
from livetb.projections.lines import Line
from livetb.projections.steps import Steps, chunks, emptying, item_chunks, listing, same

Key = tuple[object, ...]


class Ranking:
    """The rows best first, with the set of those sharing the rank of the row above."""

    def __init__(self) -> None:
        self._order: SortedList = SortedList()  # (key, start no)
        self.shares: set[int] = set()
        self._shared = False  # the order is another ranking's too (`copy`)

    def __len__(self) -> int:
        return len(self._order)

    def __bool__(self) -> bool:
        return bool(self._order)

    def nos(self) -> list[int]:
        return [no for _, no in self._order]

    def listing(self, chunk: int) -> Steps[list[int]]:
        """`nos`, `chunk` rows at a time."""
        return listing((no for _, no in self._order), chunk)

    def ranks(self) -> Iterator[tuple[int, int]]:
        """(start no, rank), best first."""
        shares, rank = self.shares, 0
        for position, (_, no) in enumerate(self._order, 1):
            rank = rank if no in shares else position
            yield no, rank

    def rank(self, key: Key) -> int:
        """The rank of a row whose key (as placed) is `key`."""
        return int(self._order.bisect_left((key,))) + 1

    def move(self, no: int, old: Key | None, key: Key, out: Changes) -> tuple[Key, int | None]:
        """Take row `no` out of its place (`old`: its key there, None for a new row) and put it
        at `key`'s. Returns the key as placed (an equal neighbour's object) and the position
        the feed's `moves` carry, None when the row kept its position. Tie flips go to `out`.
        The neighbours are read before the order changes, once each (a positional read walks
        the order's index)."""
        order = self._order
        gone = None
        if old is not None:
            gone = int(order.index((old, no)))
            above, below = self._around(gone, gone + 1)
            del order[gone]
            if below is not None:  # it now follows the row that was above
                self._tie(below[1], above is not None and above[0] is below[0], out)
        at = int(order.bisect_left((key, no)))
        above, below = self._around(at, at)
        if above is not None and above[0] == key:
            key = above[0]
        elif below is not None and below[0] == key:
            key = below[0]
        order.add((key, no))
        self._tie(no, above is not None and above[0] is key, out)
        if below is not None:
            self._tie(below[1], below[0] is key, out)
        return key, None if at == gone else at

    def _around(self, at: int, after: int) -> tuple[tuple[Key, int] | None, tuple[Key, int] | None]:
        """The entries just above position `at` and at position `after` (None past an end)."""
        order = self._order
        return (order[at - 1] if at else None), (order[after] if after < len(order) else None)

    def copy(self, order: bool = True) -> Ranking:
        """The same order and ties, to change apart from this one; not `order`: the order
        shared, for a caller that sorts every row again (`resetting` replaces it)."""
        twin = Ranking()
        twin._order = self._order.copy() if order else self._order
        twin._shared = not order
        twin.shares = set(self.shares)
        return twin

    def resetting(
        self, keyed: Iterable[tuple[Key, int]], out: Changes, chunk: int
    ) -> Steps[tuple[list[tuple[Key, int]], list[int]]]:
        """Every row sorted again (`keyed`: (key, start no), best nearly sorted already);
        equal keys made one object. Returns the order ((key as placed, start no), best first)
        and the rank at each position; tie flips go to `out`. The sort (`sorting`) and the
        ties a piece of `chunk` rows at a time."""
        order = yield from sorting(list(keyed), chunk)
        ranks: list[int] = []
        previous: Key | None = None
        shares, rank = self.shares, 0
        for start in range(0, len(order), chunk):
            for position in range(start, min(start + chunk, len(order))):
                key, no = order[position]
                tied = key == previous
                if tied:
                    order[position] = (previous, no)  # type: ignore[assignment]
                else:
                    rank, previous = position + 1, key
                if tied != (no in shares):
                    flip(shares, no, tied, out)
                ranks.append(rank)
            yield
        replaced, self._order = self._order, sorted_list(order)
        yield
        if not self._shared:
            yield from releasing(replaced, chunk)
        self._shared = False
        return order, ranks

    def _tie(self, no: int, tied: bool, out: Changes) -> None:
        if tied != (no in self.shares):
            flip(self.shares, no, tied, out)


def placing(
    ranking: Ranking,
    lines: Mapping[int, Line],
    moved: Iterable[int],
    out: Changes,
    resort: bool,
    chunk: int,
    near: Ranking | None = None,
) -> Steps[tuple[list[int], list[int]] | None]:
    """Each `moved` row of `lines` at its key (its sort-key parts, then its tail), the ties
    that flip recorded in `out`. `resort` (many rows moved at once): one sort of every row,
    the new order recorded if it changed, and every row's rank and start no, best first.
    Else a move each, O(log n) whatever the rows it passes, recorded in `out.moves`; None
    (ranks are read from the order). Pieces of `chunk` rows (the sort's too: `sorting`,
    the faster the nearer the rows come in their order: `near`'s if given, as a close's new
    table the live one, else `ranking`'s)."""
    if not resort:
        moves = out.moves
        for part in chunks(list(moved), chunk):
            for no in part:
                line = lines[no]
                key = (*line.parts, *line.tail)
                if line.key != key:
                    line.key, at = ranking.move(no, line.key, key, out)
                    if at is not None:
                        moves.append((no, at))
            yield
        return None
    for part in chunks(list(moved), chunk):
        for no in part:
            line = lines[no]
            line.key = (*line.parts, *line.tail)
        yield
    before = yield from ranking.listing(chunk)
    keyed: list[tuple[Key | None, int]] = []
    start = before if near is None else (yield from near.listing(chunk))
    if len(start) == len(lines) and (yield from _all_in(start, lines, chunk)):
        for part in chunks(start, chunk):  # nearly sorted already
            keyed += [(lines[no].key, no) for no in part]
            yield
    else:
        for items in item_chunks(lines, chunk):
            keyed += [(line.key, no) for no, line in items]
            yield
    order, ranks = yield from ranking.resetting(keyed, out, chunk)  # type: ignore[arg-type]
    yield from emptying(keyed, chunk)  # the entries `resetting` replaced by tied ones
    after: list[int] = []
    for placed in chunks(order, chunk):
        for key, no in placed:  # the keys as placed: equal keys one object
            lines[no].key = key
            after.append(no)
        yield
    if not (yield from same(after, before, chunk)):
        out.order = tuple(after)
    return ranks, after


def _all_in(nos: list[int], lines: Mapping[int, Line], chunk: int) -> Steps[bool]:
    """Whether every one of `nos` has a line, `chunk` at a time."""
    for part in chunks(nos, chunk):
        if not all(no in lines for no in part):
            return False
        yield
    return True


def sorting(
    keyed: list[tuple[Key, int]], chunk: int, depth: int = 0
) -> Steps[list[tuple[Key, int]]]:
    """`keyed` (keys equal in their first `depth` parts) sorted, a piece at a time: the rows
    bucketed by their key's next part (a score group, whose order a close or a pairing mostly
    keeps), each bucket sorted alone (nearly in order: about one comparison a row) or, when
    bigger than a few pieces, bucketed again by the part after; the buckets in the order of
    their parts. Pieces of at least `chunk` rows; no sort of every row at once (a row whose
    score moved, a bye's, would make the whole list one: 3-4 ms at 10,000 rows), nor of a
    big score group whose next values a close changed (2,000 rows: 2-5 ms)."""
    buckets: dict[object, list[tuple[Key, int]]] = {}
    for part in chunks(keyed, chunk):
        for entry in part:
            first = entry[0][depth]
            bucket = buckets.get(first)
            if bucket is None:
                buckets[first] = [entry]
            else:
                bucket.append(entry)
        yield
    order: list[tuple[Key, int]] = []
    done = 0
    for first in sorted(buckets):  # type: ignore[type-var]
        bucket = buckets[first]
        if len(bucket) > _BIG * chunk and depth + 1 < len(bucket[0][0]):
            bucket = yield from sorting(bucket, chunk, depth + 1)
        else:
            bucket.sort()
        order += bucket
        done += len(bucket)
        if done >= chunk:
            done = 0
            yield
    return order


_BIG = 4  # a bucket of more pieces than this is bucketed again (`sorting`)


def releasing(order: SortedList, chunk: int) -> Steps[None]:
    """Free an order nothing else holds a piece at a time, from its end (its sublists:
    sortedcontainers' documented layout, as `sorted_list`): at once, the entries of 10,000
    rows and their keys took 2-4 ms."""
    for entries in order._lists:
        yield from emptying(entries, chunk)


def sorted_list(entries: list[tuple[Key, int]]) -> SortedList:
    """A `SortedList` of `entries`, which are sorted already, laid out as its constructor
    would (sublists of its load factor and their last values: sortedcontainers' documented
    implementation) without sorting them again: the constructor's sort compares every row
    once more, 2-4 ms at 10,000 rows in one piece."""
    order = SortedList()
    load = order._load
    order._lists = [entries[at : at + load] for at in range(0, len(entries), load)]
    order._maxes = [part[-1] for part in order._lists]
    order._len = len(entries)
    return order


def flip(shares: set[int], no: int, tied: bool, out: Changes) -> None:
    """Row `no` now shares (or no longer shares) the rank of the row above."""
    if tied:
        shares.add(no)
    else:
        shares.discard(no)
    out.tie(no, tied)
