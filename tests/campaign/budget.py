"""How big each campaign runs: smaller in CI (`CI=true`), where the suite's time is shared;
`LIVETB_CAMPAIGN=full` for the issue's full sizes. Every campaign prints its figures."""

from __future__ import annotations

import os


def size(ci: int, local: int) -> int:
    if os.environ.get("LIVETB_CAMPAIGN") == "full":
        return local
    return ci if os.environ.get("CI", "").lower() in ("1", "true", "yes") else local
