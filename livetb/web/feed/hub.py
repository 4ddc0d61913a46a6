"""The standings feed: each delta encoded once, then handed to every viewer's own queue.

- `Hub.publish` (the service calls it in log order, right after applying an event) encodes the
  delta once, keeps the bytes in a bounded ring per tournament for `since=` resumes, and puts
  them on each subscriber's bounded queue without awaiting anything.
- A viewer that is keeping up (nothing queued, nothing waiting in its socket's buffer) gets the
  frame written at once: the websocket frame is also built once per delta (`Frame.wire`), so
  each viewer costs one socket write. Otherwise the frame waits in the viewer's bounded queue,
  which its sender task drains with flow control. A full queue marks it stale: its sender
  drops the backlog and sends a fresh snapshot instead, so a slow viewer never delays the
  others or the writer. One frame taking longer than `send_timeout` drops the viewer.
- A viewer to whom nothing went out for `heartbeat` seconds gets a ping, written like a delta
  (`Frame.wire`, built once). One ticker per hub looks for them every `tick` seconds, not a
  timer per viewer: a timeout raised in each sender every few seconds would cost an idle node
  about 20 µs of CPU per viewer and second, a fifth of a core for 10,000 viewers (8 µs this
  way, most of it the pings' writes; `bench/audience.py`).
- The prize list is not in the deltas: an event marks it due, and it is computed and sent
  50 ms later, once for every event in between (`livetb/web/feed/prizes.py`).
- A gap in the published seqs (events applied without a publish) empties the ring and makes
  every subscriber stale.

- A filtered viewer (`top=N`: the first N rows in standings order, ties broken by start number;
  `participants=1,5,9`; `category=CODE`, that category's standings, alone or with `top=N`:
  `livetb/projections/categories.py`) shares a `View` with every viewer of the same filter:
  its delta is encoded once per filter per event. Its snapshot lists the view's rows; each
  delta carries the changed cells of the view's rows (every cell of a row that entered it),
  `ranks` for the rows whose rank changed and `drop`, the start numbers that left it
  (`livetb/wire/messages.py`).
  Filtered viewers resuming with `since=` get a fresh snapshot.

- A tournament under a broadcast delay (`livetb/app/delay.py`) has two channels: its id, for
  the readers with one of its tokens, and `public_channel(id)`, fed by the public projection
  (`publish_public`), for everybody else (`Subscriber.public`). Turning the delay on moves the
  public viewers to the public channel before the first delayed event is published
  (`delayed`); once the public projection has caught up with no delay left, they move back
  (`undelayed`). Each channel keeps its own ring, snapshots and views.

Everything here runs on the event loop; nothing awaits between reading the projection and
queueing what it produced, so a snapshot and the deltas after it never overlap or leave a hole.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import Protocol

from websockets.frames import Frame as WsFrame
from websockets.frames import Opcode

from livetb.app.collector import Collector
from livetb.projections.category_order import MainOrder
from livetb.projections.document import to_json
from livetb.projections.ratings import RatedTotals, with_rating_change
from livetb.projections.standings import Delta, StandingsProjection
from livetb.web.feed.messages import delta_message, snapshot_message
from livetb.web.feed.prizes import PrizeSender
from livetb.web.feed.views import Filter, View
from livetb.wire.messages import PING, encode
from livetb.wire.standings import Row

log = logging.getLogger(__name__)

_PUBLIC = "\x1fpublic"  # no tournament id holds a control character


def public_channel(tournament_id: str) -> str:
    """The channel of a delayed tournament's public viewers."""
    return tournament_id + _PUBLIC


class Socket(Protocol):
    """The subscriber's end of a websocket (`livetb/web/feed/socket.py` adapts aiohttp's)."""

    async def send(self, frame: bytes) -> None:
        """Send one message, waiting while the peer's buffers are full."""

    def send_now(self, wire: bytes) -> bool:
        """Write one ready-made websocket frame if the socket takes it without waiting (its
        buffer empty); False otherwise, having written nothing."""

    async def close(self) -> None: ...

    def abort(self) -> None: ...


class Frame:
    """A message to many viewers: its JSON and, built on first use, the websocket frame every
    viewer's socket gets (an unmasked text frame, RFC 6455 5.2)."""

    __slots__ = ("_wire", "data")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._wire: bytes | None = None

    @property
    def wire(self) -> bytes:
        if self._wire is None:
            self._wire = WsFrame(Opcode.TEXT, self.data).serialize(mask=False, extensions=[])
        return self._wire


