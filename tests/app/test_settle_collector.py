"""What a settle slice leaves to the garbage collector: nothing it made stays in the young
generation, so no later collection on the loop walks the rows it settled."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from livetb.app.collector import Collector
from livetb.app.service import settle_for


class Making:
    """A projection whose every settle call makes a tracked object and keeps it."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.kept: list[list[int]] = []

    def settle(self, budget: int) -> bool:
        self.kept.append([self.rows])
        self.rows -= 1
        return self.rows > 0


@pytest.fixture
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_a_settle_slice_moves_what_it_made_out_of_the_collectors_generations(
    unfrozen: None,
) -> None:
    making = Making(rows=3)
    while settle_for(making, Collector()):  # type: ignore[arg-type]
        pass
    assert len(making.kept) == 3
    for generation in range(3):
        seen = {id(o) for o in gc.get_objects(generation=generation)}
        assert not any(id(row) in seen for row in making.kept)
    assert all(gc.is_tracked(row) for row in making.kept)  # frozen, not untracked
    assert gc.get_freeze_count() > 0
