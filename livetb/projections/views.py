"""Which view of a running tournament a tie-break is read on, and the status its value carries
(C.07 2024 4.3 types; the table in `livetb/projections/standings.py`). K is the last round
paired, C the last closed:

- `live`: rounds 1..K, unfinished games 0 (own results, pairing-time data): provisional;
- `done`: rounds 1..C (opponents' results, type C): final;
- `fore`: round K as the last one, its games drawn (FB): predicted.

Once K is closed the three views read the same rounds and every value is final. Team events
pass their own type-C set.
"""

from __future__ import annotations

from typing import Literal

from livetb.engine.standings import TYPE_C
from livetb.wire.standings import Status

View = Literal["live", "done", "fore"]


def view_of(code: str, running: bool, type_c: frozenset[str] = TYPE_C) -> View:
    if code == "FB":
        return "fore" if running else "done"
    return "done" if code in type_c else "live"


def status_of(code: str, running: bool, type_c: frozenset[str] = TYPE_C) -> Status:
    if code == "FB":
        return "predicted" if running else "final"
    if code in type_c:
        return "final"
    return "provisional" if running else "final"
