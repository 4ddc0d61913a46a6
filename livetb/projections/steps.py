"""Work done in steps: a generator that yields between pieces of bounded work and returns its
result. The same code runs whole (`finish`: a batch replay, a worker's fold, the tests) or a
piece at a time between the event loop's other work (`StandingsProjection.stepwise`), so a
round event of a large field never holds the loop for its whole fold."""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
U = TypeVar("U")
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
