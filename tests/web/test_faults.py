"""Faults named, not 500s with tracebacks: a full disk is 507 `storage_full` with reads still
served and writes taken again once space is freed; a store that is busy or unreachable is 503
with `Retry-After`; `serve` failing to open its store is one line and exit 2; a malformed
request is at most one log line, never a traceback."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import psycopg
import pytest

from livetb.cli import main
from livetb.errors import StorageFull, StoreBusy, StoreUnavailable
from livetb.events import postgres
from livetb.events import sqlite as sqlite_store
from livetb.events.schema import ParticipantRegistered
from livetb.web.http.statuses import status_of
from livetb.web.keys import TOKENS
from tests.conftest import pg_admin
from tests.web.conftest import TID, Api, ApiFactory

T = f"/api/tournaments/{TID}"


async def test_a_full_disk_is_507_reads_go_on_and_writes_resume(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    assert (await api.call("PUT", T, {"name": "Club", "rounds": 5}))[0] == 201
    conn = api.store._conn  # SQLite's size limit stands in for the disk: SQLITE_FULL alike
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    acknowledged: list[int] = []
    refused = None
    for no in range(1, 200):
        status, body = await api.post(f"{T}/participants", {"start_no": no, "name": f"P{no:03}"})
        if status != 201:
            refused = (status, body)
            break
        acknowledged.append(no)
    assert refused is not None, "the store never filled"
    status, body = refused
    assert (status, body["code"]) == (507, "storage_full")
    assert "the disk is full" in body["message"] and "reads are still served" in body["message"]
    for _ in range(3):  # every write refused alike while full, none half-written
        again = await api.post(f"{T}/participants", {"start_no": 500, "name": "Late"})
        assert (again[0], again[1]["code"]) == (507, "storage_full")
    standings = await api.standings()
    assert sorted(r["start_no"] for r in standings["standings"]) == acknowledged
    assert (await api.get(f"{T}/events?limit=1000"))["events"]
    conn.execute("PRAGMA max_page_count = 1073741823")  # space freed
    status, body = await api.post(f"{T}/participants", {"start_no": 500, "name": "Late"})
    assert status == 201, body
    stored = [
        r.event.start_no for r in api.store.read(TID) if isinstance(r.event, ParticipantRegistered)
    ]
    assert stored == [*acknowledged, 500]  # nothing acknowledged lost, nothing refused kept
    assert "Traceback" not in caplog.text


async def test_a_store_locked_beyond_its_timeout_is_503_with_retry_after(api: Api) -> None:
    seq = await api.start(players=4)
    api.store._conn.execute("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(api.store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        async with api.session.post(
            api.base + f"{T}/rounds/1/results",
            json={"board": 1, "result": "1-0"},
            headers={"Authorization": f"Bearer {api.token}"},
        ) as resp:
            body = await resp.json()
            assert (resp.status, body["code"]) == (503, "store_busy")
            assert resp.headers["Retry-After"] == "1"
            assert "database is locked" in body["message"]
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert api.store.head(TID) == seq
    status, body = await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"})
    assert (status, body["seq"]) == (201, seq + 1)


async def test_a_lost_postgres_connection_is_503_with_retry_after(
    make_api: ApiFactory, pg_url: str
) -> None:
    api = await make_api(db_path=pg_url)
    seq = await api.start(players=4)
    pid = api.store._db._conn.info.backend_pid
    with pg_admin() as admin:  # this store's connection alone, as a restart would cut it
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    async with api.session.post(
        api.base + f"{T}/rounds/1/results",
        json={"board": 1, "result": "1-0"},
        headers={"Authorization": f"Bearer {api.token}", "Idempotency-Key": "b1"},
    ) as resp:
        body = await resp.json()
        assert (resp.status, body["code"]) == (503, "store_unavailable"), body
        assert resp.headers["Retry-After"] == "2"
        assert "connection lost" in body["message"] and "secret" not in body["message"]
    status, body = await api.post(
        f"{T}/rounds/1/results", {"board": 1, "result": "1-0"}, headers={"Idempotency-Key": "b1"}
    )
    assert (status, body["seq"]) == (201, seq + 1)  # the same write again: recorded once
    assert api.store.head(TID) == seq + 1


async def test_a_driver_error_met_anywhere_is_named_not_500(
    api: Api, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The token table's lookup is outside the event store's mapping: the last line of
    defence names its fault too, in one log line."""
    await api.start(players=4)

    def locked(token: str) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(api.server.app[TOKENS], "grant", locked)
    caplog.clear()
    async with api.session.post(
        api.base + f"{T}/rounds/1/results",
        json={"board": 1, "result": "1-0"},
        headers={"Authorization": f"Bearer {api.token}"},
    ) as resp:
        body = await resp.json()
        assert (resp.status, body["code"], resp.headers["Retry-After"]) == (503, "store_busy", "1")
    assert "Traceback" not in caplog.text
    assert [r.levelname for r in caplog.records if r.levelno >= logging.WARNING] == ["WARNING"]


