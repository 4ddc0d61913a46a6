"""Editions of the C.07 unplayed-rounds rules, chosen per tournament, defaulting by start date.

| edition | in force from | own unplayed round counts as   | final forfeit loss, for opponents |
|---------|---------------|--------------------------------|-----------------------------------|
| legacy  | (before 2023) | virtual opponent (seed 004)    | draw (all unplayed are draws)     |
| 2023    | 2023-07-01    | own standings score (14.5)     | draw (14.3.5, 14.4.2)             |
| 2024    | 2024-08-01    | own standings score (16.4)     | loss, as awarded                  |
| 2026    | 2026-03-01    | own score, capped (16.4)       | loss, as awarded (seed 002)       |
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum


class Edition(StrEnum):
    LEGACY = "legacy"
    FIDE_2023 = "2023"
    FIDE_2024 = "2024"
    FIDE_2026 = "2026"

    @property
    def caps_own_unplayed(self) -> bool:
        """2026 16.4: an own unplayed round is worth at most the scheduled opponent's score, or
        rounds x draw points when there was no opponent."""
        return self is Edition.FIDE_2026

    @property
    def final_forfeit_loss_is_draw(self) -> bool:
        """2023 14.3.5/14.4.2: a forfeit loss not followed by an available round is a draw."""
        return self is Edition.FIDE_2023


_STARTS = (
    (dt.date(2026, 3, 1), Edition.FIDE_2026),
    (dt.date(2024, 8, 1), Edition.FIDE_2024),
    (dt.date(2023, 7, 1), Edition.FIDE_2023),
)


def in_force() -> list[tuple[Edition, dt.date]]:
    """Each dated edition with the day its rules apply from, newest first (before the last
    of these days: `Edition.LEGACY`)."""
    return [(edition, begins) for begins, edition in _STARTS]


def edition_for(start: dt.date | None, today: dt.date | None = None) -> Edition:
    """The edition FIDE applies to a tournament starting on `start` (no date: today's rules)."""
    day = start or today or dt.date.today()
    for begins, edition in _STARTS:
        if day >= begins:
            return edition
    return Edition.LEGACY
