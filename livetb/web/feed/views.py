"""A filtered feed's rows: which rows a viewer asked for (`Filter`) and what each event
changed of them (`View`), shared by every viewer of the same filter (`livetb/web/feed/hub.py`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import msgspec

from livetb.projections.categories import Memberships, category_rows
from livetb.projections.category_order import CategoryOrder, MainOrder
from livetb.projections.delta import change_of
from livetb.projections.ratings import RatedTotals
from livetb.projections.standings import StandingsProjection
from livetb.web.feed.messages import rated_part
from livetb.wire.messages import DeltaMessage, encode
from livetb.wire.standings import Row, RowChange


class Filter(msgspec.Struct, frozen=True):
    """Which rows a viewer gets: the first `top` rows, or the `participants` listed; with a
    `category` (its code), that category's standings (ranks counted inside it; its first
    `top` rows with `top`). `rated` (`with=rating_change`): the snapshot's rows with their
    `rating_change`, each delta with the totals it changed; alone, every row."""

    top: int | None = None
    participants: frozenset[int] | None = None
    category: str | None = None
    rated: bool = False

    @property
    def key(self) -> tuple[str, ...]:
        return (*self._key, "rc") if self.rated else self._key

    @property
    def _key(self) -> tuple[str, ...]:
        if self.category is not None:
            return ("category", self.category, "" if self.top is None else str(self.top))
        if self.top is not None:
            return ("top", str(self.top))
        if self.participants is None:
            return ("all",)
        return ("nos", ",".join(map(str, sorted(self.participants))))

    @property
    def whole(self) -> bool:
        """Rows from anywhere in the order: a category's, or every row."""
        return self.category is not None or (self.top is None and self.participants is None)

    @property
    def leading(self) -> bool:
        """The first `top` rows of the main standings."""
        return self.top is not None and self.category is None


class View:
    """The rows one filter currently shows, shared by every viewer with that filter."""

    def __init__(self, filter: Filter, projection: StandingsProjection, main: MainOrder) -> None:
        self.filter = filter
        self.viewers = 0
        self.members = Memberships()  # a category's, read again when the roster changes
        self.reset(projection, main)

    def reset(self, projection: StandingsProjection, main: MainOrder) -> None:
        """The view's rows as `projection` has them; the ranks of a view of a whole category
        (or of every row, with their rating change) kept up from the main deltas (`main`: its
        channel's order, followed once for every view) while they say what moved."""
        self.main = main
        self.follows: CategoryOrder | None = None
        self.seq = self.roster = -1  # the seq and the roster `follows` is at
        order = projection.standings(None if self.filter.whole else self.filter.top)
        self.ranks = {r.start_no: r.rank for r in self.rows(order, projection)}
        self._restart(projection, order)

    def _restart(self, projection: StandingsProjection, order: list[Row]) -> None:
        """`follows` from the whole standings `order` of `projection`."""
        if not self.filter.whole or self.filter.top is not None:
            return  # the first rows, or a fixed set: counted from the order each time
        state = projection.state
        if self.filter.category is None:  # every row: ranked as the main order has them
            members = frozenset(r.start_no for r in order)
        else:
            members = self.members.of(state).get(self.filter.category, frozenset())
        if self.main.seq != projection.seq:  # the first view to restart at this seq
            self.main.reset(order, projection.seq)
        self.follows = CategoryOrder(self.main, members)
        self.ranks = self.follows.ranks
        self.seq, self.roster = projection.seq, state.roster_seq

    def rows(self, order: list[Row], projection: StandingsProjection) -> list[Row]:
        """The view's rows out of the whole standings `order` (the first `top` of them, for
        a top-N view)."""
        if self.filter.category is not None:
            nos = self.members.of(projection.state).get(self.filter.category, frozenset())
            return category_rows(order, nos, ordered=True)[: self.filter.top]
        if self.filter.top is not None:
            return order[: self.filter.top]
        if self.filter.participants is None:
            return order
        wanted = self.filter.participants
        return [r for r in order if r.start_no in wanted]

    def delta(
        self,
        message: DeltaMessage,
        projection: StandingsProjection,
        order: list[Row] | Callable[[], list[Row]] | None,
        rated: RatedTotals | None = None,
    ) -> bytes:
        """The view's part of the full feed's `message`: its rows' changed cells (all of a row
        that entered), their changed ranks, the rows that left. `order`: the whole standings
        (or the first `top` rows of a top-N view), or what reads them when needed."""
        follows = self.follows
        if (
            follows is not None
            and message.seq == self.seq + 1
            and projection.state.roster_seq == self.roster
            and (changed := follows.follow(message)) is not None
        ):
            self.seq = message.seq
            mine = follows.ranks
            rows = tuple(c for c in message.rows if c.start_no in mine)
            part = self._part(message, rows, tuple(sorted(changed.items())), ())
            return encode(self._rated(part, rated, ()))
        if callable(order):
            order = order()
        if order is None:  # a fixed set of participants
            now = {r.start_no: r for r in projection.ranked(self.filter.participants or ())}
        else:
            now = {r.start_no: r for r in self.rows(order, projection)}
        before = self.ranks
        changes = [c for c in message.rows if c.start_no in now and c.start_no in before]
        changes += [change_of(None, now[no]) for no in sorted(now.keys() - before.keys())]
        ranks = tuple(sorted((no, r.rank) for no, r in now.items() if before.get(no) != r.rank))
        drop = tuple(sorted(before.keys() - now.keys()))
        self.ranks = {no: r.rank for no, r in now.items()}
        if order is not None:
            self._restart(projection, order)
        part = self._part(message, tuple(changes), ranks, drop)
        return encode(self._rated(part, rated, now.keys() - before.keys()))

    def _rated(
        self, part: DeltaMessage, rated: RatedTotals | None, entered: Iterable[int]
    ) -> DeltaMessage:
        if not self.filter.rated or rated is None:
            return part
        return rated_part(part, rated, self.ranks.keys(), entered)

    @staticmethod
    def _part(
        message: DeltaMessage,
        rows: tuple[RowChange, ...],
        ranks: tuple[tuple[int, int], ...],
        drop: tuple[int, ...],
    ) -> DeltaMessage:
        return msgspec.structs.replace(
            message, rows=rows, moves=(), order=None, tied=(), untied=(), ranks=ranks, drop=drop
        )
