"""Opponent-score tie-breaks: BH and its cuts, FB, SB, AOB (C.07 2024 Art. 8-10, 14).

Every expected value below is computed by hand from the crosstable drawn above the tournament.
"""

from __future__ import annotations

from decimal import Decimal

from livetb.engine.context import Context
from livetb.engine.spec import parse_spec
from livetb.engine.standings import compute
from tests.builders import beats, draws, loses, pab, swiss

D = Decimal
SIX = "ABCDEF"


# Swiss planned over 5 rounds, every game played over the board (it happens to be all-play-all).
#
#          R1         R2         R3         R4         | after R4 | R5         | after R5
#  A(1)   1 D w      ½ C w      1 F w      ½ E b      |   3      | 1 B w      |   4
#  B(2)   1 E w      0 F b      ½ D w      0 C b      |   1½     | 0 A b      |   1½
#  C(3)   ½ F w      ½ A b      0 E b      1 B w      |   2      | ½ D w      |   2½
#  D(4)   0 A b      1 E w      ½ B b      0 F w      |   1½     | ½ C b      |   2
#  E(5)   0 B b      0 D b      1 C w      ½ A w      |   1½     | 0 F w      |   1½
#  F(6)   ½ C b      1 B w      0 A b      1 D b      |   2½     | 1 E b      |   3½
def _six(upto: int, as_final: bool = False) -> Context:
    t = swiss(rounds=5, players=SIX)
    t.round(1, beats("A", "D"), beats("B", "E"), draws("C", "F"))
    t.round(2, draws("A", "C"), beats("F", "B"), beats("D", "E"))
    t.round(3, beats("A", "F"), draws("B", "D"), beats("E", "C"))
    t.round(4, draws("E", "A"), beats("C", "B"), loses("D", "F"))
    t.round(5, beats("A", "B"), draws("C", "D"), loses("E", "F"))
    return t.context(upto=upto, as_final=as_final)


def _values(ctx: Context, code: str, names: str = SIX) -> dict[str, object]:
    spec = parse_spec(code)
    return {name: compute(ctx, spec, no).value for no, name in enumerate(names, start=1)}


def test_buchholz() -> None:
    """C.07 2024 §8.1 BH (2023 §7.1): sum of the opponents' scores."""
    # After R4: A = D 1½ + C 2 + F 2½ + E 1½ = 7½;  B = E 1½ + F 2½ + D 1½ + C 2 = 7½
    #           C = F 2½ + A 3 + E 1½ + B 1½ = 8½;  D = A 3 + E 1½ + B 1½ + F 2½ = 8½
    #           E = B 1½ + D 1½ + C 2 + A 3 = 8;    F = C 2 + B 1½ + A 3 + D 1½ = 8
    assert _values(_six(4), "BH") == {
        "A": D("7.5"),
        "B": D("7.5"),
        "C": D("8.5"),
        "D": D("8.5"),
        "E": D(8),
        "F": D(8),
    }
    # After R5 everybody met everybody: BH = 15 (all points) - own score.
    assert _values(_six(5), "BH") == {
        "A": D(11),
        "B": D("13.5"),
        "C": D("12.5"),
        "D": D(13),
        "E": D("13.5"),
        "F": D("11.5"),
    }


def test_buchholz_cut1() -> None:
    """C.07 2024 §8.1 + §14.1 BH/C1 (2023 §7.1 + §13.1): the lowest opponent score is cut."""
    # Every player's lowest opponent has 1½ after R4.
    assert _values(_six(4), "BH/C1") == {
        "A": D(6),
        "B": D(6),
        "C": D(7),
        "D": D(7),
        "E": D("6.5"),
        "F": D("6.5"),
    }


def test_buchholz_cut2() -> None:
    """C.07 2024 §8.1 + §14.2 BH/C2 (2023 §7.1 + §13.2): the two lowest are cut."""
    # A: 7½ - 1½ (D) - 1½ (E) = 4½;  C: 8½ - 1½ (E) - 1½ (B) = 5½;  E: 8 - 1½ - 1½ = 5
    assert _values(_six(4), "BH/C2") == {
        "A": D("4.5"),
        "B": D("4.5"),
        "C": D("5.5"),
        "D": D("5.5"),
        "E": D(5),
        "F": D(5),
    }


def test_buchholz_median1() -> None:
    """C.07 2024 §8.1 + §14.3 BH/M1 (2023 §7.1 + §13.3): lowest and highest are cut."""
    # A: 7½ - 1½ - 2½ (F) = 3½;  C: 8½ - 1½ - 3 (A) = 4;  E: 8 - 1½ - 3 (A) = 3½
    assert _values(_six(4), "BH/M1") == {
        "A": D("3.5"),
        "B": D("3.5"),
        "C": D(4),
        "D": D(4),
        "E": D("3.5"),
        "F": D("3.5"),
    }


