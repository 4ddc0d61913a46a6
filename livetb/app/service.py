"""The application layer: the one place that touches the store, the projection and the feed.
One writer per tournament: decide against the projection's state, append, apply, publish.

If applying raises after the append returned, the log is still right: the projection is
rebuilt from the store, never the other way round.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Iterable, Sequence
from typing import Literal, Protocol, overload

import msgspec

from livetb.app.collector import Collector
from livetb.app.delay import Clock, Delayed, Delays, PublicFeed, public_head, public_of
from livetb.errors import (
    ConcurrencyConflict,
    IdempotencyKeyReused,
    LivetbError,
    TournamentExists,
    UnknownTournament,
)
from livetb.events.commands import AnyCommand, decide
from livetb.events.schema import AnyEvent, PublicDelaySet, Recorded
from livetb.events.state import TournamentState
from livetb.events.store import Append, EventStore
from livetb.projections.standings import Delta, StandingsProjection
from livetb.projections.steps import Pieces
from livetb.projections.stored import load

SNAPSHOT_EVERY = 500
# Between events the standings a round's close will publish are prepared: a quiet moment
# after the last event (results a round reach each row ~7 times: once per burst, not per
# result), then slices short enough not to hold up what arrives meanwhile (128 rows held a
# write storm's POSTs up to 300 ms at its p99). A slice is bounded by time, not rows: rows
# differ in cost (a large DE group, a fresh table) and so do machines, and 32 rows a slice
# still held the loop 19-71 ms at 10,000 players. So rows are taken `SETTLE_SLICE` at a time
# (about 0.25 ms at 10,000 players) until `SETTLE_SECONDS` have passed, as a fold's pieces
# (2 ms, with its last rows and the young collection, went past 5 ms on a loaded machine).
# Every slice is one of the collector policy's (`Collector.slice`: a young collection ends it).
SETTLE_AFTER, SETTLE_SLICE, SETTLE_SECONDS = 0.05, 4, 0.001
# A round event of a large field (a pairing, a close: every row) is folded in pieces
# (`StandingsProjection.stepwise`), the loop's other work between them: pieces are taken until
# `FOLD_SECONDS` have passed (a piece itself takes up to 1-2 ms at 10,000 players), then
# the loop runs what waits. Readers meanwhile read the projection as it was before the event;
# the tournament's later events wait their turn.
FOLD_SECONDS = 0.001
# Events (a group commit's) applied at once; more are applied in turn, FOLD_SECONDS of them
# at a time: a result costs up to 1.5 ms at 10,000 players, and four at once with their young
# collection held the loop over 5 ms.
AT_ONCE = 1


def request_fingerprint(command: AnyCommand) -> str:
    """What an idempotency key is bound to: the command asked, not the events it decided to
    (a retry decides against a later state, so its events would differ)."""
    return "command:" + hashlib.sha256(msgspec.json.encode(command)).hexdigest()


def decide_for(
    tournament_id: str,
    state: TournamentState,
    command: AnyCommand,
    expected_seq: int | None = None,
) -> list[AnyEvent]:
    """`decide` on `state`, once it is at the head the writer expects (`expected_seq`, if
    named: else 409); its refusals name the tournament."""
    if expected_seq is not None and expected_seq != state.seq:
        raise ConcurrencyConflict(tournament_id, expected_seq, state.seq)
    try:
        return decide(state, command)
    except UnknownTournament:
        raise UnknownTournament(tournament_id) from None
    except TournamentExists:
        assert state.created is not None  # `decide` refuses a creation only once there is one
        raise TournamentExists(tournament_id, state.created.name) from None


class Feed(PublicFeed, Protocol):
    """Where deltas go once applied (`livetb/web/feed/hub.py`'s Hub); called in log order.
    A delayed tournament's public deltas go to `publish_public` (`livetb/app/delay.py`)."""

    def publish(
        self, tournament_id: str, delta: Delta, projection: StandingsProjection
    ) -> None: ...


class TournamentService:
    """Keeps one live projection per tournament and turns commands into deltas."""

    def __init__(
        self,
        store: EventStore,
        snapshot_every: int = SNAPSHOT_EVERY,
        feed: Feed | None = None,
        collector: Collector | None = None,
    ) -> None:
        self.store = store
        self.collector = collector or Collector()  # the process's one (the viewers' too)
        self.snapshot_every = snapshot_every
        self.feed = feed
        self.projections: dict[str, StandingsProjection] = {}
        self.delays = Delays(self.projections, feed)  # the broadcast delay's public views
        self._loading: dict[str, asyncio.Future[Loaded | None]] = {}
        self._settling: dict[str, asyncio.TimerHandle] = {}
        # Per tournament, the application on the loop that later ones wait for (one folding a
        # round event in pieces, or waiting for one that does).
        self._applying: dict[str, asyncio.Future[None]] = {}
        self.fold_seconds = FOLD_SECONDS

    def projection(self, tournament_id: str) -> StandingsProjection:
        projection = self.projections.get(tournament_id)
        if projection is None or projection.seq == 0:  # seq 0: a create that was rejected
            projection = self.projections[tournament_id] = load(self.store, tournament_id)
            self.collector.kept()
            delayed = public_of(self.store, tournament_id, projection, self.delays.clock())
            if delayed is not None:
                self.delays.install(tournament_id, delayed)
                self.delays.release(tournament_id, projection)
        return projection

    def public_head(self, tournament_id: str) -> int:
        """The public head of a tournament's log: its held public projection's, or one read
        from the log (`delay.public_head`, in a thread: it reads the whole log)."""
        held = self.delays.public(tournament_id)
        if held is not None:
            return held.seq
        return public_head(self.store, tournament_id, self.delays.clock())

    async def public_view(self, tournament_id: str) -> StandingsProjection | None:
        """`public`, once a delay just turned on has its public projection built (None: the
        public reads are live)."""
        await self.delays.ready(tournament_id)
        return self.delays.public(tournament_id)

    def public(self, tournament_id: str) -> StandingsProjection | None:
        """What public reads of a delayed tournament read (None: the live projection, as
        `current` left it, or a delay's public projection still being built: see
        `public_view`); `livetb/app/delay.py`."""
        return self.delays.public(tournament_id)

    @overload
    def execute(
        self,
        tournament_id: str,
        command: AnyCommand,
        *,
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
        actor: str = "system",
        dry_run: Literal[False] = False,
    ) -> tuple[int, list[Delta]]: ...

    @overload
    def execute(
        self,
        tournament_id: str,
        command: AnyCommand,
        *,
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
        actor: str = "system",
        dry_run: Literal[True],
    ) -> list[AnyEvent]: ...

    def execute(
        self,
        tournament_id: str,
        command: AnyCommand,
        *,
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
        actor: str = "system",
        dry_run: bool = False,
    ) -> tuple[int, list[Delta]] | list[AnyEvent]:
        """Decide, append durably, apply; return the head and the deltas to publish.

        `dry_run`: decide exactly as a write would (same rejections, `expected_seq` checked)
        and return the events instead of appending them; an idempotency key is not recalled."""
        fingerprint = None
        if idempotency_key is not None and not dry_run:
            fingerprint = request_fingerprint(command)
            seq = self.recalled(tournament_id, idempotency_key, fingerprint)
            if seq is not None:
                return seq, []
        projection = self._current(tournament_id)
        events = decide_for(tournament_id, projection.state, command, expected_seq)
        if dry_run:
            return events
        head = self.store.append(
            tournament_id,
            projection.seq,
            events,
            actor=actor,
            idempotency_key=idempotency_key,
            fingerprint=fingerprint,
        )
        deltas = self._apply_tail(tournament_id, projection)
        if self.snapshot_due(head - len(events), head):
            self.store.save_snapshot(tournament_id, head, projection.snapshot())
        return head, deltas

    def snapshot_due(self, before: int, after: int) -> bool:
        """Whether the events from `before` to `after` crossed a multiple of `snapshot_every`:
        a restart then replays at most that many events."""
        return after // self.snapshot_every > before // self.snapshot_every

    def holds(self, tournament_id: str) -> bool:
        """Whether a projection of `tournament_id` is held (one not held is read whole when
        first asked for)."""
        return tournament_id in self.projections

    def held(self) -> list[str]:
        """The tournaments whose projection is held and has events."""
        return [tid for tid, p in self.projections.items() if p.seq > 0]

    def seq_of(self, tournament_id: str) -> int:
        """The seq of the projection held for `tournament_id` (0: none held)."""
        held = self.projections.get(tournament_id)
        return 0 if held is None else held.seq

    # The store's writes of a group commit (`livetb/app/group_commit.py`), run in its threads.

    def head(self, tournament_id: str) -> int:
        return self.store.head(tournament_id)

    def append_group(self, appends: Sequence[Append]) -> list[int | LivetbError]:
        return self.store.append_group(appends)

    def save_snapshot(self, tournament_id: str, seq: int, data: bytes) -> None:
        self.store.save_snapshot(tournament_id, seq, data)

    def recalled(self, tournament_id: str, key: str, fingerprint: str) -> int | None:
        """The head an earlier write with `key` was acknowledged with, or None; the same key
        with another command (`fingerprint`) is refused."""
        known = self.store.recall(tournament_id, key)
        if known is None:
            return None
        if known.fingerprint != fingerprint:
            raise IdempotencyKeyReused(tournament_id, key)
        return known.seq

    def catch_up(self, tournament_id: str) -> StandingsProjection:
        """The projection, caught up with writers outside this process (deltas published)."""
        projection = self.projection(tournament_id)
        self._apply_tail(tournament_id, projection)
        return projection

    def _current(self, tournament_id: str) -> StandingsProjection:
        known = self.projections.get(tournament_id)
        # Only an unknown (or never created) tournament costs a head query per write.
        if (known is None or known.seq == 0) and self.store.head(tournament_id) == 0:
            projection = self.projections[tournament_id] = StandingsProjection()
            return projection
        return self.catch_up(tournament_id)

    def _apply_tail(self, tournament_id: str, projection: StandingsProjection) -> list[Delta]:
        """Apply and publish every stored event after the projection's seq."""
        tail = self.store.read(tournament_id, projection.seq)
        return self._apply(tournament_id, projection, tail)

    def _apply(
        self, tournament_id: str, projection: StandingsProjection, records: Iterable[Recorded]
    ) -> list[Delta]:
        """Apply and publish `records`, but those the projection already holds (another
        catch-up applied them while these were read)."""
        assert tournament_id not in self._applying, "a round event is being folded on the loop"
        deltas = []
        held = False
        try:
            for rec in records:
                if rec.seq > projection.seq:
                    held |= self._hold(tournament_id, projection, rec)
                    deltas.append(delta := projection.apply(rec))
                    self._publish(tournament_id, projection, delta)
            if held:
                self.delays.release(tournament_id, projection)
        except Exception:
            self._drop(tournament_id)
            raise
        self.collector.applied()
        return deltas

    def _hold(self, tournament_id: str, projection: StandingsProjection, rec: Recorded) -> bool:
        """Held back from the public while a delay is on (a dict look-up otherwise)."""
        delays = self.delays
        if tournament_id in delays.tables or isinstance(rec.event, PublicDelaySet):
            delays.record(tournament_id, projection, rec)
            return True
        return False

    def _publish(self, tournament_id: str, projection: StandingsProjection, delta: Delta) -> None:
        if self.feed is not None:
            self.feed.publish(tournament_id, delta, projection)

    def _drop(self, tournament_id: str) -> None:
        self.projections.pop(tournament_id, None)  # rebuilt from the log on next use
        self.delays.drop(tournament_id)

    async def _apply_on_loop(
        self, tournament_id: str, projection: StandingsProjection, records: list[Recorded]
    ) -> None:
        """`_apply` for the event loop: after the tournament's application in progress, a
        round event of a large field folded in pieces and many events applied a few at a
        time (`FOLD_SECONDS` of them at a time, the loop's other work between). A few events,
        none of them that round event, with nothing in progress: at once."""
        ahead = self._applying.get(tournament_id)
        if (
            ahead is None
            and len(records) <= AT_ONCE
            and not any(map(projection.folds_in_steps, records))
        ):
            self._apply(tournament_id, projection, records)
            return
        applying = asyncio.ensure_future(
            self._apply_in_turn(ahead, tournament_id, projection, records)
        )
        self._applying[tournament_id] = applying

        def done(_: object) -> None:
            if self._applying.get(tournament_id) is applying:
                del self._applying[tournament_id]

        applying.add_done_callback(done)
        await asyncio.shield(applying)  # a reader that leaves never stops a fold halfway

    async def _apply_in_turn(
        self,
        ahead: asyncio.Future[None] | None,
        tournament_id: str,
        projection: StandingsProjection,
        records: list[Recorded],
    ) -> None:
        if ahead is not None:
            await asyncio.wait([ahead])  # its failure is its readers' to hear
        if self.projections.get(tournament_id) is not projection:
            return  # dropped meanwhile: the next read loads it again
        held = False
        until = time.perf_counter() + self.fold_seconds
        try:
            for rec in records:
                if rec.seq <= projection.seq:
                    continue
                held |= self._hold(tournament_id, projection, rec)
                steps = projection.stepwise(rec)
                if steps is None:
                    delta = projection.apply(rec)
                else:
                    while fold_for(steps, self.collector, self.fold_seconds):
                        await asyncio.sleep(0)
                    delta = steps.result
                self._publish(tournament_id, projection, delta)
                if time.perf_counter() >= until:  # each event whole, the loop's work between
                    self.collector.applied()
                    await asyncio.sleep(0)
                    until = time.perf_counter() + self.fold_seconds
            if held:
                self.delays.release(tournament_id, projection)
        except Exception:
            self._drop(tournament_id)
            raise
        self.collector.applied()

    # --- the same, for the event loop: every store read in a worker thread ---

    async def current(self, tournament_id: str) -> StandingsProjection:
        """`catch_up` for the event loop: loading and reading the log's tail run in a thread,
        applying and publishing on the loop (UnknownTournament if there is no log)."""
        projection = await self._loaded(tournament_id)
        if projection is None:
            raise UnknownTournament(tournament_id)
        return projection

    async def current_or_new(self, tournament_id: str) -> StandingsProjection:
        """`current`, or an empty projection for a tournament with no log yet (a create)."""
        projection = await self._loaded(tournament_id)
        if projection is None:
            projection = self.projections[tournament_id] = StandingsProjection()
        return projection

    def live(self, tournament_id: str) -> StandingsProjection:
        """The projection in memory, as `current` last left it (no read at all)."""
        projection = self.projections.get(tournament_id)
        if projection is None or projection.seq == 0:
            raise UnknownTournament(tournament_id)
        return projection

    async def _loaded(self, tournament_id: str) -> StandingsProjection | None:
        projection = self.projections.get(tournament_id)
        if projection is None or projection.seq == 0:
            loading = self._loading.get(tournament_id)
            if loading is None:  # one load per tournament, however many readers wait for it
                loading = self._loading[tournament_id] = asyncio.ensure_future(
                    asyncio.to_thread(_load_or_none, self.store, tournament_id, self.delays.clock)
                )
                loading.add_done_callback(lambda _: self._loading.pop(tournament_id, None))
            found = await asyncio.shield(loading)
            if found is None:
                return None
            loaded, delayed = found
            projection = self.projections.get(tournament_id)
            # One that went live meanwhile stays (its viewers follow it): the tail catches it up.
            if projection is None or projection.seq == 0:
                projection = self.projections[tournament_id] = loaded
                self.collector.kept()
                if delayed is not None:
                    self.delays.install(tournament_id, delayed)
                    self.delays.release(tournament_id, projection)
        tail = await asyncio.to_thread(_read, self.store, tournament_id, projection.seq)
        if self.projections.get(tournament_id) is projection:  # not dropped meanwhile
            await self._apply_on_loop(tournament_id, projection, tail)
            if tail or (projection.unsettled and tournament_id not in self._settling):
                self._settle_later(tournament_id)
        return self.projections.get(tournament_id, projection)

    def _settle_later(self, tournament_id: str, delay: float = SETTLE_AFTER) -> None:
        """`StandingsProjection.settle` once the tournament has been quiet for `delay`."""
        pending = self._settling.pop(tournament_id, None)
        if pending is not None:
            pending.cancel()
        loop = asyncio.get_running_loop()
        self._settling[tournament_id] = loop.call_later(delay, self._settle, tournament_id)

    def _settle(self, tournament_id: str) -> None:
        del self._settling[tournament_id]
        projection = self.projections.get(tournament_id)
        if projection is None or not projection.unsettled:
            return
        if tournament_id in self._applying:  # a round event being folded: settled after it
            self._settle_later(tournament_id)
        elif settle_for(projection, self.collector):
            self._settle_later(tournament_id, 0)


def settle_for(
    projection: StandingsProjection, collector: Collector, seconds: float = SETTLE_SECONDS
) -> bool:
    """One slice of `StandingsProjection.settle`: a few rows at a time until `seconds` have
    passed (the clock read between them). True while unsettled rows remain."""
    with collector.slice():
        deadline = time.perf_counter() + seconds
        while more := projection.settle(SETTLE_SLICE):
            if time.perf_counter() >= deadline:
                break
    return more


def fold_for(steps: Pieces[Delta], collector: Collector, seconds: float = FOLD_SECONDS) -> bool:
    """Pieces of a round event's fold until `seconds` have passed (the clock read between
    them), as one of the collector's slices (`Collector.slice`: what a fold makes lives until
    the next round event). True while pieces remain."""
    with collector.slice(keeps=True):
        deadline = time.perf_counter() + seconds
        while more := steps.advance():
            if time.perf_counter() >= deadline:
                break
    return more


Loaded = tuple[StandingsProjection, "Delayed | None"]


def _load_or_none(store: EventStore, tournament_id: str, clock: Clock) -> Loaded | None:
    """The live projection and, under a broadcast delay, the public one (`public_of`)."""
    try:
        live = load(store, tournament_id)
    except UnknownTournament:
        return None
    return live, public_of(store, tournament_id, live, clock())


def _read(store: EventStore, tournament_id: str, after: int) -> list[Recorded]:
    return list(store.read(tournament_id, after))
