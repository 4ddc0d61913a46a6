"""`GET …/standings?at_seq=N | ?after_round=K`: standings at a past log position, off the loop.

A replay folds thousands of events (0.2 s at 2,000 players, about 5 s at 10,000); on the event
loop it stalled every viewer and writer, and anyone may ask. So:

- it starts from the nearest snapshot at or before N (`service.load`, `EventStore.snapshot_at`);
- it runs in a worker thread, at most `concurrency` at a time: further requests wait for a
  slot, never the loop;
- a past position never changes, so answers are kept in a small LRU by (tournament, seq), and
  requests for a position already being replayed wait for that one replay.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict

import msgspec

from livetb.cli_db import to_json
from livetb.errors import InvalidInput
from livetb.events.schema import RoundClosed
from livetb.events.store import EventStore
from livetb.service import load

Key = tuple[str, int]  # (tournament, seq)


class TimeTravel:
    """Past standings as encoded JSON bodies, computed off the loop, bounded and cached."""

    def __init__(self, store: EventStore, *, concurrency: int = 2, cache_size: int = 32) -> None:
        self.store = store
        self.cache_size = cache_size
        self._slots = asyncio.Semaphore(concurrency)
        self._cache: OrderedDict[Key, bytes] = OrderedDict()
        self._running: dict[Key, asyncio.Future[bytes]] = {}
        self._closed_at: dict[Key, int] = {}  # (tournament, round) -> seq of its RoundClosed

    async def standings(self, tournament_id: str, at_seq: int) -> tuple[int, bytes]:
        """The log position actually reached (at most the head) and the standings' JSON."""
        key = (tournament_id, min(at_seq, self.store.head(tournament_id)))
        body = self._cache.get(key)
        if body is not None:
            self._cache.move_to_end(key)
            return key[1], body
        running = self._running.get(key)
        if running is None:
            running = self._running[key] = asyncio.ensure_future(self._replay(key))
            running.add_done_callback(lambda _: self._running.pop(key, None))
        return key[1], await asyncio.shield(running)  # one waiter leaving never cancels it

    async def round_closed_at(self, tournament_id: str, rnd: int) -> int:
        """The seq of round `rnd`'s RoundClosed (422 if it is not closed): a scan of the log,
        so off the loop too. Once closed, always closed at that seq: kept."""
        seq = self._closed_at.get((tournament_id, rnd))
        if seq is None:
            async with self._slots:
                seq = await asyncio.to_thread(self._find_close, tournament_id, rnd)
            self._closed_at[(tournament_id, rnd)] = seq
        return seq

    async def _replay(self, key: Key) -> bytes:
        async with self._slots:
            body = await asyncio.to_thread(self._fold, *key)
        self._cache[key] = body
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return body

    def _fold(self, tournament_id: str, seq: int) -> bytes:
        """In a worker thread: the projection at `seq`, encoded once."""
        return msgspec.json.encode(to_json(load(self.store, tournament_id, seq)))

    def _find_close(self, tournament_id: str, rnd: int) -> int:
        for rec in self.store.read(tournament_id):
            if isinstance(rec.event, RoundClosed) and rec.event.round == rnd:
                return rec.seq
        raise InvalidInput(f"after_round={rnd}: round {rnd} is not closed", path="after_round")
