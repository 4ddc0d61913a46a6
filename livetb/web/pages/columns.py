"""The overlay's `?columns=`: each code read as the API reads a tie-break list, so `bhc1`,
`BH-C1` and `BH/C1` name the same column, written the way the standings name it (`BH/C1`).

The page then keeps the codes the tournament has and says which ones it does not, in words on
the overlay itself (a broadcaster sees it while setting the source up); a code that is no
tie-break at all is passed on as asked, to be named there too.
"""

from __future__ import annotations

import msgspec

from livetb.engine.spec import parse_spec
from livetb.errors import TiebreakSpecError

MAX_COLUMNS = 20  # more than any tie-break list; the rest of a longer query is ignored


class AskedColumn(msgspec.Struct):
    asked: str  # as written in the query
    code: str | None  # the standings' notation; None: no tie-break by that code


def asked_columns(text: str | None, tiebreaks: tuple[str, ...] = ()) -> list[AskedColumn]:
    """The codes of `?columns=`, in order, each as the standings name it: as the tournament's
    list `tiebreaks` spells it where it has that tie-break (it keeps a code as it was
    created), else in the reference's notation; None for no tie-break."""
    spelt = {}
    for own in tiebreaks:
        try:
            spelt[parse_spec(own, teams=True).text] = own
        except TiebreakSpecError:  # the log's list was checked when written; keep going
            continue
    out: list[AskedColumn] = []
    for raw in (text or "").split(",")[:MAX_COLUMNS]:
        asked = raw.strip()[:40]
        if not asked:
            continue
        try:
            canonical = parse_spec(asked, teams=True).text
        except TiebreakSpecError:
            out.append(AskedColumn(asked, None))
            continue
        out.append(AskedColumn(asked, spelt.get(canonical, canonical)))
    return out
