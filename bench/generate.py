"""A generated Swiss tournament as an event log (the generator is the demo's,
`livetb.demo.tournament`), and that log as stored records for the benchmarks."""

from __future__ import annotations

import datetime as dt

from livetb.demo.tournament import swiss_events
from livetb.events.schema import AnyEvent, Recorded

__all__ = ["as_log", "swiss_events"]


def as_log(events: list[AnyEvent], tournament_id: str = "bench") -> list[Recorded]:
    at = dt.datetime(2026, 7, 1, tzinfo=dt.UTC)
    return [
        Recorded(tournament_id=tournament_id, seq=i, at=at, actor="bench", event=e)
        for i, e in enumerate(events, start=1)
    ]
