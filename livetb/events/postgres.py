"""`PostgresStore`: the `EventStore` in PostgreSQL, for several server processes on one log;
`PostgresChanges`: how each of them learns of the others' appends (LISTEN/NOTIFY).

psycopg 3 because the store protocol is synchronous (the CLI, the tests, the server's worker
threads and the time-travel worker processes all call it), and psycopg 3 is one driver for
that synchronous API and for LISTEN/NOTIFY (`Connection.notifies`), with no event loop.

- One schema per store: the first name of the URL's search_path (libpq's
  `options=-csearch_path%3DNAME`), else `public`. It is created and migrated on open, under an
  advisory lock, so two processes starting at once are safe; `schema_version` says how far.
- Append-only inside the database: statement triggers refuse any UPDATE, DELETE or TRUNCATE
  of `events`, a row trigger any INSERT whose seq is not the tournament's head + 1, whoever
  the writer is. On top of that the store serves as the NOLOGIN role `livetb_app` (created if
  missing), which may only SELECT and INSERT events; a connecting user who may not create or
  become that role gets the triggers alone, and one log warning saying so.
- Optimistic concurrency: the primary key `(tournament_id, seq)`; a stale `expected_seq` or a
  key clash is a `ConcurrencyConflict` and the whole batch is rolled back. Idempotency keys
  live in their own table, written in the same transaction as the events.
- Every transaction that wrote events calls `pg_notify(channel, tournament_id)`, once per
  tournament; the channel is per schema (`channel()`), and is sent on commit only.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import re
import threading
from collections.abc import Iterable, Iterator, Sequence

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from livetb.errors import (
    ConcurrencyConflict,
    IdempotencyKeyReused,
    LivetbError,
    Said,
    StorageFull,
    StoreUnavailable,
)
from livetb.events.changes import Notify, ThreadedSignal
from livetb.events.postgres_target import described
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
from livetb.events.target import shown

log = logging.getLogger(__name__)

APPEND_ONLY = "events are append-only"
ROLE = "livetb_app"
_PAGE = 1000
_MIGRATION_LOCK = "livetb:migrate"  # one advisory lock for every schema of the database

# Each step is applied once, in order; `schema_version` holds the last one applied.
# The trigger functions keep the search_path they were created with, so that a session with
# another path (psql, a migration tool) checks this schema's events, not its own.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE events (
            tournament_id text NOT NULL,
            seq bigint NOT NULL CHECK (seq > 0),
            at timestamptz NOT NULL,
            actor text NOT NULL,
            type text NOT NULL,
            data json NOT NULL,
            PRIMARY KEY (tournament_id, seq)
        )""",
        """CREATE TABLE idempotency (
            tournament_id text NOT NULL,
            key text NOT NULL,
            seq bigint NOT NULL,
            digest text NOT NULL,
            PRIMARY KEY (tournament_id, key)
        )""",
        """CREATE TABLE snapshots (
            tournament_id text NOT NULL,
            seq bigint NOT NULL,
            data bytea NOT NULL,
            PRIMARY KEY (tournament_id, seq)
        )""",
        """CREATE TABLE tokens (
            sha256 text PRIMARY KEY,
            tournament_id text NOT NULL,
            created_at timestamptz NOT NULL,
            revoked_at timestamptz,
            label text
        )""",
        f"""CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION '{APPEND_ONLY}: % is not allowed', TG_OP
                USING ERRCODE = 'integrity_constraint_violation';
        END $$""",
        """CREATE TRIGGER events_no_rewrite BEFORE UPDATE OR DELETE OR TRUNCATE ON events
        FOR EACH STATEMENT EXECUTE FUNCTION events_append_only()""",
        f"""CREATE FUNCTION events_next_seq() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
        BEGIN
            IF NEW.seq IS DISTINCT FROM (
                SELECT COALESCE(MAX(seq), 0) + 1 FROM events
                WHERE tournament_id = NEW.tournament_id
            ) THEN
                RAISE EXCEPTION '{APPEND_ONLY}: seq must be the head + 1'
                    USING ERRCODE = 'integrity_constraint_violation';
            END IF;
            RETURN NEW;
        END $$""",
        """CREATE TRIGGER events_next_seq BEFORE INSERT ON events
        FOR EACH ROW EXECUTE FUNCTION events_next_seq()""",
    ),
    # 2: organiser tokens, which create tournaments; the tokens stored before are arbiters'.
    # An organiser's row has no tournament (""), which no tournament id equals.
    (
        "ALTER TABLE tokens ADD COLUMN kind text NOT NULL DEFAULT 'arbiter'",
        """ALTER TABLE tokens ADD CONSTRAINT tokens_kind CHECK (
            kind IN ('arbiter', 'organiser') AND (kind = 'arbiter' OR tournament_id = '')
        )""",
    ),
)

