"""Rating change by the FIDE Rating Regulations (B.02, as in force from 1 October 2025).

- 8.3.1: for each game against a rated opponent, the rating difference D; a difference of more
  than 400 points counts as 400 for players rated below 2650, while for players rated 2650 and
  above the difference is used in all cases (the exception FIDE added from 1 October 2025).
- 8.1(b): the expected score PD by D (`fide_tables.DIFF_TO_PD`, in hundredths: the higher
  rated player's; the lower rated player's is 1 minus it).
- 8.3.2–8.3.3: per game, Δ = K × (score − PD); K is 40 for a player until the end of the year
  of their 18th birthday while rated under 2300 (and for a player with fewer than 30 rated
  games, which only the arbiter knows: `k` set per participant), 20 under 2400, 10 from 2400.

Games against unrated opponents and unplayed games (forfeits, byes) give no rating change;
games of less than one move are not rated either (TRF `W`/`D`/`L`). Everything is exact:
expected scores in hundredths, changes as `Decimal`, never floats.
"""

from __future__ import annotations

from decimal import Decimal

from livetb.engine.fide_tables import DIFF_TO_PD
from livetb.engine.model import Code

CAP = 400  # 8.3.1: a larger difference counts as 400 ...
UNCAPPED_FROM = 2650  # ... for players rated below 2650 only

# The codes of a rated game and the score it counts (1, ½, 0 whatever the event's scoring).
RATED_SCORE: dict[Code, Decimal] = {
    Code.WIN: Decimal(1),
    Code.DRAW: Decimal("0.5"),
    Code.LOSS: Decimal(0),
}


_LAST = len(DIFF_TO_PD) - 1  # 800: every larger difference reads as it does


def expected(own: int, opponent: int) -> int:
    """The player's expected score against `opponent` in hundredths (8.1(b), 8.3.1)."""
    diff = own - opponent
    weaker = diff < 0
    if weaker:
        diff = -diff
    if diff > CAP and own < UNCAPPED_FROM:
        diff = CAP
    pd = DIFF_TO_PD[diff if diff < _LAST else _LAST]
    return 100 - pd if weaker else pd


def default_k(rating: int, birth_date: str = "", year: int | None = None) -> int:
    """K by 8.3.3 from what the record tells: 40 until the end of the year of the 18th
    birthday while rated under 2300 (`year`: the rating year; unknown, or no birth year:
    not a junior), 20 under 2400, 10 from 2400."""
    born = birth_year(birth_date)
    if born is not None and year is not None and year - born <= 18 and rating < 2300:
        return 40
    return 20 if rating < 2400 else 10


def birth_year(birth_date: str) -> int | None:
    """The year of a birth date as a TRF writes it (`YYYY/MM/DD`, `YYYY-MM-DD`, `YYYY`)."""
    head = birth_date.strip()[:4]
    return int(head) if len(head) == 4 and head.isdigit() and int(head) > 0 else None


def game_change(k: int, own: int, opponent: int, score: Decimal) -> Decimal:
    """Δ = K × (score − PD) for one rated game."""
    return k * (score - Decimal(expected(own, opponent)) / 100)


def hundredths_text(value: int) -> str:
    """A change given in hundredths as `text` writes it: 720 -> `7.2`, -15 -> `-0.15`."""
    whole, cents = divmod(abs(value), 100)
    sign = "-" if value < 0 else ""
    return f"{sign}{whole}.{cents // 10}" if cents % 10 == 0 else f"{sign}{whole}.{cents:02d}"


def text(value: Decimal) -> str:
    """A change as an exact decimal string with at least one decimal: `7.2`, `-3.6`, `0.0`,
    `0.15` (a K of 15)."""
    if value == 0:
        return "0.0"
    shown = value.normalize()
    exponent = shown.as_tuple().exponent
    assert isinstance(exponent, int)
    return f"{shown:.{max(1, -exponent)}f}"
