"""What a slice of the projection's work leaves to the garbage collector: nothing it made
stays in the young generation, what holds no container is no longer tracked at all, and no
slice runs a full collection (`livetb/app/collector.py`)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from livetb.app.collector import Collector
from livetb.app.service import settle_for


class Making:
    """A projection whose every settle call makes a list and a tuple of numbers, and keeps
    them."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.kept: list[list[int]] = []
        self.cells: list[tuple[int, ...]] = []

    def settle(self, budget: int) -> bool:
        self.kept.append([self.rows])
        self.cells.append(tuple(range(self.rows, self.rows + 3)))
        self.rows -= 1
        return self.rows > 0


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generation of every collection run meanwhile (the collector's own: the
    interpreter's automatic ones are off)."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    enabled = gc.isenabled()
    gc.disable()
    gc.unfreeze()
    gc.callbacks.append(note)
    yield seen
    gc.callbacks.remove(note)
    if enabled:
        gc.enable()


def test_a_settle_slice_leaves_nothing_it_made_in_the_young_generation(
    collections: list[int],
) -> None:
    making = Making(rows=3)
    while settle_for(making, Collector()):  # type: ignore[arg-type]
        pass
    assert len(making.kept) == 3
    young = {id(o) for o in gc.get_objects(generation=0)}
    assert not any(id(row) in young for row in making.kept)
    assert all(gc.is_tracked(row) for row in making.kept)  # a container: in an older one
    assert not any(gc.is_tracked(cells) for cells in making.cells)  # numbers only: untracked
    assert collections and 2 not in collections


def test_applied_batches_are_collected_young_every_so_many(collections: list[int]) -> None:
    collector = Collector(young_every=4, older_every=2)
    for _ in range(3):
        collector.applied()
    assert collections == []
    collector.applied()
    assert collections == [0]
    for _ in range(4):
        collector.applied()
    assert collections == [0, 1]  # every second young collection is the middle one's
    for _ in range(100):
        collector.settled()
    assert 2 not in collections
