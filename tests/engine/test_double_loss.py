"""A game both players lost over the board (0-0): a game played, lost by each (C.07 2024 16.1,
2023 14.1.1: a round is unplayed only when no game was played), never an unplayed round like
the double forfeit it scores the same as.

Every expected value is computed by hand from the crosstable below.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from livetb.engine.context import Context
from livetb.engine.direct_encounter import direct_encounter
from livetb.engine.editions import Edition
from livetb.engine.spec import parse_spec
from livetb.engine.standings import compute
from tests.builders import beats, both_lose, double_forfeit, draws, swiss

D = Decimal
NAMES = "ABCD"
RATINGS: dict[str, int | None] = {"A": 2100, "B": 2000, "C": 1900, "D": 1800}


#          R1            R2              Pts
#  A(1)   1 vs B w      0 vs C w (0-0)   1
#  B(2)   0 vs A b      ½ vs D w         ½
#  C(3)   1 vs D w      0 vs A b (0-0)   1
#  D(4)   0 vs C b      ½ vs B b         ½
def _tournament(*, lost_by_both: bool = True, edition: Edition = Edition.FIDE_2024) -> Context:
    t = swiss(rounds=2, players=NAMES, ratings=RATINGS)
    t.round(1, beats("A", "B"), beats("C", "D"))
    t.round(2, both_lose("A", "C") if lost_by_both else double_forfeit("A", "C"), draws("B", "D"))
    return t.context(edition=edition)


def _values(ctx: Context, code: str) -> dict[str, object]:
    spec = parse_spec(code)
    return {name: compute(ctx, spec, no).value for no, name in enumerate(NAMES, start=1)}


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        # a loss scores the loss value, 0, for each side
        ("PTS", {"A": D(1), "B": D("0.5"), "C": D(1), "D": D("0.5")}),
        # 2024 7.1 and 7.2: no win in it for either
        ("WIN", {"A": 1, "B": 0, "C": 1, "D": 0}),
        ("WON", {"A": 1, "B": 0, "C": 1, "D": 0}),
        # 2024 7.3: C played Black in it, over the board
        ("BPG", {"A": 0, "B": 1, "C": 1, "D": 2}),
        # 2024 7.6: a game elected to play, not a forfeit loss
        ("GE", {"A": 2, "B": 2, "C": 2, "D": 2}),
        # 2024 8.1: each has the other's score as a term (no own unplayed round)
        ("BH", {"A": D("1.5"), "B": D("1.5"), "C": D("1.5"), "D": D("1.5")}),
        # 2024 10.1: the other's score times the 0 scored against it
        ("SB", {"A": D("0.5"), "B": D("0.25"), "C": D("0.5"), "D": D("0.25")}),
        # 2024 9.1 and 9.2: a game played against a rated opponent, scored 0
        ("ARO", {"A": 1950, "B": 1950, "C": 1950, "D": 1950}),
        # B and D: ½ of 2 games, p 0.25, dp -193
        ("TPR", {"A": 1950, "B": 1757, "C": 1950, "D": 1757}),
    ],
)
@pytest.mark.parametrize("edition", [Edition.FIDE_2023, Edition.FIDE_2024, Edition.FIDE_2026])
def test_a_game_lost_by_both_is_a_game_played_and_lost_by_each(
    code: str, expected: dict[str, object], edition: Edition
) -> None:
    """Every edition alike: a played game has no unplayed-round rule to apply (2023: the same
    tie-breaks are 6.x, 7.1, 8.1, 8.2 and 9.1)."""
    assert _values(_tournament(edition=edition), code) == expected


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("PTS", {"A": D(1), "C": D(1)}),
        ("BPG", {"A": 0, "C": 0}),
        ("GE", {"A": 1, "C": 1}),
        # own unplayed round: own score (2024 16.4), 0.5 + 1 and 0.5 + 1
        ("BH", {"A": D("1.5"), "C": D("1.5")}),
        # one game each: A 2000 scored 1 (dp +800), C 1800 scored 1
        ("ARO", {"A": 2000, "C": 1800}),
        ("TPR", {"A": 2800, "C": 2600}),
    ],
)
def test_the_double_forfeit_it_scores_like_is_unplayed(
    code: str, expected: dict[str, object]
) -> None:
    values = _values(_tournament(lost_by_both=False), code)
    assert {name: values[name] for name in "AC"} == expected


def test_the_two_players_met_and_neither_scored() -> None:
    """2024 6 (2023 5.1): A and C met and scored 0 each, so DE leaves them tied."""
    ctx = _tournament()
    assert direct_encounter(ctx, [1, 3]) == {1: 1, 3: 1}
