"""What one event changed in the standings, in the compact form the feed sends (wire v2).

A row's rank follows from its position in the standings order and from whether it shares the
rank of the row above (a tie), so a delta carries:

- `changes`: per row whose *content* changed (name, a tie-break value, the FB prediction, the
  projected BH), only the cells that changed; a row moved by others is not a changed row;
- `moves`: `(start_no, position)` pairs, applied one after the other: take the row out of the
  order (if it is there) and insert it at that 0-based position; or `order`, the whole new
  order, when many rows moved (a round close);
- `tied` / `untied`: rows that now share / no longer share the rank of the row above;
- `statuses`: the value statuses, the same for every row, when they flipped (a close);
- `round` / `games`: the running round re-published (its pairing, or a requested bye) and the
  boards whose result was recorded or corrected.

A changed row's rank is not part of its change: ranks are read from the order when the row is
(`StandingsProjection.ranked`, `standings`), so a result's cost does not grow with the rows it
shifts, nor with the field.
"""

from __future__ import annotations

import msgspec

from livetb.wire.standings import BH_CELL, FB_CELL, Cell, Row, RowChange, Status


class Delta(msgspec.Struct, frozen=True):
    seq: int
    changes: tuple[RowChange, ...] = ()
    moves: tuple[tuple[int, int], ...] = ()
    order: tuple[int, ...] | None = None
    tied: tuple[int, ...] = ()
    untied: tuple[int, ...] = ()
    statuses: tuple[Status, ...] | None = None
    round: int | None = None
    games: tuple[tuple[int, int], ...] = ()  # (round, board)


def content_changed(old: Row | None, new: Row) -> bool:
    return (
        old is None
        or old.values != new.values
        or old.name != new.name
        or old.fb_prediction != new.fb_prediction
        or old.bh_projected != new.bh_projected
    )


def change_of(old: Row | None, new: Row) -> RowChange:
    """The cells of `new` that differ from `old` (every cell and the name for a new row)."""
    if old is None:
        cells: list[Cell] = list(enumerate(new.values))
        cells += [(FB_CELL, new.fb_prediction), (BH_CELL, new.bh_projected)]
        return RowChange(new.start_no, new.name, tuple(cells))
    cells = [(i, v) for i, (a, v) in enumerate(zip(old.values, new.values, strict=True)) if a != v]
    if old.fb_prediction != new.fb_prediction:
        cells.append((FB_CELL, new.fb_prediction))
    if old.bh_projected != new.bh_projected:
        cells.append((BH_CELL, new.bh_projected))
    return RowChange(new.start_no, new.name if new.name != old.name else None, tuple(cells))


class Changes:
    """What one event changed, gathered while the projection folds it."""

    __slots__ = ("changes", "games", "moves", "order", "round", "statuses", "ties")

    def __init__(self) -> None:
        self.changes: list[RowChange] = []
        self.moves: list[tuple[int, int]] = []
        self.order: tuple[int, ...] | None = None
        self.ties: dict[int, bool] = {}  # start no -> shares the rank above (flipped)
        self.statuses: tuple[Status, ...] | None = None
        self.round: int | None = None
        self.games: tuple[tuple[int, int], ...] = ()

    def row(self, old: Row | None, new: Row) -> None:
        """Record `new` if its content differs from `old` (the published row)."""
        if content_changed(old, new):
            self.changes.append(change_of(old, new))

    def tie(self, no: int, shares: bool) -> None:
        if self.ties.pop(no, None) is None:  # flipped twice within one event: no change
            self.ties[no] = shares

    def delta(self, seq: int) -> Delta:
        ties = self.ties
        return Delta(
            seq,
            tuple(self.changes),
            tuple(self.moves),
            self.order,
            tuple(sorted(no for no, s in ties.items() if s)),
            tuple(sorted(no for no, s in ties.items() if not s)),
            self.statuses,
            self.round,
            self.games,
        )
