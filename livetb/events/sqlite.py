"""`SqliteStore`: the durable `EventStore`, one SQLite file (sqlite-utils for the schema).

- WAL journal and `synchronous=FULL`: once `append` returns, the events survive a power cut.
- Append-only inside the database: triggers abort any UPDATE or DELETE of `events`, and any
  INSERT whose seq is not the tournament's head + 1 (so `INSERT OR REPLACE` cannot rewrite
  history and no gap can appear), whoever the writer is.
- Optimistic concurrency: `BEGIN IMMEDIATE` serialises writers (several `SqliteStore`s or
  processes on one file); a stale `expected_seq` or a primary-key clash on
  `(tournament_id, seq)` is a `ConcurrencyConflict`, and the whole batch is rolled back.
- Idempotency keys live in their own table, written in the same transaction as the events.
- The file (and its -wal and -shm) is created 0600: owner only.
- Faults are named (`fault`): a full disk is `StorageFull` (507), a lock held beyond the
  timeout `StoreBusy` (503), a file that cannot be opened `StoreUnavailable`; the failed
  transaction is rolled back whole, and the next one works once the cause is gone.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from sqlite_utils import Database

from livetb.errors import (
    ConcurrencyConflict,
    IdempotencyKeyReused,
    LivetbError,
    StorageFull,
    StoreBusy,
    StoreUnavailable,
)
from livetb.events.schema import AnyEvent, Recorded, decode_event
from livetb.events.store import (
    Append,
    Clock,
    Recalled,
    check_snapshot_seq,
    digest,
    each_append,
    encode_batch,
    pruned,
    utc_now,
)

APPEND_ONLY = "events are append-only"

_TRIGGERS = f"""
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: UPDATE is not allowed');
END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: DELETE is not allowed');
END;
CREATE TRIGGER IF NOT EXISTS events_next_seq BEFORE INSERT ON events
WHEN NEW.seq IS NOT (
    SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE tournament_id = NEW.tournament_id
)
BEGIN
    SELECT RAISE(ABORT, '{APPEND_ONLY}: seq must be the head + 1');
END;
"""

_PAGE = 1000


def create_private(path: str | Path) -> None:
    """Create the store file readable by its owner only (0600), if it does not exist yet.

    It holds every event and the token hashes; SQLite gives its -wal and -shm files the
    database file's permissions, so they are 0600 too."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


