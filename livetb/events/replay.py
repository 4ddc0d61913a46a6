"""Replay a tournament's log into a new tournament, event by event, with its original rhythm.

The gap between two events is the gap between their timestamps divided by `speed`; events
stored together (an import is one batch) are `1 / speed` seconds apart. `speed=0` replays
without waiting. The demo uses this to make any imported TRF look live.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Iterator

from livetb.errors import TournamentExists, UnknownTournament
from livetb.events.schema import Recorded
from livetb.events.store import EventStore


def delay(previous: dt.datetime, current: dt.datetime, speed: float) -> float:
    """Seconds to wait before re-emitting `current`."""
    if speed <= 0:
        return 0.0
    gap = (current - previous).total_seconds()
    return (gap if gap > 0 else 1.0) / speed


def replay(
    store: EventStore,
    source: str,
    target: str,
    *,
    speed: float = 1.0,
    actor: str = "replay",
    sleep: Callable[[float], None] = time.sleep,
) -> Iterator[Recorded]:
    """Append `source`'s events to the new tournament `target` one at a time, yielding each
    as stored (its new seq and timestamp)."""
    if store.head(source) == 0:
        raise UnknownTournament(source)
    if store.head(target) != 0:
        raise TournamentExists(target)
    previous: dt.datetime | None = None
    seq = 0
    for rec in store.read(source):
        if previous is not None:
            sleep(delay(previous, rec.at, speed))
        previous = rec.at
        seq = store.append(target, seq, [rec.event], actor=actor)
        yield next(store.read(target, after=seq - 1))