def test_sqlite_faults_are_named() -> None:
    full = sqlite3.OperationalError("database or disk is full")
    assert isinstance(sqlite_store.fault("x.sqlite", full), StorageFull)
    busy = sqlite_store.fault("x.sqlite", sqlite3.OperationalError("database is locked"))
    assert isinstance(busy, StoreBusy) and (status_of(busy), busy.retry_after) == (503, 1)
    other = sqlite_store.fault("x.sqlite", sqlite3.DatabaseError("file is not a database"))
    assert type(other) is StoreUnavailable and status_of(other) == 503


def test_postgres_faults_are_named() -> None:
    url = "postgresql://u:secret@db/x"
    disk = postgres.fault(url, psycopg.errors.DiskFull("could not extend file"), broken=False)
    assert isinstance(disk, StorageFull) and status_of(disk) == 507 and "secret" not in str(disk)
    nospace = psycopg.OperationalError("could not write to file: No space left on device")
    assert isinstance(postgres.fault(url, nospace, broken=False), StorageFull)
    lost = postgres.fault(url, psycopg.OperationalError("server closed the connection"), True)
    assert type(lost) is StoreUnavailable and lost.retry_after == 2
    assert "secret" not in str(lost)
    deadlock = psycopg.errors.DeadlockDetected("deadlock detected")
    assert postgres.fault(url, deadlock, broken=False) is None  # the statement's, not the store's


def test_serve_on_a_file_that_is_no_store_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "not.sqlite"
    bad.write_bytes(b"this is not a database" * 300)
    assert main(["serve", "--db", str(bad), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err == f"livetb: {bad}: file is not a database\n"


def test_serve_on_a_full_disk_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(sqlite_store, "enable_wal", full)  # the first write of opening
    db = tmp_path / "live.sqlite"
    assert main(["serve", "--db", str(db), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the disk is full" in err and "Traceback" not in err


def test_serve_on_an_unwritable_path_or_unreachable_postgres_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "plain").write_text("a file, not a directory")
    unwritable = tmp_path / "plain" / "live.sqlite"
    assert main(["serve", "--db", str(unwritable), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err == f"livetb: {unwritable}: Not a directory\n"
    url = "postgresql://livetb:secret@127.0.0.1:1/none?connect_timeout=2"
    assert main(["serve", "--db", url, "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Connection refused" in err and "secret" not in err


MALFORMED = [
    b"GARBAGE\r\n\r\n",
    b"GET / HTTP/9.9\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
    b"POST /api/tournaments/t1 HTTP/1.1\r\nHost: x\r\nContent-Length: zz\r\n\r\n",
    b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"PUT /api/tournaments/t1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    b"Content-Length: 3\r\n\r\n{{{",
    b"GET /api/tournaments/t1/events?limit=%ff%fe HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /api/tournaments/t1/events?after=-1 HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /no/such/route HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /ws?tournament=t1&since=x HTTP/1.1\r\nHost: x\r\n\r\n",
    b"DELETE /api/tournaments/t1 HTTP/1.1\r\nHost: x\r\n\r\n",
]


async def test_100_malformed_requests_log_no_traceback(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    await api.start(players=4)
    caplog.clear()
    for i in range(100):
        reader, writer = await asyncio.open_connection(api.server.host, api.server.port)
        writer.write(MALFORMED[i % len(MALFORMED)])
        await writer.drain()
        try:
            answer = await asyncio.wait_for(reader.read(4096), 30)
        finally:
            writer.close()
        assert answer[:10] in (b"HTTP/1.1 4", b"HTTP/1.0 4"), answer[:80]
        assert b"\r\nServer: livetb\r\n" in answer and b"aiohttp/" not in answer
    await asyncio.sleep(0.1)
    assert "Traceback" not in caplog.text
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(loud) <= 100 and all("\n" not in r.getMessage() for r in loud)
    assert not any(r.exc_info or r.exc_text for r in caplog.records)
