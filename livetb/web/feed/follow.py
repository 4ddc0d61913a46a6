"""A category view's ranks kept up from the main feed's deltas, as a page keeps the standings.

A category's rank of a member is one more than the number of members ranked strictly above it
in the main ranking. Recounting that over the whole order for every view at every result cost
a few milliseconds per result at 2,000 players; but the main delta says exactly what moved
(`moves`, applied in turn to the order of start numbers) and which rows' ties flipped, and
outside the positions those touch, the order, the ties and so every member's rank are as
before. So only the members between the first touched position (taken back to the start of
its tie group) and the last one (taken on to the end of its tie group) are counted again;
the members before them are counted by the nearest one's known index.
"""

from __future__ import annotations

import itertools

from livetb.wire.messages import DeltaMessage
from livetb.wire.standings import Row


class CategoryOrder:
    """The main order of start numbers and its ties, and each member's index and rank."""

    __slots__ = ("_index", "_members", "_order", "_tied", "ranks")

    def __init__(self, order: list[Row], members: frozenset[int]) -> None:
        self._order = [r.start_no for r in order]
        self._tied = {r.start_no for above, r in itertools.pairwise(order) if r.rank == above.rank}
        self._members = members
        self._index: dict[int, int] = {}
        self.ranks: dict[int, int] = {}
        count, rank, main = 0, 0, None
        for row in order:
            if row.start_no in members:
                count += 1
                if row.rank != main:
                    rank, main = count, row.rank
                self._index[row.start_no] = count
                self.ranks[row.start_no] = rank

    def follow(self, message: DeltaMessage) -> dict[int, int] | None:
        """Apply the main delta `message`; the members whose rank changed, with the new one.
        None when the delta does not say (a whole new order, a row not in the order): the
        view is counted again from the whole standings."""
        if message.order is not None:
            return None
        order, tied = self._order, self._tied
        lo, hi = len(order), -1
        for no, position in message.moves:
            try:
                old = order.index(no)
            except ValueError:
                return None  # a row new to the order
            del order[old]
            order.insert(position, no)
            lo, hi = min(lo, old, position), max(hi, old, position)
        tied.update(message.tied)
        tied.difference_update(message.untied)
        for no in (*message.tied, *message.untied):
            p = order.index(no)
            lo, hi = min(lo, p), max(hi, p)
        members, index, ranks = self._members, self._index, self.ranks
        if hi < 0 or not any(
            no in members
            for no in itertools.chain(
                (no for no, _ in message.moves), (c.start_no for c in message.rows), message.tied,
                message.untied,
            )
        ):  # fmt: skip
            # Only the members' keys and order make their ranks, and none of them changed.
            return {}
        while lo > 0 and order[lo] in tied:
            lo -= 1  # from the start of its tie group
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
        main, main_above, rank_above = lo + 1, 0, 0
        for p in range(lo, len(order)):
            no = order[p]
            if no not in tied:
                if p > hi:
                    break  # a new tie group after the touched rows: all as before from here
                main = p + 1
            if no in members:
                count += 1
                rank = rank_above if main == main_above else count
                main_above, rank_above = main, rank
                index[no] = count
                if ranks[no] != rank:
                    ranks[no] = changed[no] = rank
        return changed
