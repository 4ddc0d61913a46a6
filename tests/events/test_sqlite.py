"""SQLite specifics: the database itself refuses to rewrite history, commits are durable, and
two writers on one file meet as a ConcurrencyConflict."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from livetb.errors import ConcurrencyConflict
from livetb.events.schema import ParticipantRegistered, TournamentCreated
from livetb.events.sqlite import SqliteStore
from livetb.tokens.sqlite import TokenStore

CREATED = TournamentCreated(name="Spring Open", rounds=7)


def registered(no: int) -> ParticipantRegistered:
    return ParticipantRegistered(start_no=no, name=f"Player {no}")


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "events.sqlite"
    with SqliteStore(path) as store:
        store.append("t-1", 0, [CREATED, registered(1)], actor="arbiter")
    yield path


def rows(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT * FROM events ORDER BY tournament_id, seq").fetchall()


def raw(path: Path, sql: str, *params: object) -> None:
    conn = sqlite3.connect(path)
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


def test_update_is_refused_by_the_database(db: Path) -> None:
    before = rows(db)
    with pytest.raises(sqlite3.IntegrityError, match="events are append-only: UPDATE"):
        raw(db, "UPDATE events SET data = '{}' WHERE tournament_id = 't-1' AND seq = 2")
    with pytest.raises(sqlite3.IntegrityError, match="events are append-only: UPDATE"):
        raw(db, "UPDATE events SET actor = 'intruder'")
    assert rows(db) == before


def test_delete_is_refused_by_the_database(db: Path) -> None:
    before = rows(db)
    with pytest.raises(sqlite3.IntegrityError, match="events are append-only: DELETE"):
        raw(db, "DELETE FROM events WHERE tournament_id = 't-1' AND seq = 2")
    with pytest.raises(sqlite3.IntegrityError, match="events are append-only: DELETE"):
        raw(db, "DELETE FROM events")
    assert rows(db) == before


@pytest.mark.parametrize(
    "sql",
    [
        # REPLACE deletes the old row without a DELETE trigger unless recursive_triggers is on
        "INSERT OR REPLACE INTO events VALUES ('t-1', 2, 'now', 'x', 'LotsDrawn', '{}')",
        "INSERT INTO events VALUES ('t-1', 5, 'now', 'x', 'LotsDrawn', '{}')",  # a gap
    ],
    ids=["replace", "gap"],
)
def test_history_cannot_be_replaced_or_gapped(db: Path, sql: str) -> None:
    before = rows(db)
    with pytest.raises(sqlite3.IntegrityError, match="seq must be the head \\+ 1"):
        raw(db, sql)
    assert rows(db) == before


def test_the_stored_row(db: Path) -> None:
    (tid, seq, at, actor, kind, data) = rows(db)[1]
    assert (tid, seq, actor, kind) == ("t-1", 2, "arbiter", "ParticipantRegistered")
    assert isinstance(data, str) and isinstance(at, str)
    assert json.loads(data) == {
        "type": "ParticipantRegistered",
        "v": 1,
        "start_no": 1,
        "name": "Player 1",
        "rating": None,
        "title": "",
        "federation": "",
        "fide_id": "",
        "sex": "",
        "birth_date": "",
    }
    assert at.endswith("+00:00")


def test_durability_settings(db: Path) -> None:
    with SqliteStore(db) as store:
        assert store._conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert store._conn.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL


def test_the_log_survives_reopening(db: Path) -> None:
    with SqliteStore(db) as store:
        assert store.head("t-1") == 2
        assert [r.event for r in store.read("t-1")] == [CREATED, registered(1)]
        assert store.append("t-1", 2, [registered(2)], actor="a") == 3


def test_two_writers_the_second_with_a_stale_seq(db: Path) -> None:
    with SqliteStore(db) as first, SqliteStore(db) as second:
        seen = second.head("t-1")
        assert first.append("t-1", seen, [registered(2)], actor="first") == 3
        with pytest.raises(ConcurrencyConflict) as caught:
            second.append("t-1", seen, [registered(3), registered(4)], actor="second")
        assert (caught.value.expected, caught.value.head) == (2, 3)
        assert [r.actor for r in second.read("t-1")] == ["arbiter", "arbiter", "first"]
        assert second.append("t-1", 3, [registered(3)], actor="second") == 4


def test_racing_writers_leave_a_gap_free_log(db: Path) -> None:
    """Two stores in two threads, each appending 40 events by read-head-then-append."""
    errors: list[BaseException] = []
    conflicts = [0, 0]

    def writer(index: int) -> None:
        try:
            with SqliteStore(db) as store:
                done = 0
                while done < 40:
                    head = store.head("t-1")
                    try:
                        store.append("t-1", head, [registered(100 + done)], actor=f"w{index}")
                        done += 1
                    except ConcurrencyConflict:
                        conflicts[index] += 1
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with SqliteStore(db) as store:
        records = list(store.read("t-1"))
    assert [r.seq for r in records] == list(range(1, 83))
    assert sorted(r.actor for r in records[2:]) == ["w0"] * 40 + ["w1"] * 40


@pytest.mark.parametrize("opener", ["store", "tokens"])
def test_the_store_file_and_its_wal_and_shm_are_owner_only(tmp_path: Path, opener: str) -> None:
    """The store's files are 0600 whatever the umask (022 would make them readable by every
    local user)."""
    path = tmp_path / "private.sqlite"
    old = os.umask(0o022)
    try:
        if opener == "tokens":
            TokenStore(path).close()  # `livetb token create` may be the first to open it
        with SqliteStore(path) as store:
            store.append("t-1", 0, [TournamentCreated(name="Open", rounds=5)], actor="a")
            files = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
            assert all(f.exists() for f in files)
            assert [oct(f.stat().st_mode & 0o777) for f in files] == ["0o600"] * 3
    finally:
        os.umask(old)


def test_processes_opening_a_new_store_at_once_all_succeed(tmp_path: Path) -> None:
    """`serve --workers 4` on a new file: four processes create the schema at the same time
    (one of them used to fail with "database is locked")."""
    db = tmp_path / "new.sqlite"
    opening = (
        "import sys; from livetb.events.sqlite import SqliteStore; "
        "from livetb.tokens.sqlite import TokenStore; "
        "SqliteStore(sys.argv[1]).close(); TokenStore(sys.argv[1]).close()"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", opening, str(db)], stderr=subprocess.PIPE)
        for _ in range(6)
    ]
    errors = [p.communicate(timeout=60)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0] * 6, errors
    with SqliteStore(db) as store:
        assert store.tournaments() == []
