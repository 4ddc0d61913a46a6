"""The process's one policy for CPython's garbage collector: full collections kept off the
event loop's busy moments, run once, deliberately, when what waits for them has grown.

- **Viewers.** Every websocket viewer holds some seventy long-lived, collector-tracked
  objects (request, protocol, transport, response, task, subscriber). A full collection walks
  all of them: with 10,000 viewers that is a 0.5-1 s stall of the event loop, and so of every
  delta. Connections live for hours, so they are moved out of the collector's sight
  (`gc.freeze()`, which costs nothing) whenever the number of viewers has grown by a quarter
  since the last freeze (`joined`). Frozen objects are still freed by reference counting when
  a viewer leaves; only their cycles wait: once as many viewers have left as were there at the
  last freeze, what they left behind is collected in one full collection, and the survivors
  are frozen again (`left`).
- **Settle slices.** Settling replaces rows' cells, contexts and keys: each new object counts
  up toward a young collection, so the young generation grew unseen to 100,000 tuples between
  collections and one collection walked them for 20-45 ms (a full one, 130 ms) inside a
  slice. Every slice ends with a freeze (`settled`): the young generation holds only what came
  since the last slice. The projection leaves no cycles (its objects are freed by reference
  counting); other cycles (a request's, say) wait frozen until the frozen heap has doubled
  since the last full collection, which then runs once. `gc.get_freeze_count()` walks the
  whole frozen list (milliseconds at 10,000 players): it is read once every `count_every`
  slices.
"""

from __future__ import annotations

import gc


class Collector:
    """Freezes the heap as viewers accumulate and after each settle slice; collects once many
    viewers have left, or once the frozen heap has doubled."""

    def __init__(
        self, grow: float = 1.25, least: int = 200, count_every: int = 1024, floor: int = 1_000_000
    ) -> None:
        self.grow = grow  # freeze again once viewers exceed this factor of the frozen count
        self.least = least  # below this many viewers the ordinary collections are cheap
        self.count_every = count_every
        self.floor = floor  # a frozen heap this small is never worth a full collection
        self.viewers = 0
        self.frozen = 0  # viewers at the last freeze
        self.departed = 0  # viewers gone since the last freeze
        self.slices = 0  # settle slices since the frozen heap was last counted
        self.survived = 0  # the frozen heap right after the last deliberate full collection

    def joined(self) -> None:
        self.viewers += 1
        if self.viewers >= max(self.least, self.frozen * self.grow):
            self._viewers_frozen()

    def left(self) -> None:
        self.viewers -= 1
        self.departed += 1
        if self.frozen and self.departed >= max(self.least, self.frozen):
            self._collect()
            self._viewers_frozen()

    def settled(self) -> None:
        """A settle slice ended."""
        self.slices += 1
        if self.slices >= self.count_every:
            self.slices = 0
            if gc.get_freeze_count() > 2 * max(self.survived, self.floor):
                self._collect()
                return
        gc.freeze()

    def _viewers_frozen(self) -> None:
        gc.freeze()
        self.frozen, self.departed = self.viewers, 0

    def _collect(self) -> None:
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.survived = gc.get_freeze_count()