_GRANTS = (
    "GRANT SELECT, INSERT ON events, idempotency TO {role}",
    "GRANT SELECT, INSERT, DELETE ON snapshots TO {role}",
    "GRANT SELECT, INSERT, UPDATE ON tokens TO {role}",
    "GRANT SELECT ON schema_version TO {role}",
    "GRANT USAGE ON SCHEMA {schema} TO {role}",
)

_warned = False  # the fallback to triggers alone is logged once per process


def channel(schema: str) -> str:
    """The NOTIFY channel of a schema's appends: `livetb_events_<schema>` when that is a plain
    identifier of at most 63 bytes, else one named by a digest of the schema."""
    name = f"livetb_events_{schema}"
    if re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", name):
        return name
    return f"livetb_events_{hashlib.sha256(schema.encode()).hexdigest()[:32]}"


def connect(url: str, application_name: str = "livetb") -> psycopg.Connection:
    """An autocommit connection in UTC; a malformed or unreachable URL is a
    `StoreUnavailable` naming it (password masked), never a traceback."""
    try:
        given = conninfo_to_dict(url)
        extra: dict[str, str | int] = {}
        if "application_name" not in given:
            extra["application_name"] = application_name
        if "connect_timeout" not in given:
            extra["connect_timeout"] = 10
        # Merged here as `connect` would: its typed keywords cannot take a `**dict`.
        conn = psycopg.connect(make_conninfo(url, **extra), autocommit=True)
    except psycopg.Error as err:
        raise StoreUnavailable(shown(url), named(url, " ".join(str(err).split()))) from None
    conn.execute("SET TIME ZONE 'UTC'")
    return conn


def named(url: str, reason: str | Said, schema: str | None = None) -> str | Said:
    """`reason` and the store it concerns in words (host, port, database, schema): the URL
    an error starts with may leave them to libpq's defaults."""
    store = described(url, schema)
    return reason if store is None else Said("store.named", reason=reason, store=store)


def fault(
    url: str, err: psycopg.Error, broken: bool, schema: str | None = None
) -> LivetbError | None:
    """The named error of a driver error, if it is a fault of the store rather than of the
    statement: a full disk (`DiskFull`, or "No space left on device" from the server's
    files) is `StorageFull`; a connection lost, even mid-commit, `StoreUnavailable`."""
    reason = " ".join(str(err).split())
    if isinstance(err, psycopg.errors.DiskFull) or "No space left on device" in reason:
        return StorageFull(shown(url), named(url, reason, schema))
    if broken or isinstance(err, psycopg.InterfaceError):
        lost = Said("store.connection_lost", reason=reason)
        return StoreUnavailable(shown(url), named(url, lost, schema))
    return None


def target_schema(conn: psycopg.Connection) -> str:
    """The first name of the session's search_path (`$user` skipped), else `public`."""
    row = conn.execute("SELECT current_setting('search_path')").fetchone()
    for name in str(row[0] if row else "").split(","):
        name = name.strip()
        if name.startswith('"'):
            name = name[1:-1].replace('""', '"')
        if name and name != "$user":
            return name
    return "public"


def migrate(conn: psycopg.Connection, schema: str) -> None:
    """Create the schema and its tables, or bring them to the last version; grant `ROLE`
    what it needs. Idempotent; concurrent callers take turns on an advisory lock."""
    ident = sql.Identifier(schema)
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (_MIGRATION_LOCK,))
        # not CREATE SCHEMA IF NOT EXISTS: it needs CREATE on the database even when the
        # schema exists, which a user given just its schema does not have
        if not conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone():
            conn.execute(sql.SQL("CREATE SCHEMA {}").format(ident))
        conn.execute(sql.SQL("SET LOCAL search_path TO {}").format(ident))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            "version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
        done = int(row[0]) if row else 0
        for version, steps in enumerate(MIGRATIONS, 1):
            if version > done:
                for step in steps:
                    conn.execute(step)
                conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (version,))
        _grant(conn, ident)


