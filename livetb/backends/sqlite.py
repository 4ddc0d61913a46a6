"""SQLite: a target that is a file's path (`livetb/events/sqlite.py`, `livetb/tokens/sqlite.py`)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from livetb.errors import LivetbError, StoreBusy

if TYPE_CHECKING:
    from livetb.events.changes import ChangeSignal
    from livetb.events.store import EventStore
    from livetb.tokens.store import Tokens


class Sqlite:
    name = "sqlite"

    def claims(self, target: str) -> bool:
        return True  # the fallback: whatever no other backend claims is a path

    def store(self, target: str) -> EventStore:
        from livetb.events.sqlite import SqliteStore

        return SqliteStore(target)

    def tokens(self, target: str) -> Tokens:
        from livetb.tokens.sqlite import TokenStore

        return TokenStore(target)

    def changes(self, target: str, interval: float) -> ChangeSignal:
        from livetb.events.changes import SqliteChanges

        return SqliteChanges(target, interval)

    def exists(self, target: str) -> bool:
        return Path(target).is_file()

    def checked(self, target: str) -> None:
        return None  # any path may become a store

    def fault(self, target: str, err: BaseException) -> LivetbError | None:
        if not isinstance(err, sqlite3.Error) or isinstance(err, sqlite3.IntegrityError):
            return None
        from livetb.events.sqlite import fault

        return fault(target, err)

    def waitable(self, err: LivetbError) -> bool:
        return isinstance(err, StoreBusy)  # another writer's lock; anything else stays
