"""Three nodes on one PostgreSQL (the third `--workers 2`), a write storm, and the database
gone for two seconds in the middle of it (every connection cut, new ones refused, behind a TCP
proxy): the writes answered 503 are sent again and land once each; afterwards every viewer of
every node equals `GET standings` within 2 s, with no new event to wake it; a token revoked
during the outage has its private feed closed; the `--workers` node still serves with its
workers; no traceback in any node's log."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import subprocess
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from livetb.backends import open_tokens
from livetb.client import LocalStandings, auth_headers, feed_url, follow
from tests.conftest import PG_BASE, in_schema
from tests.nodes.cluster import Server, running
from tests.nodes.proxy import Proxy

TID = "storm"
PLAYERS = 40
BASE = f"/api/tournaments/{TID}"


@pytest.fixture
async def cluster(pg_schema: str, tmp_path: Path) -> AsyncIterator[tuple[Proxy, list[Server]]]:
    proxy = Proxy(PG_BASE)
    proxy.up()
    try:
        async with running(proxy.url(pg_schema), tmp_path, 3, workers=(1, 1, 2)) as nodes:
            yield proxy, nodes
    finally:
        proxy.down()


class Writer:
    """Sends each write until a node acknowledges it, the same key every time, over the nodes
    in turn: a 503 (the store away) or a dropped connection is sent again."""

    def __init__(self, session: aiohttp.ClientSession, nodes: list[Server], token: str) -> None:
        self.session, self.nodes, self.token = session, nodes, token
        self.turn = itertools.count()
        self.unavailable = 0
        self.acknowledged: dict[str, int] = {}

    async def send(self, method: str, path: str, body: object, key: str) -> Any:
        headers = {"Authorization": f"Bearer {self.token}", "Idempotency-Key": key}
        while True:
            node = self.nodes[next(self.turn) % len(self.nodes)]
            try:
                async with self.session.request(
                    method, node.base + path, json=body, headers=headers,
                    timeout=aiohttp.ClientTimeout(total=30),
                ) as resp:  # fmt: skip
                    data = await resp.json()
                    if resp.status < 300:
                        self.acknowledged[key] = int(data["seq"])
                        return data
                    assert resp.status == 503, (path, body, resp.status, data)
                    assert data["code"] == "store_unavailable", data
                    self.unavailable += 1
            except (aiohttp.ClientConnectionError, TimeoutError):
                pass
            await asyncio.sleep(0.05)


async def closed(ws: ClientConnection) -> int:
    """Read the feed until the server closes it: the close code."""
    with contextlib.suppress(ConnectionClosed):
        async for _ in ws:
            pass
    assert ws.close_code is not None
    return ws.close_code


async def test_three_nodes_ride_out_a_postgresql_outage_during_a_write_storm(
    cluster: tuple[Proxy, list[Server]], pg_schema: str
) -> None:
    proxy, nodes = cluster
    with open_tokens(in_schema(PG_BASE, pg_schema)) as tokens:  # not through the proxy
        token, doomed = tokens.create(TID), tokens.create(TID)
        async with aiohttp.ClientSession() as session:
            writer = Writer(session, nodes, token)
            create = {
                "name": "Storm Open",
                "rounds": 3,
                "tiebreaks": ["PTS", "BH"],
                "private": True,
            }
            await writer.send("PUT", BASE, create, "create")
            players = [{"start_no": n, "name": f"P{n}"} for n in range(1, PLAYERS + 1)]
            await asyncio.gather(
                *(
                    writer.send("POST", f"{BASE}/participants", p, f"p{p['start_no']}")
                    for p in players
                )
            )
            half = PLAYERS // 2
            boards = [{"board": b, "white": b, "black": half + b} for b in range(1, half + 1)]
            await writer.send("POST", f"{BASE}/rounds/1/pairings", {"boards": boards}, "pair")
            locals_ = [LocalStandings() for _ in range(2 * len(nodes))]
            viewers = [
                asyncio.ensure_future(_view(nodes[i % len(nodes)], token, local))
                for i, local in enumerate(locals_)
            ]
            feed = await connect(
                feed_url(nodes[1].base, TID), additional_headers=auth_headers(doomed)
            )
            revoked = asyncio.ensure_future(closed(feed))
            try:

                async def storm() -> None:
                    await asyncio.gather(*(
                        writer.send("POST", f"{BASE}/rounds/1/results",
                                    {"board": b, "result": "1-0" if b % 2 else "0-1"}, f"r{b}")
                        for b in range(1, half + 1)
                    ))  # fmt: skip
                    await writer.send("POST", f"{BASE}/rounds/1/close", {}, "close")

                writes = asyncio.ensure_future(storm())
                await asyncio.sleep(0.05)  # the storm under way
                proxy.down()
                tokens.revoke(doomed)
                await asyncio.sleep(2.0)
                proxy.up()
                await asyncio.wait_for(writes, 60)
                deadline = time.monotonic() + 60
                head = max(writer.acknowledged.values())
                assert head == 1 + PLAYERS + 1 + half + 1
                # Each write acknowledged once, at its own seq: none lost, none doubled.
                assert sorted(writer.acknowledged.values()) == list(range(1, head + 1))
                for local in locals_:
                    while (local.seq or 0) < head:
                        assert time.monotonic() < deadline, f"a viewer is at {local.seq}"
                        await asyncio.sleep(0.02)
                auth = {"Authorization": f"Bearer {token}"}
                for node in nodes:
                    async with session.get(f"{node.base}{BASE}/standings", headers=auth) as resp:
                        assert resp.status == 200
                        expected = await resp.json()
                    assert expected["seq"] == head
                    assert all(local.as_builtins() == expected for local in locals_)
                assert await asyncio.wait_for(revoked, 60) == 1008  # policy violation: revoked
                supervisor = nodes[2].proc
                assert supervisor is not None and supervisor.poll() is None
                assert len(serving_workers(supervisor.pid)) == 2
            finally:
                for task in (*viewers, revoked):
                    task.cancel()
                await asyncio.gather(*viewers, revoked, return_exceptions=True)


async def _view(node: Server, token: str, local: LocalStandings) -> None:
    async for _ in follow(node.base, TID, local, token=token, retry=0.05, max_retry=0.5):
        pass


def serving_workers(pid: int) -> list[int]:
    """The worker processes of the supervisor `pid`."""
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in found.split()]