def _grant(conn: psycopg.Connection, schema: sql.Identifier) -> None:
    """Create `ROLE` if missing and grant it only what serving needs. A user who may not is
    left to the triggers (`_become_role` warns)."""
    role = sql.Identifier(ROLE)
    try:
        with conn.transaction():  # a savepoint: a refusal leaves the migration standing
            if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (ROLE,)).fetchone():
                try:
                    with conn.transaction():
                        conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(role))
                except (psycopg.errors.DuplicateObject, psycopg.errors.UniqueViolation):
                    pass  # another process created it since we looked: the same role
            for grant in _GRANTS:
                conn.execute(sql.SQL(grant).format(role=role, schema=schema))
            member = conn.execute(
                "SELECT pg_has_role(current_user, %s, 'MEMBER')", (ROLE,)
            ).fetchone()
            if not (member and member[0]):
                conn.execute(sql.SQL("GRANT {} TO CURRENT_USER").format(role))
    except psycopg.errors.InsufficientPrivilege as err:
        log.debug("granting %s: %s", ROLE, err)


def _become_role(conn: psycopg.Connection, url: str) -> None:
    """`SET ROLE livetb_app`: no UPDATE or DELETE of events even for a bug of ours."""
    global _warned
    try:
        conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(ROLE)))
    except (psycopg.errors.InsufficientPrivilege, psycopg.errors.InvalidParameterValue) as err:
        if not _warned:
            _warned = True
            log.warning(
                "%s: cannot serve as role %s (%s); the log is append-only by its triggers "
                "alone: give this user CREATEROLE, or create %s and grant it to this user",
                shown(url),
                ROLE,
                " ".join(str(err).split()),
                ROLE,
            )


