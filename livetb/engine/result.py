"""What a tie-break returns for one participant: its value and, for `--explain`, where it came
from (each round's contribution, the rounds cut and why)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal

import msgspec

Number = Decimal | int


class Part(msgspec.Struct, frozen=True):
    """One round's contribution to a tie-break."""

    rnd: int
    amount: Number
    note: str = ""  # e.g. "opponent 12", "own unplayed (HPB, requested bye)"


class Value(msgspec.Struct, frozen=True):
    value: Number | None
    parts: tuple[Part, ...] = ()
    cut: tuple[tuple[int, str], ...] = ()  # (round, why)


def half_up(x: Decimal, places: str) -> Decimal:
    """C.07 averages: rounded half up (AOB to 0.01, rating averages to whole numbers)."""
    return x.quantize(Decimal(places), rounding=ROUND_HALF_UP)


def average(values: Sequence[Number], places: str) -> Decimal | None:
    if not values:
        return None
    return half_up(Decimal(sum(values)) / len(values), places)
