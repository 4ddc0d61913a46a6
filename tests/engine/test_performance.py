"""Rating-based tie-breaks (C.07 2024 §9.1-9.3, §10.3-10.4; 2023 §8.1-8.3, §9.3-9.4), on the
FIDE B.02 tables 8.1(a) (p -> dp) and 8.1(b) (rating difference -> expected score).

Every expected value below is computed by hand from the crosstable drawn above the tournament.
"""

from __future__ import annotations

from livetb.engine.context import Context
from livetb.engine.spec import parse_spec
from livetb.engine.standings import compute
from tests.builders import beats, draws, forfeit_win, loses, swiss

SIX = "ABCDEF"
RATINGS: dict[str, int | None] = {
    "A": 2200,
    "B": 2101,
    "C": 2000,
    "D": 1900,
    "E": 1850,
    "F": 1600,
}


# Swiss, 3 rounds, every game played.
#
#          rating   R1         R2         R3         Pts
#  A(1)    2200    1 D w      1 C w      0 B w      2
#  B(2)    2101    ½ E w      ½ F w      1 A b      2
#  C(3)    2000    1 F w      0 A b      ½ E w      1½
#  D(4)    1900    0 A b      1 E w      0 F w      1
#  E(5)    1850    ½ B b      0 D b      ½ C b      1
#  F(6)    1600    0 C b      ½ B b      1 D b      1½
def _six(ratings: dict[str, int | None] = RATINGS, unrated_rating: int | None = None) -> Context:
    t = swiss(rounds=3, players=SIX, ratings=ratings)
    t.round(1, beats("A", "D"), draws("B", "E"), beats("C", "F"))
    t.round(2, beats("A", "C"), draws("B", "F"), beats("D", "E"))
    t.round(3, loses("A", "B"), draws("C", "E"), loses("D", "F"))
    return t.context(unrated_rating=unrated_rating)


def _values(ctx: Context, code: str, names: str = SIX) -> dict[str, object]:
    spec = parse_spec(code)
    return {name: compute(ctx, spec, no).value for no, name in enumerate(names, start=1)}


def test_average_rating_of_opponents() -> None:
    """C.07 2024 §9.1 ARO (2023 §8.1): rounded half up to a whole number."""
    # A, E, F met 1900 + 2000 + 2101 = 6001 -> 2000.33 -> 2000
    # B, C, D met 1850 + 1600 + 2200 = 5650 -> 1883.33 -> 1883
    assert _values(_six(), "ARO") == {
        "A": 2000,
        "B": 1883,
        "C": 1883,
        "D": 1883,
        "E": 2000,
        "F": 2000,
    }


def test_average_rating_of_opponents_cuts() -> None:
    """C.07 2024 §9.1 + §14.1/14.3 ARO/C1, ARO/M1 (2023 §8.1 + §13.1/13.3)."""
    aro_c1, aro_m1 = parse_spec("ARO/C1"), parse_spec("ARO/M1")
    ctx = _six()
    # A: 1900 cut -> (2000 + 2101) / 2 = 2050.5 -> 2051 (half up)
    assert compute(ctx, aro_c1, 1).value == 2051
    # B: 1600 cut -> (1850 + 2200) / 2 = 2025
    assert compute(ctx, aro_c1, 2).value == 2025
    # A: 1900 and 2101 cut -> 2000;  B: 1600 and 2200 cut -> 1850
    assert compute(ctx, aro_m1, 1).value == 2000
    assert compute(ctx, aro_m1, 2).value == 1850


def test_tournament_performance_rating() -> None:
    """C.07 2024 §9.2 TPR (2023 §8.2): ARO + dp(p), p = score / games rounded half up to 0.01."""
    # A: 2/3 -> p 0.67 -> +125 -> 2125;   B: 1883 + 125 = 2008
    # C: 1½/3 = 0.50 -> 0 -> 1883;        D: 1/3 -> 0.33 -> -125 -> 1758
    # E: 2000 - 125 = 1875;                F: 1½/3 -> 2000
    assert _values(_six(), "TPR") == {
        "A": 2125,
        "B": 2008,
        "C": 1883,
        "D": 1758,
        "E": 1875,
        "F": 2000,
    }


def test_perfect_tournament_performance() -> None:
    """C.07 2024 §9.3 PTP (2023 §8.3): lowest rating R whose expected score reaches the score."""
    ptp = parse_spec("PTP")
    ctx = _six()
    # A (2 vs 1900, 2000, 2101):
    #   R 2127: diffs 227 -> .79, 127 -> .67, 26 -> .54 = 2.00  (reached)
    #   R 2126: diffs 226 -> .79, 126 -> .67, 25 -> .53 = 1.99
    assert compute(ctx, ptp, 1).value == 2127
    # B (2 vs 1850, 1600, 2200):
    #   R 2048: +198 -> .76, +448 -> .94, -152 -> .30 = 2.00
    #   R 2047: +197 -> .75, +447 -> .94, -153 -> .30 = 1.99
    assert compute(ctx, ptp, 2).value == 2048
    # C (1½ vs 1600, 2200, 1850):
    #   R 1876: +276 -> .83, -324 -> .13, +26 -> .54 = 1.50
    #   R 1875: +275 -> .83, -325 -> .13, +25 -> .53 = 1.49
    assert compute(ctx, ptp, 3).value == 1876
    # D (1 vs 2200, 1850, 1600):
    #   R 1707: -493 -> .04, -143 -> .31, +107 -> .65 = 1.00
    #   R 1706: -494 -> .04, -144 -> .31, +106 -> .64 = 0.99
    assert compute(ctx, ptp, 4).value == 1707