class Session:
    """One connection to a store's schema, migrated on open, shared by threads under a lock,
    and opened again after it broke (a restarted server): the call that finds it broken
    fails, the next one works again."""

    def __init__(self, url: str, application_name: str = "livetb") -> None:
        self.url = url
        self._name = application_name
        self._lock = threading.RLock()
        conn = connect(url, application_name)
        try:
            self.schema = target_schema(conn)
            migrate(conn, self.schema)
            self._serve_on(conn)
        except (psycopg.OperationalError, psycopg.InterfaceError) as err:
            said = fault(url, err, conn.broken)  # the server went away while starting
            conn.close()
            if said is None:
                raise
            raise said from None
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    def _serve_on(self, conn: psycopg.Connection) -> None:
        conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(self.schema)))
        _become_role(conn, self.url)

    @contextlib.contextmanager
    def __call__(self) -> Iterator[psycopg.Connection]:
        """The connection, for one call's work; a connection lost during it is a
        `StoreUnavailable` (a 503, and one line in the CLI), not a driver error."""
        with self._lock:
            if self._conn.broken:
                self._conn.close()
                conn = connect(self.url, self._name)
                self._serve_on(conn)
                self._conn = conn
            try:
                yield self._conn
            except (psycopg.OperationalError, psycopg.InterfaceError) as err:
                said = fault(self.url, err, self._conn.broken, self.schema)
                if said is None:
                    raise  # a deadlock, a cancelled query: the connection is fine
                raise said from None

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class PostgresStore:
    """An `EventStore` in one PostgreSQL schema; safe to share between threads."""

    def __init__(self, url: str, *, clock: Clock = utc_now) -> None:
        self.url = url
        self._clock = clock
        self._db = Session(url)
        self.schema = self._db.schema
        self.channel = channel(self.schema)

    def __enter__(self) -> PostgresStore:
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
        with self._db() as conn, conn.transaction():
            self._serialise(conn, [tournament_id])
            head, wrote = self._append(
                conn, tournament_id, expected_seq, events, actor, idempotency_key, fingerprint
            )
            if wrote:
                self._notify(conn, [tournament_id])
            return head

    def append_group(self, appends: Sequence[Append]) -> list[int | LivetbError]:
        """Each append as `append` would do it, all in one transaction (one commit); one that
        fails is rolled back alone (a savepoint) and its error returned in its place, and so
        are the later ones of its tournament."""
        written: dict[str, None] = {}  # in order, once each
        with self._db() as conn, conn.transaction():
            self._serialise(conn, [a.tournament_id for a in appends])

            def attempt(a: Append) -> int:
                with conn.transaction():  # a savepoint
                    head, wrote = self._append(conn, *a)
                if wrote:
                    written[a.tournament_id] = None
                return head

            outcomes = each_append(appends, attempt, lambda tid: self._head(conn, tid))
            self._notify(conn, written)
        return outcomes

    @staticmethod
    def _serialise(conn: psycopg.Connection, tournament_ids: Iterable[str]) -> None:
        """Take each tournament's advisory lock until the commit, in sorted order (two groups
        never wait on each other in a cycle). Writers of one tournament so take turns, and
        each reads a head and idempotency keys no one can change before it commits: a stale
        `expected_seq` is refused before any insert. The primary key stays the final check,
        for writers that do not lock."""
        for tid in sorted(set(tournament_ids)):
            conn.execute(
                "SELECT pg_advisory_xact_lock(hashtext(current_schema() || '/' || %s))", (tid,)
            )

    def _append(
        self,
        conn: psycopg.Connection,
        tournament_id: str,
        expected_seq: int,
        events: Sequence[AnyEvent],
        actor: str,
        idempotency_key: str | None,
        fingerprint: str | None,
    ) -> tuple[int, bool]:
        """The new head, and whether events were written."""
        batch = encode_batch(events)
        fingerprint = fingerprint or digest(batch)
        if idempotency_key is not None:
            known = conn.execute(
                "SELECT seq, digest FROM idempotency WHERE tournament_id = %s AND key = %s",
                (tournament_id, idempotency_key),
            ).fetchone()
            if known is not None:
                if known[1] != fingerprint:
                    raise IdempotencyKeyReused(tournament_id, idempotency_key)
                return int(known[0]), False
        head = self._head(conn, tournament_id)
        if head != expected_seq:
            raise ConcurrencyConflict(tournament_id, expected_seq, head)
        if batch:
            at = self._clock()
            try:
                with conn.transaction(), conn.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO events (tournament_id, seq, at, actor, type, data) "
                        "VALUES (%s, %s, %s, %s, %s, %s::json)",
                        [
                            (tournament_id, head + i, at, actor, item.type, item.data.decode())
                            for i, item in enumerate(batch, 1)
                        ],
                    )
            except psycopg.IntegrityError:  # the primary key or the seq trigger: a race
                raise ConcurrencyConflict(
                    tournament_id, expected_seq, self._head(conn, tournament_id)
                ) from None
            head += len(batch)
        if idempotency_key is not None:
            conn.execute(
                "INSERT INTO idempotency (tournament_id, key, seq, digest) VALUES (%s, %s, %s, %s)",
                (tournament_id, idempotency_key, head, fingerprint),
            )
        return head, bool(batch)

    def _notify(self, conn: psycopg.Connection, tournament_ids: Iterable[str]) -> None:
        """Sent when the transaction commits, not at all if it rolls back."""
        for tid in tournament_ids:
            conn.execute("SELECT pg_notify(%s, %s)", (self.channel, tid))

    @staticmethod
    def _head(conn: psycopg.Connection, tournament_id: str) -> int:
        row = conn.execute(
            "SELECT MAX(seq) FROM events WHERE tournament_id = %s", (tournament_id,)
        ).fetchone()
        return int(row[0] or 0) if row else 0

    def save_snapshot(self, tournament_id: str, seq: int, data: bytes) -> None:
        # DELETE then INSERT, not an upsert: the role may not UPDATE snapshots. Another node
        # saving the same seq at once commits the same state: ours then yields to its row
        # (DO NOTHING), rather than failing on the key and logging a duplicate-key ERROR.
        with self._db() as conn, conn.transaction():
            check_snapshot_seq(tournament_id, seq, self._head(conn, tournament_id))
            conn.execute(
                "DELETE FROM snapshots WHERE tournament_id = %s AND seq = %s", (tournament_id, seq)
            )
            conn.execute(
                "INSERT INTO snapshots (tournament_id, seq, data) VALUES (%s, %s, %s) "
                "ON CONFLICT (tournament_id, seq) DO NOTHING",
                (tournament_id, seq, bytes(data)),
            )
            seqs = conn.execute(
                "SELECT seq FROM snapshots WHERE tournament_id = %s", (tournament_id,)
            ).fetchall()
            old = pruned([int(r[0]) for r in seqs])
            if old:
                conn.execute(
                    "DELETE FROM snapshots WHERE tournament_id = %s AND seq = ANY(%s)",
                    (tournament_id, old),
                )

    # --- reading ---

    def recall(self, tournament_id: str, idempotency_key: str) -> Recalled | None:
        with self._db() as conn:
            row = conn.execute(
                "SELECT seq, digest FROM idempotency WHERE tournament_id = %s AND key = %s",
                (tournament_id, idempotency_key),
            ).fetchone()
        return None if row is None else Recalled(int(row[0]), str(row[1]))

    def read(self, tournament_id: str, after: int = 0) -> Iterator[Recorded]:
        """Read in pages, so no statement stays open between the caller's steps."""
        last = after
        while True:
            with self._db() as conn:
                rows = conn.execute(
                    "SELECT seq, at, actor, data::text FROM events "
                    "WHERE tournament_id = %s AND seq > %s ORDER BY seq LIMIT %s",
                    (tournament_id, last, _PAGE),
                ).fetchall()
            for seq, at, actor, data in rows:
                yield Recorded(
                    tournament_id=tournament_id,
                    seq=int(seq),
                    at=at,
                    actor=actor,
                    event=decode_event(data),
                )
            if len(rows) < _PAGE:
                return
            last = rows[-1][0]

    def head(self, tournament_id: str) -> int:
        with self._db() as conn:
            return self._head(conn, tournament_id)

    def tournaments(self) -> list[str]:
        # COLLATE "C": code point order, as Python's sorted() and SQLite give
        with self._db() as conn:
            rows = conn.execute(
                'SELECT DISTINCT tournament_id COLLATE "C" AS tid FROM events ORDER BY tid'
            ).fetchall()
        return [r[0] for r in rows]

    def latest_snapshot(self, tournament_id: str) -> tuple[int, bytes] | None:
        with self._db() as conn:
            row = conn.execute(
                "SELECT seq, data FROM snapshots WHERE tournament_id = %s "
                "ORDER BY seq DESC LIMIT 1",
                (tournament_id,),
            ).fetchone()
        return None if row is None else (int(row[0]), bytes(row[1]))

    def snapshot_at(self, tournament_id: str, seq: int) -> tuple[int, bytes] | None:
        with self._db() as conn:
            row = conn.execute(
                "SELECT seq, data FROM snapshots WHERE tournament_id = %s AND seq <= %s "
                "ORDER BY seq DESC LIMIT 1",
                (tournament_id, seq),
            ).fetchone()
        return None if row is None else (int(row[0]), bytes(row[1]))

    def close(self) -> None:
        self._db.close()


