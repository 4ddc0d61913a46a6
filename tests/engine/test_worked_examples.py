"""Every individual worked example of the seed documents (`worked-examples.json`), each under
its stated rules. Team cases (SSSC, Board Count) belong to the team engine."""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from livetb.engine.buchholz import virtual_opponent
from livetb.engine.context import Context
from livetb.engine.direct_encounter import direct_encounter
from livetb.engine.editions import Edition
from livetb.engine.model import Code, Colour, Entry
from livetb.engine.performance import performance
from livetb.engine.spec import parse_spec
from livetb.engine.standings import compute
from livetb.trf import parse_trf
from tests.builders import TournamentBuilder, beats, draws, loses, swiss

EXAMPLES = Path(__file__).parent.parent / "data" / "worked-examples.json"
CASES: dict[str, dict[str, Any]] = {c["id"]: c for c in json.loads(EXAMPLES.read_text())["cases"]}
TEAM_CASES = {"s000-sssc", "s000-board-count"}

BH, BH_C1 = parse_spec("BH"), parse_spec("BH/C1")
KINDS = {
    "played": None,
    "forfeit_win": Code.FORFEIT_WIN,
    "forfeit_loss": Code.FORFEIT_LOSS,
    "pab": Code.PAB,
    "fpb": Code.FULL_BYE,
    "hpb": Code.HALF_BYE,
    "zpb": Code.ZERO_BYE,
    "withdrawn": Code.ZERO_BYE,
}


def d(x: float | str) -> Decimal:
    return Decimal(str(x))


def val(field: dict[str, Any] | float) -> Decimal:
    return d(field["value"] if isinstance(field, dict) else field)


def test_every_individual_case_is_covered() -> None:
    covered = {
        "s000-swiss-8p-5r-crosstable",
        "s000-jokopo-unplayed-categories",
        "s000-direct-encounter-unresolved",
        "s000-tpr",
        "s003-cumulative",
        "s003-kashdan",
        "s003-time-of-first-loss",
        "s004-ex1-forfeit-loss",
        "s004-ex2-forfeit-win",
    } | {c for c in CASES if c.startswith("s002-")}
    assert set(CASES) - TEAM_CASES == covered


# --- seed 000: the 8-player crosstable, FIDE 2023 (and the reference's 2024/2026 values) ---


def crosstable(edition: Edition) -> Context:
    case = CASES["s000-swiss-8p-5r-crosstable"]
    imported = parse_trf("\n".join(case["trf16"]), "seed000.trf")
    return Context(imported.tournament, 5, edition=edition)


@pytest.mark.parametrize(
    "player", CASES["s000-swiss-8p-5r-crosstable"]["input"]["players"], ids=lambda p: p["name"]
)
def test_s000_crosstable_fide2023(player: dict[str, Any]) -> None:
    ctx = crosstable(Edition.FIDE_2023)
    no, expected = player["id"], player["expected_fide2023"]
    assert ctx.score(no) == val(expected["score"])
    assert ctx.adjusted(no) == val(expected["adjusted_score_for_opponents"])
    assert compute(ctx, BH, no).value == val(expected["bh"])
    assert compute(ctx, BH_C1, no).value == val(expected["bh_c1"])
    for r, rnd in zip(ctx.rounds(no), player["rounds"], strict=True):
        assert ctx.adjusted_round(no, r, fore=False) == d(rnd["value_for_opponents_2023"])
        category = ctx.category(no, r)
        assert (None if category is None else f"14.3.{category}") == rnd["category_2023"]


@pytest.mark.parametrize("edition", ["2024", "2026"])
def test_s000_crosstable_reference_values(edition: str) -> None:
    """The FIDE reference implementation's BH / BH Cut-1 for the same crosstable."""
    ctx = crosstable(Edition(edition))
    expected = CASES["s000-swiss-8p-5r-crosstable"]["reference_implementation_values"][edition]
    for no, values in expected.items():
        assert compute(ctx, BH, int(no)).value == d(values["BH"])
        assert compute(ctx, BH_C1, int(no)).value == d(values["BH/C1"])


