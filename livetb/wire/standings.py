"""The live standings as a document (`DbStandings`) and its rows: the `livetb standings --db`
JSON, the REST body and the feed's snapshot, shared by the server, the Python client and the
CLI, so none of them imports another. (A table computed from a file has its own contract,
`livetb.cli.output`.)

A value's status: `final` (will not change), `provisional` (moves with the running round's
results), `pending` (type C while round N runs: the value as of round N-1, which changes when
round N closes), `predicted` (FB: as if the running round were the last, its games drawn).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import msgspec

Status = Literal["final", "provisional", "pending", "predicted"]
Value = str | int | None
# The two extra cells of a row, named in `RowChange.cells` (tie-break cells by index).
FB_CELL, BH_CELL = "fb_prediction", "bh_projected"
Cell = tuple[int | str, Value]


class Row(msgspec.Struct, frozen=True, gc=False):
    """One participant's line: what `GET …/standings` lists."""

    rank: int
    start_no: int
    name: str
    values: tuple[Value, ...]
    statuses: tuple[Status, ...]
    fb_prediction: str | None = None  # FB if the round being played were the last
    bh_projected: str | None = None  # BH with unfinished games counted as draws


class RowChange(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """The content that changed in one row: its name when new or renamed, and the changed
    cells as `[column, value]` (a tie-break's index in the list, "fb_prediction" or
    "bh_projected")."""

    start_no: int
    name: str | None = None
    cells: tuple[Cell, ...] = ()


class DbStandings(msgspec.Struct):
    """The CLI's JSON contract plus the log position and each value's status."""

    seq: int
    edition: str
    after_round: int
    round_in_progress: int | None
    tiebreaks: list[str]
    standings: list[Row]


def ties_of(ordered: Sequence[Row]) -> Iterable[tuple[int, bool]]:
    """Each row of a sorted table with whether it shares the rank of the row above."""
    previous = None
    for row in ordered:
        yield row.start_no, previous is not None and row.rank == previous
        previous = row.rank