class PostgresChanges(ThreadedSignal):
    """`LISTEN` on the channel of the URL's schema, on a connection of its own. Notifications
    sent while it is disconnected are lost, so it calls `notify(None)` after every connect."""

    thread_name = "livetb-postgres-changes"

    def __init__(self, url: str, *, poll: float = 0.2, max_backoff: float = 1.0) -> None:
        super().__init__()
        self.url = url
        self.poll = poll  # how long stop() may wait for the thread
        # Short: until it listens again, the other nodes' writes reach this node's viewers
        # only with its next catch-up (one connection attempt a second costs nothing).
        self.max_backoff = max_backoff

    def _run(self, notify: Notify) -> None:
        backoff = 0.1
        down = False
        while not self._stopping.is_set():
            try:
                with connect(self.url, "livetb-changes") as conn:
                    name = channel(target_schema(conn))
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(name)))
                    if down:
                        log.info("%s: listening again", shown(self.url))
                        down, backoff = False, 0.1
                    notify(None)  # whatever was written before, or while disconnected
                    while not self._stopping.is_set():
                        for note in conn.notifies(timeout=self.poll):
                            if self._stopping.is_set():
                                return
                            notify(note.payload)
            except (psycopg.Error, StoreUnavailable) as err:
                if not down:  # once per outage
                    down = True
                    away = (
                        err
                        if isinstance(err, StoreUnavailable)
                        else StoreUnavailable(
                            shown(self.url), named(self.url, " ".join(str(err).split()))
                        )
                    )
                    log.warning(
                        "%s: change notifications lost (%s); reconnecting",
                        shown(self.url),
                        str(away).removeprefix(f"{shown(self.url)}: "),
                    )
                self._stopping.wait(backoff)
                backoff = min(backoff * 2, self.max_backoff)
