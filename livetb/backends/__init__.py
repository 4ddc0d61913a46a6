"""The store backends: which one a target names, and everything that differs between them.

A target is a `--db` value: a `postgresql://` (or `postgres://`) URL is PostgreSQL, anything
else the path of a SQLite file. Each backend is one module that says, for its targets, how to
open the event store and the token table, how a node learns of others' writes (the change
signal), whether the target exists, which driver errors are which named faults, and which of
them a wait may cure. `backend(target)` picks one from `BACKENDS`, the only place where a
target's kind is decided: a new backend is a module here and a line in that table (and the
contract tests' parameters).

    with open_store("livetb.sqlite") as store: ...
    with open_tokens("postgresql://livetb@db.lan/livetb") as tokens: ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from livetb.backends.postgres import Postgres
from livetb.backends.sqlite import Sqlite

if TYPE_CHECKING:
    from livetb.errors import LivetbError
    from livetb.events.changes import ChangeSignal
    from livetb.events.store import EventStore
    from livetb.tokens.store import Tokens


class Backend(Protocol):
    """What one kind of store does for the targets it `claims`."""

    name: str

    def claims(self, target: str) -> bool:
        """Whether `target` names a store of this kind."""
        ...

    def store(self, target: str) -> EventStore: ...

    def tokens(self, target: str) -> Tokens: ...

    def changes(self, target: str, interval: float) -> ChangeSignal:
        """How a node learns that another node or process wrote (`interval`: a poll's)."""
        ...

    def exists(self, target: str) -> bool:
        """Whether the target holds a store already (a URL's schema is made on open)."""
        ...

    def checked(self, target: str) -> None:
        """Refuse, now, a target no wait can make usable (a malformed URL)."""
        ...

    def fault(self, target: str, err: BaseException) -> LivetbError | None:
        """The driver's error as its named fault; None if it is not this driver's, or is a
        constraint's (a bug, not a fault)."""
        ...

    def waitable(self, err: LivetbError) -> bool:
        """Whether waiting may cure the named fault (a server away, a lock held)."""
        ...


# Tried in order; SQLite last: any target that no other backend claims is a file's path.
BACKENDS: tuple[Backend, ...] = (Postgres(), Sqlite())


def backend(target: str) -> Backend:
    """The backend whose targets include `target`."""
    return next(b for b in BACKENDS if b.claims(target))


def open_store(target: str) -> EventStore:
    return backend(target).store(target)


def open_tokens(target: str) -> Tokens:
    return backend(target).tokens(target)


def driver_fault(target: str, err: BaseException) -> LivetbError | None:
    """Any store driver's error as its named fault, for the last line of defence (start-up,
    a store reached outside the stores' own mapping); None for an error no driver's."""
    for b in BACKENDS:
        named = b.fault(target, err)
        if named is not None:
            return named
    return None