def test_buchholz_median2() -> None:
    """C.07 2024 §8.1 + §14.4 BH/M2 (2023 §7.1 + §13.4): two lowest and two highest cut."""
    # After R5 the middle one of five opponent scores is left:
    # A: D 2, C 2½, F 3½, E 1½, B 1½ -> 1½ 1½ [2] 2½ 3½
    # B: E 1½, F 3½, D 2, C 2½, A 4 -> 1½ 2 [2½] 3½ 4
    # C: F 3½, A 4, E 1½, B 1½, D 2 -> 1½ 1½ [2] 3½ 4
    # D: A 4, E 1½, B 1½, F 3½, C 2½ -> 1½ 1½ [2½] 3½ 4
    # E: B 1½, D 2, C 2½, A 4, F 3½ -> 1½ 2 [2½] 3½ 4
    # F: C 2½, B 1½, A 4, D 2, E 1½ -> 1½ 1½ [2] 2½ 4
    assert _values(_six(5), "BH/M2") == {
        "A": D(2),
        "B": D("2.5"),
        "C": D(2),
        "D": D("2.5"),
        "E": D("2.5"),
        "F": D(2),
    }


def test_buchholz_median2_never_cuts_more_than_the_rounds() -> None:
    """C.07 2024 §14 (2023 §13): after 4 rounds M2 cuts 2 + 2 = all four terms, and no more."""
    assert _values(_six(4), "BH/M2") == dict.fromkeys(SIX, D(0))


def test_fore_buchholz_not_final_equals_buchholz() -> None:
    """C.07 2024 §9.4 FB (2023 §8.4): before the final round FB is plain BH."""
    ctx = _six(4)
    assert _values(ctx, "FB") == _values(ctx, "BH")
    assert _values(ctx, "FB/C1") == _values(ctx, "BH/C1")


def test_fore_buchholz_as_final() -> None:
    """C.07 2024 §9.4 FB (2023 §8.4): R4 treated as the final round, every R4 game a draw."""
    # R4 games E-A ½-½, C-B 1-0, D-F 0-1 all become draws, so for FB the scores are
    # A 3, B 1½+½ = 2, C 2-½ = 1½, D 1½+½ = 2, E 1½, F 2½-½ = 2.
    # A = D 2 + C 1½ + F 2 + E 1½ = 7;  B = E 1½ + F 2 + D 2 + C 1½ = 7
    # C = F 2 + A 3 + E 1½ + B 2 = 8½;  D = A 3 + E 1½ + B 2 + F 2 = 8½
    # E = B 2 + D 2 + C 1½ + A 3 = 8½;  F = C 1½ + B 2 + A 3 + D 2 = 8½
    assert _values(_six(4, as_final=True), "FB") == {
        "A": D(7),
        "B": D(7),
        "C": D("8.5"),
        "D": D("8.5"),
        "E": D("8.5"),
        "F": D("8.5"),
    }


def test_fore_buchholz_final_round() -> None:
    """C.07 2024 §9.4 FB (2023 §8.4): after the planned last round, with no flag needed."""
    # R5 A-B 1-0, C-D ½-½, E-F 0-1 as draws: A 3½, B 2, C 2½, D 2, E 2, F 3; total 15.
    # All-play-all, so FB = 15 - own FB score.
    assert _values(_six(5), "FB") == {
        "A": D("11.5"),
        "B": D(13),
        "C": D("12.5"),
        "D": D(13),
        "E": D(13),
        "F": D(12),
    }


def test_fore_buchholz_cut1() -> None:
    """C.07 2024 §9.4 + §14.1 FB/C1 (2023 §8.4 + §13.1)."""
    ctx = _six(5)
    fb_c1 = parse_spec("FB/C1")
    # A: D 2, C 2½, F 3, E 2, B 2 -> 11½ - 2 = 9½
    assert compute(ctx, fb_c1, 1).value == D("9.5")
    # C: F 3, A 3½, E 2, B 2, D 2 -> 12½ - 2 = 10½
    assert compute(ctx, fb_c1, 3).value == D("10.5")
    # F: C 2½, B 2, A 3½, D 2, E 2 -> 12 - 2 = 10
    assert compute(ctx, fb_c1, 6).value == D(10)


def test_sonneborn_berger() -> None:
    """C.07 2024 §10.1 SB (2023 §9.1): opponent's score times the points scored against it."""
    # A = D 1½·1 + C 2·½ + F 2½·1 + E 1½·½ = 1½ + 1 + 2½ + ¾ = 5¾
    # B = E 1½·1 + F 2½·0 + D 1½·½ + C 2·0 = 2¼
    # C = F 2½·½ + A 3·½ + E 1½·0 + B 1½·1 = 4¼
    # D = A 3·0 + E 1½·1 + B 1½·½ + F 2½·0 = 2¼
    # E = B 1½·0 + D 1½·0 + C 2·1 + A 3·½ = 3½
    # F = C 2·½ + B 1½·1 + A 3·0 + D 1½·1 = 4
    assert _values(_six(4), "SB") == {
        "A": D("5.75"),
        "B": D("2.25"),
        "C": D("4.25"),
        "D": D("2.25"),
        "E": D("3.5"),
        "F": D(4),
    }


