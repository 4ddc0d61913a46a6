"""A crowd of viewers in one process, cheap enough for a thousand: each is the `websockets`
Sans-I/O client on a plain asyncio connection (`bench.feed.Socket`), with no task or queue
of its own. A viewer checks the seq of every message it is sent, keeps the messages, and when
its node goes away resumes on another one with `since=` its last seq."""

from __future__ import annotations

import asyncio
import functools
import random
import time
from collections.abc import Coroutine, Sequence

from websockets.typing import BytesLike
from websockets.uri import parse_uri

from bench.feed import SEQ, Socket
from livetb.client import LocalStandings, feed_url
from livetb.wire.messages import decode_message


class Viewer:
    """One viewer's story: the messages it took, and every seq that broke the feed's promise
    (a gap, a delta twice, a step back)."""

    def __init__(self, crowd: Crowd, number: int, node: int) -> None:
        self.crowd = crowd
        self.number = number
        self.node = node  # the index of the node it follows now
        self.seq: int | None = None
        self.messages: list[bytes] = []  # snapshots and deltas, in the order taken
        self.snapshots = 0
        self.resumes = 0
        self.wrong: list[str] = []
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.link: Link | None = None

    def take(self, data: bytes) -> None:
        found = SEQ.match(data)
        if found is None:
            return  # a ping or a prize list: no seq of the log
        kind, seq = found.group(1), int(found.group(2))
        if kind == b"snapshot":
            self.snapshots += 1
            if self.seq is not None and seq < self.seq:
                self.wrong.append(f"snapshot {seq} after {self.seq}")
                return
        elif self.seq is None or seq != self.seq + 1:
            self.wrong.append(f"delta {seq} after {self.seq}")
            return
        self.seq = seq
        self.messages.append(self.crowd.interned.setdefault(data, data))
        if not self.opened.done():
            self.opened.set_result(None)

    async def resume(self) -> None:
        """Connect to this node, or the next one that answers, `since=` the last seq taken."""
        while not self.crowd.closing:
            url = feed_url(self.crowd.nodes[self.node], self.crowd.tid, self.seq)
            uri = parse_uri(url)
            loop = asyncio.get_running_loop()
            try:
                async with asyncio.timeout(30):
                    _, self.link = await loop.create_connection(
                        functools.partial(Link, self, url), uri.host, uri.port
                    )
                    if await self.link.accepted:
                        return
            except (OSError, TimeoutError):
                pass
            if self.link is not None:
                self.link.abort()
            self._move_on()
            await asyncio.sleep(random.random() * 0.2)  # a room of phones: not all at once

    def lost(self) -> None:
        """Its node went away: resume on another one."""
        if self.crowd.closing:
            return
        self.resumes += 1
        self._move_on()
        self.crowd.keep(self.resume())

    def _move_on(self) -> None:
        """To another node: a lost node's viewers are shared between the others."""
        count = len(self.crowd.nodes)
        self.node = (self.node + 1 + self.number % (count - 1)) % count

    def standings(self) -> object:
        """The standings its messages fold to (`LocalStandings`, as the client shows them)."""
        local = LocalStandings()
        for data in self.messages:
            local.apply(decode_message(data))
        return local.as_builtins()


class Link(Socket):
    """One websocket connection of a viewer."""

    def __init__(self, viewer: Viewer, url: str) -> None:
        super().__init__(url)
        self.viewer = viewer
        self.accepted: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

    def answered(self, status: int) -> None:
        if not self.accepted.done():
            self.accepted.set_result(status == 101)

    def text(self, data: BytesLike, now: float) -> None:
        self.viewer.take(bytes(data))

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.accepted.done():
            self.accepted.set_result(False)  # refused before the handshake: the caller moves on
        elif self.accepted.result():
            self.viewer.lost()

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()


class Crowd:
    """`count` viewers of `tid`, spread over `nodes` (base URLs) in turn."""

    def __init__(self, nodes: Sequence[str], tid: str) -> None:
        self.nodes = list(nodes)
        self.tid = tid
        self.viewers: list[Viewer] = []
        self.interned: dict[bytes, bytes] = {}  # one copy of each message, however many took it
        self.closing = False
        self._tasks: set[asyncio.Task[None]] = set()

    def keep(self, work: Coroutine[None, None, None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def gather(self, count: int, batch: int = 200, timeout: float = 120.0) -> None:
        """Connect `count` viewers, `batch` at a time (a listen backlog is finite), each
        holding its first snapshot before the next batch."""
        for start in range(0, count, batch):
            added = [
                Viewer(self, n, n % len(self.nodes))
                for n in range(start, min(count, start + batch))
            ]
            self.viewers += added
            for viewer in added:
                self.keep(viewer.resume())
            async with asyncio.timeout(timeout):
                await asyncio.gather(*(v.opened for v in added))

    async def reach(self, seq: int, timeout: float = 180.0) -> None:
        """Until every viewer has taken `seq` (or one of them broke the feed's promise)."""
        deadline = time.monotonic() + timeout
        while True:
            behind = [v for v in self.viewers if v.seq != seq and not v.wrong]
            if not behind:
                return
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{len(behind)} viewers not at {seq}, e.g. viewer {behind[0].number} "
                    f"at {behind[0].seq} on node {behind[0].node}"
                )
            await asyncio.sleep(0.05)

    def close(self) -> None:
        self.closing = True
        for task in self._tasks:
            task.cancel()
        for viewer in self.viewers:
            if viewer.link is not None:
                viewer.link.abort()
