"""The live projections' unit of work: which participants a change touches, and one value
computed alone equals the value the full ranking shows (C.07 2024 Art. 4 tie-break types)."""

from __future__ import annotations

from decimal import Decimal

import msgspec
import pytest

from livetb.engine.context import Context
from livetb.engine.model import Code
from livetb.engine.spec import parse_list, parse_spec
from livetb.engine.standings import affected_by, compute, rank
from tests.builders import beats, draws, loses, swiss

SIX = "ABCDEF"


# Swiss, 4 rounds (start numbers A=1 ... F=6; ratings A 2300, B 2200, C 2150, D 2000,
# E 1900, F 1800).
#
#          R1         R2         R3         R4         Pts
#  A(1)   1 D w      ½ C w      1 F w      ½ E b      3
#  B(2)   1 E w      0 F b      ½ D w      0 C b      1½
#  C(3)   ½ F w      ½ A b      0 E b      1 B w      2
#  D(4)   0 A b      1 E w      ½ B b      0 F w      1½
#  E(5)   0 B b      0 D b      1 C w      ½ A w      1½
#  F(6)   ½ C b      1 B w      0 A b      1 D b      2½
RATINGS: dict[str, int | None] = {
    "A": 2300,
    "B": 2200,
    "C": 2150,
    "D": 2000,
    "E": 1900,
    "F": 1800,
}


def _six(upto: int) -> Context:
    t = swiss(rounds=4, players=SIX, ratings=RATINGS)
    t.round(1, beats("A", "D"), beats("B", "E"), draws("C", "F"))
    t.round(2, draws("A", "C"), beats("F", "B"), beats("D", "E"))
    t.round(3, beats("A", "F"), draws("B", "D"), beats("E", "C"))
    t.round(4, draws("E", "A"), beats("C", "B"), loses("D", "F"))
    return t.context(upto=upto)


def test_affected_by_hops() -> None:
    """C.07 2024 Art. 4 types: own-result tie-breaks touch the players, opponent-score ones
    their opponents too, AOB two hops; KS and DE anybody."""
    ctx = _six(2)  # after R2: A met D and C; C met F and A; D met A and E.
    assert affected_by(ctx, parse_spec("WIN"), [1]) == {1}
    assert affected_by(ctx, parse_spec("PTS"), [1, 2]) == {1, 2}
    assert affected_by(ctx, parse_spec("TPR"), [1]) == {1}
    assert affected_by(ctx, parse_spec("BH"), [1]) == {1, 3, 4}
    assert affected_by(ctx, parse_spec("BH/C1"), [1]) == {1, 3, 4}
    assert affected_by(ctx, parse_spec("SB"), [1]) == {1, 3, 4}
    assert affected_by(ctx, parse_spec("APRO"), [1]) == {1, 3, 4}
    # two hops: A's opponents C, D, and theirs, F and E; B (3 hops away) is untouched.
    assert affected_by(ctx, parse_spec("AOB"), [1]) == {1, 3, 4, 5, 6}
    assert affected_by(ctx, parse_spec("KS"), [1]) == {1, 2, 3, 4, 5, 6}
    assert affected_by(ctx, parse_spec("DE"), [1]) == {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize("upto", [2, 3, 4])
def test_compute_equals_ranking_row(upto: int) -> None:
    """C.07 2024 §4.2 (2023 §4.2): a value computed alone equals its column in the ranking."""
    ctx = _six(upto)
    specs = parse_list("PTS,WIN,BH/C1,BH,FB,SB,AOB,KS,PS,ARO,TPR,PTP,APRO,APPO")
    standings = rank(ctx, specs)
    fresh = _six(upto)  # a new context: nothing memoised by the ranking
    for row in standings.rows:
        alone = tuple(compute(fresh, spec, row.start_no).value for spec in specs)
        assert row.values == alone, row.name


def test_ranking_order() -> None:
    """C.07 2024 §4.2 (2023 §4.2): ranked by PTS, then BH/C1, then BH."""
    # After R4: A 3; F 2½; C 2 ; B, D, E 1½.
    # BH/C1 (cut the lowest, 1½ for all): B 6, D 7, E 6½.
    rows = rank(_six(4), parse_list("PTS,BH/C1,BH")).rows
    assert [(row.name, row.rank) for row in rows] == [
        ("A", 1),
        ("F", 2),
        ("C", 3),
        ("D", 4),
        ("E", 5),
        ("B", 6),
    ]
    assert rows[3].values == (Decimal("1.5"), Decimal(7), Decimal("8.5"))


@pytest.mark.parametrize("rnd", [None, 2])
def test_update_equals_a_fresh_context(rnd: int | None) -> None:
    """A changed result taken by `Context.update` (with `rnd`: the participants' rounds built
    already are mended in that round only) gives every value a context built afresh gives."""
    ctx = _six(4)
    specs = parse_list(("PTS", "BH", "BH/C1", "FB", "SB", "AOB", "WIN", "ARO", "TPR"))
    for spec in specs:  # every cache warm: rounds, scores, terms, sums
        for no in ctx.by_no:
            compute(ctx, spec, no)
    # Round 2: A-C was a draw; now A won (A is 1, C is 3).
    a, c = ctx.by_no[1], ctx.by_no[3]
    won = [
        msgspec.structs.replace(
            p,
            entries=(
                p.entries[0],
                msgspec.structs.replace(p.entries[1], code=code),
                *p.entries[2:],
            ),
        )
        for p, code in ((a, Code.WIN), (c, Code.LOSS))
    ]
    ctx.update(won, rnd)
    t = msgspec.structs.replace(
        ctx.tournament, participants=tuple(ctx.by_no[no] for no in sorted(ctx.by_no))
    )
    fresh = Context(t, 4, edition=ctx.edition)
    assert ctx.rounds(1) == fresh.rounds(1) and ctx.score(1) == Decimal("3.5")
    for spec in specs:
        for no in fresh.by_no:
            assert compute(ctx, spec, no).value == compute(fresh, spec, no).value, (spec, no)