class SqliteStore:
    """An `EventStore` in one SQLite file; safe to share between threads."""

    def __init__(self, path: str | Path, *, clock: Clock = utc_now, timeout: float = 10.0) -> None:
        self.path = str(path)
        self._clock = clock
        self._lock = threading.RLock()
        create_private(self.path)
        conn = sqlite3.connect(self.path, timeout=timeout, check_same_thread=False)
        self._db = Database(conn)  # turns recursive_triggers on: REPLACE fires DELETE triggers
        self._conn = conn
        try:
            with faults(self.path):
                self._db.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
                enable_wal(conn, timeout)
                self._db.execute("PRAGMA synchronous = FULL")
                with writing(conn):  # several processes may open a new file at once
                    self._create_schema()
        except BaseException:
            conn.close()
            raise

    def _create_schema(self) -> None:
        db = self._db
        db.table("events").create(
            {
                "tournament_id": str,
                "seq": int,
                "at": str,
                "actor": str,
                "type": str,
                "data": str,
            },
            pk=("tournament_id", "seq"),
            not_null={"tournament_id", "seq", "at", "actor", "type", "data"},
            if_not_exists=True,
        )
        db.table("idempotency").create(
            {"tournament_id": str, "key": str, "seq": int, "digest": str},
            pk=("tournament_id", "key"),
            not_null={"tournament_id", "key", "seq", "digest"},
            if_not_exists=True,
        )
        db.table("snapshots").create(
            {"tournament_id": str, "seq": int, "data": bytes},
            pk=("tournament_id", "seq"),
            not_null={"tournament_id", "seq", "data"},
            if_not_exists=True,
        )
        db.executescript(_TRIGGERS)

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing ---

    def append(
        self,
        tournament_id: str,
        expected_seq: int,
        events: Sequence[AnyEvent],
        *,
        actor: str,
        idempotency_key: str | None = None,
        fingerprint: str | None = None,
    ) -> int:
        with self._lock, faults(self.path), self._write() as conn:
            return self._append(
                conn, tournament_id, expected_seq, events, actor, idempotency_key, fingerprint
            )

    def append_group(self, appends: Sequence[Append]) -> list[int | LivetbError]:
        """Each append as `append` would do it, all in one transaction: one commit (one sync
        to disk) for the lot. An append that fails is rolled back alone (a savepoint) and its
        error returned in its place, and so are the later ones of its tournament; the others
        are durable once this returns."""
        with self._lock, faults(self.path), self._write() as conn:

            def attempt(a: Append) -> int:
                conn.execute("SAVEPOINT one")
                try:
                    return self._append(conn, *a)
                except LivetbError:
                    conn.execute("ROLLBACK TO one")
                    raise
                finally:
                    if conn.in_transaction:  # a full disk may have rolled back the lot
                        conn.execute("RELEASE one")

            return each_append(appends, attempt, lambda tid: self._head(conn, tid))

    def _append(
        self,
        conn: sqlite3.Connection,
        tournament_id: str,
        expected_seq: int,
        events: Sequence[AnyEvent],
        actor: str,
        idempotency_key: str | None,
        fingerprint: str | None,
    ) -> int:
        batch = encode_batch(events)
        fingerprint = fingerprint or digest(batch)
        if idempotency_key is not None:
            known = conn.execute(
                "SELECT seq, digest FROM idempotency WHERE tournament_id = ? AND key = ?",
                (tournament_id, idempotency_key),
            ).fetchone()
            if known is not None:
                if known[1] != fingerprint:
                    raise IdempotencyKeyReused(tournament_id, idempotency_key)
                return int(known[0])
        head = self._head(conn, tournament_id)
        if head != expected_seq:
            raise ConcurrencyConflict(tournament_id, expected_seq, head)
        at = self._clock().isoformat()
        try:
            conn.executemany(
                "INSERT INTO events (tournament_id, seq, at, actor, type, data) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (tournament_id, head + i, at, actor, item.type, item.data.decode())
                    for i, item in enumerate(batch, 1)
                ],
            )
        except sqlite3.IntegrityError:  # the primary key or the seq trigger: a race
            raise ConcurrencyConflict(
                tournament_id, expected_seq, self._head(conn, tournament_id)
            ) from None
        head += len(batch)
        if idempotency_key is not None:
            conn.execute(
                "INSERT INTO idempotency (tournament_id, key, seq, digest) VALUES (?, ?, ?, ?)",
                (tournament_id, idempotency_key, head, fingerprint),
            )
        return head

    def _write(self) -> _Transaction:
        return _Transaction(self._conn)

    @staticmethod
    def _head(conn: sqlite3.Connection, tournament_id: str) -> int:
        row = conn.execute(
            "SELECT MAX(seq) FROM events WHERE tournament_id = ?", (tournament_id,)
        ).fetchone()
        return int(row[0] or 0)

    def save_snapshot(self, tournament_id: str, seq: int, data: bytes) -> None:
        with self._lock, faults(self.path), self._write() as conn:
            check_snapshot_seq(tournament_id, seq, self._head(conn, tournament_id))
            conn.execute(
                "INSERT OR REPLACE INTO snapshots (tournament_id, seq, data) VALUES (?, ?, ?)",
                (tournament_id, seq, bytes(data)),
            )
            seqs = conn.execute(
                "SELECT seq FROM snapshots WHERE tournament_id = ?", (tournament_id,)
            ).fetchall()
            conn.executemany(
                "DELETE FROM snapshots WHERE tournament_id = ? AND seq = ?",
                [(tournament_id, old) for old in pruned([int(r[0]) for r in seqs])],
            )

    # --- reading ---

    def recall(self, tournament_id: str, idempotency_key: str) -> Recalled | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT seq, digest FROM idempotency WHERE tournament_id = ? AND key = ?",
                (tournament_id, idempotency_key),
            ).fetchone()
        return None if row is None else Recalled(int(row[0]), str(row[1]))

    def read(self, tournament_id: str, after: int = 0) -> Iterator[Recorded]:
        """Read in pages, so no statement stays open between the caller's steps."""
        last = after
        while True:
            with self._lock:
                rows = self._conn.execute(
                    "SELECT seq, at, actor, data FROM events WHERE tournament_id = ? AND seq > ? "
                    "ORDER BY seq LIMIT ?",
                    (tournament_id, last, _PAGE),
                ).fetchall()
            for seq, at, actor, data in rows:
                yield Recorded(
                    tournament_id=tournament_id,
                    seq=seq,
                    at=dt.datetime.fromisoformat(at),
                    actor=actor,
                    event=decode_event(data),
                )
            if len(rows) < _PAGE:
                return
            last = rows[-1][0]

    def head(self, tournament_id: str) -> int:
        with self._lock:
            return self._head(self._conn, tournament_id)

    def tournaments(self) -> list[str]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT DISTINCT tournament_id FROM events ORDER BY tournament_id"
            ).fetchall()
        return [r[0] for r in rows]

    def latest_snapshot(self, tournament_id: str) -> tuple[int, bytes] | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT seq, data FROM snapshots WHERE tournament_id = ? ORDER BY seq DESC LIMIT 1",
                (tournament_id,),
            ).fetchone()
        return None if row is None else (int(row[0]), bytes(row[1]))

    def snapshot_at(self, tournament_id: str, seq: int) -> tuple[int, bytes] | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT seq, data FROM snapshots WHERE tournament_id = ? AND seq <= ? "
                "ORDER BY seq DESC LIMIT 1",
                (tournament_id, seq),
            ).fetchone()
        return None if row is None else (int(row[0]), bytes(row[1]))

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def enable_wal(conn: sqlite3.Connection, timeout: float) -> None:
    """Switch a file to WAL. The switch needs the file to itself and SQLite does not wait for
    it (no busy handler), so processes opening a new file at once try again for `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            conn.execute("PRAGMA journal_mode = wal")
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
            time.sleep(0.005)


def fault(path: str, err: sqlite3.Error) -> LivetbError:
    """The named error of a driver error: SQLITE_FULL ("database or disk is full") is
    `StorageFull`, SQLITE_BUSY ("database is locked") after the busy timeout `StoreBusy`,
    anything else (a file that cannot be opened or is not a database) `StoreUnavailable`."""
    reason = str(err)
    code = getattr(err, "sqlite_errorcode", None)
    if code == sqlite3.SQLITE_FULL or "disk is full" in reason:
        return StorageFull(path, reason)
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "is locked" in reason:
        return StoreBusy(path, reason)
    return StoreUnavailable(path, reason)


@contextlib.contextmanager
def faults(path: str) -> Iterator[None]:
    """Driver errors of the block raised as `fault` names them, one line each."""
    try:
        yield
    except sqlite3.DatabaseError as err:
        if isinstance(err, sqlite3.IntegrityError):
            raise  # the triggers' refusals: a bug of a caller, not a fault of the store
        raise fault(path, err) from None


def writing(conn: sqlite3.Connection) -> _Transaction:
    """A write transaction taken up front (`BEGIN IMMEDIATE`): concurrent writers wait
    for each other (the busy timeout) instead of failing when one upgrades a read lock."""
    return _Transaction(conn)


class _Transaction:
    """`BEGIN IMMEDIATE` … `COMMIT`, or `ROLLBACK` on any exception (the batch writes nothing)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        if exc_type is None:
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error:  # e.g. a full disk: nothing of it stays, the next can begin
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
        elif self.conn.in_transaction:
            self.conn.execute("ROLLBACK")