def test_perfect_performance_single_games() -> None:
    """C.07 2024 §9.3 PTP (2023 §8.3) and §9.2 TPR on single games."""
    # A 2488 draws B 2300: B needs an expected .50 against 2488 -> difference 0..3 -> 2485.
    t = swiss(rounds=1, players="AB", ratings={"A": 2488, "B": 2300})
    t.round(1, draws("A", "B"))
    ctx = t.context()
    assert compute(ctx, parse_spec("PTP"), 2).value == 2485
    assert compute(ctx, parse_spec("PTP"), 1).value == 2297
    assert compute(ctx, parse_spec("TPR"), 2).value == 2488
    # A 2000 beats B 1800: a full point needs +736 (table: 736..800 -> 1.00); 0 -> R - 800.
    t = swiss(rounds=1, players="AB", ratings={"A": 2000, "B": 1800})
    t.round(1, beats("A", "B"))
    ctx = t.context()
    assert compute(ctx, parse_spec("PTP"), 1).value == 2536
    assert compute(ctx, parse_spec("PTP"), 2).value == 1200
    # TPR: 1/1 -> +800, 0/1 -> -800.
    assert compute(ctx, parse_spec("TPR"), 1).value == 2600
    assert compute(ctx, parse_spec("TPR"), 2).value == 1200


def test_average_performance_of_opponents() -> None:
    """C.07 2024 §10.3 APRO (2023 §9.3): average TPR of the opponents, half up."""
    # A: D 1758 + C 1883 + B 2008 = 5649 / 3 = 1883
    # B: E 1875 + F 2000 + A 2125 = 6000 / 3 = 2000
    # D: A 2125 + E 1875 + F 2000 = 2000
    apro = parse_spec("APRO")
    ctx = _six()
    assert compute(ctx, apro, 1).value == 1883
    assert compute(ctx, apro, 2).value == 2000
    assert compute(ctx, apro, 4).value == 2000


def test_average_perfect_performance_of_opponents() -> None:
    """C.07 2024 §10.4 APPO (2023 §9.4): average PTP of the opponents, half up."""
    # A met D 1707, C 1876, B 2048 = 5631 / 3 = 1877; E met B, D, C: the same three.
    appo = parse_spec("APPO")
    ctx = _six()
    assert compute(ctx, appo, 1).value == 1877
    assert compute(ctx, appo, 5).value == 1877


def test_unrated_player_without_default() -> None:
    """C.07 2024 §4.5 (2023 §4.5): with an unrated participant and no rating given to the
    unrated, rating-based tie-breaks are undefined."""
    ctx = _six({**RATINGS, "F": None})
    assert not ctx.rated
    for code in ("ARO", "ARO/C1", "TPR", "PTP", "APRO", "APPO"):
        assert compute(ctx, parse_spec(code), 1).value is None, code


def test_unrated_player_with_default() -> None:
    """C.07 2024 §4.5 (2023 §4.5): the unrated are given 1400."""
    ctx = _six({**RATINGS, "F": None}, unrated_rating=1400)
    assert ctx.rated
    # B, C, D met F 1400: 1850 + 1400 + 2200 = 5450 / 3 = 1816.67 -> 1817
    assert compute(ctx, parse_spec("ARO"), 2).value == 1817
    assert compute(ctx, parse_spec("ARO"), 3).value == 1817
    # F's own opponents are rated: 2000 + 2101 + 1900 -> 2000; 1½/3 -> TPR 2000
    assert compute(ctx, parse_spec("ARO"), 6).value == 2000
    assert compute(ctx, parse_spec("TPR"), 6).value == 2000


# Swiss, 2 rounds: C wins R1 by forfeit against D.
#
#          rating   R1         R2         Pts
#  A(1)    2000    1 B w      ½ C w      1½
#  B(2)    1800    0 A b      0 D b      0
#  C(3)    2200    + (D)      ½ A b      1½
#  D(4)    1500    - (C)      1 B w      1
def test_forfeits_are_not_games_for_ratings() -> None:
    """C.07 2024 §9.1-9.2 ARO, TPR (2023 §8.1-8.2): only games played over the board count."""
    t = swiss(rounds=2, players="ABCD", ratings={"A": 2000, "B": 1800, "C": 2200, "D": 1500})
    t.round(1, beats("A", "B"), forfeit_win("C", over="D"))
    t.round(2, draws("A", "C"), beats("D", "B"))
    ctx = t.context()
    # C: one game, a draw against 2000 -> ARO 2000, p 0.50 -> TPR 2000
    assert compute(ctx, parse_spec("ARO"), 3).value == 2000
    assert compute(ctx, parse_spec("TPR"), 3).value == 2000
    # D: one game, a win against 1800 -> TPR 2600
    assert compute(ctx, parse_spec("TPR"), 4).value == 2600