# --- seed 000: Mr. Jokopo's strip, every kind of unplayed round ---


def strip(rounds: list[tuple[str, float | None, float | None]], n: int) -> TournamentBuilder:
    """One participant "P" whose round r is (kind, points, opponent's final score). Each
    opponent is a separate player whose other games (against fillers) make up its score."""
    names = ["P"] + [f"O{r}" for r in range(1, n + 1)]
    fillers = [f"F{r}_{k}" for r in range(1, n + 1) for k in range(1, n + 1)]
    t = swiss(rounds=n, players=names + fillers)
    for rnd, (kind, points, opp_score) in enumerate(rounds, start=1):
        code = KINDS[kind]
        opp = f"O{rnd}"
        if opp_score is None:
            t.round(rnd, _bye(code))
            continue
        if code is None:
            assert points is not None  # a played game's own points
            mine = {1.0: Code.WIN, 0.5: Code.DRAW, 0.0: Code.LOSS}[points]
        else:
            mine = code
        theirs = {
            Code.WIN: Code.LOSS,
            Code.DRAW: Code.DRAW,
            Code.LOSS: Code.WIN,
            Code.FORFEIT_WIN: Code.FORFEIT_LOSS,
            Code.FORFEIT_LOSS: Code.FORFEIT_WIN,
        }[mine]
        t.set("P", rnd, _entry(mine, t.no[opp], "w"))
        t.set(opp, rnd, _entry(theirs, t.no["P"], "b"))
        # The opponent scores the rest of its points in games against its own fillers.
        rest = d(opp_score) - t.scoring.points(theirs)
        for other in (r for r in range(1, n + 1) if r != rnd):
            result = min(rest, Decimal(1))
            rest -= result
            filler = f"F{rnd}_{other}"
            if result == 1:
                t.round(other, beats(opp, filler))
            elif result == 0:
                t.round(other, beats(filler, opp))
            else:
                t.set(opp, other, _entry(Code.DRAW, t.no[filler], "w"))
                t.set(filler, other, _entry(Code.DRAW, t.no[opp], "b"))
        assert rest == 0, "opponent score not reachable in the remaining rounds"
    return t


def _entry(code: Code, opponent: int, colour: Colour) -> Entry:
    return Entry(code, opponent, colour)


def _bye(code: Code | None) -> Callable[[TournamentBuilder, int], None]:
    def apply(t: TournamentBuilder, rnd: int) -> None:
        t.set("P", rnd, Entry(code or Code.ZERO_BYE))

    return apply


def test_s000_jokopo_unplayed_categories() -> None:
    case = CASES["s000-jokopo-unplayed-categories"]
    rounds = [
        (r["kind"], r["points"], 3.0 if r["kind"] in ("forfeit_win", "forfeit_loss") else None)
        for r in case["input"]["rounds"]
    ]
    ctx = strip(rounds, 9).context(edition=Edition.FIDE_2023)
    expected = case["expected"]
    assert ctx.score(1) == val(expected["score"])
    assert ctx.adjusted(1) == val(expected["adjusted_score_for_opponents"])
    for r, want in zip(ctx.rounds(1), expected["per_round"], strict=True):
        assert r.available is want["available_to_play"]
        assert f"14.3.{ctx.category(1, r)}" == want["category_2023"]
        assert ctx.adjusted_round(1, r, fore=False) == d(want["value_for_opponents"])


# --- seed 002: the newer rules (own unplayed rounds capped) = the 2026 edition ---


@pytest.mark.parametrize("case_id", sorted(c for c in CASES if c.startswith("s002-")))
def test_s002_buchholz_examples(case_id: str) -> None:
    case = CASES[case_id]
    n = case["input"]["number_of_rounds"]
    rounds = [(r["kind"], r["points"], r["opponent_score"]) for r in case["input"]["rounds"]]
    expected = case["expected"]
    ctx = strip(rounds, n).context(edition=Edition.FIDE_2026)
    assert ctx.score(1) == val(expected["score"])
    bh = compute(ctx, BH, 1)
    assert [p.amount for p in bh.parts] == [d(x) for x in expected["bh_terms"]]
    assert bh.value == val(expected["bh"])
    c1 = compute(ctx, BH_C1, 1)
    assert c1.value == val(expected["bh_c1"])
    assert [rnd for rnd, _ in c1.cut] == [expected["bh_c1_cut_round"]]
    assert ctx.adjusted(1) == val(expected["contribution_to_opponents"])
    # The 2023 rules on the same strip, as the case computes them for comparison.
    old = strip(rounds, n).context(edition=Edition.FIDE_2023)
    comparison = case["comparison_fide2023_computed"]
    assert compute(old, BH, 1).value == val(comparison["bh"])
    assert compute(old, BH_C1, 1).value == val(comparison["bh_c1"])


