"""Several `livetb serve` processes over one store, clients writing to all of them and viewers
on each: what the multi-node tests (and `bench.nodes`) drive."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import msgspec

from livetb.client import LocalStandings, follow

LIVETB = [sys.executable, "-m", "livetb"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Node:
    """One `livetb serve --db TARGET` on its own loopback port."""

    def __init__(self, target: str, port: int | None = None) -> None:
        self.target = target
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Node:
        cmd = [*LIVETB, "serve", "--db", self.target, "--port", str(self.port)]
        env = os.environ | {"PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.base}/api/tournaments", timeout=1):
                    return self
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(self.proc.stderr.read().decode()) from None  # type: ignore[union-attr]
                time.sleep(0.05)
        raise RuntimeError(f"livetb serve --db {self.target} did not answer within 20 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no drain: what a power cut leaves."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> str:
        """SIGTERM; what the node wrote on stderr (its tracebacks, if any)."""
        if self.proc is None:
            return ""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.stderr.read().decode() if self.proc.stderr else ""


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

    def __init__(self, session: aiohttp.ClientSession, nodes: Sequence[Node], token: str) -> None:
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

    def __init__(self, node: Node, tid: str) -> None:
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

    async def reaches(self, seq: int, timeout: float = 20.0) -> None:
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
