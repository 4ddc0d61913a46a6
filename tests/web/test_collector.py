"""The collector policy for many long-lived viewer connections (`livetb/app/collector.py`)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from livetb.app.collector import Collector


@pytest.fixture(autouse=True)
def thawed() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_freezes_as_viewers_grow_by_a_quarter() -> None:
    collector = Collector(least=4)
    for _ in range(3):
        collector.joined()
    assert gc.get_freeze_count() == 0 and collector.frozen == 0
    collector.joined()  # the 4th viewer: the first freeze
    assert collector.frozen == 4 and gc.get_freeze_count() > 0
    collector.joined()  # 5 = 4 x 1.25: frozen again
    assert collector.frozen == 5
    collector.joined()  # 6 < 5 x 1.25: not yet
    assert collector.frozen == 5


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def test_collects_what_departed_viewers_left_once_as_many_left_as_were_frozen() -> None:
    collector = Collector(least=4)
    node = Node()
    gone = weakref.ref(node)
    for _ in range(8):
        collector.joined()
    assert collector.frozen == 7  # frozen at 4, 5 and 7 viewers (8 < 7 x 1.25)
    del node  # a departed viewer's cycle, frozen with the rest
    gc.collect()
    assert gone() is not None  # out of the collector's sight
    for _ in range(6):
        collector.left()
    assert collector.departed == 6 and gone() is not None
    collector.left()  # as many left as were frozen: unfreeze, collect, freeze the survivors
    assert gone() is None
    assert collector.viewers == 1 and collector.frozen == 1 and collector.departed == 0
    assert gc.get_freeze_count() > 0
