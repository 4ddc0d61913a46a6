"""PostgreSQL specifics: the database refuses to rewrite history (triggers, and the role the
store serves as), two stores racing on one log meet as a ConcurrencyConflict, migrations are
safe to run at once, and appends are announced on the schema's channel."""

from __future__ import annotations

import logging
import queue
import secrets
import threading
import time
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import sql

from livetb.errors import ConcurrencyConflict, StoreUnavailable
from livetb.events.postgres import MIGRATIONS, ROLE, PostgresChanges, PostgresStore, channel
from livetb.events.schema import ParticipantRegistered, TournamentCreated
from livetb.events.store import Append
from tests.conftest import PG_BASE, in_schema, pg_admin

CREATED = TournamentCreated(name="Spring Open", rounds=7)


def registered(no: int) -> ParticipantRegistered:
    return ParticipantRegistered(start_no=no, name=f"Player {no}")


@pytest.fixture
def store(pg_url: str) -> Iterator[PostgresStore]:
    with PostgresStore(pg_url) as s:
        s.append("t-1", 0, [CREATED, registered(1)], actor="arbiter")
        yield s


def owner(pg_url: str) -> psycopg.Connection:
    """A connection to the store's schema as its owner (not the serving role)."""
    return psycopg.connect(pg_url, autocommit=True)


def rows(pg_url: str) -> list[tuple[object, ...]]:
    with owner(pg_url) as conn:
        return conn.execute(
            "SELECT tournament_id, seq, actor, data::text FROM events ORDER BY 1, 2"
        ).fetchall()


@pytest.mark.parametrize(
    ("sql_text", "refused"),
    [
        ("UPDATE events SET actor = 'intruder' WHERE seq = 2", "UPDATE is not allowed"),
        ("UPDATE events SET actor = 'intruder' WHERE false", "UPDATE is not allowed"),
        ("DELETE FROM events", "DELETE is not allowed"),
        ("TRUNCATE events", "TRUNCATE is not allowed"),
        (
            "INSERT INTO events VALUES ('t-1', 5, now(), 'x', 'LotsDrawn', '{}')",
            "seq must be the head \\+ 1",
        ),
    ],
    ids=["update", "update-nothing", "delete", "truncate", "gap"],
)
def test_the_owner_cannot_rewrite_history_either(
    store: PostgresStore, pg_url: str, sql_text: str, refused: str
) -> None:
    before = rows(pg_url)
    with owner(pg_url) as conn, pytest.raises(psycopg.IntegrityError, match=refused):
        conn.execute(sql_text)
    assert rows(pg_url) == before


def test_the_triggers_hold_in_a_session_with_another_search_path(
    store: PostgresStore, pg_schema: str
) -> None:
    """The seq trigger reads its own schema's events, not the session's path's."""
    with psycopg.connect(PG_BASE, autocommit=True) as conn:
        table = sql.Identifier(pg_schema, "events")
        with pytest.raises(psycopg.IntegrityError, match="seq must be the head"):
            conn.execute(
                sql.SQL("INSERT INTO {} VALUES ('t-1', 2, now(), 'x', 'LotsDrawn', '{{}}')").format(
                    table
                )
            )


@pytest.mark.parametrize(
    "sql_text",
    [
        "UPDATE events SET actor = 'intruder'",
        "DELETE FROM events",
        "UPDATE idempotency SET seq = 0",
    ],
)
def test_the_serving_role_has_no_update_or_delete(
    store: PostgresStore, pg_url: str, sql_text: str
) -> None:
    before = rows(pg_url)
    with owner(pg_url) as conn:
        conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(ROLE)))
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(sql_text)
    assert rows(pg_url) == before


def test_the_store_serves_as_the_role(store: PostgresStore) -> None:
    with store._db() as conn:
        assert conn.execute("SELECT current_user").fetchone() == (ROLE,)


def test_a_user_who_may_not_become_the_role_gets_the_triggers_and_a_warning(
    pg_schema: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = f"livetb_t_{secrets.token_hex(4)}"
    with pg_admin() as admin:
        admin.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(user)))
        admin.execute(
            sql.SQL("GRANT USAGE, CREATE ON SCHEMA {} TO {}").format(
                sql.Identifier(pg_schema), sql.Identifier(user)
            )
        )
    monkeypatch.setattr("livetb.events.postgres._warned", False)
    url = in_schema(PG_BASE.replace("postgres@", f"{user}@", 1), pg_schema)
    try:
        with caplog.at_level(logging.WARNING), PostgresStore(url) as s:
            assert s.append("t-1", 0, [CREATED], actor="a") == 1
            with s._db() as conn:
                assert conn.execute("SELECT current_user").fetchone() == (user,)
                with pytest.raises(psycopg.IntegrityError, match="DELETE is not allowed"):
                    conn.execute("DELETE FROM events")
        (warning,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert f"cannot serve as role {ROLE}" in warning
        assert "append-only by its triggers alone" in warning
    finally:
        with pg_admin() as admin:
            admin.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(pg_schema)))
            admin.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(user)))
            admin.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(user)))


