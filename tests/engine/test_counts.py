"""Type B tie-breaks computed from the participant's own results (C.07 2024 Art. 7).

Every expected value below is computed by hand from the crosstable drawn above the tournament.
"""

from __future__ import annotations

from decimal import Decimal

from livetb.engine.context import Context
from livetb.engine.model import Scoring
from livetb.engine.spec import parse_spec
from livetb.engine.standings import compute
from tests.builders import (
    beats,
    double_forfeit,
    draws,
    forfeit_win,
    full_bye,
    half_bye,
    loses,
    pab,
    swiss,
    zero_bye,
)

D = Decimal
NAMES = "ABCDEF"


# Swiss, 4 rounds.  "w"/"b" = colour, "+"/"-" = forfeit win/loss, PAB = pairing-allocated bye,
# FPB = full-point bye, H = half-point bye, Z = zero-point bye.
#
#          R1          R2          R3          R4          Pts
#  A(1)   1 vs B w    1 vs D b    ½ vs F w    0 vs C b    2½
#  B(2)   0 vs A b    + vs E w    0 vs D w    FPB         2
#  C(3)   ½ vs D w    0 vs F b    PAB         1 vs A w    2½
#  D(4)   ½ vs C b    0 vs A w    1 vs B b    ½ vs F w    2
#  E(5)   0 vs F w    - vs B b    H           Z           ½
#  F(6)   1 vs E b    1 vs C w    ½ vs A b    ½ vs D b    3
def _tournament(scoring: Scoring | None = None) -> Context:
    t = swiss(rounds=4, players=NAMES, scoring=scoring)
    t.round(1, beats("A", "B"), draws("C", "D"), loses("E", "F"))
    t.round(2, loses("D", "A"), beats("F", "C"), forfeit_win("B", over="E"))
    t.round(3, draws("A", "F"), loses("B", "D"), pab("C"), half_bye("E"))
    t.round(4, beats("C", "A"), draws("D", "F"), full_bye("B"), zero_bye("E"))
    return t.context()


def _values(ctx: Context, code: str) -> dict[str, object]:
    spec = parse_spec(code)
    return {name: compute(ctx, spec, no).value for no, name in enumerate(NAMES, start=1)}


def test_points() -> None:
    """C.07 2024 §4.2 PTS (2023 §4.2): the standings score; PAB, FPB, forfeit win = 1, H = ½."""
    assert _values(_tournament(), "PTS") == {
        "A": D("2.5"),
        "B": D(2),
        "C": D("2.5"),
        "D": D(2),
        "E": D("0.5"),
        "F": D(3),
    }


def test_wins() -> None:
    """C.07 2024 §7.1 WIN (2023 §6.1): rounds scored as a win, played or not."""
    # B: forfeit win + FPB; C: PAB + game; E: nothing (H is not a win).
    assert _values(_tournament(), "WIN") == {"A": 2, "B": 2, "C": 2, "D": 1, "E": 0, "F": 2}


def test_games_won() -> None:
    """C.07 2024 §7.2 WON (2023 §6.2): games won over the board only."""
    # B's forfeit win and FPB, C's PAB do not count.
    assert _values(_tournament(), "WON") == {"A": 2, "B": 0, "C": 1, "D": 1, "E": 0, "F": 2}


def test_black_games() -> None:
    """C.07 2024 §7.3 BPG (2023 §6.3): games played over the board with Black."""
    # E was scheduled Black in R2 but forfeited: not a game played.
    assert _values(_tournament(), "BPG") == {"A": 2, "B": 1, "C": 1, "D": 2, "E": 0, "F": 3}


def test_black_wins() -> None:
    """C.07 2024 §7.4 BWG (2023 §6.4): games won over the board with Black."""
    assert _values(_tournament(), "BWG") == {"A": 1, "B": 0, "C": 0, "D": 1, "E": 0, "F": 1}


def test_games_elected() -> None:
    """C.07 2024 §7.6 GE (2023 §6.6 REP): rounds minus requested byes and forfeit losses."""
    # E: one game played, then a forfeit loss, H and Z -> 1.  B's forfeit win and FPB and
    # C's PAB count as rounds elected to play (FIDE reference: played or scored as a win).
    expected = {"A": 4, "B": 4, "C": 4, "D": 4, "E": 1, "F": 4}
    assert _values(_tournament(), "GE") == expected
    assert _values(_tournament(), "REP") == expected


def test_games_elected_double_forfeit() -> None:
    """C.07 2024 §7.6 GE (2023 §6.6): a double forfeit is not a round elected to play."""
    t = swiss(rounds=2, players="AB")
    t.round(1, beats("A", "B"))
    t.round(2, double_forfeit("A", "B"))
    ctx = t.context()
    assert compute(ctx, parse_spec("GE"), 1).value == 1
    assert compute(ctx, parse_spec("GE"), 2).value == 1
    assert compute(ctx, parse_spec("WIN"), 1).value == 1


def test_progressive() -> None:
    """C.07 2024 §7.5 PS (2023 §6.5): sum of the running scores after each round."""
    # A: 1 + 2 + 2½ + 2½ = 8;      B: 0 + 1 + 1 + 2 = 4;       C: ½ + ½ + 1½ + 2½ = 5
    # D: ½ + ½ + 1½ + 2 = 4½;      E: 0 + 0 + ½ + ½ = 1;       F: 1 + 2 + 2½ + 3 = 8½
    assert _values(_tournament(), "PS") == {
        "A": D(8),
        "B": D(4),
        "C": D(5),
        "D": D("4.5"),
        "E": D(1),
        "F": D("8.5"),
    }


def test_progressive_cut1() -> None:
    """C.07 2024 §7.5 + §14.1 PS/C1 (2023 §6.5 + §13.1): the first round's running score
    is left out."""
    assert _values(_tournament(), "PS/C1") == {
        "A": D(7),
        "B": D(4),
        "C": D("4.5"),
        "D": D(4),
        "E": D(1),
        "F": D("7.5"),
    }


def test_standard_points_default_scoring() -> None:
    """C.07 2026 STD: with 1/½/0 scoring, the standard points equal the score."""
    assert _values(_tournament(), "STD") == {
        "A": D("2.5"),
        "B": D(2),
        "C": D("2.5"),
        "D": D(2),
        "E": D("0.5"),
        "F": D(3),
    }


def test_three_one_zero() -> None:
    """C.07 2026 STD and C.07 2024 §7.1 WIN (2023 §6.1) under a 3/1/0 scoring system."""
    ctx = _tournament(Scoring(win=D(3), draw=D(1)))
    # A: 3 + 3 + 1 + 0 = 7; B: 0 + 3 (+) + 0 + 3 (FPB) = 6; C: 1 + 0 + 3 (PAB) + 3 = 7
    # D: 1 + 0 + 3 + 1 = 5; E: 0 + 0 + 1 (H) + 0 = 1;       F: 3 + 3 + 1 + 1 = 8
    assert _values(ctx, "PTS") == {"A": 7, "B": 6, "C": 7, "D": 5, "E": 1, "F": 8}
    # STD re-counts every result as 1 / ½ / 0: the 1/½/0 scores again.
    assert _values(ctx, "STD") == {
        "A": D("2.5"),
        "B": D(2),
        "C": D("2.5"),
        "D": D(2),
        "E": D("0.5"),
        "F": D(3),
    }
    # WIN counts rounds worth 3 points; a 1-point draw or half-point bye is not a win.
    assert _values(ctx, "WIN") == {"A": 2, "B": 2, "C": 2, "D": 1, "E": 0, "F": 2}
