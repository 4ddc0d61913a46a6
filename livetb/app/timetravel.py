"""`GET …/standings?at_seq=N | ?after_round=K`: standings at a past log position, off the loop.

A replay folds thousands of events (0.2 s at 2,000 players, about 5 s at 10,000); on the event
loop it stalled every viewer and writer, and anyone may ask. So:

- it starts from the nearest snapshot at or before N (`stored.load`, `EventStore.snapshot_at`);
- it runs in a worker, at most `concurrency` at a time: further requests wait for a slot,
  never the loop. The server's workers are processes: a replay in a thread would hold the GIL
  the loop needs (a burst of 20 delayed a delta by 100-200 ms at 2,000 players);
- a past position never changes, so answers are kept in a small LRU by (tournament, seq), and
  requests for a position already being replayed wait for that one replay;
- a worker process that dies (killed, out of memory) breaks its whole pool: the pool is
  replaced and the replays it failed run once more on the new one.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing as mp
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import forkserver
from typing import ParamSpec, TypeVar

import msgspec

from livetb.backends import open_store
from livetb.errors import InvalidInput, Said
from livetb.events.schema import RoundClosed
from livetb.events.store import EventStore
from livetb.projections.document import to_json
from livetb.projections.stored import load

log = logging.getLogger(__name__)

Key = tuple[str, int]  # (tournament, seq)
Source = EventStore | str  # a store, or (in a worker process) the path of a SQLite store


class TimeTravel:
    """Past standings as encoded JSON bodies, computed off the loop, bounded and cached.

    `source` is what the worker folds from: `store` itself for threads (`executor` None: the
    loop's default pool), or the SQLite file's path for a process pool."""

    def __init__(
        self,
        store: EventStore,
        *,
        source: Source | None = None,
        executor: Executor | None = None,
        concurrency: int = 2,
        cache_size: int = 32,
    ) -> None:
        self.store = store
        self.source: Source = store if source is None else source
        self.executor = executor
        self.cache_size = cache_size
        self.running = self.most_running = 0  # replays in a worker now, and at most so far
        self._slots = asyncio.Semaphore(concurrency)
        self._cache: OrderedDict[Key, bytes] = OrderedDict()
        self._replays: dict[Key, asyncio.Future[bytes]] = {}
        self._closed_at: dict[Key, int] = {}  # (tournament, round) -> seq of its RoundClosed

    async def standings(self, tournament_id: str, at_seq: int) -> tuple[int, bytes]:
        """The log position actually reached (at most the head) and the standings' JSON."""
        head = await asyncio.to_thread(self.store.head, tournament_id)
        key = (tournament_id, min(at_seq, head))
        body = self._cache.get(key)
        if body is not None:
            self._cache.move_to_end(key)
            return key[1], body
        replay = self._replays.get(key)
        if replay is None:
            replay = self._replays[key] = asyncio.ensure_future(self._replay(key))
            replay.add_done_callback(lambda _: self._replays.pop(key, None))
        return key[1], await asyncio.shield(replay)  # one waiter leaving never cancels it

    async def round_closed_at(self, tournament_id: str, rnd: int) -> int:
        """The seq of round `rnd`'s RoundClosed (422 if it is not closed): a scan of the log,
        so off the loop too. Once closed, always closed at that seq: kept."""
        seq = self._closed_at.get((tournament_id, rnd))
        if seq is None:
            seq = await self._run(closed_at, tournament_id, rnd)
            self._closed_at[(tournament_id, rnd)] = seq
        return seq

    async def _replay(self, key: Key) -> bytes:
        body = await self._run(fold, *key)
        self._cache[key] = body
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return body

    async def _run(self, work: Callable[[Source, str, int], T], tid: str, n: int) -> T:
        async with self._slots:
            self.running += 1
            self.most_running = max(self.most_running, self.running)
            try:
                pool = self.executor
                if not isinstance(pool, ProcessPool):
                    loop = asyncio.get_running_loop()
                    return await loop.run_in_executor(pool, work, self.source, tid, n)
                used = pool.current
                try:
                    return await pool.run(work, self.source, tid, n)
                except BrokenProcessPool:
                    pool.renew(used)  # once for all the replays it failed
                    return await pool.run(work, self.source, tid, n)
            finally:
                self.running -= 1


T = TypeVar("T")
_opened: dict[str, EventStore] = {}  # a worker process's own store, by path or URL


def _store(source: Source) -> EventStore:
    if not isinstance(source, str):
        return source
    store = _opened.get(source)
    if store is None:
        store = _opened[source] = open_store(source)
    return store


def fold(source: Source, tournament_id: str, seq: int) -> bytes:
    """In a worker: the standings at `seq`, encoded once."""
    return msgspec.json.encode(to_json(load(_store(source), tournament_id, seq)))


def closed_at(source: Source, tournament_id: str, rnd: int) -> int:
    """In a worker: the seq of round `rnd`'s RoundClosed."""
    for rec in _store(source).read(tournament_id):
        if isinstance(rec.event, RoundClosed) and rec.event.round == rnd:
            return rec.seq
    raise InvalidInput(Said("api.round_not_closed", round=rnd), path="after_round")


P = ParamSpec("P")


class ProcessPool(Executor):
    """A process pool that `renew` replaces once one of its workers died (which breaks a
    `ProcessPoolExecutor` for good); `shutdown` stops the pool of the moment."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.current = _new_pool(workers)
        self.renewed = 0
        self._lock = threading.Lock()  # (shutdown runs in a thread of its own)

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        return self.current.submit(fn, *args, **kwargs)

    async def run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args)` in a worker, for the event loop: submitted from a thread, as a submit
        may start a worker process (80-100 ms that would hold the loop)."""
        future = await asyncio.to_thread(self.current.submit, fn, *args, **kwargs)
        return await asyncio.wrap_future(future)

    def renew(self, broken: ProcessPoolExecutor) -> None:
        """Replace `broken`, unless another failed replay already did."""
        with self._lock:
            if self.current is not broken:
                return
            self.current = _new_pool(self.workers)
            self.renewed += 1
        log.warning("a time-travel worker process died; its pool was replaced")
        broken.shutdown(wait=False, cancel_futures=True)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            pool = self.current
        pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def process_pool(workers: int) -> ProcessPool:
    """Workers started on first use, forked from the fork server (`start_fork_server`, never
    a fork of the threaded server itself), at a lower CPU priority: where cores are short,
    the loop's deltas come before replays."""
    return ProcessPool(workers)


# Where there is no fork server, a fresh interpreter per worker.
_START = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"


def start_fork_server(preload: list[str]) -> None:
    """Start the process workers are forked from, with `preload`'s modules imported, once
    per process; best while the server's heap is small. Starting a worker forks the process
    that starts it, the interpreter lock held: a server holding a 2,000-player projection
    held its loop 80-130 ms for it, and the fork server's own start does the same."""
    if _START == "forkserver":
        mp.set_forkserver_preload(preload)
        forkserver.ensure_running()


def _new_pool(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=mp.get_context(_START),
        initializer=_started,
        initargs=(os.getpid(),),
    )


def _started(server: int) -> None:
    """A worker yields the CPU, and ends with its server however that ends."""
    os.nice(REPLAY_NICENESS)
    threading.Thread(target=_end_with, args=(server,), name="end-with-server", daemon=True).start()


def _end_with(server: int) -> None:
    """A server killed outright (kill -9) shuts no pool down, and a worker waiting for work
    holds its own queue open: it would wait forever (and keep the fork server, whose pipe it
    holds, alive too). So each worker looks for its server once a second."""
    while not _gone(server):
        time.sleep(1.0)
    os._exit(0)


def _gone(pid: int) -> bool:
    """Whether process `pid` has ended: no longer there, or a zombie (its parent may be
    waiting for this worker's end, holding the same output, before it reaps it)."""
    if os.path.isdir("/proc/self"):
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                return stat.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X")
        except FileNotFoundError:
            return True
    try:  # no /proc: ask the kernel
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # another user's process has the pid by now
        return True
    return False


REPLAY_NICENESS = 10  # the kernel gives such a worker about a tenth of a server's CPU share
