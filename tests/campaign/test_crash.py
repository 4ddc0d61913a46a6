"""Campaign: SIGKILL servers during concurrent acknowledged writes: none lost or doubled.

Three shapes: one server on a SQLite file (killed, started again), `serve --workers 2` on one
(a worker killed, replaced by the supervisor) and three nodes on one PostgreSQL schema (one
killed at random, started again). Writers each play tournaments step by step (create,
register, pair, results, close), every write with its own Idempotency-Key; when their node is
gone they send the same request with the same key again (to the next node, where there are
several) until it answers, as a client should. An answer 2xx is an acknowledgement. After each
kill every acknowledged write must be in the log exactly once, at the seq it was acknowledged
with, and nothing that was never asked; once the killed process is replaced, the standings
every node serves must equal a rebuild from zero at the same seq.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import random
import signal
import subprocess
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import msgspec
import pytest

from livetb.backends import open_store
from livetb.events.schema import (
    ParticipantRegistered,
    Recorded,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    TournamentCreated,
)
from livetb.projections.document import to_json
from livetb.projections.standings import StandingsProjection
from tests.campaign.budget import size
from tests.campaign.server import Server, Step, tournament_steps
from tests.conftest import PG_BASE, in_schema

# SIGKILLs per shape: the suite's small version, and LIVETB_CAMPAIGN=full's
KILLS = {
    "sqlite": size(ci=5, local=120),
    "workers": size(ci=2, local=60),
    "postgres": size(ci=2, local=60),
}
WRITERS = size(ci=3, local=6)
PLAYERS, ROUNDS = 12, 3


def identity(rec: Recorded) -> tuple[object, ...]:
    """Which write an event answers: each step appends exactly one event."""
    match rec.event:
        case TournamentCreated():
            return ("create",)
        case ParticipantRegistered(start_no=no):
            return ("register", no)
        case RoundPaired(round=rnd):
            return ("pair", rnd)
        case ResultRecorded(round=rnd, board=board):
            return ("result", rnd, board)
        case RoundClosed(round=rnd):
            return ("close", rnd)
    raise AssertionError(f"an event no step asks for: {rec.event}")


def step_identity(step: Step) -> tuple[object, ...]:
    method, path, body = step
    parts = path.split("/")
    if method == "PUT":
        return ("create",)
    if parts[-1] == "participants":
        return ("register", body["start_no"])  # type: ignore[index]
    rnd = int(parts[-2])
    if parts[-1] == "results":
        return ("result", rnd, body["board"])  # type: ignore[index]
    return ("pair" if parts[-1] == "pairings" else "close", rnd)


@dataclass
class Shape:
    """Where the writes go (`nodes`, over one store `db`) and what a kill takes away."""

    name: str
    db: str
    nodes: list[Server]
    rng: random.Random

    async def kill(self) -> None:
        """SIGKILL one process: a node, or one worker of `--workers`."""
        if self.name == "workers":
            supervisor = self.nodes[0].proc
            assert supervisor is not None
            os_kill(self.rng.choice(workers_of(supervisor.pid)))
        else:
            self.rng.choice(self.nodes).kill()

    async def replace(self) -> None:
        """The killed process started again (or, for a worker, replaced by the supervisor)."""
        if self.name != "workers":
            for node in self.nodes:
                assert node.proc is not None
                if node.proc.poll() is not None:
                    await node.start()
            return
        supervisor = self.nodes[0].proc
        assert supervisor is not None
        deadline = time.monotonic() + 30
        while len(workers_of(supervisor.pid)) < 2 or not await answers(self.nodes[0]):
            assert supervisor.poll() is None, "the supervisor stopped"
            assert time.monotonic() < deadline, "the worker was not replaced"
            await asyncio.sleep(0.05)

    def tracebacks(self) -> int:
        return sum(node.tracebacks() for node in self.nodes)


async def answers(node: Server) -> bool:
    """Whether a process listens on the node's port (the killed worker may have been the only
    one listening yet)."""
    try:
        _, writer = await asyncio.open_connection("127.0.0.1", node.port)
    except OSError:
        return False
    writer.close()
    return True


async def _standings(session: aiohttp.ClientSession, url: str) -> Any:
    """The standings a node serves; a moment with no worker listening (the one killed was the
    only one yet, its replacement still starting) is waited out, for a minute at most."""
    deadline = time.monotonic() + 60
    while True:
        try:
            async with session.get(url) as resp:
                served = await resp.json()
                assert resp.status == 200, served
                return served
        except aiohttp.ClientConnectorError:
            assert time.monotonic() < deadline, f"{url}: nobody listening for a minute"
            await asyncio.sleep(0.1)


def workers_of(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in found.split()]


def os_kill(pid: int) -> None:
    subprocess.run(["kill", f"-{int(signal.SIGKILL)}", str(pid)], check=True)


class Campaign:
    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.turn = itertools.count()
        self.acked: dict[str, dict[tuple[object, ...], int]] = collections.defaultdict(dict)
        self.asked: dict[str, set[tuple[object, ...]]] = collections.defaultdict(set)
        self.errors: list[str] = []  # 5xx, or a refusal of a write that should go through
        self.rebuilt = 0  # standings compared with a rebuild
        self.recent: dict[int, tuple[str, ...]] = {}  # each writer's last two tournaments
        self.stop = asyncio.Event()

    async def writer(self, session: aiohttp.ClientSession, n: int) -> None:
        for k in itertools.count():
            tid = f"w{n}-{k}"
            self.recent[n] = (*self.recent.get(n, ())[-1:], tid)
            headers = {"Authorization": f"Bearer {self.shape.nodes[0].token(tid)}"}
            for i, step in enumerate(tournament_steps(tid, PLAYERS, ROUNDS)):
                if self.stop.is_set():
                    return
                self.asked[tid].add(step_identity(step))
                seq = await self.send(session, step, {**headers, "Idempotency-Key": f"{tid}/{i}"})
                self.acked[tid][step_identity(step)] = seq

    async def send(
        self, session: aiohttp.ClientSession, step: Step, headers: dict[str, str]
    ) -> int:
        method, path, body = step
        nodes = self.shape.nodes
        while True:
            node = nodes[next(self.turn) % len(nodes)]
            try:
                async with session.request(
                    method, node.base + path, json=body, headers=headers
                ) as resp:
                    data = await resp.json()
                    if resp.status in (200, 201):
                        return int(data["seq"])
                    self.errors.append(f"{method} {path}: {resp.status} {data}")
                    raise AssertionError(self.errors[-1])
            except (TimeoutError, aiohttp.ClientError, ConnectionError):
                await asyncio.sleep(0.02)  # the node is down: the same request, same key

    def check_log(self) -> tuple[int, int]:
        """(acknowledged, lost): every acknowledged write once, at its seq; nothing unasked."""
        lost = 0
        with open_store(self.shape.db) as store:
            for tid, acked in list(self.acked.items()):
                acked = dict(acked)  # (the writers go on meanwhile on the other nodes)
                log = list(store.read(tid))
                seen = {identity(rec): rec.seq for rec in log}
                counts = collections.Counter(identity(rec) for rec in log)
                assert max(counts.values(), default=1) == 1, f"{tid}: duplicated {counts}"
                assert set(seen) <= self.asked[tid], (
                    f"{tid}: never asked {set(seen) - self.asked[tid]}"
                )
                lost += sum(1 for what, seq in acked.items() if seen.get(what) != seq)
        return sum(map(len, self.acked.values())), lost

    async def check_standings(self, session: aiohttp.ClientSession, every: bool) -> None:
        """Every node's standings (snapshot + tail, caught up from the others) equal a rebuild
        from zero at the seq it serves: for `every` tournament, else for the last two of each
        writer (those a kill can have cut into)."""
        with open_store(self.shape.db) as store:
            tids = store.tournaments()
            if not every:
                tids = [t for t in tids if t in {t for pair in self.recent.values() for t in pair}]
            for tid in tids:
                for node in self.shape.nodes:
                    url = f"{node.base}/api/tournaments/{tid}/standings"
                    served: Any = await _standings(session, url)
                    # read after the answer: the writers go on, and what it served is committed
                    upto = [rec for rec in store.read(tid) if rec.seq <= served["seq"]]
                    assert upto and upto[-1].seq == served["seq"], (tid, served["seq"])
                    rebuilt = msgspec.json.decode(
                        msgspec.json.encode(to_json(StandingsProjection.rebuild(upto)))
                    )
                    assert served == rebuilt, tid
                    self.rebuilt += 1


@pytest.fixture(params=list(KILLS))
async def shape(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Shape]:
    name = str(request.param)
    rng = random.Random(11)
    if name == "postgres":  # (pg_schema skips the case if no PostgreSQL answers)
        db = in_schema(PG_BASE, request.getfixturevalue("pg_schema"))
        nodes = [Server(db, log=tmp_path / f"node{i}.log") for i in range(3)]
    else:
        db = str(tmp_path / "crash.sqlite")
        nodes = [Server(db, workers=2 if name == "workers" else 1)]
    try:
        for node in nodes:
            await node.start()
        yield Shape(name, db, nodes, rng)
    finally:
        for node in nodes:
            node.stop()


async def test_acknowledged_writes_survive_sigkill(shape: Shape) -> None:
    kills = KILLS[shape.name]
    campaign = Campaign(shape)
    timeout = aiohttp.ClientTimeout(total=10)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        writers = [asyncio.ensure_future(campaign.writer(session, n)) for n in range(WRITERS)]
        try:
            for _ in range(kills):
                await asyncio.sleep(shape.rng.uniform(0.3, 0.8))  # writes in flight
                await shape.kill()
                acked, lost = campaign.check_log()
                assert lost == 0
                await shape.replace()
                await campaign.check_standings(session, every=False)
        finally:
            campaign.stop.set()
            await asyncio.gather(*writers, return_exceptions=True)
        acked, lost = campaign.check_log()
        await campaign.check_standings(session, every=True)
    for node in shape.nodes:
        node.stop()
    tracebacks = shape.tracebacks()
    print(
        f"\ncrash ({shape.name}): {kills} SIGKILLs during {WRITERS} concurrent writers, "
        f"{acked} acknowledged writes in {len(campaign.acked)} tournaments, {lost} lost, "
        f"0 duplicated, {campaign.rebuilt} served standings == rebuild, "
        f"{len(campaign.errors)} errors (5xx or refused), {tracebacks} tracebacks"
    )
    assert (lost, campaign.errors, tracebacks) == (0, [], 0)
    assert acked > kills * WRITERS  # the kills did land among writes
