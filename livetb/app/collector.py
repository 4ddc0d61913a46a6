"""The process's one policy for CPython's garbage collector: no collection on the event loop
walks a large heap.

- **Viewers.** Every websocket viewer holds some seventy long-lived, collector-tracked
  objects (request, protocol, transport, response, task, subscriber). A full collection walks
  all of them: with 10,000 viewers that is a 0.5-1 s stall of the event loop, and so of every
  delta. Connections live for hours, so they are moved out of the collector's sight
  (`gc.freeze()`, which costs nothing) whenever the number of viewers has grown by a quarter
  since the last freeze (`joined`). Frozen objects are still freed by reference counting when
  a viewer leaves; only their cycles wait: once as many viewers have left as were there at the
  last freeze, what they left behind is collected in one full collection, and the survivors
  are frozen again (`left`).
- **The projection's work.** Folding results, settling and folding a round event replace
  rows' cells, contexts and keys: each new object counts up toward a young collection and
  each old one freed counts down, so the young generation grew unseen to 100,000 tuples and
  one collection walked them for 20-110 ms (a middle one, 130 ms), in the middle of a close.
  So the loop's slices of that work (`slice`: a settle slice, pieces of a round event's
  fold) pause the interpreter's own collections, which could land inside them and walk the
  tables they are filling, and end with a young collection (`settled`; applied results, a
  few hundred objects each, every `young_every` batches: `applied`): it walks only what came
  since, and unlinks from the collector's lists what holds no container (most of it: tuples
  of numbers and strings); every `older_every` it is the middle generation's. What stays
  tracked is little (a 10,000-row projection keeps some 4,000 objects, mostly DE's groups),
  so the interpreter's full collections, which walk all of it, take a few milliseconds;
  none is run here. A full collection still walks every entry of a tracked dict, and a
  context's caches (ten thousand entries each) are tracked as soon as a new tuple goes in:
  so the tables a round event makes (contexts, lines, order, DE groups) and a projection
  loaded whole are frozen with the rest of the heap instead (`kept`: a fold's slices, a
  load; some thirty times a tournament). They live until the next round event, and what of
  them events replace is freed by reference counting; a cycle that was alive at such a
  freeze and dies later waits for the viewers' next full collection (`left`).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


class Collector:
    """Freezes the heap as viewers accumulate and when a projection is loaded; collects once
    many viewers have left; a young collection after each slice of the projection's work."""

    def __init__(
        self, grow: float = 1.25, least: int = 200, young_every: int = 2, older_every: int = 16
    ) -> None:
        self.grow = grow  # freeze again once viewers exceed this factor of the frozen count
        self.least = least  # below this many viewers the ordinary collections are cheap
        self.young_every = young_every  # applied batches per young collection
        self.older_every = older_every  # young collections per middle one
        self.viewers = 0
        self.frozen = 0  # viewers at the last freeze
        self.departed = 0  # viewers gone since the last freeze
        self.batches = 0  # applied batches since the last young collection
        self.slices = 0  # young collections since the middle generation's

    def joined(self) -> None:
        self.viewers += 1
        if self.viewers >= max(self.least, self.frozen * self.grow):
            self._viewers_frozen()

    def left(self) -> None:
        self.viewers -= 1
        self.departed += 1
        if self.frozen and self.departed >= max(self.least, self.frozen):
            gc.unfreeze()
            gc.collect()
            self._viewers_frozen()

    def kept(self) -> None:
        """Long-lived tables were made (a projection loaded, a round event folded): out of
        every collection's way, with the rest of the heap."""
        gc.freeze()

    def applied(self) -> None:
        """Events applied on the loop (a result's work: a few hundred objects)."""
        self.batches += 1
        if self.batches >= self.young_every:
            self.settled()

    @contextmanager
    def slice(self, keeps: bool = False) -> Iterator[None]:
        """A slice of the projection's work on the loop (a settle slice, pieces of a round
        event's fold): no collection of the interpreter's lands inside it (a full one would
        walk the tables it is filling), a young collection ends it (`settled`); or, when
        what it makes is `keeps` (a fold's tables, long-lived: `kept`), a freeze (a young
        collection would walk them, and the middle one all of them so far)."""
        enabled = gc.isenabled()
        gc.disable()
        try:
            yield
        finally:
            if enabled:
                gc.enable()
            if keeps:
                self.kept()
            else:
                self.settled()

    def settled(self) -> None:
        """A slice of the projection's work on the loop ended (results applied, a settle
        slice, pieces of a round event's fold)."""
        self.batches = 0
        self.slices += 1
        if self.slices >= self.older_every:
            self.slices = 0
            gc.collect(1)
        else:
            gc.collect(0)

    def _viewers_frozen(self) -> None:
        gc.freeze()
        self.frozen, self.departed = self.viewers, 0
