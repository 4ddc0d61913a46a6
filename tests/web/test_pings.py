"""A viewer hears from the server at least every heartbeat: the hub's one ticker pings those
that were silent that long, written at once like a delta, and nobody else (`feed.Hub`)."""

from __future__ import annotations

import asyncio
import time

from livetb.web.feed.hub import PING_FRAME, Frame, Hub, Subscriber
from livetb.wire.messages import PING
from tests.web.test_subscriber import Socket, settle


def subscriber(socket: Socket, heartbeat: float) -> Subscriber:
    return Subscriber(
        socket, [b"snapshot"], lambda: b"fresh", queue_size=8, heartbeat=heartbeat, send_timeout=5
    )


def test_a_viewer_is_pinged_only_once_silent_for_its_heartbeat() -> None:
    async def scenario() -> list[bytes]:
        socket = Socket()
        socket.release.set()
        sub = subscriber(socket, heartbeat=30)
        sub.start()
        await settle()  # the snapshot is out: the sender waits, idle
        sub.beat(time.monotonic())  # (the snapshot went out just now)
        sub.offer(Frame(b"d1"))
        sub.beat(time.monotonic() + 29)  # d1 went out less than a heartbeat before
        sub.beat(time.monotonic() + 31)  # silent for a heartbeat: pinged, at once
        sub.beat(time.monotonic())  # the ping went out just now
        assert sub.task is not None
        sub.task.cancel()
        return socket.got

    assert asyncio.run(scenario()) == [b"snapshot", Frame(b"d1").wire, PING_FRAME.wire]


def test_a_viewer_busy_sending_is_not_pinged() -> None:
    async def scenario() -> list[bytes]:
        socket = Socket()
        socket.release.set()
        sub = subscriber(socket, heartbeat=30)
        sub.start()
        await settle()
        socket.free = False
        socket.release.clear()
        sub.offer(Frame(b"d1"))  # the socket's buffer is full: queued, its sender waits on it
        await settle()
        sub.beat(time.monotonic() + 60)  # not silent: d1 is on its way
        socket.release.set()
        await settle()
        assert sub.task is not None
        sub.task.cancel()
        return socket.got

    assert asyncio.run(scenario()) == [b"snapshot", b"d1"]


def test_the_hubs_ticker_pings_each_silent_viewer() -> None:
    async def scenario() -> tuple[list[bytes], list[bytes]]:
        hub = Hub(tick=0.01)
        quiet, other = Socket(), Socket()
        quiet.release.set()
        other.release.set()
        hub.subscribe("t", subscriber(quiet, heartbeat=0.05))
        hub.subscribe("u", subscriber(other, heartbeat=3600))
        async with asyncio.timeout(60):
            while PING_FRAME.wire not in quiet.got:
                await asyncio.sleep(0.01)
        await hub.close()
        return quiet.got, other.got

    quiet, other = asyncio.run(scenario())
    assert quiet[0] == b"snapshot" and PING_FRAME.wire in quiet
    assert PING_FRAME.data == PING
    assert other == [b"snapshot"]  # its heartbeat is an hour
