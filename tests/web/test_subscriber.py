"""A viewer's frames go out in order, whether written at once or queued (`feed.Subscriber`)."""

from __future__ import annotations

import asyncio

from livetb.web.feed.hub import Frame, Subscriber


class Socket:
    """Takes frames at once while `free`; `send` (the queued path) waits for `release`."""

    def __init__(self) -> None:
        self.free = True
        self.release = asyncio.Event()
        self.got: list[bytes] = []

    async def send(self, frame: bytes) -> None:
        await self.release.wait()
        self.got.append(frame)

    def send_now(self, wire: bytes) -> bool:
        if self.free:
            self.got.append(wire)
        return self.free

    async def close(self) -> None:
        pass

    def abort(self) -> None:
        pass


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_queued_frame_is_never_overtaken_by_one_written_at_once() -> None:
    async def scenario() -> list[bytes]:
        socket = Socket()
        socket.release.set()
        sub = Subscriber(
            socket, [b"snapshot"], lambda: b"fresh", queue_size=8, heartbeat=30, send_timeout=5
        )
        sub.start()
        await settle()
        assert sub.idle
        sub.offer(Frame(b"d1"))  # written at once, as a websocket text frame
        socket.free = False
        socket.release.clear()
        sub.offer(Frame(b"d2"))  # the socket's buffer is busy: queued
        await settle()  # the sender is now waiting to send d2
        socket.free = True
        sub.offer(Frame(b"d3"))  # free again, but d2 is still on its way: queued behind it
        socket.release.set()
        await settle()
        assert sub.task is not None
        sub.task.cancel()
        return socket.got

    got = asyncio.run(scenario())
    assert got == [b"snapshot", b"\x81\x02d1", b"d2", b"d3"]


def test_a_full_queue_is_replaced_by_a_fresh_snapshot() -> None:
    async def scenario() -> tuple[list[bytes], int]:
        socket = Socket()
        socket.free = False
        sub = Subscriber(socket, [], lambda: b"fresh", queue_size=2, heartbeat=30, send_timeout=5)
        sub.start()
        for n in range(5):  # the viewer reads nothing: the queue overflows
            sub.offer(Frame(b"d%d" % n))
        socket.release.set()
        await settle()
        assert sub.task is not None
        sub.task.cancel()
        return socket.got, sub.resyncs

    got, resyncs = asyncio.run(scenario())
    assert resyncs == 1 and got[-1] == b"fresh" and b"d4" not in got