def race(a: PostgresStore, b: PostgresStore, head: int, first: int) -> dict[str, object]:
    """Both append three events after `head` at once: each one's new head or its error."""
    barrier = threading.Barrier(2)
    outcomes: dict[str, object] = {}

    def write(name: str, s: PostgresStore) -> None:
        batch = [registered(first + i) for i in range(3)]
        barrier.wait()
        try:
            outcomes[name] = s.append("t-1", head, batch, actor=name)
        except ConcurrencyConflict as err:
            outcomes[name] = err

    threads = [threading.Thread(target=write, args=(n, s)) for n, s in (("a", a), ("b", b))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def test_two_stores_racing_on_one_log(pg_url: str) -> None:
    """Each round both stores append after the same head: exactly one wins, the loser's
    batch leaves no row, and the log stays gap-free."""
    with PostgresStore(pg_url) as a, PostgresStore(pg_url) as b:
        a.append("t-1", 0, [CREATED], actor="setup")
        for rnd in range(20):
            head = a.head("t-1")
            outcomes = race(a, b, head, 100 * rnd + 1)
            won = [n for n, o in outcomes.items() if o == head + 3]
            lost = [o for o in outcomes.values() if isinstance(o, ConcurrencyConflict)]
            assert len(won) == 1 and len(lost) == 1, outcomes
            assert (lost[0].expected, lost[0].head) == (head, head + 3)
        records = list(a.read("t-1"))
        assert [r.seq for r in records] == list(range(1, 62))
        for k in range(20):  # each round's three events are one writer's
            assert len({r.actor for r in records[1 + 3 * k : 4 + 3 * k]}) == 1


def test_a_conflict_in_a_group_rolls_back_that_append_alone(pg_url: str) -> None:
    with PostgresStore(pg_url) as a, PostgresStore(pg_url) as b:
        a.append("t-1", 0, [CREATED], actor="a")
        b.append("t-1", 1, [registered(1)], actor="b")  # a's view of the head is now stale
        outcomes = a.append_group(
            [Append("t-2", 0, [CREATED], "a"), Append("t-1", 1, [registered(9)], "a")]
        )
        assert outcomes[0] == 1 and isinstance(outcomes[1], ConcurrencyConflict)
        assert [r.actor for r in b.read("t-1")] == ["a", "b"]
        assert b.tournaments() == ["t-1", "t-2"]


def test_a_missing_schema_is_created_and_migrations_run_once_when_raced(
    pg_schema: str,
) -> None:
    fresh = f"{pg_schema}_new"
    url = in_schema(PG_BASE, fresh)
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def start() -> None:
        barrier.wait()
        try:
            PostgresStore(url).close()
        except BaseException as err:
            errors.append(err)

    try:
        threads = [threading.Thread(target=start) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        with psycopg.connect(url, autocommit=True) as conn:
            versions = conn.execute("SELECT version FROM schema_version").fetchall()
        assert versions == [(v,) for v in range(1, len(MIGRATIONS) + 1)]
        with PostgresStore(url) as s:
            assert s.schema == fresh and s.tournaments() == []
    finally:
        with pg_admin() as admin:
            admin.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(fresh)))


def test_the_channel_is_a_short_identifier() -> None:
    assert channel("t_ab12") == "livetb_events_t_ab12"
    long, odd = channel("x" * 60), channel("Club Müller")
    assert long.startswith("livetb_events_") and len(long.encode()) <= 63
    assert odd != long and odd.isidentifier() and len(odd) <= 63


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("postgresql://nobody:secret@127.0.0.1:1/test", "127.0.0.1:1"),
        ("postgresql://127.0.0.1/test?nonsense=1", "nonsense"),
    ],
    ids=["unreachable", "malformed"],
)
def test_a_bad_url_is_one_error_naming_it_without_its_password(url: str, said: str) -> None:
    with pytest.raises(StoreUnavailable) as caught:
        PostgresStore(url)
    message = str(caught.value)
    assert said in message and "secret" not in message and "\n" not in message
    assert message.startswith(url.replace(":secret@", ":***@"))


@pytest.mark.parametrize(
    ("url", "words"),
    [
        (
            "postgresql://nobody:secret@127.0.0.1:1/test",
            "(PostgreSQL database test on 127.0.0.1:1, schema public, user nobody)",
        ),
        (
            "postgresql://nobody:secret@127.0.0.1:1/live?options=-csearch_path%3D%24user,club",
            "(PostgreSQL database live on 127.0.0.1:1, schema club, user nobody)",
        ),
        (
            "postgresql://nobody@%2Ftmp%2Fnone:5999/live?password=secret",
            "(PostgreSQL database live on the socket in /tmp/none, port 5999, schema public, "
            "user nobody)",
        ),
    ],
    ids=["host", "schema", "socket"],
)
def test_an_unreachable_store_is_named_host_port_database_and_schema(url: str, words: str) -> None:
    """What a 503 and a start-up failure say: the store in words, whatever the URL leaves to
    libpq's defaults, and never its password."""
    with pytest.raises(StoreUnavailable) as caught:
        PostgresStore(url)
    message = str(caught.value)
    assert message.endswith(words) and "secret" not in message


