"""Unplayed rounds (C.07 2024 Art. 16; 2023 Art. 14) under every edition.

Every expected value below is computed by hand from the crosstable drawn above the tournament.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from livetb.engine.context import Context
from livetb.engine.editions import Edition
from livetb.engine.spec import parse_spec
from livetb.engine.standings import compute
from tests.builders import (
    TournamentBuilder,
    beats,
    double_forfeit,
    draws,
    forfeit_win,
    full_bye,
    half_bye,
    loses,
    pab,
    round_robin,
    swiss,
    zero_bye,
)

D = Decimal
EIGHT = "ABCDEFGH"
LEGACY = Edition.LEGACY
Y2023 = Edition.FIDE_2023
Y2024 = Edition.FIDE_2024
Y2026 = Edition.FIDE_2026


# Swiss, 4 rounds, every kind of unplayed round.  "+"/"-" = forfeit win/loss (scheduled opponent
# in brackets), "--" = double forfeit, PAB = pairing-allocated bye, FPB = full-point bye,
# H = half-point bye, Z = zero-point bye.  G withdraws after round 2.
#
#          R1          R2          R3          R4          Pts  last available round
#  A(1)   1 B w       1 E w       ½ C w       1 F w       3½   4
#  B(2)   0 A b       ½ F w       Z           1 C w       1½   4
#  C(3)   ½ D w       PAB         ½ A b       0 B b       2    4
#  D(4)   ½ C b       0 G w       1 E w       FPB         2½   4
#  E(5)   + (F)       0 A b       0 D b       -- (H)      1    3
#  F(6)   - (E)       ½ B b       0 H w       0 A b       ½    4
#  G(7)   ½ H w       1 D b       Z           Z           1½   2
#  H(8)   ½ G b       H           1 F b       -- (E)      2    3
def _builder(rounds: int = 4) -> TournamentBuilder:
    t = swiss(rounds=rounds, players=EIGHT)
    t.round(1, beats("A", "B"), draws("C", "D"), forfeit_win("E", over="F"), draws("G", "H"))
    t.round(2, beats("A", "E"), draws("B", "F"), loses("D", "G"), pab("C"), half_bye("H"))
    t.round(3, draws("A", "C"), beats("D", "E"), loses("F", "H"), zero_bye("G"), zero_bye("B"))
    t.round(4, beats("A", "F"), beats("B", "C"), double_forfeit("E", "H"), full_bye("D"))
    t.round(4, zero_bye("G"))
    return t


def _ctx(edition: Edition = Y2024, **kw: object) -> Context:
    return _builder().context(edition=edition, **kw)  # type: ignore[arg-type]


def _values(ctx: Context, code: str, names: str = EIGHT) -> dict[str, object]:
    spec = parse_spec(code)
    return {name: compute(ctx, spec, no).value for no, name in enumerate(names, start=1)}


def _adjusted(ctx: Context, names: str = EIGHT) -> dict[str, Decimal]:
    return {name: ctx.adjusted(no) for no, name in enumerate(names, start=1)}


def test_standings_scores() -> None:
    """C.07 2024 §16.1 (2023 §14.1): PAB, FPB, forfeit win = 1; H = ½; Z, forfeit loss = 0."""
    assert _values(_ctx(), "PTS") == {
        "A": D("3.5"),
        "B": D("1.5"),
        "C": D(2),
        "D": D("2.5"),
        "E": D(1),
        "F": D("0.5"),
        "G": D("1.5"),
        "H": D(2),
    }


def test_categories() -> None:
    """C.07 2024 §16.2.1-16.2.5 (2023 §14.3.1-14.3.5): the category of every unplayed round."""
    ctx = _ctx()
    got = {name: [ctx.category(no, r) for r in ctx.rounds(no)] for no, name in enumerate(EIGHT, 1)}
    assert got == {
        "A": [None, None, None, None],
        "B": [None, None, 2, None],  # Z followed by an available round
        "C": [None, 1, None, None],  # PAB
        "D": [None, None, None, 1],  # FPB
        "E": [1, None, None, 5],  # forfeit win; (double) forfeit loss in the last round
        "F": [3, None, None, None],  # forfeit loss followed by games
        "G": [None, None, 4, 4],  # withdrawal: zero byes to the end
        "H": [None, 2, None, 5],  # H followed by a game; final double forfeit
    }


def test_categories_depend_on_the_rounds_seen() -> None:
    """C.07 2024 §16.2.2 / 16.2.4 (2023 §14.3.2 / 14.3.4): H's R2 bye is not yet followed
    by an available round after R2, so it is category 4 then, category 2 after R3."""
    ctx = _builder().context(upto=2)
    assert ctx.category(8, ctx.rounds(8)[1]) == 4
    ctx = _builder().context(upto=3)
    assert ctx.category(8, ctx.rounds(8)[1]) == 2


def test_adjusted_2024() -> None:
    """C.07 2024 §16.3 (score as an opponent): byes and absences after the last available round
    count as draws; a forfeit loss stays a loss."""
    # E: 1 + 0 + 0 + 0 (final forfeit loss counted as played) = 1
    # G: ½ + 1 + ½ + ½ (withdrawal rounds as draws) = 2½
    # H: ½ + ½ + 1 + 0 = 2
    expected = {
        "A": D("3.5"),
        "B": D("1.5"),
        "C": D(2),
        "D": D("2.5"),
        "E": D(1),
        "F": D("0.5"),
        "G": D("2.5"),
        "H": D(2),
    }
    assert _adjusted(_ctx(Y2024)) == expected
    assert _adjusted(_ctx(Y2026)) == expected  # 2026 changed the own-round cap, not this


def test_adjusted_2023() -> None:
    """C.07 2023 §14.4 (14.3.5): a forfeit loss not followed by an available round is a draw."""
    assert _adjusted(_ctx(Y2023)) == {
        "A": D("3.5"),
        "B": D("1.5"),
        "C": D(2),
        "D": D("2.5"),
        "E": D("1.5"),  # 1 + 0 + 0 + ½
        "F": D("0.5"),  # the R1 forfeit loss is followed by games: stays 0
        "G": D("2.5"),
        "H": D("2.5"),  # ½ + ½ + 1 + ½
    }


def test_adjusted_legacy() -> None:
    """Pre-2023 FIDE rules (seed 004): every unplayed round of an opponent counts as a draw."""
    assert _adjusted(_ctx(LEGACY)) == {
        "A": D("3.5"),
        "B": D(2),  # 0 + ½ + ½ (Z) + 1
        "C": D("1.5"),  # ½ + ½ (PAB) + ½ + 0
        "D": D(2),  # ½ + 0 + 1 + ½ (FPB)
        "E": D(1),  # ½ (+) + 0 + 0 + ½ (--)
        "F": D(1),  # ½ (-) + ½ + 0 + 0
        "G": D("2.5"),  # ½ + 1 + ½ + ½
        "H": D("2.5"),  # ½ + ½ (H) + 1 + ½
    }


def test_buchholz_2024() -> None:
    """C.07 2024 §8.1 + §16.4 BH (2023 §7.1 + §14.5): own unplayed round = own score."""
    # A = B 1½ + E 1 + C 2 + F ½ = 5
    # B = A 3½ + F ½ + own 1½ (Z) + C 2 = 7½
    # C = D 2½ + own 2 (PAB) + A 3½ + B 1½ = 9½
    # D = C 2 + G 2½ + E 1 + own 2½ (FPB) = 8
    # E = own 1 (+) + A 3½ + D 2½ + own 1 (--) = 8
    # F = own ½ (-) + B 1½ + H 2 + A 3½ = 7½
    # G = H 2 + D 2½ + own 1½ + own 1½ = 7½
    # H = G 2½ + own 2 (H) + F ½ + own 2 (--) = 7
    assert _values(_ctx(Y2024), "BH") == {
        "A": D(5),
        "B": D("7.5"),
        "C": D("9.5"),
        "D": D(8),
        "E": D(8),
        "F": D("7.5"),
        "G": D("7.5"),
        "H": D(7),
    }


def test_buchholz_2023() -> None:
    """C.07 2023 §7.1 + §14.4/14.5 BH: as 2024, with E and H worth ½ more as opponents."""
    # A = B 1½ + E 1½ + C 2 + F ½ = 5½;   D = C 2 + G 2½ + E 1½ + 2½ = 8½
    # F = ½ + B 1½ + H 2½ + A 3½ = 8;      G = H 2½ + D 2½ + 1½ + 1½ = 8
    assert _values(_ctx(Y2023), "BH") == {
        "A": D("5.5"),
        "B": D("7.5"),
        "C": D("9.5"),
        "D": D("8.5"),
        "E": D(8),
        "F": D(8),
        "G": D(8),
        "H": D(7),
    }


def test_buchholz_2026() -> None:
    """C.07 2026 §16.4 BH: an own unplayed round is worth at most the scheduled opponent's
    score (forfeits), or ½ x rounds played = 2 (byes, PAB)."""
    # C: PAB min(2, 2) = 2                     -> 9½ (unchanged)
    # D: FPB min(2½, 2) = 2                    -> C 2 + G 2½ + E 1 + 2 = 7½
    # E: + min(1, F ½) = ½; -- min(1, H 2) = 1 -> ½ + 3½ + 2½ + 1 = 7½
    # F: - min(½, E 1) = ½                     -> 7½ (unchanged)
    # H: H min(2, 2) = 2; -- min(2, E 1) = 1   -> 2½ + 2 + ½ + 1 = 6
    assert _values(_ctx(Y2026), "BH") == {
        "A": D(5),
        "B": D("7.5"),
        "C": D("9.5"),
        "D": D("7.5"),
        "E": D("7.5"),
        "F": D("7.5"),
        "G": D("7.5"),
        "H": D(6),
    }


def test_buchholz_legacy_virtual_opponent() -> None:
    """Pre-2023 FIDE rules (seed 004) BH: an own unplayed round R counts a virtual opponent with
    score before R + (1 - points of R) + ½ x (4 - R)."""
    # B  R3 Z:   ½ + 1 + ½ = 2      -> A 3½ + F 1 + 2 + C 1½ = 8
    # C  R2 PAB: ½ + 0 + 1 = 1½     -> D 2 + 1½ + A 3½ + B 2 = 9
    # D  R4 FPB: 1½ + 0 + 0 = 1½    -> C 1½ + G 2½ + E 1 + 1½ = 6½
    # E  R1 +:   0 + 0 + 1½ = 1½; R4 --: 1 + 1 + 0 = 2 -> 1½ + A 3½ + D 2 + 2 = 9
    # F  R1 -:   0 + 1 + 1½ = 2½    -> 2½ + B 2 + H 2½ + A 3½ = 10½
    # G  R3 Z:   1½ + 1 + ½ = 3; R4 Z: 1½ + 1 + 0 = 2½ -> H 2½ + D 2 + 3 + 2½ = 10
    # H  R2 H:   ½ + ½ + 1 = 2; R4 --: 2 + 1 + 0 = 3  -> G 2½ + 2 + F 1 + 3 = 8½
    assert _values(_ctx(LEGACY), "BH") == {
        "A": D("5.5"),
        "B": D(8),
        "C": D(9),
        "D": D("6.5"),
        "E": D(9),
        "F": D("10.5"),
        "G": D(10),
        "H": D("8.5"),
    }


def test_cut_removes_voluntarily_unplayed_rounds_first() -> None:
    """C.07 2024 §16.5 + §14.1 BH/C1 (2023 §14.6 + §13.1): an own voluntarily unplayed round is
    cut before a lower game."""
    ctx = _ctx(Y2024)
    c1 = parse_spec("BH/C1")
    # B: terms 3½, ½, 1½ (Z), 2: the Z goes, not F's ½ -> 6
    assert compute(ctx, c1, 2).value == D(6)
    # H: terms 2½, 2 (H), ½, 2 (--): a voluntary 2 goes, not F's ½ -> 5
    assert compute(ctx, c1, 8).value == D(5)
    # F: terms ½ (-), 1½, 2, 3½ -> 7
    assert compute(ctx, c1, 6).value == D(7)
    # D: terms 2, 2½, 1, 2½ (FPB is not voluntary): the lowest game goes -> 7
    assert compute(ctx, c1, 4).value == D(7)
    # G: both withdrawal rounds (1½ each) go first with Cut-2 -> 2 + 2½ = 4½
    assert compute(ctx, c1, 7).value == D(6)
    assert compute(ctx, parse_spec("BH/C2"), 7).value == D("4.5")


def test_cut_by_edition() -> None:
    """BH/C1 where the editions differ: C.07 2023 §13.1/14.6, 2024 §14.1/16.5, 2026, legacy."""
    c1 = parse_spec("BH/C1")
    # H: 2023 terms 2½, 2 (H), ½, 2 (--) -> 5;  2026 terms 2½, 2 (H), ½, 1 (--) -> 5
    assert compute(_ctx(Y2023), c1, 8).value == D(5)
    assert compute(_ctx(Y2026), c1, 8).value == D(5)
    # legacy: no voluntary-first rule, the lowest term goes.
    # H: 2½, 2, 1 (F), 3 -> 7½;   B: 3½, 1 (F), 2 (Z), 1½ -> 7
    assert compute(_ctx(LEGACY), c1, 8).value == D("7.5")
    assert compute(_ctx(LEGACY), c1, 2).value == D(7)
    # D 2026: terms 2, 2½, 1, 2 (FPB capped) -> 6½
    assert compute(_ctx(Y2026), c1, 4).value == D("6.5")


def test_fore_buchholz_forfeited_final_pairing_counts_as_a_game() -> None:
    """C.07 2024 §9.4 FB (2023 §8.4): R4 is final; the E-H double forfeit counts as a drawn
    game, both for E's and H's own score and as opponents."""
    ctx = _ctx(Y2024)
    # FB scores as opponents: E 1 + 0 + 0 + ½ = 1½;  H ½ + ½ + 1 + ½ = 2½
    assert ctx.adjusted(5, fore=True) == D("1.5")
    assert ctx.adjusted(8, fore=True) == D("2.5")
    # E = own 1½ (+, R4 as a draw) + A 3 + D 2½ + H 2½ = 9½
    # H = G 2½ + own 2½ (H, R4 as a draw) + F 1 + E 1½ = 7½
    fb = parse_spec("FB")
    assert compute(ctx, fb, 5).value == D("9.5")
    assert compute(ctx, fb, 8).value == D("7.5")
    # D (FPB in R4, no final game): C 2½ + G 2½ + E 1½ + own 2½ = 9
    assert compute(ctx, fb, 4).value == D(9)


def test_rounds_not_yet_played() -> None:
    """C.07 2024 §16 (2023 §14): rounds after K are not unplayed rounds, they do not exist yet."""
    # A fifth round is planned but K = 4: every value as in the 4-round event.
    ctx = _builder(rounds=5).context(upto=4)
    assert not ctx.final
    assert len(ctx.rounds(1)) == 4
    assert _values(ctx, "BH") == {
        "A": D(5),
        "B": D("7.5"),
        "C": D("9.5"),
        "D": D(8),
        "E": D(8),
        "F": D("7.5"),
        "G": D("7.5"),
        "H": D(7),
    }
    assert ctx.adjusted(7) == D("2.5")
    # After R2: A 2, B ½, C 1½, D ½, E 1, F ½, G 1½, H 1
    ctx = _builder().context(upto=2)
    assert ctx.score(1) == D(2)
    assert ctx.adjusted(7) == D("1.5")  # G has not withdrawn yet
    bh = parse_spec("BH")
    assert compute(ctx, bh, 1).value == D("1.5")  # B ½ + E 1
    assert compute(ctx, bh, 5).value == D(3)  # own 1 (+) + A 2
    assert compute(ctx, bh, 6).value == D(1)  # own ½ (-) + B ½
    assert compute(ctx, bh, 8).value == D("2.5")  # G 1½ + own 1 (H)


# Round robin, 5 players: one player rests each round ("rest").  C wins R3 by forfeit.
#
#          R1         R2         R3         R4         R5         Pts
#  A(1)   1 B w      ½ C w      1 D w      0 E w      rest       2½
#  B(2)   0 A b      1 E w      rest       1 D w      ½ C w      2½
#  C(3)   ½ D w      ½ A b      + (E)      rest       ½ B b      2½
#  D(4)   ½ C b      rest       0 A b      0 B b      1 E w      1½
#  E(5)   rest       0 B b      - (C)      1 A b      0 D b      1
def _round_robin(system: Callable[..., TournamentBuilder] = round_robin) -> Context:
    t = system(5, "ABCDE")
    t.round(1, beats("A", "B"), draws("C", "D"))
    t.round(2, draws("A", "C"), beats("B", "E"))
    t.round(3, beats("A", "D"), forfeit_win("C", over="E"))
    t.round(4, loses("A", "E"), beats("B", "D"))
    t.round(5, draws("B", "C"), beats("D", "E"))
    return t.context()


def test_round_robin_adjusted_and_categories() -> None:
    """C.07 2024 §16.2, §16.3 (2023 §14.3, §14.4): in a round robin a rest round after the
    last available round counts 0, not ½."""
    ctx = _round_robin()
    assert _adjusted(ctx, "ABCDE") == {
        "A": D("2.5"),
        "B": D("2.5"),
        "C": D("2.5"),
        "D": D("1.5"),
        "E": D(1),
    }
    assert ctx.category(1, ctx.rounds(1)[4]) == 4  # A's final rest round
    assert ctx.category(5, ctx.rounds(5)[2]) == 3  # E's forfeit loss, followed by games
    assert ctx.category(3, ctx.rounds(3)[2]) == 1  # C's forfeit win


def test_round_robin_buchholz_forfeits_are_games() -> None:
    """C.07 2024 §8.1 + §16 BH (2023 §7.1 + §14): in a round robin a forfeit counts the
    opponent's score; a rest round adds nothing."""
    # Everyone met everyone: BH = 10 - own score.  C = D 1½ + A 2½ + E 1 (+) + B 2½ = 7½
    assert _values(_round_robin(), "BH", "ABCDE") == {
        "A": D("7.5"),
        "B": D("7.5"),
        "C": D("7.5"),
        "D": D("8.5"),
        "E": D(9),
    }
    # SB C = D 1½·½ + A 2½·½ + E 1·1 (+) + B 2½·½ = ¾ + 1¼ + 1 + 1¼ = 4¼
    assert compute(_round_robin(), parse_spec("SB"), 3).value == D("4.25")


def test_same_crosstable_as_swiss() -> None:
    """C.07 2024 §16.3, §16.4 (2023 §14.4, §14.5): the same crosstable paired as a Swiss."""
    ctx = _round_robin(system=swiss)
    assert ctx.adjusted(1) == D(3)  # A's last-round bye now counts as a draw
    # C = D 1½ + A 3 + own 2½ (+) + own 2½ (Z) + B 2½ = 12
    assert compute(ctx, parse_spec("BH"), 3).value == D(12)
