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
import operator

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
        end = hi + 1
        while end < len(order) and order[end] in tied:
            end += 1  # to the end of its tie group: from there on, all is as before
        # Counted in C: a row's tie group is the number of group starts up to it; a member's
        # rank is the index of its group's first member.
        window = order[lo:end]
        groups = itertools.accumulate(map(operator.not_, map(tied.__contains__, window)))
        mine = list(map(members.__contains__, window))
        nos = list(itertools.compress(window, mine))
        of_group = list(itertools.compress(groups, mine))
        indexes = range(count + 1, count + 1 + len(nos))
        first = dict(zip(reversed(of_group), reversed(indexes), strict=True))
        index.update(zip(nos, indexes, strict=True))
        now = dict(zip(nos, map(first.__getitem__, of_group), strict=True))
        changed = dict(now.items() - ranks.items())
        ranks.update(changed)
        return changed
