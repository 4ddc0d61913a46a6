"""The live prize list: the prize each participant would take if the tournament ended now
(`provisional` while rounds remain, `final` once the last round is closed; nobody's before the
first result), from the standings and the categories as they are and the prize table in force
(`PrizesDefined`); and, for the card, the best and worst prize each result of the running game
leaves open.

The main list is the standings; a category's list is the standings restricted to its members
(`livetb/projections/categories.py`), in the main order. Lists are read lazily, best first, as
far as the allocation needs them: a result costs a walk over the top of the order, not the
field.
"""

from __future__ import annotations

import itertools
from abc import abstractmethod
from collections.abc import Iterator, Sequence
from decimal import Decimal
from typing import overload

import msgspec

from livetb.engine.catalogue import tiebreak_of
from livetb.engine.prizes import MAIN, Award, Standing, Table, allocate, money
from livetb.events.schema import PrizesDefined
from livetb.events.state import TournamentState
from livetb.projections.categories import Memberships
from livetb.projections.standings import StandingsProjection
from livetb.wire.prizes import AwardLine, ListInfo, PrizeLine, Status
from livetb.wire.prizes import PrizeList as PrizeList  # the list's type, for the CLI
from livetb.wire.standings import Row


def table_of(defined: PrizesDefined) -> Table:
    return Table(defined.rule, defined.one_prize_per_player, defined.currency, defined.prizes)


def status(state: TournamentState) -> Status:
    created = state.created
    assert created is not None
    return "final" if state.closed >= created.rounds else "provisional"


_ZERO = Decimal(0)
_POINTS: dict[object, Decimal] = {}  # a score as the standings write it ("4.5"): few distinct


class _Lazy(Sequence[Standing]):
    """Rows read only as far as indexed: `_grow` appends the next ones, False at the end.
    Indexing past the end raises IndexError."""

    def __init__(self) -> None:
        self._rows: list[Standing] = []

    @abstractmethod
    def _grow(self) -> bool: ...

    @overload
    def __getitem__(self, i: int) -> Standing: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Standing]: ...
    def __getitem__(self, i: int | slice) -> Standing | Sequence[Standing]:
        if isinstance(i, slice):
            raise TypeError("a list is read one row at a time")
        while i >= len(self._rows):
            if not self._grow():
                raise IndexError(i)
        return self._rows[i]

    def __len__(self) -> int:
        while self._grow():
            pass
        return len(self._rows)


class _Order(_Lazy):
    """The standings, best first, read once from the projection's order as far as indexed."""

    _CHUNK = 64  # rows converted per step: the allocation reads past a place's tie group

    def __init__(self, projection: StandingsProjection, score: int | None) -> None:
        super().__init__()
        self._source: Iterator[Row] | None = projection.ordered()
        self._score = score

    def _grow(self) -> bool:
        if self._source is None:
            return False
        before = len(self._rows)
        self._rows += map(self._standing, itertools.islice(self._source, self._CHUNK))
        if len(self._rows) - before < self._CHUNK:
            self._source = None  # the order is read to its end
        return len(self._rows) > before

    def _standing(self, row: Row) -> Standing:
        if self._score is None:
            return Standing(row.start_no, row.rank, _ZERO)
        text = row.values[self._score]
        points = _POINTS.get(text)
        if points is None:
            points = _POINTS[text] = Decimal(str(text))
        return Standing(row.start_no, row.rank, points)

    def rows(self) -> Iterator[Standing]:
        i = 0
        while True:
            while i >= len(self._rows):
                if not self._grow():
                    return
            yield self._rows[i]
            i += 1


class _Members(_Lazy):
    """A category's rows: the order's rows of its members, found as far as read."""

    def __init__(self, order: _Order, members: frozenset[int]) -> None:
        super().__init__()
        self._source = order.rows()
        self._members = members

    def _grow(self) -> bool:
        row = next(self._source, None)
        if row is None:
            return False
        if row.start_no in self._members:
            self._rows.append(row)
        return True


def score_column(projection: StandingsProjection) -> int | None:
    """The index of the score (PTS) among the tie-break columns, if the list has it."""
    return next((i for i, s in enumerate(projection.specs) if tiebreak_of(s).score), None)


def lists_of(
    projection: StandingsProjection, memberships: Memberships
) -> dict[str, Sequence[Standing]]:
    """The main list and each category's, in the categories' order, read lazily."""
    order = _Order(projection, score_column(projection))
    lists: dict[str, Sequence[Standing]] = {MAIN: order}
    for code, members in memberships.of(projection.state).items():
        lists[code] = _Members(order, members)
    return lists


def prize_list(
    projection: StandingsProjection, memberships: Memberships | None = None
) -> PrizeList:
    """The prize list now: every award of the table in force, in the order given."""
    state = projection.state
    created = state.created
    assert created is not None
    defined = state.prizes
    lists = [ListInfo(MAIN, None), *(ListInfo(c.code, c.name) for c in state.categories)]
    if defined is None:
        return PrizeList(
            projection.seq, status(state), state.closed, None, True, None, lists, [], []
        )
    table = table_of(defined)
    currency = table.currency
    awards = (
        allocate(table, lists_of(projection, memberships or Memberships())) if played(state) else []
    )
    people, teams = state.participants, state.teams

    def name(no: int) -> str:
        p = people.get(no)
        return p.name if p is not None else teams[no].name if no in teams else ""

    return PrizeList(
        projection.seq,
        status(state),
        state.closed,
        table.rule,
        table.one_prize_per_player,
        currency,
        lists,
        [
            PrizeLine(p.list, p.place, money(p.amount, currency), p.label)
            for p in sorted(table.prizes, key=lambda p: (_list_index(lists, p.list), p.place))
        ],
        [_line(a, name(a.start_no), currency) for a in awards],
    )


def played(state: TournamentState) -> bool:
    """Whether any game has a result (or a round is closed): before that the order is the
    start list's, everybody on the same points, and no prize is anybody's yet."""
    return state.closed > 0 or any(
        g.result is not None for r in state.rounds.values() for g in r.games.values()
    )


def _list_index(lists: list[ListInfo], code: str) -> int:
    return next((i for i, info in enumerate(lists) if info.code == code), len(lists))


def _line(a: Award, name: str, currency: str) -> AwardLine:
    return AwardLine(
        a.start_no, name, a.list, a.place, money(a.amount, currency), a.places, a.shared, a.label
    )


class PrizeFeed:
    """The prize list the feed last published for one tournament: a new one is sent only when
    it differs (the awards, the table or the status), not on every event."""

    __slots__ = ("_last", "memberships")

    def __init__(self) -> None:
        self.memberships = Memberships()
        self._last: bytes | None = None

    def forget(self) -> None:
        """The next `changed` returns the list whatever it is (nobody has seen the last)."""
        self._last = None

    def changed(self, projection: StandingsProjection) -> PrizeList | None:
        """The prize list if it differs from the last one returned, else None. Nothing is
        computed for a tournament without a prize table."""
        if projection.state.prizes is None and self._last is None:
            return None
        now = prize_list(projection, self.memberships)
        key = msgspec.json.encode(msgspec.structs.replace(now, seq=0))  # all but the seq
        if key == self._last:
            return None
        self._last = key
        return now
