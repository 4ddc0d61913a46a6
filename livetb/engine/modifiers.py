"""A tie-break as a list names it, its modifiers as values (C.07 2024 Art. 14; 2023 Art. 13),
and the kinds of modifier a code takes. The catalogue (`catalogue.py`) says which code takes
which; the parser (`spec.py`) reads the notation into a `Spec`."""

from __future__ import annotations

from decimal import Decimal
from enum import Enum

import msgspec


class Takes(Enum):
    """Which modifiers a tie-break accepts (2024 Art. 14; US Chess `/O`, `us_chess.py`), as
    (Cut-n, Median-n, Koya Limit, other reading): KS takes a limit and no cut, MM a median and
    the other reading, so "KS with Cut-1" cannot be written."""

    NOTHING = (False, False, False, False)
    CUT = (True, False, False, False)
    CUT_OR_MEDIAN = (True, True, False, False)
    LIMIT = (False, False, True, False)
    OTHER = (False, False, False, True)
    MEDIAN_OR_OTHER = (False, True, False, True)

    def __init__(self, cut: bool, median: bool, limit: bool, other: bool) -> None:
        self.cut, self.median, self.limit, self.other = cut, median, limit, other

    @property
    def offered(self) -> tuple[str, ...]:
        """The modifiers a tie-break list editor offers ("" = none): Cut and Median of 1 or 2
        (2024 14.1-14.4), the Koya limit a half point either way (14.5); `/O` is left to the
        written list, as the picker has no name for it."""
        out = [""]
        if self.cut:
            out += ["C1", "C2"]
        if self.median:
            out += ["M1", "M2"]
        if self.limit:
            out += ["L+1", "L0", "L-1"]
        return tuple(out)


class Spec(msgspec.Struct, frozen=True):
    """One tie-break of the list: the code plus its modifiers."""

    code: str
    cut_low: int = 0
    cut_high: int = 0
    ks_percent: Decimal = Decimal(50)  # Koya: share of the maximum score an opponent needs
    ks_steps: int = 0  # Koya: half points added to that limit (13.5: `L+1` raises it by ½)
    points: str = ""  # teams: "MP" or "GP" (`BH:MP`); "" = the event's primary score
    other: bool = False  # US Chess: the other reading of the unplayed-games rule (`MM/O`)

    @property
    def text(self) -> str:
        """The reference's notation, e.g. `BH/C1`, `BH/M2`, `KS/L+1`, `BH:MP/C1`."""
        mods = []
        if self.cut_high:
            mods.append(f"M{self.cut_high}")
        elif self.cut_low:
            mods.append(f"C{self.cut_low}")
        if self.ks_steps:
            mods.append(f"L{self.ks_steps:+d}")
        elif self.ks_percent != 50:
            mods.append(f"L{self.ks_percent}")
        if self.other:
            mods.append("O")
        head = f"{self.code}:{self.points}" if self.points else self.code
        return "/".join([head, *mods])
