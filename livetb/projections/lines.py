"""A row's cells as the projection computes them (`Line`), how a column's new values land in
them (`set_column`, `set_extra`: shown as `fmt` shows them), and which of them one event
changed (`Touched`): the rows to build anew and, for each, only the cells to compare with the
published row (`cells`), not every cell of every row a close or a pairing reaches."""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection
from decimal import Decimal

import msgspec

from livetb.engine.result import Number
from livetb.wire.standings import BH_CELL, FB_CELL, Cell, Row, Value

NULL = Decimal("Infinity")  # the sort-key part of a null value: after every defined one
# The rows to build anew -> the cells an event changed in them, one bit each (an int, which
# the garbage collector does not track): bit i for tie-break i, then the two extra cells, or
# every cell of a row new or renamed.
Touched = dict[int, int]
FB_BIT, BH_BIT, ANEW = 1 << 60, 1 << 61, 1 << 62


class Line(msgspec.Struct, gc=False):
    """A row's cells as computed: the values shown, their sort-key parts, and its key. Tuples
    in a struct the garbage collector does not track (nothing in it refers back): two tables
    of ten thousand rows (`close.py`) would otherwise be walked by every full collection."""

    values: tuple[Value, ...]
    parts: tuple[object, ...]  # `part_of` each value (DE: +place)
    tail: tuple[int, int] = (0, 0)  # playoff position, lot
    key: tuple[object, ...] | None = None  # as placed in the ranking
    fb: str | None = None
    bh: str | None = None

    @classmethod
    def empty(cls, n: int) -> Line:
        return cls((None,) * n, (NULL,) * n)

    def put(self, i: int, value: Value, part: object) -> None:
        """Cell `i`'s value and sort-key part."""
        values, parts = self.values, self.parts
        self.values = (*values[:i], value, *values[i + 1 :])
        self.parts = (*parts[:i], part, *parts[i + 1 :])


# One object per sort-key part value: equal parts of two keys are then the same object, which
# tuple comparisons (the sort of a close or a pairing, DE's groups, ties) pass by identity
# instead of comparing Decimals. Shared by every projection; equal values only, so starting
# over when it grows too big changes nothing but speed.
_PARTS: dict[object, object] = {}
_MOST_PARTS = 1 << 16


def shared_parts() -> Callable[[object, object], object]:
    """`setdefault` of the parts shared per value (`part_of`), the table started over first
    when it grew too big: once per column, not per value."""
    if len(_PARTS) >= _MOST_PARTS:
        _PARTS.clear()
    return _PARTS.setdefault


def fmt(v: Number | None) -> Value:
    """Decimals as strings, counts and ratings as ints (the CLI's JSON contract)."""
    if v is None or isinstance(v, int):
        return v
    s = str(v)
    if "E" not in s:  # plain notation: a "." exactly when the exponent < 0
        if "." in s:
            return s
        if v.is_finite():
            return s + ".0"
    exponent = v.as_tuple().exponent  # a letter only for NaN and Infinity
    if v == v.to_integral_value() and isinstance(exponent, int) and exponent >= 0:
        return f"{v:.1f}"
    return s


def part_of(raw: Number | None) -> object:
    """A value's sort-key part: best first, so -value, in hundredths and an int when that is
    exact (every C.07 value but some products of fractional scorings): a sort or a bisection
    compares ints faster than Decimals, and an int and a Decimal compare exactly. Null after
    every value."""
    if raw is None:
        return NULL
    if type(raw) is int:
        return -100 * raw
    scaled = raw * _HUNDRED
    whole = scaled.to_integral_value()
    return -int(whole) if whole == scaled else -scaled


_HUNDRED = Decimal(100)


Shown = tuple[list[Value], list[object]]  # a column's values as shown and their parts


def shown(raws: list[Number | None]) -> Shown:
    """Each of `raws` as shown (`fmt`) and its sort-key part (`part_of`, one object per value:
    `shared_parts`), worked out once per distinct value: many rows share one, and a Decimal's
    text (exact: sign, digits, exponent) tells "1.0" from "1.00"."""
    share = shared_parts()
    made: dict[object, tuple[Value, object]] = {}  # a Decimal's text, an int or None
    values: list[Value] = []
    parts: list[object] = []
    for raw in raws:
        key = str(raw) if type(raw) is Decimal else raw
        got = made.get(key)
        if got is None:
            part = part_of(raw)
            got = made[key] = (fmt(raw), share(part, part))
        values.append(got[0])
        parts.append(got[1])
    return values, parts


def set_column(
    lines: dict[int, Line],
    i: int,
    nos: Collection[int],
    column: Shown,
    touched: Touched,
    moved: set[int],
) -> None:
    """Tie-break `i`'s new values of `nos` (`shown`): a changed value marks its row (`mark`,
    inlined: a close or a pairing runs this for every row), a changed sort-key part moves
    it."""
    get, bit = touched.get, 1 << i
    for no, v, part in zip(nos, *column, strict=True):
        line = lines[no]
        values = line.values
        if v != values[i]:
            line.values = (*values[:i], v, *values[i + 1 :])
            touched[no] = get(no, 0) | bit
            parts = line.parts
            if part != parts[i]:
                line.parts = (*parts[:i], part, *parts[i + 1 :])
                moved.add(no)


def set_extra(
    lines: dict[int, Line],
    nos: Collection[int],
    values: list[Value],
    touched: Touched,
    bit: int,
) -> None:
    """New values (`shown`) of one of the two extra cells (not sort keys), `bit` telling
    which."""
    get, attr = touched.get, "bh" if bit == BH_BIT else "fb"
    for no, v in zip(nos, values, strict=True):
        line = lines[no]
        if getattr(line, attr) != v:
            setattr(line, attr, v)
            touched[no] = get(no, 0) | bit


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
