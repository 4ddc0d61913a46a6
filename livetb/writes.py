"""Group commit: concurrent writes made durable by one transaction, each acknowledged after it.

A write is decided at once, in arrival order, against the state the writes before it leave
(`staged`: the projection's state plus the writes not yet durable), then waits for the next
commit. While one group's transaction syncs to disk (in a worker thread, so the event loop
keeps taking requests), the next group gathers. After a commit the projection applies the
group's events and the feed publishes them, then each writer gets its head: nobody sees a
result, nor is one acknowledged, before it is in the log.

A write the store refuses (another process wrote first) fails with its error, and so do the
writes of its tournament decided after it, on a state it would have left (a
`ConcurrencyConflict`, a 409 to retry: the seq check alone cannot tell, when the other
process appended as many events); the staged state is copied again from the log once the
tournament's writes have drained.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import msgspec

from livetb.errors import ConcurrencyConflict
from livetb.events.commands import AnyCommand, CreateTournament, decide
from livetb.events.schema import AnyEvent
from livetb.events.state import TournamentState
from livetb.events.store import Append
from livetb.service import TournamentService, request_fingerprint

log = logging.getLogger(__name__)


@dataclass
class _Write:
    append: Append
    done: asyncio.Future[int]
    epoch: int  # of the staged state it was decided on


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
        bound to the command's fingerprint, as `TournamentService.execute` binds it."""
        tid, key, service = tournament_id, idempotency_key, self.service
        fingerprint = None if key is None else request_fingerprint(command)
        while True:
            if key is not None and (earlier := self._keys.get((tid, key))) is not None:
                await asyncio.wait([earlier])  # a retry while the first try is in flight
            known = service.projections.get(tid)
            if known is None or known.seq == 0 or isinstance(command, CreateTournament):
                await self.drain(tid)  # creating or loading: the plain path
                head, _ = service.execute(
                    tid, command, expected_seq=expected_seq, idempotency_key=key, actor=actor
                )
                return head
            if key is not None and fingerprint is not None:
                seq = service.recalled(tid, key, fingerprint)
                if seq is not None:
                    return seq
            staged = await self._stage(tid)
            if key is None or (tid, key) not in self._keys:
                break  # else a try with this key was decided while this one waited
        if expected_seq is not None and expected_seq != staged.seq:
            raise ConcurrencyConflict(tid, expected_seq, staged.seq)
        events = decide(staged, command)  # a rejection stages nothing
        after = staged.seq
        for event in events:
            staged.apply(event)
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        epoch = self._epoch.get(tid, 0)
        append = Append(tid, after, events, actor, key, fingerprint)
        self._queue.append(_Write(append, done, epoch))
        self._open.setdefault(tid, set()).add(done)
        if key is not None:
            self._keys[(tid, key)] = done
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
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
        """A dry run: `TournamentService.execute(..., dry_run=True)` once this tournament's
        writes decided so far are committed and applied, so it decides on the state a write
        would; nothing is staged, queued or appended, and no idempotency key is recalled."""
        await self.drain(tournament_id)
        return self.service.execute(
            tournament_id, command, expected_seq=expected_seq, actor=actor, dry_run=True
        )

    async def drain(self, tournament_id: str | None = None) -> None:
        """Wait until every write (of one tournament) decided so far is acknowledged; for
        every tournament, also until the snapshots due are saved (before the store closes)."""
        futures = [f for tid, fs in self._open.items() if tournament_id in (None, tid) for f in fs]
        if futures:
            await asyncio.wait(futures)
        if tournament_id is None and self._flusher is not None:
            await self._flusher

    async def _stage(self, tid: str) -> TournamentState:
        staged = self._staged.get(tid)
        if staged is not None and self._open.get(tid):
            return staged
        await self.drain(tid)  # (after a refused write: the staged state was dropped)
        projection = self.service.catch_up(tid)
        if staged is None or staged.seq != projection.seq:
            staged = self._staged[tid] = _copy(projection.state)
        return staged

    async def _flush(self) -> None:
        while self._queue:
            group: list[_Write] = []
            for write in self._take():
                if write.epoch == self._epoch.get(write.append.tournament_id, 0):
                    group.append(write)
                else:  # decided on a state a refused write would have left
                    a = write.append
                    head = self.service.store.head(a.tournament_id)
                    self._settle(write, ConcurrencyConflict(a.tournament_id, a.expected_seq, head))
            appends = [w.append for w in group]
            if not appends:
                continue
            try:
                outcomes: list[object] = list(
                    await asyncio.to_thread(self.service.store.append_group, appends)
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
                    self._epoch[tid] = self._epoch.get(tid, 0) + 1
                try:
                    snapshots += self._catch_up(tid)
                except Exception:
                    log.exception("applying tournament %s after a group commit", tid)
            for write, outcome in zip(group, outcomes, strict=True):
                self._settle(write, outcome)
            for tid, seq, data in snapshots:  # off the event loop, as the commits
                try:
                    await asyncio.to_thread(self.service.store.save_snapshot, tid, seq, data)
                except Exception:
                    log.exception("saving a snapshot of tournament %s", tid)

    def _catch_up(self, tid: str) -> list[tuple[str, int, bytes]]:
        """Apply and publish the group's events; a snapshot to save when they crossed a
        multiple of `snapshot_every` (as `TournamentService.execute` saves them)."""
        every = self.service.snapshot_every
        projection = self.service.projection(tid)
        before = projection.seq
        self.service.catch_up(tid)
        if projection.seq // every > before // every:
            return [(tid, projection.seq, projection.snapshot())]
        return []

    def _take(self) -> list[_Write]:
        queue, self._queue = self._queue, []
        return queue

    def _settle(self, write: _Write, outcome: object) -> None:
        a = write.append
        self._open[a.tournament_id].discard(write.done)
        if a.idempotency_key is not None:
            self._keys.pop((a.tournament_id, a.idempotency_key), None)
        if isinstance(outcome, Exception):
            write.done.set_exception(outcome)
        else:
            write.done.set_result(outcome)  # type: ignore[arg-type]
