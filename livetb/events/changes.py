"""Change signals: how a node learns that another node (or process) wrote to the shared store.

A signal runs in its own thread and calls `notify(tournament_id)` when that tournament's log
grew, or `notify(None)` when anything may have changed (started, reconnected after a gap in
which signals could have been missed, or a store that cannot say which tournament): the
listener then catches up every tournament it holds. A signal is only a hint to read: the log
is the truth, so a spurious or repeated call costs one read and misses nothing.

- SQLite on one machine: `PRAGMA data_version` polled on a connection of its own (it changes
  when another connection commits; reading it touches shared memory, not the disk).
- PostgreSQL: `LISTEN` on the store's channel (`livetb/events/postgres.py`).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger(__name__)

Notify = Callable[[str | None], None]


class ChangeSignal(Protocol):
    def start(self, notify: Notify) -> None:
        """Start the thread; `notify` is called from it (never from the caller's thread)."""
        ...

    def stop(self) -> None:
        """Stop and join the thread; no `notify` call after this returns."""
        ...


class ThreadedSignal:
    """A `ChangeSignal`'s thread: `_run(notify)` until `_stopping` is set."""

    thread_name = "livetb-changes"

    def __init__(self) -> None:
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, notify: Notify) -> None:
        self._thread = threading.Thread(
            target=self._run, args=(notify,), name=self.thread_name, daemon=True
        )
        self._thread.start()

    def _run(self, notify: Notify) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()


class SqliteChanges(ThreadedSignal):
    """`PRAGMA data_version` every `interval` seconds: another connection committed."""

    thread_name = "livetb-sqlite-changes"

    def __init__(self, path: str, interval: float = 0.01) -> None:
        super().__init__()
        self.path = path
        self.interval = interval

    def _run(self, notify: Notify) -> None:
        conn = sqlite3.connect(self.path, check_same_thread=False)
        try:
            seen = conn.execute("PRAGMA data_version").fetchone()[0]
            notify(None)  # whatever was written before this signal started
            while not self._stopping.wait(self.interval):
                try:
                    version = conn.execute("PRAGMA data_version").fetchone()[0]
                except sqlite3.Error:
                    log.exception("reading the SQLite data version of %s", self.path)
                    continue
                if version != seen:
                    seen = version
                    notify(None)
        finally:
            conn.close()
