"""Keeping this node's projections current with the other nodes' writes to the shared store.

The store's change signal (`livetb/events/changes.py`) calls in from its thread; here, on the
event loop, each tournament this node holds is caught up once per burst of signals (reading
off the loop, applying and publishing on it), so its viewers get the other nodes' deltas.
"""

from __future__ import annotations

import asyncio
import logging

from livetb.app.service import TournamentService
from livetb.events.changes import ChangeSignal

log = logging.getLogger(__name__)


class Follower:
    def __init__(self, service: TournamentService, signal: ChangeSignal) -> None:
        self.service = service
        self.signal = signal
        self._due: set[str] = set()  # tournaments to catch up
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self.signal.start(self._notify)

    async def stop(self) -> None:
        await asyncio.to_thread(self.signal.stop)
        if self._task is not None:
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
        while self._due:
            tid = self._due.pop()  # signals that arrive meanwhile add it again: none is lost
            try:
                await self.service.current(tid)
            except Exception:
                log.exception("catching up with tournament %s", tid)
