"""A row's cells as the projection computes them (`Line`), and which of them one event changed
(`Touched`): the rows to build anew and, for each, only the cells to compare with the published
row (`cells`), not every cell of every row a close or a pairing reaches."""

from __future__ import annotations

import functools
from collections.abc import Callable
from decimal import Decimal

from livetb.projections.delta import BH_CELL, FB_CELL, Cell, Row, Value

NULL = Decimal("Infinity")  # the sort-key part of a null value: after every defined one
# The rows to build anew -> the cells an event changed in them, one bit each (an int, which
# the garbage collector does not track): bit i for tie-break i, then the two extra cells, or
# every cell of a row new or renamed.
Touched = dict[int, int]
FB_BIT, BH_BIT, ANEW = 1 << 60, 1 << 61, 1 << 62


class Line:
    """A row's cells as computed: the values shown, their sort-key parts, and its key."""

    __slots__ = ("bh", "fb", "key", "parts", "tail", "values")

    def __init__(self, n: int) -> None:
        self.values: list[Value] = [None] * n
        self.parts: list[object] = [NULL] * n  # -value (DE: +place), null: NULL
        self.tail: tuple[int, int] = (0, 0)  # playoff position, lot
        self.key: tuple[object, ...] | None = None  # as placed in the ranking
        self.fb: str | None = None
        self.bh: str | None = None


# One object per sort-key part value: equal parts of two keys are then the same object, which
# tuple comparisons (the sort of a close or a pairing, DE's groups, ties) pass by identity
# instead of comparing Decimals. Shared by every projection; equal values only, so starting
# over when it grows too big changes nothing but speed.
_PARTS: dict[object, object] = {}
_MOST_PARTS = 1 << 16


def shared_parts() -> Callable[[object, object], object]:
    """`setdefault` of the parts shared per value (a sort-key part is -value, best first; null
    is `NULL`), the table started over first when it grew too big: once per column, not per
    value."""
    if len(_PARTS) >= _MOST_PARTS:
        _PARTS.clear()
    return _PARTS.setdefault


def mark(touched: Touched, no: int, bit: int) -> None:
    """Row `no` is to be built anew: its cell `bit` changed."""
    touched[no] = touched.get(no, 0) | bit


def cells(old: Row, new: Row, changed: int) -> tuple[Cell, ...]:
    """The cells among the `changed` bits whose value differs from `old`'s (a cell can change
    and change back within one event), in `change_of`'s order."""
    indices, fb, bh = _plan(changed)
    values, before = new.values, old.values
    out: list[Cell] = []
    for i in indices:
        v = values[i]
        if v != before[i]:
            out.append((i, v))
    if fb and new.fb_prediction != old.fb_prediction:
        out.append((FB_CELL, new.fb_prediction))
    if bh and new.bh_projected != old.bh_projected:
        out.append((BH_CELL, new.bh_projected))
    return tuple(out)


@functools.cache
def _plan(changed: int) -> tuple[tuple[int, ...], bool, bool]:
    """The tie-break indices and the two extra cells among the `changed` bits: a close or a
    pairing gives most rows the same few bits, read once rather than bit by bit per row."""
    indices = tuple(i for i in range(changed.bit_length()) if changed >> i & 1 and 1 << i < FB_BIT)
    return indices, bool(changed & FB_BIT), bool(changed & BH_BIT)
