"""A category's ranks: counted once from the main order (`CategoryOrder`, which every
category standings read through `category_rows`), and kept up from the main feed's deltas, as
a page keeps the standings (`CategoryOrder.follow`, the feed's category views).

A category's rank of a member is one more than the number of members ranked strictly above it
in the main ranking: members who share a main rank share it in the category. Recounting that
over the whole order for every view at every result cost a few milliseconds per result at
2,000 players; but the main delta says exactly what moved
(`moves`, applied in turn to the order of start numbers) and which rows' ties flipped, and
outside the positions those touch, the order, the ties and so every member's rank are as
before. So only the members between the first touched position (taken back to the start of
its tie group) and the last one (taken on to the end of its tie group) are counted again;
the members before them are counted by the nearest one's known index.

The main order is followed once per delta for every category view of a channel
(`MainOrder`): finding a moved row in it is a linear search, the larger part of a view's
cost when each view kept its own copy.
"""

from __future__ import annotations

import itertools

from livetb.wire.messages import DeltaMessage
from livetb.wire.standings import Row


class MainOrder:
    """The main order of start numbers and its ties at `seq` (-1 while unknown), and the
    positions that the delta of seq `moved` touched (`lo`..`hi`; `hi` < 0: none). `moved` is
    -1 when the order was read whole, not followed: nothing says what changed."""

    __slots__ = ("hi", "lo", "moved", "nos", "seq", "tied")

    def __init__(self) -> None:
        self.seq = self.moved = -1
        self.nos: list[int] = []
        self.tied: set[int] = set()
        self.lo, self.hi = 0, -1

    def reset(self, order: list[Row], seq: int) -> None:
        """The whole standings `order` at `seq`."""
        self.nos = [r.start_no for r in order]
        self.tied = {r.start_no for above, r in itertools.pairwise(order) if r.rank == above.rank}
        self.seq, self.moved, self.lo, self.hi = seq, -1, 0, -1

    def follow(self, message: DeltaMessage) -> None:
        """Apply the main delta `message`. Unknown afterwards (seq -1) when it does not follow
        or does not say (a whole new order, a row not in the order)."""
        if self.seq != message.seq - 1 or message.order is not None:
            self.seq = -1
            return
        order, tied = self.nos, self.tied
        lo, hi = len(order), -1
        for no, position in message.moves:
            try:
                old = order.index(no)
            except ValueError:
                self.seq = -1  # a row new to the order
                return
            del order[old]
            order.insert(position, no)
            lo, hi = min(lo, old, position), max(hi, old, position)
        tied.update(message.tied)
        tied.difference_update(message.untied)
        for no in (*message.tied, *message.untied):
            p = order.index(no)
            lo, hi = min(lo, p), max(hi, p)
        if hi >= 0:
            while lo > 0 and order[lo] in tied:
                lo -= 1  # from the start of its tie group
        self.seq = self.moved = message.seq
        self.lo, self.hi = lo, hi


class CategoryOrder:
    """A category's members in the main order (`MainOrder`, shared): each member's index
    and rank."""

    __slots__ = ("_index", "_main", "_members", "ranks")

    def __init__(self, main: MainOrder, members: frozenset[int]) -> None:
        self._main = main
        self._members = members
        self._index: dict[int, int] = {}
        self.ranks: dict[int, int] = {}
        count, rank, tied = 0, 0, main.tied
        for no in main.nos:
            if no in members:
                count += 1
                if no not in tied or not rank:
                    rank = count
                self._index[no] = count
                self.ranks[no] = rank
            elif no not in tied:
                rank = 0  # a new tie group: the next member starts its rank

    def follow(self, message: DeltaMessage) -> dict[int, int] | None:
        """The members whose rank the main delta `message` changed, with the new one; None
        when the main order could not follow it: the view is counted again from the whole
        standings."""
        main = self._main
        if main.moved != message.seq:
            return None
        members, index, ranks = self._members, self._index, self.ranks
        if main.hi < 0 or not (
            message.tied
            or message.untied
            or any(
                no in members
                for no in itertools.chain(
                    (no for no, _ in message.moves), (c.start_no for c in message.rows)
                )
            )
        ):
            # The members' order and the tie groups make their ranks: neither changed. (A
            # tie that ends or begins at anybody's row moves a group's boundary, which may
            # part members or join them.)
            return {}
        order, tied, lo, hi = main.nos, main.tied, main.lo, main.hi
        count = 0
        for p in range(lo - 1, -1, -1):
            if order[p] in members:
                count = index[order[p]]
                break
        window = order[lo : hi + 1]
        if (hi + 1 >= len(order) or order[hi + 1] not in tied) and tied.isdisjoint(window):
            # No tie inside: the members' ranks are their indexes, counted in C.
            now = dict(zip(filter(members.__contains__, window), itertools.count(count + 1)))
            index.update(now)
            ranked = dict(now.items() - ranks.items())
            ranks.update(ranked)
            return ranked
        changed: dict[int, int] = {}
        group, group_above, rank_above = lo + 1, 0, 0
        for p in range(lo, len(order)):
            no = order[p]
            if no not in tied:
                if p > hi:
                    break  # a new tie group after the touched rows: all as before from here
                group = p + 1
            if no in members:
                count += 1
                rank = rank_above if group == group_above else count
                group_above, rank_above = group, rank
                index[no] = count
                if ranks[no] != rank:
                    ranks[no] = changed[no] = rank
        return changed
