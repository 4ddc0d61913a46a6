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
import sys
from collections.abc import Mapping
from types import MappingProxyType

import msgspec

from livetb.engine.catalogue import tiebreak_of
from livetb.engine.editions import Edition
from livetb.engine.model import Participant
from livetb.engine.spec import Spec
from livetb.engine.standings import column
from livetb.projections.contexts import Contexts
from livetb.projections.delta import Changes
from livetb.projections.groups import DirectEncounters
from livetb.projections.lines import ANEW, Line, Touched, set_column, shown
from livetb.projections.ranking import Ranking, place
from livetb.wire.standings import FB_CELL, Cell, Row, RowChange, Status


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
_SHED = 2000  # entries of a retired table freed at a time


def shed(retired: object) -> list[object] | None:
    """Free one piece of what round events replaced (tuples of tables, orders, groups and
    contexts), or `_SHED` entries of a table nothing else holds; what is left, None once all
    is freed. The first call only lays the pieces out in a list, which later calls empty.
    Freeing the previous contexts, table, order and groups of 10,000 rows at once held the
    loop 10-15 ms."""
    if not isinstance(retired, list):
        return [retired]
    while retired:
        last = retired.pop()
        if last is None:
            continue
        if isinstance(last, tuple | list):
            retired.extend(last)
            continue
        # Held by `last` and getrefcount's argument only: a table nothing else reads.
        if isinstance(last, dict) and len(last) > _SHED and sys.getrefcount(last) == 2:
            for _ in range(_SHED):
                last.popitem()
            retired.append(last)
        break  # `last`, unless put back, is freed on return
    return retired or None


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
        """Rows `nos` again: their `live` cells, the close's `cells` (index -> tie-break)
        computed on the projected view, their DE groups and their place."""
        lines, de_cells = self.lines, [*self.de]
        touched: Touched = {}
        moved: set[int] = set(nos)
        for no in nos:
            source, line = live[no], lines.get(no)
            if line is None:
                lines[no] = msgspec.structs.replace(source, key=None)
            else:  # DE's places are this table's: a group not decided again keeps them
                kept = [(i, line.values[i], line.parts[i]) for i in de_cells]
                line.values, line.parts, line.tail = source.values, source.parts, source.tail
                for i, value, part in kept:
                    line.put(i, value, part)
            touched[no] = ANEW
        for i, spec in cells.items():
            set_column(lines, i, nos, shown(column(ctx.projected, spec, nos)), touched, moved)
        for de in self.de.values():  # a taken row's games may have changed: its group too
            de.update(ctx, lines, touched, moved, nos)
        # A live row is the published one, and any change to it has it taken again: what the
        # close will change in it is known now. Its own-result cells are the live ones; the
        # FB prediction goes (`replace`); the projected BH stays.
        watched = [*cells, *self.de]
        for no in touched:
            values, published = lines[no].values, live[no]
            before = published.values
            diff: list[Cell] = [(i, values[i]) for i in watched if values[i] != before[i]]
            if published.fb is not None:
                diff.append((FB_CELL, None))
            self.changes[no] = tuple(diff)
        # Tie flips and moves within this table are nobody's news: the swap tells the
        # difference from the live table's.
        place(self.ranking, lines, moved, Changes(), len(moved) * _RESORT > len(lines))

    def replace(self, live: dict[int, Line], before: Ranking, out: Changes) -> None:
        """Ready this table to replace the `live` one at the close, ranked `before`: no FB
        prediction once the round is closed, the projected BH as it is; the ties that flipped
        and the new order go to `out`."""
        for no, line in self.lines.items():
            line.fb, line.bh = None, live[no].bh
        shares = self.ranking.shares
        for no in before.shares ^ shares:
            out.tie(no, no in shares)
        after = self.ranking.nos()
        if after != before.nos():
            out.order = tuple(after)

    def publish(
        self,
        rows: dict[int, Row],
        participants: Mapping[int, Participant],
        statuses: tuple[Status, ...],
        out: Changes,
    ) -> None:
        """New published `rows` where the close changes the content, recorded in `out` with
        the cells `take` worked out."""
        lines, changes = self.lines, self.changes
        for no, rank in self.ranking.ranks():
            cells = changes[no]
            if cells:
                line = lines[no]
                name = participants[no].name
                rows[no] = Row(rank, no, name, line.values, statuses, None, line.bh)
                out.changes.append(RowChange(no, None, cells))
