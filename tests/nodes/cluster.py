"""Several `livetb serve` processes over one store, clients writing to all of them and viewers
on each: what the multi-node tests (and `bench.nodes`) drive."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import sys
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import msgspec

from livetb.client import LocalStandings, follow
from tests.campaign.server import Server, free_port

LIVETB = [sys.executable, "-m", "livetb"]
__all__ = ["LIVETB", "Client", "Server", "Watcher", "free_port", "get_json", "running"]


@contextlib.asynccontextmanager
async def running(
    db: str, logs: Path, count: int, workers: Sequence[int] = ()
) -> AsyncIterator[list[Server]]:
    """`count` nodes on the store `db` (node i with `workers[i]` processes, default 1), their
    logs in `logs`; stopped after, and then none may have printed a traceback."""
    nodes: list[Server] = []
    try:
        for i in range(count):
            n = workers[i] if i < len(workers) else 1
            nodes.append(await Server(db, log=logs / f"node{i}.log", workers=n).start())
        yield nodes
    finally:
        for node in nodes:
            node.stop()
    for node in nodes:
        assert node.tracebacks() == 0, node.log.read_text()[-3000:]


@dataclass
class Tally:
    """What the clients were told."""

    acknowledged: list[tuple[str, int]] = field(default_factory=list)  # (what, seq)
    statuses: dict[int, int] = field(default_factory=dict)
    refused: list[tuple[str, int, Any]] = field(default_factory=list)  # (what, status, body)
    lost: int = 0  # sent to a node that died: no answer (retried on another with the same key)

    def count(self, status: int) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1


class Client:
    """Writes with an arbiter token, spread over `nodes` in turn; a write whose node does not
    answer is sent again, same idempotency key, to the next node."""

    def __init__(self, session: aiohttp.ClientSession, nodes: Sequence[Server], token: str) -> None:
        self.session = session
        self.nodes = nodes
        self.token = token
        self.turn = itertools.count()
        self.tally = Tally()

    async def send(self, method: str, path: str, body: object, key: str) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {self.token}", "Idempotency-Key": key}
        for _ in range(3 * len(self.nodes)):
            node = self.nodes[next(self.turn) % len(self.nodes)]
            try:
                async with self.session.request(
                    method, node.base + path, json=body, headers=headers,
                    timeout=aiohttp.ClientTimeout(total=20),
                ) as resp:  # fmt: skip
                    data = await resp.json()
                    self.tally.count(resp.status)
                    if resp.status < 300:
                        self.tally.acknowledged.append((key, int(data["seq"])))
                    else:
                        self.tally.refused.append((key, resp.status, data))
                    return resp.status, data
            except (aiohttp.ClientConnectionError, TimeoutError):
                self.tally.lost += 1
                await asyncio.sleep(0.05)
        raise RuntimeError(f"{method} {path}: no node answered")


async def get_json(session: aiohttp.ClientSession, url: str) -> Any:
    async with session.get(url) as resp:
        assert resp.status == 200, (url, resp.status, await resp.text())
        return await resp.json()


class Watcher:
    """A viewer following one node's feed (reconnecting with since=, as a phone would)."""

    def __init__(self, node: Server, tid: str) -> None:
        self.node = node
        self.local = LocalStandings()
        self.arrived: dict[int, float] = {}  # seq -> when its delta arrived (monotonic)
        self.task = asyncio.ensure_future(self._run(tid))

    async def _run(self, tid: str) -> None:
        async for message in follow(self.node.base, tid, self.local, retry=0.1, max_retry=0.5):
            seq = self.local.seq
            if seq is not None:
                self.arrived.setdefault(seq, time.monotonic())
            del message

    async def reaches(self, seq: int, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while (self.local.seq or 0) < seq:
            if time.monotonic() > deadline:
                where = f"a viewer of {self.node.base} is at {self.local.seq}"
                raise AssertionError(f"{where}, not {seq}")
            await asyncio.sleep(0.02)

    def standings(self) -> Any:
        return json.loads(json.dumps(msgspec.to_builtins(self.local.as_builtins())))

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
