"""Work done in steps: a generator that yields between pieces of bounded work and returns its
result. The same code runs whole (`finish`: a batch replay, a worker's fold, the tests) or a
piece at a time between the event loop's other work (`StandingsProjection.stepwise`), so a
round event of a large field never holds the loop for its whole fold."""

from __future__ import annotations

import itertools
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
U = TypeVar("U")
K = TypeVar("K")
Steps = Generator[None, None, T]

CHUNK = 128  # rows per piece: about a millisecond at most of any one phase at 10,000 players


def finish(steps: Steps[T]) -> T:
    """Every piece of `steps` at once; its result."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]


def chunks(items: Sequence[U], size: int) -> Iterator[Sequence[U]]:
    """`items` in consecutive parts of at most `size` (one part when it is no bigger)."""
    if len(items) <= size:
        yield items
        return
    for at in range(0, len(items), size):
        yield items[at : at + size]


def item_chunks(mapping: Mapping[K, U], size: int) -> Iterator[list[tuple[K, U]]]:
    """`mapping`'s items in consecutive parts of at most `size`, each part's pairs made when
    it is reached: `chunks(list(mapping.items()))` makes a pair per row at once, and frees
    them all at once after the last part."""
    keys = list(mapping)
    for at in range(0, len(keys), size):
        yield [(k, mapping[k]) for k in keys[at : at + size]]


def listing(items: Iterable[U], chunk: int) -> Steps[list[U]]:
    """`list(items)`, `chunk` at a time: a walk over a whole table's rows (10,000: 0.5 ms on
    a quiet machine, several on a loaded one) is a piece of work like any other."""
    each, out = iter(items), []
    while part := list(itertools.islice(each, chunk)):
        out += part
        yield
    return out


def same(a: Sequence[U], b: Sequence[U], chunk: int) -> Steps[bool]:
    """`a == b`, `chunk` items at a time."""
    if len(a) != len(b):
        return False
    for at in range(0, len(a), chunk):
        if a[at : at + chunk] != b[at : at + chunk]:
            return False
        yield
    return True


def emptying(items: list[U] | dict[K, U], chunk: int) -> Steps[None]:
    """Free `items`' entries `chunk` at a time, from the end: a whole table's temporary
    tuples or replaced groups, freed at once, held the loop 1-4 ms."""
    while items:
        if isinstance(items, list):
            del items[-chunk:]
        else:
            for _ in range(min(chunk, len(items))):
                items.popitem()
        yield


class Pieces(Generic[T]):
    """`steps` run a piece at a time by a caller between its other work; its result once
    done."""

    def __init__(self, steps: Steps[T]) -> None:
        self._steps = steps
        self.done = False
        self._result: T | None = None

    def advance(self) -> bool:
        """One piece; True while pieces remain."""
        try:
            next(self._steps)
        except StopIteration as done:
            self._result, self.done = done.value, True
            return False
        return True

    @property
    def result(self) -> T:
        assert self.done, "not every piece is done"
        return self._result  # type: ignore[return-value]

    def finish(self) -> T:
        """Every piece left; the result."""
        while self.advance():
            pass
        return self.result
