"""Per-request work that grows with the field (a participant's card, an export), off the loop.

A card took about 25 ms of the event loop at 2,000 players, and exports, run in threads, held
the interpreter lock the loop needs: with a few anonymous clients on those routes every
viewer's deltas arrived hundreds of milliseconds late. So such work runs here:

- in one low-priority worker process (`timetravel.process_pool`): it never takes the loop's
  interpreter, and where cores are short the loop's deltas come first. (Threads in tests,
  where the store is in memory or a process would not see a test's patches.)
- at most `concurrency` at a time; further requests wait for a slot, never the loop;
- on the state of the log position the request read (the live head, or a delayed public
  view's): the worker keeps its own projections of each tournament it was asked about and
  brings one forward by the events after it (`Held.at`), so a card at the head costs a read
  of the new events and the card itself, not a fold of the whole log;
- what is the same for everyone (a card or an export at a given seq) is kept, within a byte
  budget, and requests for an answer being computed wait for that one computation.

A worker process that dies is replaced, and the work it failed runs once more on the new one.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from livetb.app.timetravel import ProcessPool
from livetb.backends import open_store
from livetb.events.store import EventStore
from livetb.projections.standings import StandingsProjection
from livetb.projections.stored import load


class Held:
    """A worker's own projections, brought forward on demand: per tournament the last
    `keep` positions asked (the live head, and a public view held back behind it).

    Only one piece of work uses it at a time (`Offload`'s one worker, or its one thread)."""

    def __init__(self, store: EventStore, keep: int = 2) -> None:
        self.store = store
        self.keep = keep
        self.projections: dict[str, list[StandingsProjection]] = {}

    def at(self, tournament_id: str, seq: int) -> StandingsProjection:
        """The standings at `seq` exactly (at most the head): the nearest one held at or
        before it, brought forward, else a load from the nearest snapshot."""
        kept = self.projections.setdefault(tournament_id, [])
        behind = [p for p in kept if p.seq <= seq]
        if behind:
            projection = max(behind, key=lambda p: p.seq)
            kept.remove(projection)
            if projection.seq < seq:
                for rec in self.store.read(tournament_id, projection.seq):
                    if rec.seq > seq:
                        break
                    projection.apply(rec)
        else:
            projection = load(self.store, tournament_id, seq)
        kept.append(projection)  # the most recently asked last
        del kept[: -self.keep]
        return projection


T = TypeVar("T")
Source = Held | str  # the worker's own projections (threads), or a store's path or URL
_held: dict[str, Held] = {}  # a worker process's, by the store's path or URL


def held(source: Source) -> Held:
    """In a worker: the projections it keeps for `source`."""
    if isinstance(source, Held):
        return source
    found = _held.get(source)
    if found is None:
        found = _held[source] = Held(open_store(source))
    return found


Work = Callable[[StandingsProjection, Hashable], bytes]  # module-level: sent by reference
Answer = tuple[int, bytes]  # the log position answered at, the encoded answer


def call(work: Work, source: Source, tournament_id: str, seq: int, what: Hashable) -> Answer:
    """In a worker: `work` on the standings at `seq` for `what`."""
    projection = held(source).at(tournament_id, seq)
    return projection.seq, work(projection, what)


StoreWork = Callable[[EventStore, str, object], bytes]  # module-level: sent by reference


def on_store(work: StoreWork, source: Source, tournament_id: str, what: object) -> bytes:
    """In a worker: `work` on the store it reads."""
    return work(held(source).store, tournament_id, what)


class Offload:
    """Answers computed by `work(standings at seq, what)` in `executor` (a
    `ProcessPool`, or threads when None), at most `concurrency` at a time, kept by
    (work, tournament, seq, what) within `cache_bytes`."""

    def __init__(
        self,
        source: Source,
        executor: Executor | None = None,
        *,
        concurrency: int = 1,
        cache_bytes: int = 32 << 20,
    ) -> None:
        self.source = source
        self.executor = executor
        self.cache_bytes = cache_bytes
        self.computed = 0  # answers computed (not found kept): what the tests count
        self._slots = asyncio.Semaphore(concurrency)
        self._cache: OrderedDict[Hashable, Answer] = OrderedDict()
        self._kept = 0
        self._running: dict[Hashable, asyncio.Future[Answer]] = {}

    async def run(self, work: Work, tournament_id: str, seq: int, what: Hashable) -> Answer:
        """The answer of `work` for `tournament_id` at `seq`."""
        key = (work.__module__, work.__qualname__, tournament_id, seq, what)
        kept = self._cache.get(key)
        if kept is None:
            running = self._running.get(key)
            if running is None:
                running = self._running[key] = asyncio.ensure_future(
                    self._compute(key, work, tournament_id, seq, what)
                )
                running.add_done_callback(lambda _: self._running.pop(key, None))
            kept = await asyncio.shield(running)  # one waiter leaving never cancels it
        else:
            self._cache.move_to_end(key)
        return kept

    async def on_store(self, work: StoreWork, tournament_id: str, what: object) -> bytes:
        """`work(store, tournament, what)` in the worker, not kept: for what reads the log
        itself (the audit trail, whose labels change without the log)."""
        async with self._slots:
            return await self._submit(on_store, work, self.source, tournament_id, what)

    async def _compute(
        self, key: Hashable, work: Work, tournament_id: str, seq: int, what: Hashable
    ) -> Answer:
        async with self._slots:
            answer = await self._submit(call, work, self.source, tournament_id, seq, what)
        self.computed += 1
        self._keep(key, answer)
        return answer

    async def _submit(self, fn: Callable[..., T], *args: object) -> T:
        pool = self.executor
        if not isinstance(pool, ProcessPool):
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        used = pool.current
        try:
            return await pool.run(fn, *args)
        except BrokenProcessPool:
            pool.renew(used)
            return await pool.run(fn, *args)

    def _keep(self, key: Hashable, answer: Answer) -> None:
        size = len(answer[1])
        if size > self.cache_bytes:
            return
        self._cache[key] = answer
        self._kept += size
        while self._kept > self.cache_bytes:
            _, dropped = self._cache.popitem(last=False)
            self._kept -= len(dropped[1])
