"""The standings feed: each delta encoded once, then handed to every viewer's own queue.

- `Hub.publish` (the service calls it in log order, right after applying an event) encodes the
  delta once, keeps the bytes in a bounded ring per tournament for `since=` resumes, and puts
  them on each subscriber's bounded queue without awaiting anything.
- Each `Subscriber` has one sender task draining its queue into its socket. A full queue marks
  it stale: its sender drops the backlog and sends a fresh snapshot instead, so a slow viewer
  never delays the others or the writer. One frame taking longer than `send_timeout` drops the
  viewer.
- A gap in the published seqs (events applied without a publish) empties the ring and makes
  every subscriber stale.

Everything here runs on the event loop; nothing awaits between reading the projection and
queueing what it produced, so a snapshot and the deltas after it never overlap or leave a hole.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import Callable, Iterator
from typing import Protocol

from livetb.cli_db import to_json
from livetb.messages import PING, SnapshotMessage, delta_message, encode
from livetb.projections.standings import Delta, StandingsProjection

log = logging.getLogger(__name__)


class Socket(Protocol):
    """The subscriber's end of a websocket (`livetb/web/ws.py` adapts aiohttp's)."""

    async def send(self, frame: bytes) -> None: ...

    async def close(self) -> None: ...

    def abort(self) -> None: ...


class Subscriber:
    """One viewer: a bounded queue of encoded frames and the task that sends them."""

    def __init__(
        self,
        socket: Socket,
        opening: list[bytes],
        snapshot: Callable[[], bytes],
        *,
        queue_size: int,
        heartbeat: float,
        send_timeout: float,
    ) -> None:
        self.socket = socket
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(queue_size)
        self.stale = False
        self.resyncs = 0  # fresh snapshots sent because the viewer fell behind
        self._opening = opening
        self._snapshot = snapshot
        self._heartbeat = heartbeat
        self._send_timeout = send_timeout
        self.task: asyncio.Task[None] | None = None

    def offer(self, frame: bytes) -> None:
        """Queue `frame` without waiting; a full queue makes the viewer stale."""
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            self.stale = True

    def start(self) -> None:
        self.task = asyncio.create_task(self.run())

    async def run(self) -> None:
        try:
            for frame in self._opening:
                await self._send(frame)
            self._opening = []
            while True:
                await self._send(await self._next())
        except asyncio.CancelledError:
            raise
        except Exception as err:  # the viewer left or got stuck: its handler ends the socket
            log.debug("viewer dropped: %r", err)
            self.socket.abort()

    async def _next(self) -> bytes:
        try:
            async with asyncio.timeout(self._heartbeat):
                frame = await self.queue.get()
        except TimeoutError:
            frame = PING
        return self._resync() if self.stale else frame

    def _resync(self) -> bytes:
        """A snapshot replacing the backlog (built first: building may publish more)."""
        frame = self._snapshot()
        while not self.queue.empty():
            self.queue.get_nowait()
        self.stale = False
        self.resyncs += 1
        return frame

    async def _send(self, frame: bytes) -> None:
        async with asyncio.timeout(self._send_timeout):
            await self.socket.send(frame)

    async def close(self, timeout: float = 2.0) -> None:
        """Stop sending and close the socket (GOING_AWAY): the viewer reconnects with since=."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        try:
            async with asyncio.timeout(timeout):
                await self.socket.close()
        except Exception:
            self.socket.abort()


class Hub:
    """Subscribers, recent encoded deltas and the current snapshot frame, per tournament.

    Implements `livetb.service.Feed`."""

    def __init__(self, ring_size: int = 1024, ring_bytes: int = 8 << 20) -> None:
        self.ring_size = ring_size
        self.ring_bytes = ring_bytes
        self._subs: dict[str, set[Subscriber]] = {}
        self._rings: dict[str, deque[tuple[int, bytes]]] = {}
        self._weights: dict[str, int] = {}  # bytes held by each ring
        self._snapshots: dict[str, tuple[int, bytes]] = {}

    # --- writing side ---

    def publish(self, tournament_id: str, delta: Delta, projection: StandingsProjection) -> None:
        """Encode once, remember, offer to every subscriber; never awaits a socket."""
        frame = encode(delta_message(delta, projection))
        gap = self._remember(tournament_id, delta.seq, frame)
        for sub in self._subs.get(tournament_id, ()):
            sub.stale = sub.stale or gap
            sub.offer(frame)

    def _remember(self, tournament_id: str, seq: int, frame: bytes) -> bool:
        """Keep `frame` in the ring (at most `ring_size` frames and about `ring_bytes`);
        True if it does not follow the previous one (the ring restarts)."""
        ring = self._rings.setdefault(tournament_id, deque())
        gap = bool(ring) and ring[-1][0] != seq - 1
        weight = 0 if gap else self._weights.get(tournament_id, 0)
        if gap:
            ring.clear()
        ring.append((seq, frame))
        weight += len(frame)
        while len(ring) > 1 and (len(ring) > self.ring_size or weight > self.ring_bytes):
            weight -= len(ring.popleft()[1])
        self._weights[tournament_id] = weight
        return gap

    # --- reading side ---

    def snapshot(self, tournament_id: str, projection: StandingsProjection) -> bytes:
        """The snapshot frame at the projection's seq, encoded once per seq."""
        cached = self._snapshots.get(tournament_id)
        if cached is not None and cached[0] == projection.seq:
            return cached[1]
        frame = encode(SnapshotMessage(seq=projection.seq, standings=to_json(projection)))
        self._snapshots[tournament_id] = (projection.seq, frame)
        return frame

    def missed(self, tournament_id: str, since: int, seq: int) -> list[bytes] | None:
        """The delta frames after `since` up to `seq`, or None when the ring lacks some."""
        if since == seq:
            return []
        ring = self._rings.get(tournament_id)
        if since > seq or not ring or ring[0][0] > since + 1 or ring[-1][0] != seq:
            return None
        return [frame for _, frame in itertools.islice(ring, since + 1 - ring[0][0], None)]

    def opening(
        self, tournament_id: str, projection: StandingsProjection, since: int | None
    ) -> list[bytes]:
        """What a new viewer gets first: the deltas it missed, or a snapshot when those are
        gone or weigh more than the snapshot."""
        snapshot = self.snapshot(tournament_id, projection)
        if since is not None:
            missed = self.missed(tournament_id, since, projection.seq)
            if missed is not None and sum(map(len, missed)) <= len(snapshot):
                return missed
        return [snapshot]

    # --- subscribers ---

    def subscribe(self, tournament_id: str, sub: Subscriber) -> None:
        self._subs.setdefault(tournament_id, set()).add(sub)
        sub.start()

    def unsubscribe(self, tournament_id: str, sub: Subscriber) -> None:
        subs = self._subs.get(tournament_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[tournament_id]

    def watched(self) -> list[str]:
        """Tournaments with at least one subscriber."""
        return list(self._subs)

    def subscribers(self, tournament_id: str | None = None) -> Iterator[Subscriber]:
        if tournament_id is not None:
            yield from self._subs.get(tournament_id, ())
            return
        for subs in self._subs.values():
            yield from subs

    async def close(self) -> None:
        """Close every socket with GOING_AWAY, all at once."""
        subs = list(self.subscribers())
        self._subs.clear()
        await asyncio.gather(*(sub.close() for sub in subs), return_exceptions=True)
