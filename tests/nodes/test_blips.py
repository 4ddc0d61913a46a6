"""A store that stops answering for a moment (a PostgreSQL restart, a connection cut): the
background tasks that talk to it retry with backoff and catch up when it answers again, with
one log line per outage."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time

import psycopg
import pytest
from aiohttp import WSCloseCode

from livetb.app.follower import Follower
from livetb.app.group_commit import GroupCommit
from livetb.app.service import TournamentService
from livetb.errors import StoreUnavailable
from livetb.events.commands import CreateTournament, RegisterParticipant
from livetb.events.postgres import PostgresChanges, PostgresStore
from livetb.projections.standings import Delta, StandingsProjection
from livetb.web.feed import socket
from tests.conftest import PG_BASE
from tests.fakes import Undelayed


def connections(application_name: str) -> int:
    with psycopg.connect(PG_BASE, autocommit=True) as admin:
        row = admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
            (application_name,),
        ).fetchone()
    return int(row[0]) if row else 0


async def reconnected(application_name: str, count: int) -> None:
    """Once `application_name` holds `count` connections again: after a cut, the store's
    connection and the listener come back each on its own backoff, in either order, and the
    viewers may get a write before the second is back (a loaded machine showed it)."""
    deadline = time.monotonic() + 60
    while connections(application_name) < count:
        assert time.monotonic() < deadline, f"{application_name} did not reconnect"
        await asyncio.sleep(0.05)


def cut(application_name: str) -> int:
    """Terminate every backend of `application_name`, as a PostgreSQL restart would; how many."""
    with psycopg.connect(PG_BASE, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
            (application_name,),
        ).fetchall()
    return len(rows)


class Published(Undelayed):
    def __init__(self) -> None:
        self.seq = 0

    def publish(self, tournament_id: str, delta: Delta, projection: StandingsProjection) -> None:
        assert delta.seq == self.seq + 1  # in order, none missed
        self.seq = delta.seq


async def reaches(feed: Published, seq: int) -> None:
    """Once the viewers have `seq`; a failure if they are stuck short of it for a minute."""
    deadline = time.monotonic() + 60
    while feed.seq < seq:
        assert time.monotonic() < deadline, f"the viewers are at {feed.seq}, not {seq}"
        await asyncio.sleep(0.01)


async def test_a_nodes_viewers_get_a_write_made_while_its_connections_were_cut(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Node B's connections are cut and node A writes: B's change signal reconnects first,
    and the catch-up it asks for finds B's store connection broken. It is retried: B's
    viewers get the write, with no other event after it."""
    name = f"livetb_b_{secrets.token_hex(4)}"
    a = GroupCommit(TournamentService(PostgresStore(pg_url)))
    feed = Published()
    b_store = PostgresStore(f"{pg_url}&application_name={name}")
    b = TournamentService(b_store, feed=feed)
    follower = Follower(b, PostgresChanges(f"{pg_url}&application_name={name}"))
    await a.execute("t", CreateTournament(name="Blip Open", rounds=3, tiebreaks=("PTS",)))
    await b.current("t")
    feed.seq = b.seq_of("t")  # loaded, not published: the deltas start after it
    follower.start()
    try:
        head = await a.execute("t", RegisterParticipant(start_no=1, name="Ann"))
        await reaches(feed, head)
        caplog.set_level(logging.WARNING, logger="livetb.app.follower")
        for n in range(2, 5):  # three blips, each with a write while B is cut off
            await reconnected(name, 2)
            assert cut(name) == 2  # B's store connection and its listener
            head = await a.execute("t", RegisterParticipant(start_no=n, name=f"P{n}"))
            await reaches(feed, head)
            assert not follower.down
    finally:
        await follower.stop()
        b_store.close()
        a.service.store.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "livetb.app.follower"]
    assert len(lines) <= 2 * 3, lines  # at most the failure and the recovery, per outage
    assert all("Traceback" not in line for line in lines)


async def test_catch_ups_are_retried_until_the_store_answers_with_one_line_per_outage(
    pg_url: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = GroupCommit(TournamentService(PostgresStore(pg_url)))
    feed = Published()
    b = TournamentService(PostgresStore(pg_url), feed=feed)
    follower = Follower(b, PostgresChanges(pg_url))
    await a.execute("t", CreateTournament(name="Blip Open", rounds=3, tiebreaks=("PTS",)))
    await b.current("t")
    feed.seq = b.seq_of("t")  # loaded, not published: the deltas start after it
    read, failures = b.store.read, [0]

    def failing(tid: str, after: int = 0):  # type: ignore[no-untyped-def]
        if failures[0] < 6:
            failures[0] += 1
            raise StoreUnavailable("postgresql://…", "connection lost: server closed")
        return read(tid, after)

    monkeypatch.setattr(b.store, "read", failing)
    caplog.set_level(logging.INFO, logger="livetb.app.follower")
    follower.start()
    try:
        head = await a.execute("t", RegisterParticipant(start_no=1, name="Ann"))
        await reaches(feed, head)
    finally:
        await follower.stop()
        b.store.close()
        a.service.store.close()
    assert failures[0] == 6
    lines = [r.getMessage() for r in caplog.records if r.name == "livetb.app.follower"]
    assert lines == [
        "catching up with the store failed (postgresql://…: connection lost: server closed);"
        " retrying",
        "caught up with the store again",
    ]


class Feed:
    """A websocket as `close_when_revoked` sees it."""

    def __init__(self) -> None:
        self.closed = False
        self.code: int | None = None

    async def close(self, *, code: int, message: bytes) -> None:
        self.closed, self.code = True, code


class Tokens:
    """A token table that fails `failures` lookups, then says the token was revoked."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.asked = 0

    def scope(self, token: str) -> str | None:
        self.asked += 1
        if self.asked <= self.failures:
            raise StoreUnavailable("postgresql://…", "connection lost")
        return None


async def test_a_revoked_tokens_feed_is_closed_once_the_store_answers_again(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(socket, "REVOCATION_CHECK", 0.01)
    monkeypatch.setattr(socket, "REVOCATION_RETRY_MOST", 0.05)
    caplog.set_level(logging.WARNING, logger=socket.__name__)
    ws, tokens = Feed(), Tokens(failures=5)
    await asyncio.wait_for(
        socket.close_when_revoked(ws, tokens, "secret", "t"),  # type: ignore[arg-type]
        timeout=60,
    )
    assert ws.closed and ws.code == WSCloseCode.POLICY_VIOLATION
    assert tokens.asked == 6
    lines = [r.getMessage() for r in caplog.records if r.name == socket.__name__]
    assert lines == [
        "checking feeds' tokens failed (postgresql://…: connection lost); retrying",
        "checking feeds' tokens again",
    ]