def test_sonneborn_berger_cut1() -> None:
    """C.07 2024 §10.1 + §14.1 SB/C1 (2023 §9.1 + §13.1): the term of the lowest-scoring
    opponent is cut (FIDE reference: lowest opponent score, ties by the smaller product)."""
    ctx = _six(4)
    sb_c1 = parse_spec("SB/C1")
    # A: lowest opponents D (1½, product 1½) and E (1½, ¾): E's ¾ goes -> 5
    assert compute(ctx, sb_c1, 1).value == D(5)
    # B: lowest opponents E (1½, 1½) and D (1½, ¾): D's ¾ goes, not the 0 against F or C -> 1½
    assert compute(ctx, sb_c1, 2).value == D("1.5")
    # E: lowest opponents B (1½, 0) and D (1½, 0): a zero goes -> 3½
    assert compute(ctx, sb_c1, 5).value == D("3.5")


# Swiss, 4 rounds, 5 players: one pairing-allocated bye every round.
#
#          R1         R2         R3         R4         Pts   BH (PAB = own score)
#  A(1)   1 B w      1 C w      ½ E w      0 D w      2½    B 3 + C 3 + E 1½ + D 2   = 9½
#  B(2)   0 A b      1 E w      1 D w      PAB        3     A 2½ + E 1½ + D 2 + 3    = 9
#  C(3)   1 D w      0 A b      PAB        1 E w      3     D 2 + A 2½ + 3 + E 1½    = 9
#  D(4)   0 C b      PAB        0 B b      1 A b      2     C 3 + 2 + B 3 + A 2½     = 10½
#  E(5)   PAB        0 B b      ½ A b      0 C b      1½    1½ + B 3 + A 2½ + C 3    = 10
def _five() -> Context:
    t = swiss(rounds=4, players="ABCDE")
    t.round(1, beats("A", "B"), beats("C", "D"), pab("E"))
    t.round(2, beats("A", "C"), beats("B", "E"), pab("D"))
    t.round(3, draws("A", "E"), beats("B", "D"), pab("C"))
    t.round(4, loses("A", "D"), beats("C", "E"), pab("B"))
    return t.context()


def test_buchholz_with_pairing_allocated_byes() -> None:
    """C.07 2024 §8.1 + §16.4 BH (2023 §7.1 + §14.5): a PAB adds the participant's own score."""
    assert _values(_five(), "BH", "ABCDE") == {
        "A": D("9.5"),
        "B": D(9),
        "C": D(9),
        "D": D("10.5"),
        "E": D(10),
    }


def test_average_of_opponents_buchholz() -> None:
    """C.07 2024 §8.2 AOB (2023 §7.2): average BH of the opponents met over the board,
    rounded half up to two decimals."""
    # A: (B 9 + C 9 + E 10 + D 10½) / 4 = 38½ / 4 = 9.625 -> 9.63 (half up, not 9.62)
    # B: (A 9½ + E 10 + D 10½) / 3 = 30 / 3 = 10      (the PAB round is not a game)
    # C: (D 10½ + A 9½ + E 10) / 3 = 10
    # D: (C 9 + B 9 + A 9½) / 3 = 27½ / 3 = 9.1666... -> 9.17
    # E: (B 9 + A 9½ + C 9) / 3 = 9.1666... -> 9.17
    assert _values(_five(), "AOB", "ABCDE") == {
        "A": D("9.63"),
        "B": D("10.00"),
        "C": D("10.00"),
        "D": D("9.17"),
        "E": D("9.17"),
    }


def test_average_of_opponents_buchholz_thirds() -> None:
    """C.07 2024 §8.2 AOB (2023 §7.2): after three rounds of the six-player event."""
    # After R3: A 2½, B 1½, C 1, D 1½, E 1, F 1½.
    # BH: A = D 1½ + C 1 + F 1½ = 4; B = E 1 + F 1½ + D 1½ = 4; C = F 1½ + A 2½ + E 1 = 5
    #     D = A 2½ + E 1 + B 1½ = 5;  E = B 1½ + D 1½ + C 1 = 4;  F = C 1 + B 1½ + A 2½ = 5
    # AOB A = (5 + 5 + 5) / 3 = 5; B = (4 + 5 + 5) / 3 = 4.67; C = (5 + 4 + 4) / 3 = 4.33
    ctx = _six(3)
    assert _values(ctx, "BH") == {
        "A": D(4),
        "B": D(4),
        "C": D(5),
        "D": D(5),
        "E": D(4),
        "F": D(5),
    }
    aob = parse_spec("AOB")
    assert compute(ctx, aob, 1).value == D("5.00")
    assert compute(ctx, aob, 2).value == D("4.67")
    assert compute(ctx, aob, 3).value == D("4.33")
