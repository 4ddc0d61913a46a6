"""Viewers that drop and resume with since= during a replayed tournament end with exactly the
server's standings, having missed and doubled nothing."""

from __future__ import annotations

import asyncio
import contextlib
import random

from websockets.asyncio.client import connect

from livetb.client import LocalStandings, feed_url, follow
from livetb.demo.tournament import as_command, swiss_events
from livetb.web.keys import HUB, SERVICE
from livetb.wire.messages import DeltaMessage, SnapshotMessage, decode_message
from tests.web.conftest import TID, Api

T = f"/api/tournaments/{TID}"


async def replay(api: Api, events: list, pause: float = 0.0) -> int:
    """Events of a generated tournament, one command at a time through the service."""
    service = api.server.app[SERVICE]
    head = 0
    for event in events:
        head, _ = service.execute(TID, as_command(event), actor="test")
        await asyncio.sleep(pause)
    return head


class Viewer:
    """Connects, reads a few messages, drops, resumes with since=; checks every step."""

    def __init__(self, api: Api, rng: random.Random) -> None:
        self.api = api
        self.rng = rng
        self.local = LocalStandings()
        self.drops = 0
        self.snapshots = 0

    async def session(self, until: int | None = None) -> None:
        self.drops += 1
        async with connect(feed_url(self.api.base, TID, self.local.seq)) as ws:
            budget = self.rng.randint(0, 3) if until is None else 10**9
            while budget > 0 and (until is None or self.local.seq != until):
                msg = decode_message(await asyncio.wait_for(ws.recv(), 1 if until is None else 5))
                if isinstance(msg, DeltaMessage):
                    assert self.local.seq is not None and msg.seq == self.local.seq + 1
                elif isinstance(msg, SnapshotMessage):
                    self.snapshots += 1
                self.local.apply(msg)
                budget -= 1

    async def run(self, done: asyncio.Event) -> None:
        while not done.is_set():
            with contextlib.suppress(TimeoutError):  # nothing published meanwhile
                await self.session()
            await asyncio.sleep(self.rng.random() * 0.01)


async def test_a_hundred_random_drops_and_resumes_lose_and_double_nothing(api: Api) -> None:
    events = swiss_events(24, 7, seed=3)
    await replay(api, events[:25])  # created, 24 registered: something to watch
    rng = random.Random(5)
    viewers = [Viewer(api, rng) for _ in range(3)]
    done = asyncio.Event()
    tasks = [asyncio.create_task(v.run(done)) for v in viewers]
    try:
        head = await replay(api, events[25:], pause=0.01)
    finally:
        done.set()
        await asyncio.gather(*tasks)
    fresh = await api.standings()
    assert fresh["seq"] == head
    for v in viewers:
        await v.session(until=head)
        assert v.local.as_builtins() == fresh
    assert sum(v.drops for v in viewers) >= 100 + len(viewers)


async def test_follow_resumes_by_itself_after_the_server_drops_it(api: Api) -> None:
    await api.start()
    local = LocalStandings()
    seqs: list[int] = []

    async def watch() -> None:
        async for msg in follow(api.base, TID, local, retry=0.01):
            if not isinstance(msg, SnapshotMessage | DeltaMessage):
                continue
            seqs.append(msg.seq)
            if local.seq == target:
                return

    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"})
    target = (await api.post(f"{T}/rounds/1/results", {"board": 2, "result": "0-1"}))[1]["seq"] + 2
    task = asyncio.create_task(watch())
    while not seqs:
        await asyncio.sleep(0.01)
    await api.server.app[HUB].close()  # every viewer: GOING_AWAY
    await api.post(f"{T}/rounds/1/results", {"board": 3, "result": "1-0"})
    await api.post(f"{T}/rounds/1/results", {"board": 4, "result": "1-0"})
    await asyncio.wait_for(task, 30)
    assert seqs == sorted(set(seqs)) and seqs[-1] == target
    assert local.as_builtins() == await api.standings()
