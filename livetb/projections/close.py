"""The standings the running round's close will publish, prepared between events.

A close changes nearly every row: the type-C values (now over rounds 1..K), FB (no longer a
prediction), and with them DE's groups and the order. Once every game of round K is finished
(a round with a game unfinished cannot close), those values are the projected view's, where
unfinished games count as draws and which every result keeps current. So between events
(`StandingsProjection.settle`, a slice of rows at a time) the rows are taken into a second
table as the close will make them: their cells, DE's groups, their place in the order. The
close then swaps that table in and only publishes the rows; every row an event changes in the
live table, or whose close values it reaches, is taken again before that.
"""

from __future__ import annotations

import functools
import itertools
import operator
import sys
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

import msgspec

from livetb.engine.catalogue import tiebreak_of
from livetb.engine.editions import Edition
from livetb.engine.model import Participant
from livetb.engine.result import Number
from livetb.engine.spec import Spec
from livetb.engine.standings import column
from livetb.projections.contexts import Contexts
from livetb.projections.delta import Changes
from livetb.projections.groups import DirectEncounters
from livetb.projections.lines import ANEW, Line, Shown, Touched, shown
from livetb.projections.ranking import Ranking, placing
from livetb.projections.steps import CHUNK, Steps, chunks, finish, item_chunks, same
from livetb.wire.standings import FB_CELL, Cell, Row, RowChange, Status, Value


@functools.cache
def closed_cells(specs: tuple[Spec, ...], edition: Edition, final: bool) -> Mapping[int, Spec]:
    """The cells a close computes again (index -> tie-break; besides the FB prediction, which
    it clears): type C. Own results (rounds 1..K) and the projected BH read nothing a close
    changes; nor does FB when the `final` round closes: the prediction, which does not read
    the final round's results, was the value (not under the legacy rules). Worked out once
    per tie-break list and rules (every result of a running round asks), read-only."""
    fb_kept = final and edition is not Edition.LEGACY
    cells: dict[int, Spec] = {}
    for i, spec in enumerate(specs):
        tb = tiebreak_of(spec)
        if tb.type_c or (tb.fore and not fb_kept):
            cells[i] = spec
    return MappingProxyType(cells)


_RESORT = 4  # sort the whole table again once more than a quarter of it moved at once
_SHED = 500  # entries of a retired table freed at a time


def shed(retired: object) -> list[object] | None:
    """Free one piece of what round events replaced (tuples of tables, orders, groups and
    contexts), or `_SHED` entries of a table nothing else holds; what is left, None once all
    is freed. The first call only lays the pieces out in a list, which later calls empty.
    An object nothing else holds (a context, an order, a small dict of tables, the engine's
    tournament: its participants and their rounds) is taken apart into its attributes,
    values or fields first.
    Freeing the previous contexts, table, order and groups of 10,000 rows at once held the
    loop 10-25 ms."""
    if not isinstance(retired, list):
        return [retired]
    while retired:
        last = retired.pop()
        if last is None:
            continue
        if isinstance(last, tuple | list):
            retired.extend(last)
            continue
        # Held by `last` and getrefcount's argument only: nothing else reads it.
        alone = sys.getrefcount(last) == 2
        if alone and isinstance(last, dict):
            if len(last) > _SHED:
                for _ in range(_SHED):
                    last.popitem()
                retired.append(last)
            else:  # a few big values (DE's groups by column, a context's caches by view)
                retired.extend(last.values())
                continue
        elif alone and hasattr(last, "__dict__") and not isinstance(last, type):
            retired.extend(vars(last).values())
            continue
        elif alone and isinstance(last, msgspec.Struct) and _holds_many(last):
            retired.extend(getattr(last, name) for name in last.__struct_fields__)
            continue
        break  # `last`, unless put back, is freed on return
    return retired or None


def _holds_many(struct: msgspec.Struct) -> bool:
    """Whether a field of `struct` is a container of more than `_SHED` entries (the engine's
    tournament: its participants), worth freeing apart; a small struct is freed whole."""
    fields = (getattr(struct, name) for name in struct.__struct_fields__)
    return any(isinstance(f, tuple | list | dict) and len(f) > _SHED for f in fields)


