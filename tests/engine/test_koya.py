"""Koya system (C.07 2024 §10.2; 2023 §9.2) and its Limit modifier (2024 §14.5; 2023 §13.5).

Every expected value below is computed by hand from the crosstable drawn above the tournament.
"""

from __future__ import annotations

from decimal import Decimal

from livetb.engine.context import Context
from livetb.engine.koya import limit
from livetb.engine.spec import parse_spec
from livetb.engine.standings import compute
from tests.builders import beats, draws, forfeit_win, loses, round_robin, swiss

D = Decimal
FIVE = "ABCDE"


# Round robin, 5 players: one player rests each round ("rest").  C wins R3 by forfeit.
#
#          R1         R2         R3         R4         R5         Pts
#  A(1)   1 B w      ½ C w      1 D w      0 E w      rest       2½
#  B(2)   0 A b      1 E w      rest       1 D w      1 C w      3
#  C(3)   ½ D w      ½ A b      + (E)      rest       0 B b      2
#  D(4)   ½ C b      rest       0 A b      0 B b      1 E w      1½
#  E(5)   rest       0 B b      - (C)      1 A b      0 D b      1
#
# Everybody plays 4 games: the maximum score is 4, the limit 50% of it = 2.
def _round_robin() -> Context:
    t = round_robin(5, FIVE)
    t.round(1, beats("A", "B"), draws("C", "D"))
    t.round(2, draws("A", "C"), beats("B", "E"))
    t.round(3, beats("A", "D"), forfeit_win("C", over="E"))
    t.round(4, loses("A", "E"), beats("B", "D"))
    t.round(5, beats("B", "C"), beats("D", "E"))
    return t.context()


def _values(ctx: Context, code: str, names: str = FIVE) -> dict[str, object]:
    spec = parse_spec(code)
    return {name: compute(ctx, spec, no).value for no, name in enumerate(names, start=1)}


def test_round_robin_limit() -> None:
    """C.07 2024 §10.2 + §14.5 (2023 §9.2 + §13.5): 50% of the maximum, moved by ½ per step."""
    ctx = _round_robin()
    assert limit(ctx, parse_spec("KS")) == D(2)
    assert limit(ctx, parse_spec("KS/L+1")) == D("2.5")
    assert limit(ctx, parse_spec("KS/L-1")) == D("1.5")


def test_round_robin_koya() -> None:
    """C.07 2024 §10.2 KS (2023 §9.2): points scored against opponents with at least 2."""
    # Qualified: A 2½, B 3, C 2.
    # A = B 1 + C ½ = 1½;  B = A 0 + C 1 = 1;  C = A ½ + B 0 = ½
    # D = C ½ + A 0 + B 0 = ½;  E = B 0 + C 0 (forfeit loss) + A 1 = 1
    assert _values(_round_robin(), "KS") == {
        "A": D("1.5"),
        "B": D(1),
        "C": D("0.5"),
        "D": D("0.5"),
        "E": D(1),
    }


def test_round_robin_koya_limit_plus_one() -> None:
    """C.07 2024 §10.2 + §14.5 KS/L+1 (2023 §9.2 + §13.5): limit 2½, C drops out."""
    # Qualified: A 2½, B 3.  A = B 1;  B = A 0;  C = A ½ + B 0;  D = 0;  E = A 1
    assert _values(_round_robin(), "KS/L+1") == {
        "A": D(1),
        "B": D(0),
        "C": D("0.5"),
        "D": D(0),
        "E": D(1),
    }


def test_round_robin_koya_limit_minus_one() -> None:
    """C.07 2024 §10.2 + §14.5 KS/L-1 (2023 §9.2 + §13.5): limit 1½, D comes in."""
    # Qualified: A, B, C, D.
    # A = B 1 + C ½ + D 1 = 2½;  B = A 0 + D 1 + C 1 = 2;  C = D ½ + A ½ + B 0 = 1
    # D = C ½ + A 0 + B 0 = ½;   E = B 0 + C 0 + A 1 + D 0 = 1
    assert _values(_round_robin(), "KS/L-1") == {
        "A": D("2.5"),
        "B": D(2),
        "C": D(1),
        "D": D("0.5"),
        "E": D(1),
    }


# Swiss, 3 rounds.  A wins R2 by forfeit against B, who had scored 2 by the end.
#
#          R1         R2         R3         Pts
#  A(1)   1 C w      + (B)      ½ D w      2½
#  B(2)   1 D w      - (A)      1 C w      2
#  C(3)   0 A b      1 D w      0 B b      1
#  D(4)   0 B b      0 C b      ½ A b      ½
def _swiss() -> Context:
    t = swiss(rounds=3, players="ABCD")
    t.round(1, beats("A", "C"), beats("B", "D"))
    t.round(2, forfeit_win("A", over="B"), beats("C", "D"))
    t.round(3, draws("A", "D"), beats("B", "C"))
    return t.context()


def test_swiss_koya_counts_forfeits() -> None:
    """C.07 2024 §10.2 KS (2023 §9.2): limit 50% x 3 = 1½; a forfeit against a qualified
    opponent counts with the points awarded."""
    ctx = _swiss()
    assert limit(ctx, parse_spec("KS")) == D("1.5")
    # Qualified: A 2½, B 2.  A = B 1 (+);  B = A 0 (-);  C = A 0 + B 0;  D = B 0 + A ½
    assert _values(ctx, "KS", "ABCD") == {"A": D(1), "B": D(0), "C": D(0), "D": D("0.5")}


def test_swiss_koya_limit_minus_one() -> None:
    """C.07 2024 §10.2 + §14.5 KS/L-1 (2023 §9.2 + §13.5): limit 1, C (1 point) comes in."""
    # Qualified: A 2½, B 2, C 1 (not D, ½).
    # A = C 1 + B 1 = 2;  B = C 1 + A 0 = 1;  C = A 0 + B 0 = 0;  D = B 0 + C 0 + A ½ = ½
    assert _values(_swiss(), "KS/L-1", "ABCD") == {
        "A": D(2),
        "B": D(1),
        "C": D(0),
        "D": D("0.5"),
    }
