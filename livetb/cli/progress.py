"""Progress bars (rich) for the long commands: import, rebuild, replay, export. Drawn on stderr
and only when stderr is a terminal, so pipes, scripts and tests see exactly the output they
always saw; rich loads only when a bar is drawn."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol


class Advance(Protocol):
    def __call__(self, steps: int = 1, *, description: str | None = None) -> None: ...


def _quiet(steps: int = 1, *, description: str | None = None) -> None:
    """No terminal to draw on."""


@contextmanager
def bar(description: str, total: int | None) -> Iterator[Advance]:
    """A progress bar of `total` steps (None: a spinner); yields the function that advances
    it (and may rename it)."""
    if not sys.stderr.isatty():
        yield _quiet
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(description, total=total)

        def advance(steps: int = 1, *, description: str | None = None) -> None:
            changes: dict[str, Any] = {"advance": steps}
            if description is not None:
                changes["description"] = description
            progress.update(task, **changes)

        yield advance


class Tracked:
    """An event store whose reads advance a bar, one step per event read; everything else is
    the store's own."""

    def __init__(self, store: Any, advance: Advance) -> None:
        self._store = store
        self._advance = advance

    def read(self, tournament_id: str, after: int = 0) -> Iterator[Any]:
        for rec in self._store.read(tournament_id, after):
            self._advance()
            yield rec

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)