class Prepared:
    """The rows as the running round's close will show them (`take`), in their order, and
    for each the cells that will differ from the row published now (`changes`)."""

    def __init__(self, specs: tuple[Spec, ...]) -> None:
        self.lines: dict[int, Line] = {}
        self.ranking = Ranking()
        self.de = {i: DirectEncounters(i) for i, s in enumerate(specs) if tiebreak_of(s).group}
        self.changes: dict[int, tuple[Cell, ...]] = {}

    def take(
        self, ctx: Contexts, live: dict[int, Line], cells: Mapping[int, Spec], nos: list[int]
    ) -> None:
        """Rows `nos` again (`settle`: a few at a time): `taking`, at once."""
        finish(self.taking(ctx, live, cells, nos, CHUNK))

    def taking(
        self,
        ctx: Contexts,
        live: dict[int, Line],
        cells: Mapping[int, Spec],
        nos: list[int],
        chunk: int,
        near: Ranking | None = None,
    ) -> Steps[None]:
        """Rows `nos` again: their `live` cells, the close's `cells` (index -> tie-break)
        computed on the projected view a piece of a quarter of `chunk` rows at a time (each
        row's type-C values: 1-2 ms for a whole `chunk` of 128 at 10,000 players), then their DE
        groups, what the close will change in them and their places once for them all (when
        all are sorted again, from `near`'s order: the live one at a close)."""
        touched: Touched = {}
        for part in chunks(nos, max(1, chunk // 4)):
            touched.update(self._cells(ctx, live, cells, part))
            yield
        moved: set[int] = set()
        for part in chunks(nos, chunk):
            moved.update(part)
            yield
        for de in self.de.values():  # a taken row's games may have changed: its group too
            yield from de.updating(ctx, self.lines, touched, moved, nos, chunk)
        for part in chunks(list(touched), chunk):
            self._diff(live, cells, part)
            yield
        # Tie flips and moves within this table are nobody's news: the swap tells the
        # difference from the live table's.
        resort = len(moved) * _RESORT > len(self.lines)
        yield from placing(self.ranking, self.lines, moved, Changes(), resort, chunk, near)

    def _cells(
        self, ctx: Contexts, live: dict[int, Line], cells: Mapping[int, Spec], nos: Sequence[int]
    ) -> Touched:
        """Rows `nos` with their `live` cells and the close's `cells` on the projected view,
        each row's line made once; DE's places kept as this table has them (a group not
        decided again keeps them), a new row's the live ones."""
        lines, de_cells = self.lines, [*self.de]
        columns: list[tuple[int, list[Value], list[object]]] = []
        made: list[tuple[list[Number | None], Shown]] = []
        for i, spec in cells.items():
            raws = column(ctx.projected, spec, nos)
            # FB before the final round is BH on this view: the same values, shown once.
            same = next((m for r, m in made if all(map(operator.is_, r, raws))), None)
            if same is None:
                same = shown(raws)
                made.append((raws, same))
            columns.append((i, *same))
        for k, no in enumerate(nos):
            source, old = live[no], lines.get(no)
            values, parts = list(source.values), list(source.parts)
            for i, shown_values, shown_parts in columns:
                values[i], parts[i] = shown_values[k], shown_parts[k]
            key = None
            if old is not None:  # placed already: `placing` moves it from its key
                key = old.key
                for i in de_cells:
                    values[i], parts[i] = old.values[i], old.parts[i]
            lines[no] = Line(tuple(values), tuple(parts), source.tail, key, source.fb, source.bh)
        return dict.fromkeys(nos, ANEW)

    def _diff(self, live: dict[int, Line], cells: Mapping[int, Spec], nos: Iterable[int]) -> None:
        """What the close will change in rows `nos` (a live row is the published one, and any
        change to it has it taken again): the close's cells and DE's that differ; the FB
        prediction goes (`replacing`); the own-result cells and the projected BH stay."""
        lines, changes, watched = self.lines, self.changes, [*cells, *self.de]
        for no in nos:
            values, published = lines[no].values, live[no]
            before = published.values
            diff: list[Cell] = [(i, values[i]) for i in watched if values[i] != before[i]]
            if published.fb is not None:
                diff.append((FB_CELL, None))
            changes[no] = tuple(diff)

    def replacing(
        self, live: dict[int, Line], before: Ranking, out: Changes, chunk: int
    ) -> Steps[None]:
        """Ready this table to replace the `live` one at the close, ranked `before`: no FB
        prediction once the round is closed, the projected BH as it is; the ties that flipped
        and the new order go to `out`."""
        for part in item_chunks(self.lines, chunk):
            for no, line in part:
                line.fb, line.bh = None, live[no].bh
            yield
        shares, was = self.ranking.shares, before.shares
        for flipped in chunks([*(shares - was), *(was - shares)], chunk):
            for no in flipped:
                out.tie(no, no in shares)
            yield
        after = yield from self.ranking.listing(chunk)
        if not (yield from same(after, (yield from before.listing(chunk)), chunk)):
            out.order = tuple(after)

    def publishing(
        self,
        rows: dict[int, Row],
        participants: Mapping[int, Participant],
        statuses: tuple[Status, ...],
        out: Changes,
        chunk: int,
    ) -> Steps[None]:
        """New published `rows` where the close changes the content, recorded in `out` with
        the cells `take` worked out."""
        lines, changes = self.lines, self.changes
        ranked = self.ranking.ranks()
        while part := list(itertools.islice(ranked, chunk)):
            for no, rank in part:
                cells = changes[no]
                if cells:
                    line = lines[no]
                    name = participants[no].name
                    rows[no] = Row(rank, no, name, line.values, statuses, None, line.bh)
                    out.changes.append(RowChange(no, None, cells))
            yield
