"""Keeping this node's projections current with the other nodes' writes to the shared store.

The store's change signal (`livetb/events/changes.py`) calls in from its thread; here, on the
event loop, each tournament this node holds is caught up once per burst of signals (reading
off the loop, applying and publishing on it), so its viewers get the other nodes' deltas.

A catch-up that fails (the store down, or this node's connection cut: the signal's own
connection may be back before it) is retried with backoff until it succeeds, so viewers get
what was committed meanwhile without waiting for the next event. One log line per outage.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from livetb.app.service import TournamentService
from livetb.errors import UnknownTournament
from livetb.events.changes import ChangeSignal

log = logging.getLogger(__name__)

RETRY_FIRST, RETRY_MOST = 0.05, 1.0  # seconds between catch-ups that failed: viewers lag ≤ 1 s


class Follower:
    def __init__(self, service: TournamentService, signal: ChangeSignal) -> None:
        self.service = service
        self.signal = signal
        self._due: set[str] = set()  # tournaments to catch up
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.down = False  # the last catch-up failed: retrying

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self.signal.start(self._notify)

    async def stop(self) -> None:
        await asyncio.to_thread(self.signal.stop)
        if self._task is not None:
            if self.down:  # retrying against a store that is gone: nothing left to wait for
                self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def _notify(self, tournament_id: str | None) -> None:
        """From the signal's thread."""
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self._mark, tournament_id)

    def _mark(self, tournament_id: str | None) -> None:
        if tournament_id is None:
            self._due.update(self.service.held())
        elif self.service.holds(tournament_id):
            self._due.add(tournament_id)
        if self._due and (self._task is None or self._task.done()):
            self._task = asyncio.create_task(self._catch_up())

    async def _catch_up(self) -> None:
        delay = RETRY_FIRST
        while self._due:
            failed: set[str] = set()
            while self._due:
                tid = self._due.pop()  # signals arriving meanwhile add it again: none is lost
                try:
                    await self.service.current(tid)
                except UnknownTournament:
                    pass  # no log (a create that was refused): nothing to follow
                except Exception as err:
                    failed.add(tid)
                    if not self.down:
                        self.down = True
                        reason = " ".join(str(err).split()) or type(err).__name__
                        log.warning("catching up with the store failed (%s); retrying", reason)
            if failed:
                self._due |= failed
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MOST)
        if self.down:
            self.down = False
            log.warning("caught up with the store again")
