"""Keeping CPython's full garbage collections off the viewers' connections.

Every websocket viewer holds some seventy long-lived, collector-tracked objects (request,
protocol, transport, response, task, subscriber). A full collection walks all of them: with
10,000 viewers that is a 0.5-1 s stall of the event loop, and so of every delta. Connections
live for hours, so `Collector` moves them out of the collector's sight (`gc.freeze()`, which
costs nothing) whenever the number of viewers has grown by a quarter since the last freeze.

Frozen objects are still freed by reference counting when a viewer leaves; only their cycles
wait. Once as many viewers have left as were there at the last freeze, what they left behind
is collected in one deliberate full collection, and the survivors are frozen again.
"""

from __future__ import annotations

import gc


class Collector:
    """Freezes the heap as viewers accumulate; collects once many have left."""

    def __init__(self, grow: float = 1.25, least: int = 200) -> None:
        self.grow = grow  # freeze again once viewers exceed this factor of the frozen count
        self.least = least  # below this many viewers the ordinary collections are cheap
        self.viewers = 0
        self.frozen = 0  # viewers at the last freeze
        self.departed = 0  # viewers gone since the last freeze

    def joined(self) -> None:
        self.viewers += 1
        if self.viewers >= max(self.least, self.frozen * self.grow):
            self._freeze()

    def left(self) -> None:
        self.viewers -= 1
        self.departed += 1
        if self.frozen and self.departed >= max(self.least, self.frozen):
            gc.unfreeze()
            gc.collect()
            self._freeze()

    def _freeze(self) -> None:
        gc.freeze()
        self.frozen, self.departed = self.viewers, 0
