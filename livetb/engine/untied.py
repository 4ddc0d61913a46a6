"""Which group tie-break values (DE, EDE and the other `group` records of the catalogue) a
printed table leaves blank: a participant whom nobody shares the points and every earlier sort
key with has no group to be placed in, so its DE "1" says nothing (C.07 2024 6.1 decides a tie
among the tied only). The JSON contracts keep the value; tables and exports show a dash.

    alone(["PTS", "DE", "WIN"], [("2.0", 1, 2), ("1.5", 1, 1), ("1.5", 2, 1)])
    # -> [frozenset({1}), frozenset(), frozenset()]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

from livetb.engine.catalogue import tiebreak_of
from livetb.engine.spec import parse_spec

DASH, ASCII_DASH = "\u2013", "-"


def group_columns(tiebreaks: Sequence[str]) -> list[int]:
    """The indices of the group tie-breaks in a list of codes as a table heads them (read as
    a team list: it takes every individual code too)."""
    return [
        i for i, code in enumerate(tiebreaks) if tiebreak_of(parse_spec(code, teams=True)).group
    ]


def alone(tiebreaks: Sequence[str], rows: Sequence[Sequence[Hashable]]) -> list[frozenset[int]]:
    """Per row (values in `tiebreaks`' order), the group columns whose value is shown as a
    dash: no other row has the same values in every column before it."""
    out: list[set[int]] = [set() for _ in rows]
    for i in group_columns(tiebreaks):
        keys = [tuple(values[:i]) for values in rows]
        counts = Counter(keys)
        for row, key in enumerate(keys):
            if counts[key] == 1:
                out[row].add(i)
    return [frozenset(cols) for cols in out]
