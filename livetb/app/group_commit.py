"""Group commit: concurrent writes made durable by one transaction, each acknowledged after it.

A write is decided at once, in arrival order, against the state the writes before it leave
(`staged`: the projection's state plus the writes not yet durable), then waits for the next
commit. While one group's transaction syncs to disk (in a worker thread, so the event loop
keeps taking requests), the next group gathers. After a commit the projection applies the
group's events and the feed publishes them, then each writer gets its head: nobody sees a
result, nor is one acknowledged, before it is in the log.

A write the store refuses (another node wrote first) fails with its error, and so do the
writes of its tournament decided after it, on a state it would have left (a
`ConcurrencyConflict`: the seq check alone cannot tell, when the other node appended as many
events); the staged state is copied again from the log once the tournament's writes have
drained, and those of the refused writes that named no expected sequence are decided again
on it. Every store read and commit runs in a worker thread: the loop never waits for I/O.

Decided on the store's truth: with no write of its own in flight, a node reads the log's tail
before deciding. With some in flight it decides on the staged state, which may lack another
node's latest commits: a write it accepts there fails the store's seq check and is decided
again (above); one it refuses is checked against the store's head (one indexed query, shared
by the writes that arrive while it waits), and when that head is not one this node's own
writes lead to, its writes drain and the command is decided again on the log's tail. So a
command valid against the committed log (a correction of a result another node acknowledged,
a close right after that node's last result) is never refused for what this node had not seen,
and the accepted writes pay no extra read.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import OrderedDict, deque
from dataclasses import dataclass

import msgspec

from livetb.app.service import TournamentService, decide_for, request_fingerprint
from livetb.errors import (
    ConcurrencyConflict,
    IdempotencyKeyReused,
    LivetbError,
    UnknownTournament,
)
from livetb.events.commands import AnyCommand
from livetb.events.schema import AnyEvent
from livetb.events.state import TournamentState
from livetb.events.store import Append, Recalled

log = logging.getLogger(__name__)

# A write that names no sequence and loses races to other nodes is decided again for this long
# (a storm on three nodes loses most races: a count of tries ran out), then it gets a 409.
RETRY_FOR = 15.0  # seconds
SETTLED_KEPT = 10_000  # idempotency keys acknowledged here, remembered without a read
RETRY_STEP = 0.002  # seconds: the n-th retry waits up to n times this, at most RETRY_MOST
RETRY_MOST = 0.05
CATCH_UP_FIRST, CATCH_UP_MOST = 0.05, 1.0  # seconds between catch-ups after a failed one


@dataclass
class _Write:
    append: Append
    done: asyncio.Future[int]
    epoch: int  # of the staged state it was decided on


class _Probe:
    """One read of a tournament's head in the store, serving every write that arrived before
    it started."""

    def __init__(self) -> None:
        self.started = False
        self.task: asyncio.Future[int] | None = None


def _copy(state: TournamentState) -> TournamentState:
    return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=TournamentState)


class GroupCommit:
    """The writes of every tournament of one service, committed in groups."""

    def __init__(self, service: TournamentService) -> None:
        self.service = service
        self._staged: dict[str, TournamentState] = {}
        self._queue: list[_Write] = []
        self._open: dict[str, set[asyncio.Future[int]]] = {}  # not yet acknowledged
        self._keys: dict[tuple[str, str], asyncio.Future[int]] = {}
        self._flusher: asyncio.Task[None] | None = None
        self._epoch: dict[str, int] = {}  # bumped when a staged state is dropped
        self._last: dict[str, asyncio.Future[None]] = {}  # the turn of each one's last write
        self._settled: OrderedDict[tuple[str, str], Recalled] = OrderedDict()
        # The heads this node's own writes lead to from the staged state's base: a store head
        # among them means no other node wrote since.
        self._chain: dict[str, deque[int]] = {}
        self._probes: dict[str, _Probe] = {}
        self._lagging: dict[str, asyncio.Future[None]] = {}  # catch-ups retried after a failure
        self.retried = 0  # writes decided again after losing a race to another writer

    async def execute(
        self,
        tournament_id: str,
        command: AnyCommand,
        *,
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
        actor: str = "system",
    ) -> int:
        """`TournamentService.execute`, with the append joining the next group commit;
        returns the head once durable (and applied, and published). An idempotency key is
        bound to the command's fingerprint, as `TournamentService.execute` binds it.

        A write that named no `expected_seq` and lost a race to another writer of the store
        (another node) is decided again on the state that writer left, for up to `RETRY_FOR`
        seconds: only a write that named a sequence is answered with a conflict it did not ask
        for."""
        deadline = time.monotonic() + RETRY_FOR
        attempt = 0
        while True:
            attempt += 1
            try:
                return await self._execute(
                    tournament_id, command, expected_seq, idempotency_key, actor
                )
            except ConcurrencyConflict:
                if expected_seq is not None or time.monotonic() > deadline:
                    raise
                self.retried += 1
                # Jittered, growing: two nodes that keep colliding fall out of step.
                await asyncio.sleep(random.uniform(0, min(RETRY_STEP * attempt, RETRY_MOST)))

    async def _execute(
        self,
        tid: str,
        command: AnyCommand,
        expected_seq: int | None,
        key: str | None,
        actor: str,
    ) -> int:
        fingerprint = None if key is None else request_fingerprint(command)
        # Decided one at a time per tournament, in arrival order: each write waits for the
        # one that arrived before it (a chain of turns), its own look-ups done meanwhile.
        ahead = self._last.get(tid)
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._last[tid] = turn
        try:
            if key is not None and fingerprint is not None:  # a key this node has not seen lately
                seq = await asyncio.to_thread(self.service.recalled, tid, key, fingerprint)
                if seq is not None:
                    return seq
            if ahead is not None:
                await asyncio.shield(ahead)
            if key is not None and fingerprint is not None:
                if (earlier := self._keys.get((tid, key))) is not None:
                    await asyncio.wait([earlier])  # a retry while the first try is in flight
                seq = self._recalled(tid, key, fingerprint)
                if seq is not None:
                    return seq
            staged = await self._stage(tid)
            try:
                events = decide_for(tid, staged, command, expected_seq)  # a refusal stages nothing
            except LivetbError:
                if not await self._behind(tid):
                    raise
                # Refused on a state without another node's commits: decided on the log's.
                staged = await self._stage(tid, fresh=True)
                events = decide_for(tid, staged, command, expected_seq)
            after = staged.seq
            for event in events:
                staged.apply(event)
            self._chain.setdefault(tid, deque()).append(staged.seq)
            done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
            epoch = self._epoch.get(tid, 0)
            append = Append(tid, after, events, actor, key, fingerprint)
            self._queue.append(_Write(append, done, epoch))
            self._open.setdefault(tid, set()).add(done)
            if key is not None:
                self._keys[(tid, key)] = done
            if self._flusher is None or self._flusher.done():
                self._flusher = asyncio.create_task(self._flush())
        finally:
            self._pass_turn(tid, ahead, turn)
        # Shielded: a cancelled handler leaves its write to finish (and be told) as decided.
        return await asyncio.shield(done)

    async def rehearse(
        self,
        tournament_id: str,
        command: AnyCommand,
        *,
        expected_seq: int | None = None,
        actor: str = "system",
    ) -> list[AnyEvent]:
        """A dry run: decided as `execute` would, once this tournament's writes decided so far
        are committed and applied; nothing is staged, queued or appended, and no idempotency
        key is recalled."""
        if (last := self._last.get(tournament_id)) is not None:
            await asyncio.shield(last)  # the writes that arrived before this one are decided
        await self.drain(tournament_id)
        projection = await self.service.current_or_new(tournament_id)
        return decide_for(tournament_id, projection.state, command, expected_seq)

    async def drain(self, tournament_id: str | None = None) -> None:
        """Wait until every write (of one tournament) decided so far is acknowledged; for
        every tournament, also until the snapshots due are saved (before the store closes)."""
        futures = [f for tid, fs in self._open.items() if tournament_id in (None, tid) for f in fs]
        if futures:
            await asyncio.wait(futures)
        if tournament_id is None and self._flusher is not None:
            await self._flusher
        if tournament_id is None:  # (the store closes next: no catch-up left waiting for it)
            for task in list(self._lagging.values()):
                task.cancel()

    async def _store_head(self, tid: str) -> int:
        """The store's head for `tid`, read after this call: a read already running may have
        missed a commit acknowledged just before, so this waits for the next one, which every
        write arriving until it starts shares (at most one read per tournament at a time)."""
        probe = self._probes.get(tid)
        if probe is None or probe.started:
            running = None if probe is None else probe.task
            probe = self._probes[tid] = _Probe()
            probe.task = asyncio.ensure_future(self._read_head(tid, probe, running))
        assert probe.task is not None
        return await asyncio.shield(probe.task)

    async def _read_head(self, tid: str, probe: _Probe, running: asyncio.Future[int] | None) -> int:
        if running is not None and not running.done():
            await asyncio.wait([running])
        probe.started = True  # a write arriving from now on needs a later read
        return await asyncio.to_thread(self.service.head, tid)

    async def _behind(self, tid: str) -> bool:
        """Whether the store may hold commits this node has not staged: this node has writes
        in flight (the store's head may be a seq staged here but committed by another node:
        only the log, once they drain, can tell), or its head (read after now) is not one
        this node's own writes lead to."""
        if self._open.get(tid):
            return True
        return await self._store_head(tid) not in self._chain.get(tid, ())

    async def _stage(self, tid: str, *, fresh: bool = False) -> TournamentState:
        """The state to decide on: the staged one while this node's writes are in flight
        (unless `fresh`), else the log's, once those writes drained."""
        staged = self._staged.get(tid)
        if staged is not None and self._open.get(tid) and not fresh:
            return staged
        await self.drain(tid)  # (after a refused write: the staged state was dropped)
        projection = await self.service.current_or_new(tid)  # the log's tail read
        staged = self._staged.get(tid)  # (another write may have staged while this read)
        if staged is not None and self._open.get(tid):
            return staged
        if staged is None or staged.seq != projection.seq:
            staged = self._staged[tid] = _copy(projection.state)
        self._chain[tid] = deque([staged.seq])
        return staged

    async def _flush(self) -> None:
        while self._queue:
            taken = self._take()
            try:
                await self._commit(taken)
            except BaseException as err:  # no write is left waiting for an answer forever
                for write in taken:
                    if not write.done.done():
                        self._settle(write, err if isinstance(err, Exception) else None)
                raise

    async def _commit(self, taken: list[_Write]) -> None:
        """Commit one group, apply it, answer its writers, save the snapshots due."""
        group: list[_Write] = []
        for write in taken:
            if write.epoch == self._epoch.get(write.append.tournament_id, 0):
                group.append(write)
            else:  # decided on a state a refused write would have left
                a = write.append
                try:
                    head = await asyncio.to_thread(self.service.head, a.tournament_id)
                except Exception as err:  # the store away: that is the answer
                    self._settle(write, err)
                    continue
                self._settle(write, ConcurrencyConflict(a.tournament_id, a.expected_seq, head))
        appends = [w.append for w in group]
        if appends:
            try:
                outcomes: list[int | Exception] = list(
                    await asyncio.to_thread(self.service.append_group, appends)
                )
            except Exception as err:  # the commit itself failed: none of them is durable
                outcomes = [err] * len(group)
            snapshots: list[tuple[str, int, bytes]] = []
            for tid in dict.fromkeys(a.tournament_id for a in appends):
                if any(
                    isinstance(o, Exception)
                    for a, o in zip(appends, outcomes, strict=True)
                    if a.tournament_id == tid
                ):
                    self._staged.pop(tid, None)
                    self._chain.pop(tid, None)
                    self._epoch[tid] = self._epoch.get(tid, 0) + 1
                try:
                    snapshots += await self._catch_up(tid)
                except LivetbError as err:  # the store, gone since the commit: one line
                    self._catch_up_later(tid, f"{err}")
                except Exception:
                    log.exception("applying tournament %s after a group commit", tid)
                    self._catch_up_later(tid, "")
            for write, outcome in zip(group, outcomes, strict=True):
                self._settle(write, outcome)
            for tid, seq, data in snapshots:  # off the event loop, as the commits
                try:
                    await asyncio.to_thread(self.service.save_snapshot, tid, seq, data)
                except Exception as err:  # the next one will do: a restart replays a bit more
                    reason = " ".join(str(err).split()) or type(err).__name__
                    log.warning("saving a snapshot of tournament %s: %s", tid, reason)

    def _catch_up_later(self, tid: str, reason: str) -> None:
        """Apply and publish a committed group the projection could not read: retried with
        backoff until the store answers, so viewers get it without waiting for another event."""
        if tid in self._lagging:
            return
        if reason:
            log.warning("applying tournament %s after a group commit: %s; retrying", tid, reason)
        self._lagging[tid] = asyncio.ensure_future(self._retry_catch_up(tid))

    async def _retry_catch_up(self, tid: str) -> None:
        delay = CATCH_UP_FIRST
        try:
            while True:
                await asyncio.sleep(delay)
                try:
                    await self.service.current(tid)
                    return
                except UnknownTournament:
                    return
                except Exception:
                    delay = min(delay * 2, CATCH_UP_MOST)
        finally:
            del self._lagging[tid]

    async def _catch_up(self, tid: str) -> list[tuple[str, int, bytes]]:
        """Apply and publish the group's events; a snapshot to save when one is due."""
        before = self.service.seq_of(tid)
        projection = await self.service.current(tid)
        if self.service.snapshot_due(before, projection.seq):
            return [(tid, projection.seq, projection.snapshot())]
        return []

    def _pass_turn(
        self, tid: str, ahead: asyncio.Future[None] | None, turn: asyncio.Future[None]
    ) -> None:
        """The next write's turn: now, or (a write that left before its turn) once the one
        ahead of it is decided; a write arriving meanwhile still waits behind this turn."""

        def passed(_: object = None) -> None:
            turn.set_result(None)
            if self._last.get(tid) is turn:
                del self._last[tid]

        if ahead is None or ahead.done():
            passed()
        else:
            ahead.add_done_callback(passed)

    def _recalled(self, tid: str, key: str, fingerprint: str) -> int | None:
        """`TournamentService.recalled` for the keys this node acknowledged lately, which
        the store may have recorded after this write's own look-up."""
        known = self._settled.get((tid, key))
        if known is None:
            return None
        if known.fingerprint != fingerprint:
            raise IdempotencyKeyReused(tid, key)
        return known.seq

    def _take(self) -> list[_Write]:
        queue, self._queue = self._queue, []
        return queue

    def _settle(self, write: _Write, outcome: int | Exception | None) -> None:
        """Answer a writer: its head, its error, or (None: the server is stopping) nothing."""
        a = write.append
        self._open[a.tournament_id].discard(write.done)
        if a.idempotency_key is not None:
            self._keys.pop((a.tournament_id, a.idempotency_key), None)
        if outcome is None:
            write.done.cancel()
        elif isinstance(outcome, Exception):
            write.done.set_exception(outcome)
        else:
            chain = self._chain.get(a.tournament_id)
            while chain and chain[0] < outcome:  # the store's head is never behind it again
                chain.popleft()
            if a.idempotency_key is not None and a.fingerprint is not None:
                self._settled[(a.tournament_id, a.idempotency_key)] = Recalled(
                    outcome,
                    a.fingerprint,
                )
                if len(self._settled) > SETTLED_KEPT:
                    self._settled.popitem(last=False)
            write.done.set_result(outcome)