def test_s000_direct_encounter_unresolved() -> None:
    """A and B did not meet, both beat C: nobody is bound to be first, all stay tied."""
    t = swiss(rounds=2, players="ABC")
    t.round(1, beats("A", "C"))
    t.round(2, beats("B", "C"))
    places = direct_encounter(t.context(), [1, 2, 3])
    assert places == {1: 1, 2: 1, 3: 1}


def test_s000_tpr() -> None:
    case = CASES["s000-tpr"]
    games = case["input"]["games"]
    ratings = [case["input"]["aro"]] * games
    tpr = performance(d(case["input"]["points_over_the_board"]), ratings)
    assert tpr == int(val(case["expected"]["tpr"]))


# --- seed 003: US Chess systems ---


def test_s003_cumulative() -> None:
    case = CASES["s003-cumulative"]
    for variant, key in (("variant_a", "cumulative_a"), ("variant_b", "cumulative_b")):
        rounds = case["input"][variant]["rounds"]
        t = swiss(rounds=5, players=["P"] + [f"O{r}" for r in range(1, 6)])
        for r in rounds:
            opp = f"O{r['round']}"
            if r["kind"] == "hpb":
                t.round(r["round"], _bye(Code.HALF_BYE))
            else:
                mine = {1.0: Code.WIN, 0.5: Code.DRAW, 0.0: Code.LOSS}[r["points"]]
                theirs = {Code.WIN: Code.LOSS, Code.DRAW: Code.DRAW, Code.LOSS: Code.WIN}[mine]
                t.set("P", r["round"], _entry(mine, t.no[opp], "w"))
                t.set(opp, r["round"], _entry(theirs, 1, "b"))
        assert compute(t.context(), parse_spec("CUM"), 1).value == val(case["expected"][key])


def test_s003_kashdan() -> None:
    case = CASES["s003-kashdan"]
    t = swiss(rounds=2, players="XYAB")
    t.round(1, beats("X", "A"), draws("Y", "B"))
    t.round(2, beats("B", "X"), draws("A", "Y"))
    ctx = t.context()
    kash = parse_spec("KASH")
    assert compute(ctx, kash, 1).value == val(case["expected"]["kashdan_x"])
    assert compute(ctx, kash, 2).value == val(case["expected"]["kashdan_y"])


def test_s003_time_of_first_loss() -> None:
    case = CASES["s003-time-of-first-loss"]
    t = swiss(rounds=4, players="ABCDEFGH")
    t.round(1, beats("A", "C"), beats("B", "D"))
    t.round(2, beats("A", "D"), loses("B", "C"))
    t.round(3, beats("A", "E"), beats("B", "G"))
    t.round(4, loses("A", "F"), beats("B", "H"))
    ctx = t.context()
    tfl = parse_spec("TFL")
    assert compute(ctx, tfl, 1).value == case["input"]["A"]["first_loss_round"]
    assert compute(ctx, tfl, 2).value == case["input"]["B"]["first_loss_round"]


@pytest.mark.parametrize("case_id", ["s004-ex1-forfeit-loss", "s004-ex2-forfeit-win"])
def test_s004_virtual_opponent(case_id: str) -> None:
    case = CASES[case_id]
    i = case["input"]
    for expected in case["expected"]["svon"]:
        svon = virtual_opponent(
            d(i["SPR"]), d(i["SfPR"]), expected["n"], i["R"], Decimal(1), Decimal("0.5")
        )
        assert svon == d(expected["value"])
