"""Viewers that drop and resume with since= during a replayed tournament end with exactly the
server's standings, having missed and doubled nothing."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import random

from websockets.asyncio.client import connect

from livetb.app.delay import utc_now
from livetb.client import LocalStandings, feed_url, follow
from livetb.demo.tournament import as_command, swiss_events
from livetb.web.keys import HUB, SERVICE
from livetb.wire.messages import DeltaMessage, SnapshotMessage, decode_message
from tests.web.conftest import TID, Api, ApiFactory, recv

T = f"/api/tournaments/{TID}"
LAG = dt.timedelta(seconds=1.5)  # how far behind node B's clock runs


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


# --- another node on the same store --------------------------------------------------------


async def test_a_node_behind_the_viewer_catches_up_before_it_answers(
    api: Api, make_api: ApiFactory
) -> None:
    """Node B does not follow the log (`poll_interval` 0): it holds the tournament at `head`
    while node A records three results. A viewer of A resuming on B gets exactly the deltas
    after its seq, never B's older standings; one older than B's ring gets one snapshot."""
    head = await api.start()
    b = await make_api()
    assert (await b.standings())["seq"] == head  # B holds it, from here on without news
    for board in (1, 2, 3):
        await api.post(f"{T}/rounds/1/results", {"board": board, "result": "1-0"})
    assert b.server.app[SERVICE].seq_of(TID) == head  # B is behind what A's viewers saw
    async with connect(feed_url(b.base, TID, head + 1)) as ws:
        opening = [await recv(ws), await recv(ws)]
    assert [(m["type"], m["seq"]) for m in opening] == [("delta", head + 2), ("delta", head + 3)]
    async with connect(feed_url(b.base, TID, head - 1)) as ws:  # before B's ring starts
        snapshot = await recv(ws)
    assert (snapshot["type"], snapshot["seq"]) == ("snapshot", head + 3)
    assert snapshot["standings"] == await api.standings()


async def test_a_public_viewer_resumes_on_a_node_that_releases_later(
    api: Api, make_api: ApiFactory
) -> None:
    """Under a broadcast delay, node B's clock runs `LAG` behind node A's: a public viewer
    that saw A release a result resumes on B before B releases it. B waits for its own
    release (showing nothing early), then sends exactly what follows the viewer's seq; a
    filtered viewer's fresh snapshot is not older than its seq either."""
    head = await api.start()
    assert (await api.call("PATCH", T, {"public_delay": 1}))[0] == 200  # head + 1, held
    b = await make_api()
    b.server.app[SERVICE].delays.clock = lambda: utc_now() - LAG
    async with connect(feed_url(api.base, TID)) as on_a:
        assert (await recv(on_a))["seq"] == head
        for board in (1, 2):
            await api.post(f"{T}/rounds/1/results", {"board": board, "result": "1-0"})
        while (await recv(on_a))["seq"] < head + 3:  # A released both results
            pass
    seen = head + 2  # a viewer of A that dropped after the first result
    async with (
        connect(feed_url(b.base, TID, seen)) as full,
        connect(feed_url(b.base, TID, seen, top=3)) as top,
    ):
        first, fresh = await recv(full), await recv(top)
    assert (first["type"], first["seq"]) == ("delta", seen + 1)
    assert fresh["type"] == "snapshot" and fresh["seq"] >= seen


async def test_a_copy_never_goes_back_to_an_older_snapshot(api: Api) -> None:
    """A resume answered by a node behind the copy: its older snapshot is followed aside and
    taken only once it has caught up; the shown standings never step back."""
    head = await api.start()
    async with connect(feed_url(api.base, TID)) as ws:
        for board in (1, 2, 3):
            await api.post(f"{T}/rounds/1/results", {"board": board, "result": "0-1"})
        sent = [await ws.recv() for _ in range(4)]
    old, deltas = sent[0], [decode_message(d) for d in sent[1:]]
    local = LocalStandings()
    for raw in sent:
        local.apply(decode_message(raw))
    shown = local.as_builtins()
    assert local.apply(decode_message(old)) == ()  # a node still at `head` answers a resume
    assert local.apply(deltas[0]) == local.apply(deltas[1]) == ()
    assert (local.seq, local.as_builtins()) == (head + 3, shown)
    assert len(local.apply(deltas[2])) == 8  # caught up: every row, as from a snapshot
    assert local.as_builtins() == shown == await api.standings()
    _, body = await api.post(f"{T}/rounds/1/results", {"board": 4, "result": "1-0"})
    local.apply(decode_message(old))  # behind again; then a resume continuing the copy
    async with connect(feed_url(api.base, TID, head + 3)) as ws:
        local.apply(decode_message(await ws.recv()))
    assert local.seq == body["seq"] == head + 4
    assert local.as_builtins() == await api.standings()
