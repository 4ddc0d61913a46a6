"""How big each campaign runs. The suite (and CI, `CI=true` or not) runs the small sizes, so
the four campaigns stay well under a minute together; `LIVETB_CAMPAIGN=full` runs the larger
ones locally. Every campaign prints its figures (`pytest -s tests/campaign`)."""

from __future__ import annotations

import os


def size(ci: int, local: int) -> int:
    """`ci` in the suite, `local` with LIVETB_CAMPAIGN=full."""
    return local if os.environ.get("LIVETB_CAMPAIGN") == "full" else ci
