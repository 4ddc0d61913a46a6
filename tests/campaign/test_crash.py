"""Campaign: SIGKILL the server during concurrent acknowledged writes: none lost or doubled.

Writers each play tournaments step by step (create, register, pair, results, close), every
write with its own Idempotency-Key; when the server is gone they retry the same request with
the same key until it answers, as a client should. An answer 2xx is an acknowledgement. After
each kill (the server down) every acknowledged write must be in the log exactly once, at the
seq it was acknowledged with, and nothing that was never asked; after each restart the served
standings must equal a rebuild from zero at the same seq.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import random
from pathlib import Path
from typing import Any

import aiohttp
import msgspec

from livetb.events.schema import (
    ParticipantRegistered,
    Recorded,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    TournamentCreated,
)
from livetb.events.sqlite import SqliteStore
from livetb.projections.document import to_json
from livetb.projections.standings import StandingsProjection
from tests.campaign.budget import size
from tests.campaign.server import Server, Step, serving, tournament_steps

KILLS = 5
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


class Campaign:
    def __init__(self, server: Server) -> None:
        self.server = server
        self.acked: dict[str, dict[tuple[object, ...], int]] = collections.defaultdict(dict)
        self.asked: dict[str, set[tuple[object, ...]]] = collections.defaultdict(set)
        self.errors: list[str] = []  # 5xx, or a refusal of a write that should go through
        self.stop = asyncio.Event()

    async def writer(self, session: aiohttp.ClientSession, n: int) -> None:
        for k in itertools.count():
            tid = f"w{n}-{k}"
            headers = {"Authorization": f"Bearer {self.server.token(tid)}"}
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
        while True:
            try:
                async with session.request(
                    method, self.server.base + path, json=body, headers=headers
                ) as resp:
                    data = await resp.json()
                    if resp.status in (200, 201):
                        return int(data["seq"])
                    self.errors.append(f"{method} {path}: {resp.status} {data}")
                    raise AssertionError(self.errors[-1])
            except (TimeoutError, aiohttp.ClientError, ConnectionError):
                await asyncio.sleep(0.02)  # the server is down: the same request, same key

    def check_log(self) -> tuple[int, int]:
        """(acknowledged, lost): every acknowledged write once, at its seq; nothing unasked."""
        lost = 0
        with SqliteStore(self.server.db) as store:
            for tid, acked in list(self.acked.items()):
                seen = {identity(rec): rec.seq for rec in store.read(tid)}
                counts = collections.Counter(identity(rec) for rec in store.read(tid))
                assert max(counts.values(), default=1) == 1, f"{tid}: duplicated {counts}"
                assert set(seen) <= self.asked[tid], (
                    f"{tid}: never asked {set(seen) - self.asked[tid]}"
                )
                lost += sum(1 for what, seq in acked.items() if seen.get(what) != seq)
        return sum(map(len, self.acked.values())), lost

    async def check_standings(self, session: aiohttp.ClientSession) -> None:
        """The restarted server's standings (snapshot + tail) equal a rebuild from zero."""
        with SqliteStore(self.server.db) as store:
            for tid in store.tournaments():
                async with session.get(
                    f"{self.server.base}/api/tournaments/{tid}/standings"
                ) as resp:
                    served: Any = await resp.json()
                    assert resp.status == 200, served
                upto = [rec for rec in store.read(tid) if rec.seq <= served["seq"]]
                rebuilt = msgspec.json.decode(
                    msgspec.json.encode(to_json(StandingsProjection.rebuild(upto)))
                )
                assert served == rebuilt, tid


async def test_acknowledged_writes_survive_sigkill(tmp_path: Path) -> None:
    rng = random.Random(11)
    with serving(tmp_path / "crash.sqlite") as server:
        campaign = Campaign(server)
        await server.start()
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
            writers = [asyncio.ensure_future(campaign.writer(session, n)) for n in range(WRITERS)]
            for _ in range(KILLS):
                await asyncio.sleep(rng.uniform(0.3, 0.8))  # writes in flight
                server.kill()
                acked, lost = campaign.check_log()
                assert lost == 0
                await server.start()
                await campaign.check_standings(session)
            campaign.stop.set()
            await asyncio.gather(*writers)
        server.stop()
        acked, lost = campaign.check_log()
        tracebacks = server.tracebacks()
    print(
        f"\ncrash: {KILLS} SIGKILLs during {WRITERS} concurrent writers, {acked} acknowledged "
        f"writes in {len(campaign.acked)} tournaments, {lost} lost, 0 duplicated, "
        f"{len(campaign.errors)} errors (5xx or refused), {tracebacks} tracebacks"
    )
    assert (lost, campaign.errors, tracebacks) == (0, [], 0)
    assert acked > KILLS * WRITERS  # the kills did land among writes
