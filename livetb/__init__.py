"""livetb: live chess standings with exact FIDE tie-breaks.

As a library (`livetb/library.py`; docs/library.md)::

    import livetb
    table = livetb.standings("event.trf", tiebreaks="PTS,BH/C1,BH")
    for row in table.rows:
        print(row.rank, row.name, *row.values)

The names below load on first use, so the command line and the server start without them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# name -> the module that defines it
_EXPORTS = {
    "standings": "livetb.library",
    "explain": "livetb.library",
    "read_trf": "livetb.library",
    "Tournament": "livetb.engine.model",
    "Participant": "livetb.engine.model",
    "Entry": "livetb.engine.model",
    "Code": "livetb.engine.model",
    "Scoring": "livetb.engine.model",
    "Standings": "livetb.engine.standings",
    "Row": "livetb.engine.standings",
    "Value": "livetb.engine.result",
    "Part": "livetb.engine.result",
    "Edition": "livetb.engine.editions",
    "TrfImport": "livetb.trf",
    "LivetbError": "livetb.errors",
    "InvalidInput": "livetb.errors",
    "TrfError": "livetb.errors",
    "TrfIssue": "livetb.errors",
    "TiebreakSpecError": "livetb.errors",
    "ImportUnsupported": "livetb.errors",
    "RoundsDiffer": "livetb.errors",
    "UnknownParticipant": "livetb.errors",
}

__all__ = ["__version__", *_EXPORTS]

if TYPE_CHECKING:
    from livetb.engine.editions import Edition as Edition
    from livetb.engine.model import Code as Code
    from livetb.engine.model import Entry as Entry
    from livetb.engine.model import Participant as Participant
    from livetb.engine.model import Scoring as Scoring
    from livetb.engine.model import Tournament as Tournament
    from livetb.engine.result import Part as Part
    from livetb.engine.result import Value as Value
    from livetb.engine.standings import Row as Row
    from livetb.engine.standings import Standings as Standings
    from livetb.errors import ImportUnsupported as ImportUnsupported
    from livetb.errors import InvalidInput as InvalidInput
    from livetb.errors import LivetbError as LivetbError
    from livetb.errors import RoundsDiffer as RoundsDiffer
    from livetb.errors import TiebreakSpecError as TiebreakSpecError
    from livetb.errors import TrfError as TrfError
    from livetb.errors import TrfIssue as TrfIssue
    from livetb.errors import UnknownParticipant as UnknownParticipant
    from livetb.library import explain as explain
    from livetb.library import read_trf as read_trf
    from livetb.library import standings as standings
    from livetb.trf import TrfImport as TrfImport


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'livetb' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
