"""The broadcast delay (`PublicDelaySet`): relays show the games 15-30 minutes late, so the
public standings must not tell a game's end before the viewers see it.

A tournament with a delay has a second, public projection, fed the log's events once each was
recorded more than the delay ago (by the stored `at`, so every node releases the same events
at the same time). Public reads and the public feed read it; a token of the tournament reads
the live one. A timer on the event loop releases the next events when they are due and hands
each one's delta to the feed's public channel, in order, one by one.

- The public head never moves backwards: raising the delay holds back only what was not
  released yet; lowering it releases at once what is now due (0 releases everything and the
  tournament goes back to one projection, `Feed.undelayed`). A change first releases what the
  delay in force made due by its time, however late a timer fired, so a node that loads the
  log later (`public_of`) releases exactly as far.
- The public projection starts as a copy of the live one just before the first delayed
  event (turning the delay on shows nothing new, hides nothing seen), restored from its
  snapshot in a thread while the public reads wait (`Delays.ready`); or, when a delayed log is
  loaded, as the log up to the last event already due (`public_of`, off the loop).
- A tournament without a delay has no public projection and costs nothing here: the service
  only looks up `Delays.tables`.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
from collections import deque
from collections.abc import Callable, Mapping
from typing import Protocol

from livetb.events.schema import PublicDelaySet, Recorded
from livetb.events.store import EventStore
from livetb.projections.standings import Delta, StandingsProjection
from livetb.projections.stored import load

Clock = Callable[[], dt.datetime]
REACH_POLL = 0.02  # seconds between two looks at a public projection a resume waits for


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class PublicFeed(Protocol):
    """Where the public deltas go (`livetb/web/feed/hub.py`'s Hub)."""

    def publish_public(
        self, tournament_id: str, delta: Delta, projection: StandingsProjection
    ) -> None: ...

    def delayed(self, tournament_id: str, projection: StandingsProjection) -> None:
        """The delay is on: the public viewers, who have `projection`'s standings, follow the
        public deltas from now on."""

    def undelayed(self, tournament_id: str, projection: StandingsProjection) -> None:
        """The public viewers follow the live `projection` again (the public one caught up)."""


class Delayed:
    """One delayed tournament: its public projection and the events not yet released."""

    __slots__ = ("building", "pending", "projection", "timer")

    def __init__(self, projection: StandingsProjection | None, pending: list[Recorded]) -> None:
        self.projection = projection  # None while `building`
        self.pending: deque[Recorded] = deque(pending)
        self.timer: asyncio.TimerHandle | None = None
        # The copy a delay turned on makes of the live standings, in a thread: nothing public
        # is read or released until it is done (`Delays.ready`).
        self.building: asyncio.Future[StandingsProjection] | None = None


class Delays:
    """The public projections of the delayed tournaments, released on time."""

    def __init__(
        self,
        lives: Mapping[str, StandingsProjection],
        feed: PublicFeed | None = None,
        clock: Clock = utc_now,
    ) -> None:
        self.lives = lives  # the service's live projections, read when a timer fires
        self.feed = feed
        self.clock = clock
        self.tables: dict[str, Delayed] = {}

    def public(self, tournament_id: str) -> StandingsProjection | None:
        """The public projection of a delayed tournament; None: the public reads are live,
        or (`delayed` says which) its copy is still being made: await `ready` first."""
        delayed = self.tables.get(tournament_id)
        return None if delayed is None else delayed.projection

    def delayed(self, tournament_id: str) -> bool:
        return tournament_id in self.tables

    async def ready(self, tournament_id: str) -> None:
        """Once the public projection of `tournament_id` (if any) is built."""
        delayed = self.tables.get(tournament_id)
        if delayed is not None and delayed.building is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(delayed.building)

    async def reach(self, tournament_id: str, seq: int, within: float) -> None:
        """Once the public projection of `tournament_id` is at `seq` (or the public reads are
        live again), waiting at most `within` seconds. A viewer resuming with a public seq
        another node released comes here when this node has not released it yet: its timer
        late, its clock a little behind. Nothing is released before this node's own clock
        makes it due (a `since=` ahead of the public log reveals nothing)."""
        live = self.lives.get(tournament_id)
        if live is not None:
            self.release(tournament_id, live)  # what is due now, however late the timer
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while (public := self.public(tournament_id)) is not None and public.seq < seq:
            if loop.time() >= deadline:
                return
            await asyncio.sleep(REACH_POLL)

    def record(self, tournament_id: str, live: StandingsProjection, rec: Recorded) -> None:
        """Before the live projection applies `rec`: hold it back from the public (a first
        delay turned on copies the live projection as the public one, up to just before)."""
        delayed = self.tables.get(tournament_id)
        if delayed is None:
            if not isinstance(rec.event, PublicDelaySet) or rec.event.seconds == 0:
                return
            delayed = self.tables[tournament_id] = self._copy(tournament_id, live)
            if self.feed is not None:  # (the views' rows read from `live`: still the same)
                self.feed.delayed(tournament_id, live)
        elif isinstance(rec.event, PublicDelaySet):
            # What the delay in force made due by the change is out before it takes over,
            # whenever a timer fired: the rule a node loading the log applies (`public_of`).
            self._release_due(tournament_id, delayed, live.state.public_delay, rec.at)
        delayed.pending.append(rec)

    def _copy(self, tournament_id: str, live: StandingsProjection) -> Delayed:
        """The public projection as `live` is now: restored from its snapshot in a thread on
        the loop (a second or more at 10,000 players), at once elsewhere."""
        data = live.snapshot()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return Delayed(StandingsProjection.restore(data), [])
        delayed = Delayed(None, [])
        delayed.building = loop.run_in_executor(None, StandingsProjection.restore, data)

        def built(done: asyncio.Future[StandingsProjection]) -> None:
            delayed.building = None
            if done.cancelled() or done.exception() is not None:
                delayed.projection = StandingsProjection.restore(data)  # once more, here
            else:
                delayed.projection = done.result()
            live_now = self.lives.get(tournament_id)
            if self.tables.get(tournament_id) is delayed and live_now is not None:
                self.release(tournament_id, live_now)

        delayed.building.add_done_callback(built)
        return delayed

    def install(self, tournament_id: str, delayed: Delayed) -> None:
        """A delayed tournament loaded from the log (`public_of`)."""
        self.drop(tournament_id)
        self.tables[tournament_id] = delayed
        if self.feed is not None and delayed.projection is not None:
            self.feed.delayed(tournament_id, delayed.projection)

    def drop(self, tournament_id: str) -> None:
        """Forget the public projection (the live one is rebuilt from the log: so is this)."""
        delayed = self.tables.pop(tournament_id, None)
        if delayed is not None and delayed.timer is not None:
            delayed.timer.cancel()

    def release(self, tournament_id: str, live: StandingsProjection) -> None:
        """Release every held event now due under the live delay, publishing each delta;
        then wait for the next one (or, nothing held back and no delay, end the delay)."""
        delayed = self.tables.get(tournament_id)
        if delayed is None:
            return
        if delayed.timer is not None:
            delayed.timer.cancel()
            delayed.timer = None
        now = self.clock()
        self._release_due(tournament_id, delayed, live.state.public_delay, now)
        pending, public = delayed.pending, delayed.projection
        if public is None:
            return
        if not pending:
            if live.state.public_delay == 0 and public.seq == live.seq:
                del self.tables[tournament_id]
                if self.feed is not None:
                    self.feed.undelayed(tournament_id, live)
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a command-line write: nobody watches, the next read releases
            return
        delay = dt.timedelta(seconds=live.state.public_delay)
        wait = (pending[0].at + delay - now).total_seconds()
        delayed.timer = loop.call_later(max(wait, 0.0), self._due, tournament_id)

    def _release_due(
        self, tournament_id: str, delayed: Delayed, seconds: int, until: dt.datetime
    ) -> None:
        """Apply and publish, in order, the held events due by `until` under `seconds`."""
        delay = dt.timedelta(seconds=seconds)
        pending, public = delayed.pending, delayed.projection
        if public is None:  # still being built: released once it is
            return
        while pending and pending[0].at + delay <= until:
            rec = pending.popleft()
            if rec.seq <= public.seq:
                continue
            delta = public.apply(rec)
            if self.feed is not None:
                self.feed.publish_public(tournament_id, delta, public)

    def _due(self, tournament_id: str) -> None:
        delayed, live = self.tables.get(tournament_id), self.lives.get(tournament_id)
        if delayed is not None:
            delayed.timer = None
            if live is not None:
                self.release(tournament_id, live)


MAX_DELAY = dt.timedelta(seconds=3600)  # the longest delay `SetPublicDelay` takes


def public_of(
    store: EventStore, tournament_id: str, live: StandingsProjection, now: dt.datetime
) -> Delayed | None:
    """For a log loaded at `live`: its public projection as a node that had followed the log
    would have released it by `now` (by the stored times and the delays in force meanwhile),
    and the events held back after it; None when nothing is held and no delay is on. Reads
    the store: off the loop.

    An event recorded more than the longest delay ago is public whatever the delays; a later
    one is released at the first moment the delay in force allows (its own `at` plus the
    delay, or a change of the delay that made it due), and only behind every earlier one."""
    # The last seq recorded before the longest delay: the log's times only grow, so a binary
    # search over seqs, one read of one event each.
    cutoff = now - MAX_DELAY
    low, high = 0, live.seq
    while low < high:
        mid = (low + high + 1) // 2
        rec = next(store.read(tournament_id, after=mid - 1), None)
        if rec is not None and rec.at <= cutoff:
            low = mid
        else:
            high = mid - 1
    base = load(store, tournament_id, at_seq=low) if low else StandingsProjection()
    recent = [rec for rec in store.read(tournament_id, after=low) if rec.seq <= live.seq]
    # The delay in force from each recent event on: (when it changed, the new delay).
    changes = [
        (rec.seq, rec.at, rec.event.seconds)
        for rec in recent
        if isinstance(rec.event, PublicDelaySet)
    ]
    delay = base.state.public_delay
    public = low
    for rec in recent:
        delay = next((d for seq, _, d in reversed(changes) if seq <= rec.seq), delay)
        if not _released(rec, delay, [c for c in changes if c[0] > rec.seq], now):
            break
        public = rec.seq
    held = [rec for rec in recent if rec.seq > public]
    if not held and live.state.public_delay == 0:
        return None
    for rec in recent:
        if rec.seq > public:
            break
        base.apply(rec)
    return Delayed(base, held)


def _released(
    rec: Recorded, delay: int, later: list[tuple[int, dt.datetime, int]], now: dt.datetime
) -> bool:
    """Whether `rec`, held under `delay` when recorded and the `later` changes of the delay
    after it, was due by `now`: due under one delay before the next change took over."""
    since = rec.at
    for _, at, seconds in later:
        if max(rec.at + dt.timedelta(seconds=delay), since) <= at:
            return True
        since, delay = at, seconds
    return max(rec.at + dt.timedelta(seconds=delay), since) <= now


def public_head(store: EventStore, tournament_id: str, now: dt.datetime) -> int:
    """The public head of a stored log by `now` (its head when no delay holds anything back),
    without folding it: a read of its events. Reads the store: off the loop."""
    records = list(store.read(tournament_id))
    changes = [
        (rec.seq, rec.at, rec.event.seconds)
        for rec in records
        if isinstance(rec.event, PublicDelaySet)
    ]
    if not changes:
        return records[-1].seq if records else 0
    public, delay = 0, 0
    for rec in records:
        delay = next((d for seq, _, d in reversed(changes) if seq <= rec.seq), delay)
        if rec.at > now - MAX_DELAY and not _released(
            rec, delay, [c for c in changes if c[0] > rec.seq], now
        ):
            break
        public = rec.seq
    return public