PING_FRAME = Frame(PING)


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
        view: tuple[str, ...] | None = None,
    ) -> None:
        self.socket = socket
        self.view = view  # the key of its filter's View; None: every row
        self.channel = ""  # the channel it is subscribed to (`Hub.subscribe`)
        self.public = True  # no token of the tournament: moves to a delay's public channel
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(queue_size)
        self.stale = False
        self.resyncs = 0  # fresh snapshots sent because the viewer fell behind
        # The sender waits on an empty queue with the opening sent: a frame may go out at once.
        self.idle = False
        self._opening = opening
        self._snapshot = snapshot
        self._heartbeat = heartbeat
        self._send_timeout = send_timeout
        self._last_sent = 0.0  # time.monotonic() of the last frame that went out
        self.task: asyncio.Task[None] | None = None

    def offer(self, frame: Frame) -> None:
        """Write `frame` now if the viewer is keeping up, else queue it without waiting; a full
        queue makes the viewer stale."""
        if self.idle and not self.stale and self.socket.send_now(frame.wire):
            self._last_sent = time.monotonic()
            return
        try:
            self.queue.put_nowait(frame.data)
        except asyncio.QueueFull:
            self.stale = True

    def beat(self, now: float) -> None:
        """A ping if nothing went out for `heartbeat` seconds and the sender waits for work
        (one busy sending is not silent; a stale one is about to get a snapshot)."""
        if self.idle and not self.stale and now - self._last_sent >= self._heartbeat:
            self.offer(PING_FRAME)

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
        """The next frame to send: queued (a ping among them, `beat`), or a fresh snapshot
        when stale."""
        self.idle = self.queue.empty() and not self.stale
        try:
            frame = await self.queue.get()
        finally:
            self.idle = False
        return self._resync() if self.stale else frame

    def resync_with(self, frame: bytes) -> None:
        """Replace the backlog (and a pending resync) by `frame`, a snapshot made now."""
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(frame)
        self.stale = False
        self.resyncs += 1

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
        self._last_sent = time.monotonic()

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

    Implements `livetb.app.service.Feed`."""

    def __init__(
        self,
        ring_size: int = 1024,
        ring_bytes: int = 8 << 20,
        collector: Collector | None = None,
        tick: float = 0.75,
    ) -> None:
        self.collector = collector
        self.tick = tick  # seconds between two looks for silent viewers (`Subscriber.beat`)
        self._ticker: asyncio.Task[None] | None = None
        self.ring_size = ring_size
        self.ring_bytes = ring_bytes
        self._subs: dict[str, set[Subscriber]] = {}
        self.closing = False  # the server is shutting down: a handshake finished now is sent away
        self._rings: dict[str, deque[tuple[int, bytes]]] = {}
        self._weights: dict[str, int] = {}  # bytes held by each ring
        self._snapshots: dict[tuple[str, tuple[str, ...] | None], tuple[int, bytes]] = {}
        self._views: dict[str, dict[tuple[str, ...], View]] = {}
        self.prizes = PrizeSender(self._offer_all)  # each channel's list, every 50 ms at most
        self._totals: dict[str, RatedTotals] = {}  # rating totals, while a rated view is watched
        self._mains: dict[str, MainOrder] = {}  # the main order, while a category view follows

    # --- writing side ---

    def publish(self, tournament_id: str, delta: Delta, projection: StandingsProjection) -> None:
        """Encode once (and once per filter), remember, offer to every subscriber; never
        awaits a socket."""
        message = delta_message(delta, projection)  # once: every view starts from it
        self.prizes.changed(tournament_id, projection, bool(self._subs.get(tournament_id)))
        data = encode(message)
        gap = self._remember(tournament_id, delta.seq, data)
        frames: dict[tuple[str, ...] | None, Frame] = {None: Frame(data)}
        views = self._views.get(tournament_id)
        if views:
            # Only as many rows as the longest top-N view shows: not the whole field per event,
            # unless a category's view is watched (its members are anywhere in the order: one
            # pass over the rows read once, cheaper than looking each member up).
            tops = [
                top
                for v in views.values()
                if v.filter.category is None and (top := v.filter.top) is not None
            ]
            whole = any(v.filter.whole for v in views.values())
            rated = self._rating_totals(tournament_id, delta, projection, views)
            if any(v.follows is not None for v in views.values()):
                self._main(tournament_id).follow(message)  # once for every category view
            else:
                self._mains.pop(tournament_id, None)
            read: list[list[Row]] = []

            def order() -> list[Row]:  # read once, and only if a view cannot do without it
                if not read:
                    read.append(projection.standings(None if whole else max(tops)))
                return read[0]

            for key, view in views.items():
                rows = order if view.filter.leading or view.filter.whole else None
                frames[key] = Frame(view.delta(message, projection, rows, rated))
        for sub in self._subs.get(tournament_id, ()):
            if gap:
                sub.stale = True
            sub.offer(frames[sub.view])

    def _main(self, channel: str) -> MainOrder:
        return self._mains.setdefault(channel, MainOrder())

    def _offer_all(self, channel: str, data: bytes) -> None:
        frame = Frame(data)
        for sub in self._subs.get(channel, ()):
            sub.offer(frame)

    def _rating_totals(
        self,
        channel: str,
        delta: Delta,
        projection: StandingsProjection,
        views: dict[tuple[str, ...], View],
    ) -> RatedTotals | None:
        """The rating totals after this event and those it changed, read only while a rated
        view is watched: nobody else pays for them."""
        if not any(v.filter.rated for v in views.values()):
            self._totals.pop(channel, None)
            return None
        before = self._totals.get(channel)
        now = RatedTotals.read(projection, before, delta.games)
        self._totals[channel] = now
        return now

    def publish_public(
        self, tournament_id: str, delta: Delta, projection: StandingsProjection
    ) -> None:
        """A delayed tournament's public delta (`livetb/app/delay.py`), to its public viewers."""
        self.publish(public_channel(tournament_id), delta, projection)

    def delayed(self, tournament_id: str, projection: StandingsProjection) -> None:
        """The delay is on: the public viewers follow `projection` on the public channel from
        its seq on (what they were sent so far is exactly that)."""
        channel = public_channel(tournament_id)
        self._forget(channel)
        left = list(self._subs.get(channel, ()))  # there from a public view since dropped
        if left:  # their views' rows as `projection` has them, as the snapshots below
            for view in self._views.get(channel, {}).values():
                view.reset(projection, self._main(channel))
        self._move(tournament_id, channel, projection)
        # Their snapshot, if they need one, is made now: the public projection may still be
        # in the making (`livetb/app/delay.py`), and nothing but `projection` is public.
        for sub in self._subs.get(channel, ()):
            if sub.stale or sub in left:
                sub.resync_with(self.snapshot(channel, projection, sub.view))

    def undelayed(self, tournament_id: str, projection: StandingsProjection) -> None:
        """The public projection caught up with the live `projection` and no delay is left:
        its viewers follow the live channel again."""
        channel = public_channel(tournament_id)
        self.prizes.flush(channel)  # the list as the live channel's viewers have it
        self._move(channel, tournament_id, projection, everyone=True)
        self._forget(channel)

    def _move(
        self, src: str, dst: str, projection: StandingsProjection, everyone: bool = False
    ) -> None:
        """The public subscribers of `src` (or all of them) to `dst`, with their views."""
        moving = [s for s in self._subs.get(src, ()) if everyone or s.public]
        for sub in moving:
            wanted = None
            if sub.view is not None:
                wanted = self._views[src][sub.view].filter
            self.unsubscribe(src, sub, count=False)
            sub.view = self.view(dst, wanted, projection)
            self._add(dst, sub)

    def _forget(self, channel: str) -> None:
        """A channel's ring and snapshots, before it is used again or once it is left."""
        self._rings.pop(channel, None)
        self._weights.pop(channel, None)
        self._totals.pop(channel, None)
        self._mains.pop(channel, None)
        self.prizes.forget(channel)
        for key in [k for k in self._snapshots if k[0] == channel]:
            del self._snapshots[key]

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

    def snapshot(
        self,
        tournament_id: str,
        projection: StandingsProjection,
        view: tuple[str, ...] | None = None,
    ) -> bytes:
        """The snapshot frame at the projection's seq (of the view's rows), encoded once per
        seq."""
        cached = self._snapshots.get((tournament_id, view))
        if cached is not None and cached[0] == projection.seq:
            return cached[1]
        doc = to_json(projection)
        if view is not None:
            shown = self._views[tournament_id][view]
            doc.standings = shown.rows(doc.standings, projection)
            if shown.filter.rated:
                doc.standings = with_rating_change(doc.standings, projection.state)
        frame = encode(snapshot_message(doc, projection))
        self._snapshots[(tournament_id, view)] = (projection.seq, frame)
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
        self,
        tournament_id: str,
        projection: StandingsProjection,
        since: int | None,
        view: tuple[str, ...] | None = None,
    ) -> list[bytes]:
        """What a new viewer gets first: the deltas it missed, or a snapshot when those are
        gone or weigh more than the snapshot (always a snapshot for a filtered viewer). The
        missed deltas end with a ping: the page says "live" only once it has caught up, and
        on a slow phone the backlog takes a while to arrive after the socket opens."""
        snapshot = self.snapshot(tournament_id, projection, view)
        if since is not None and view is None:
            missed = self.missed(tournament_id, since, projection.seq)
            if missed is not None and sum(map(len, missed)) <= len(snapshot):
                prizes = self.prizes.current(projection)  # the deltas do not carry it
                return [*missed, PING] if prizes is None else [*missed, prizes, PING]
        return [snapshot]

    # --- subscribers ---

    def view(
        self, tournament_id: str, filter: Filter | None, projection: StandingsProjection
    ) -> tuple[str, ...] | None:
        """The key of `filter`'s View (made from the caught-up `projection` if new)."""
        if filter is None:
            return None
        views = self._views.setdefault(tournament_id, {})
        if filter.key not in views:
            views[filter.key] = View(filter, projection, self._main(tournament_id))
        if filter.rated:  # the totals its snapshot shows: a delta says which ones change
            totals = self._totals.get(tournament_id)
            if totals is None or totals.seq != projection.seq:
                self._totals[tournament_id] = RatedTotals.read(projection, None)
        return filter.key

    def subscribe(self, tournament_id: str, sub: Subscriber) -> None:
        """`sub` joins channel `tournament_id` (an id or a `public_channel`) and starts."""
        self._add(tournament_id, sub)
        sub.start()
        if self._ticker is None:
            self._ticker = asyncio.create_task(self._beat())
        if self.collector is not None:
            self.collector.joined()

    def _add(self, channel: str, sub: Subscriber) -> None:
        sub.channel = channel
        self._subs.setdefault(channel, set()).add(sub)
        if sub.view is not None:
            self._views[channel][sub.view].viewers += 1

    def unsubscribe(self, tournament_id: str, sub: Subscriber, count: bool = True) -> None:
        """`sub` leaves channel `tournament_id` (`count`: the viewer left, not moved)."""
        subs = self._subs.get(tournament_id)
        if subs is None or sub not in subs:
            return
        subs.discard(sub)
        if self.collector is not None and count:
            self.collector.left()
        if not subs:
            del self._subs[tournament_id]
            self.prizes.cancel(tournament_id)
        if sub.view is None:  # every row: no filtered view to count down
            return
        views = self._views.get(tournament_id, {})
        view = views.get(sub.view)
        if view is not None:
            view.viewers -= 1
            if view.viewers <= 0:
                del views[sub.view]
                self._snapshots.pop((tournament_id, sub.view), None)
            if not views:
                self._views.pop(tournament_id, None)

    def watched(self) -> list[str]:
        """Tournaments with at least one subscriber."""
        return list(self._subs)

    def subscribers(self, tournament_id: str | None = None) -> Iterator[Subscriber]:
        if tournament_id is not None:
            yield from self._subs.get(tournament_id, ())
            return
        for subs in self._subs.values():
            yield from subs

    async def _beat(self) -> None:
        """Every `tick` seconds, a ping to each viewer silent for its heartbeat."""
        while True:
            await asyncio.sleep(self.tick)
            now = time.monotonic()
            for sub in list(self.subscribers()):  # a write may end a viewer and unsubscribe it
                sub.beat(now)

    async def close(self) -> None:
        """Close every socket with GOING_AWAY, all at once."""
        if self._ticker is not None:
            self._ticker.cancel()
        subs = list(self.subscribers())
        for channel in self._subs:
            self.prizes.cancel(channel)
        self._subs.clear()
        self._views.clear()
        await asyncio.gather(*(sub.close() for sub in subs), return_exceptions=True)