class Heard:
    """What a `PostgresChanges` notified, as a queue."""

    def __init__(self) -> None:
        self.queue: queue.Queue[str | None] = queue.Queue()

    def __call__(self, tid: str | None) -> None:
        self.queue.put(tid)

    def next(self, timeout: float = 30.0) -> str | None:
        return self.queue.get(timeout=timeout)


def test_changes_hear_another_stores_appends_and_catch_up_after_a_reconnect(
    pg_url: str, pg_schema: str
) -> None:
    heard = Heard()
    changes = PostgresChanges(pg_url)
    with PostgresStore(pg_url) as writer:
        changes.start(heard)
        try:
            assert heard.next() is None  # started: catch up on everything
            writer.append("t-1", 0, [CREATED], actor="a")
            assert heard.next() == "t-1"
            writer.append_group(
                [
                    Append("t-2", 0, [CREATED], "a"),
                    Append("t-1", 1, [registered(1)], "a"),
                    Append("t-1", 2, [registered(2)], "a"),
                ]
            )
            assert {heard.next(), heard.next()} == {"t-1", "t-2"}  # once per tournament
            writer.append("t-1", 3, [], actor="a")  # nothing written: nothing said
            with pg_admin() as admin:
                killed = admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = 'livetb-changes' AND query LIKE %s",
                    (f"%{channel(pg_schema)}%",),
                ).fetchall()
            assert killed == [(True,)]
            assert heard.next() is None  # back, and whatever it missed is a catch-up
            writer.append("t-2", 1, [registered(1)], actor="a")
            assert heard.next() == "t-2"
        finally:
            changes.stop()
    assert heard.queue.empty()


def stop_soon(changes: PostgresChanges) -> None:
    """`changes.stop()`, which joins its thread: that thread waits at most `poll` seconds (or
    a backoff it is woken from) before it sees the stop. A stop stuck for a minute fails."""
    stopping = threading.Thread(target=changes.stop, daemon=True)
    stopping.start()
    stopping.join(60)
    assert not stopping.is_alive(), "changes.stop() is stuck"
    assert changes.poll <= 0.5


def test_changes_stop_promptly_and_say_nothing_after(pg_url: str) -> None:
    heard = Heard()
    changes = PostgresChanges(pg_url)
    changes.start(heard)
    assert heard.next() is None
    stop_soon(changes)
    with PostgresStore(pg_url) as writer:
        writer.append("t-1", 0, [CREATED], actor="a")
    time.sleep(0.3)
    assert heard.queue.empty()


def test_a_store_whose_connection_was_cut_opens_a_new_one(store: PostgresStore) -> None:
    """The call that finds the connection cut fails; the next one reconnects, as the role."""
    with store._db() as conn:
        pid = conn.info.backend_pid
    with pg_admin() as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(StoreUnavailable, match=r"connection lost: .*terminating connection") as cut:
        store.head("t-1")
    assert f"(PostgreSQL database {store._db._conn.info.dbname} on " in str(cut.value)
    assert f", schema {store.schema}, user " in str(cut.value)  # the store named, in words
    assert store.append("t-1", 2, [registered(2)], actor="a") == 3
    with store._db() as conn:
        assert conn.info.backend_pid != pid
        assert conn.execute("SELECT current_user, current_schema()").fetchone() == (
            ROLE,
            store.schema,
        )


def test_changes_keep_trying_a_server_that_does_not_answer_and_stop_promptly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    heard = Heard()
    changes = PostgresChanges("postgresql://nobody:secret@127.0.0.1:1/test", max_backoff=0.2)
    with caplog.at_level(logging.WARNING):
        changes.start(heard)
        time.sleep(1.0)  # several attempts
        stop_soon(changes)
    assert heard.queue.empty()  # never connected: nothing to catch up on yet
    (warning,) = [r.getMessage() for r in caplog.records if r.name == "livetb.events.postgres"]
    assert "postgresql://nobody:***@127.0.0.1:1/test: change notifications lost" in warning


def test_two_nodes_saving_the_same_snapshot_both_succeed_without_a_duplicate_key(
    pg_url: str, store: PostgresStore
) -> None:
    """Two nodes saving the snapshot at one seq: the second, waiting on the first's row, finds
    it committed and keeps it, instead of failing on the primary key (a driver error, and a
    duplicate-key ERROR in the server's log)."""
    failed: list[BaseException] = []

    def save() -> None:
        try:
            store.save_snapshot("t-1", 2, b"ours")
        except BaseException as err:
            failed.append(err)

    saving = threading.Thread(target=save)
    with owner(pg_url) as other, other.transaction():  # the other node, mid-save
        other.execute("INSERT INTO snapshots VALUES ('t-1', 2, %s)", (b"theirs",))
        saving.start()
        time.sleep(0.3)
        assert saving.is_alive()  # ours waits on their uncommitted row
    saving.join(10)
    assert not saving.is_alive() and failed == []
    assert store.latest_snapshot("t-1") == (2, b"theirs")  # one seq, one state: either will do
