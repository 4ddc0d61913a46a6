"""Which view of a running tournament a tie-break is read on, and the status its value carries
(C.07 2024 4.3 types; the table in `livetb/projections/standings.py`). K is the last round
paired, C the last closed:

- `live`: rounds 1..K, unfinished games 0 (own results, pairing-time data): provisional;
- `done`: rounds 1..C (opponents' results, type C): pending while K runs (the value as of
  round C, which moves when K closes), final otherwise;
- `fore`: round K as the last one, its games drawn (FB): predicted.

Once K is closed the three views read the same rounds and every value is final. The view is
the tie-break's catalogue record's (`type_c`, `fore`), for teams as for individuals.
"""

from __future__ import annotations

from typing import Literal

from livetb.engine.catalogue import TIEBREAKS
from livetb.wire.standings import Status

View = Literal["live", "done", "fore"]


def view_of(code: str, running: bool) -> View:
    """The view tie-break `code` is read on."""
    tb = TIEBREAKS[code]
    if tb.fore:
        return "fore" if running else "done"
    return "done" if tb.type_c else "live"


def status_of(code: str, running: bool) -> Status:
    """The status of tie-break `code`'s values (2024 4.3)."""
    tb = TIEBREAKS[code]
    if tb.fore:
        return "predicted" if running else "final"
    if tb.type_c:
        return "pending" if running else "final"
    return "provisional" if running else "final"
