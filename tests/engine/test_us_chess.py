"""US Chess systems of seed 003, each under its definition, with values
computed by hand for every kind of unplayed round.

     R1          R2               R3           R4              score  US score*
  A  W vs B(w)   + vs C(w)        L vs D(w)    = vs E(w)       2.5    2.0
  B  L vs A(b)   PAB              = vs E(w)    W vs C(w)       2.5    2.0
  C  = vs D(w)   - vs A(b)        full bye     L vs B(b)       1.5    1.5
  D  = vs C(b)   W vs E(w)        W vs A(b)    - vs F(b)       2.5    3.0
  E  W vs F(w)   L vs D(b)        = vs B(b)    = vs A(b)       2.0    2.0
  F  L vs E(b)   half bye         zero bye     + vs D(w)       1.5    1.5

* the score an opponent brings: its own unplayed games counted as draws (½ each).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

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


def event():  # type: ignore[no-untyped-def]
    t = swiss(rounds=4, players="ABCDEF")
    t.round(1, beats("A", "B"), draws("C", "D"), beats("E", "F"))
    t.round(2, forfeit_win("A", over="C"), pab("B"), beats("D", "E"), half_bye("F"))
    t.round(3, loses("A", "D"), draws("B", "E"), full_bye("C"), zero_bye("F"))
    t.round(4, draws("A", "E"), beats("B", "C"), forfeit_win("F", over="D"))
    return t


CTX = event().context()
NO = dict(zip("ABCDEF", range(1, 7), strict=True))


def value(code: str, player: str) -> Decimal | int | None:
    return compute(CTX, parse_spec(code), NO[player]).value


def d(text: str) -> Decimal:
    return Decimal(text)


@pytest.mark.parametrize(
    ("code", "player", "expected"),
    [
        # SOLK: opponents' US scores; an own unplayed round (forfeit win, PAB, forfeit loss,
        # full bye, half bye, zero bye) is an entry of 0
        ("SOLK", "A", d("7.0")),  # B 2 + (forfeit win) 0 + D 3 + E 2
        ("SOLK", "B", d("5.5")),  # A 2 + (PAB) 0 + E 2 + C 1.5
        ("SOLK", "C", d("5.0")),  # D 3 + (forfeit loss) 0 + (full bye) 0 + B 2
        ("SOLK", "D", d("5.5")),  # C 1.5 + E 2 + A 2 + (forfeit loss) 0
        ("SOLK", "E", d("8.5")),  # F 1.5 + D 3 + B 2 + A 2
        ("SOLK", "F", d("2.0")),  # E 2 + (half bye) 0 + (zero bye) 0 + (forfeit win) 0
        # MED: the highest and the lowest entry dropped (fewer than nine rounds)
        ("MED", "A", d("4.0")),  # [0, 2, 2, 3] -> 2 + 2
        ("MED", "C", d("2.0")),  # [0, 0, 2, 3] -> 0 + 2
        ("MED", "E", d("4.0")),  # [1.5, 2, 2, 3] -> 2 + 2
        ("MED", "F", d("0")),  # [0, 0, 0, 2] -> 0 + 0
        ("MED/O", "A", d("2.0")),  # no entry for the forfeit win: [2, 2, 3] -> 2
        ("MED/O", "C", d("0")),  # [2, 3]: both dropped
        ("MED/M2", "E", d("0")),  # two at each end of four
        # MM: above 50 % (2.0 after four rounds) only the lowest dropped, below only the highest
        ("MM", "A", d("7.0")),  # 2.5: [0, 2, 2, 3] less 0
        ("MM", "B", d("5.5")),  # 2.5: [0, 1.5, 2, 2] less 0
        ("MM", "C", d("2.0")),  # 1.5: [0, 0, 2, 3] less 3
        ("MM", "D", d("5.5")),  # 2.5: [0, 1.5, 2, 2] less 0
        ("MM", "E", d("4.0")),  # exactly 2.0: as MED
        ("MM", "F", d("0")),  # 1.5: [0, 0, 0, 2] less 2
        ("MM/O", "A", d("5.0")),  # [2, 2, 3] less 2
        ("MM/O", "C", d("2.0")),  # [2, 3] less 3
        # CUM: running scores summed, less 1 per unplayed win and ½ per unplayed draw
        ("CUM", "A", d("6.5")),  # 1 + 2 + 2 + 2.5 = 7.5, less the forfeit win's 1
        ("CUM", "B", d("4.0")),  # 0 + 1 + 1.5 + 2.5 = 5, less the PAB's 1
        ("CUM", "C", d("3.0")),  # .5 + .5 + 1.5 + 1.5 = 4, less the full bye's 1
        ("CUM", "D", d("7.0")),  # .5 + 1.5 + 2.5 + 2.5; a forfeit loss takes nothing off
        ("CUM", "E", d("5.5")),  # 1 + 1 + 1.5 + 2
        ("CUM", "F", d("1.0")),  # 0 + .5 + .5 + 1.5 = 2.5, less ½ (half bye) and 1 (forfeit)
        # OCUM: the opponents' CUM, an own unplayed round 0
        ("OCUM", "A", d("16.5")),  # B 4 + 0 + D 7 + E 5.5
        ("OCUM", "E", d("18.5")),  # F 1 + D 7 + B 4 + A 6.5
        ("OCUM", "F", d("5.5")),  # E 5.5 + 0 + 0 + 0
        ("OCUM/O", "F", d("5.5")),
        # KASH: 4 / 2 / 1 over the board, 0 for every unplayed round
        ("KASH", "A", d("7")),  # W 4, forfeit win 0, L 1, D 2
        ("KASH", "B", d("7")),  # L 1, PAB 0, D 2, W 4
        ("KASH", "C", d("3")),  # D 2, forfeit loss 0, full bye 0, L 1
        ("KASH", "F", d("1")),  # L 1, half bye 0, zero bye 0, forfeit win 0
        # MB: games played with Black (/O: forfeits by their scheduled colour too)
        ("MB", "A", 0),
        ("MB", "C", 1),  # R4; R2's forfeit loss had Black
        ("MB/O", "C", 2),
        ("MB", "D", 2),  # R1, R3; R4's forfeit loss had Black
        ("MB/O", "D", 3),
        ("MB", "F", 1),  # R1; R4's forfeit win had White
        # TFL: the round of the first loss (a forfeit loss counts; /O: over the board only)
        ("TFL", "A", 3),
        ("TFL", "C", 2),
        ("TFL/O", "C", 4),
        ("TFL", "D", 4),
        ("TFL/O", "D", 5),  # no loss over the board: rounds + 1
        ("TFL", "F", 1),
    ],
)
def test_us_chess_systems_by_hand(code: str, player: str, expected: Decimal | int) -> None:
    assert value(code, player) == expected


def test_a_double_forfeit_under_every_system() -> None:
    """R1: A beats B, C - D double forfeit (C White); R2: A draws C, B beats D (D Black).
    Scores A 1.5, B 1, C 0.5, D 0; US scores A 1.5, B 1, C 1 (R1 as ½), D 0.5."""
    t = swiss(rounds=2, players="ABCD")
    t.round(1, beats("A", "B"), double_forfeit("C", "D"))
    t.round(2, draws("A", "C"), beats("B", "D"))
    ctx = t.context()

    def v(code: str, player: str) -> Decimal | int | None:
        return compute(ctx, parse_spec(code), "ABCD".index(player) + 1).value

    assert v("SOLK", "C") == d("1.5")  # (double forfeit) 0 + A 1.5
    assert v("SOLK", "A") == d("2.0")  # B 1 + C 1: C's forfeit counted as ½
    assert v("MED", "A") == d("0")  # two entries, one dropped at each end
    assert v("MM", "A") == d("1.0")  # 1.5 > 1.0: only the lowest (B or C, both 1) dropped
    assert v("CUM", "C") == d("0.5")  # 0 + .5; a forfeit loss takes nothing off
    assert v("OCUM", "A") == d("1.5")  # B's CUM 0 + 1 = 1, C's 0.5
    assert v("KASH", "C") == d("2")  # the double forfeit gives 0, the draw 2
    assert (v("MB", "D"), v("MB/O", "D")) == (1, 2)  # R2 Black; R1's forfeit had Black too
    assert (v("TFL", "D"), v("TFL/O", "D")) == (1, 2)
    assert (v("TFL", "C"), v("TFL/O", "C")) == (1, 3)  # no loss over the board: rounds + 1


def test_nine_rounds_drop_two_at_each_end() -> None:
    """A meets nine opponents who play nobody else: each brings 0 + 8 unplayed × ½ = 4."""
    t = swiss(rounds=9, players="ABCDEFGHIJ")
    for rnd, opp in enumerate("BCDEFGHIJ", start=1):
        t.round(rnd, beats("A", opp))
    ctx = t.context()
    med = compute(ctx, parse_spec("MED"), 1)
    assert (med.value, len(med.cut)) == (d("20.0"), 4)  # 36 less 2 × 4 low and 2 × 4 high
    mm = compute(ctx, parse_spec("MM"), 1)
    assert (mm.value, len(mm.cut)) == (d("28.0"), 2)  # 9/9 > 50 %: the two lowest only
    assert compute(ctx, parse_spec("MM/M1"), 1).value == d("32.0")


def test_rbt_is_direct_encounter_and_harkness_is_the_median() -> None:
    assert parse_spec("RBT") == parse_spec("DE")
    assert parse_spec("HARK") == parse_spec("MED")
    assert parse_spec("MM/O").text == "MM/O"


def test_uscf_preset_and_the_live_projection(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`--system uscf` is PTS, MM, SOLK, CUM, OCUM; the live projection (from the log, result
    by result) gives what the file gives, for every US Chess code."""
    import contextlib
    import io
    import json

    from livetb.cli import main
    from tests.conformance import CORPUS

    def run(*argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
        return code, out.getvalue(), err.getvalue()

    trf = str(CORPUS / "individual-swiss" / "swiss-1005.trf")
    code, out, _ = run("standings", trf, "--system", "uscf", "--format", "json")
    assert code == 0 and json.loads(out)["tiebreaks"] == ["PTS", "MM", "SOLK", "CUM", "OCUM"]
    code, _, err = run("standings", trf, "--system", "uscf", "--tiebreaks", "PTS,BH")
    assert code == 2 and "give it or --tiebreaks" in err
    every = "PTS,MM,MED,SOLK,CUM,OCUM,KASH,MB,TFL,RBT,MM/O,TFL/O"
    db = str(tmp_path / "events.sqlite")
    assert run("import", trf, "--db", db, "--tiebreaks", every)[0] == 0
    code, live, _ = run("standings", "--db", db, "--format", "json")
    code, computed, _ = run("standings", trf, "--tiebreaks", every, "--format", "json")
    rows = lambda doc: [(r["rank"], r["start_no"], r["values"]) for r in doc["standings"]]  # noqa: E731
    assert rows(json.loads(live)) == rows(json.loads(computed))
