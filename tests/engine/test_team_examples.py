"""The team cases of the seed documents' worked examples (`worked-examples.json`): SSSC and
Board Count (seed 000, C.07 2023 12.4 and 11.1)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

from livetb.engine.spec import parse_list
from livetb.engine.team_boards import weighted
from livetb.engine.team_scores import combination, normalising_factor
from livetb.engine.team_standings import rank_teams
from tests.team_builders import match, team_swiss

EXAMPLES = Path(__file__).parent.parent / "data" / "worked-examples.json"
CASES: dict[str, dict[str, Any]] = {c["id"]: c for c in json.loads(EXAMPLES.read_text())["cases"]}


def d(x: float | str) -> Decimal:
    return Decimal(str(x))


def test_s000_sssc() -> None:
    """4 boards, 11 rounds, MP 2/1/0: factor 22 / 4 = 5.5 -> 5; SSSC = 22 + 120 / 5 = 46."""
    case = CASES["s000-sssc"]
    given, expected = case["input"], case["expected"]
    highest_primary = d(given["match_points"]["win"]) * given["rounds"]
    per_round = d(given["boards"])  # every board won, 1 game point each
    assert highest_primary == d(expected["max_primary"]["value"])
    assert per_round == d(expected["max_secondary_per_round"]["value"])
    factor = normalising_factor(highest_primary, per_round)
    assert factor == d(expected["normalising_factor"]["value"])
    team = given["team"]
    value = combination(d(team["secondary_score"]), d(team["buchholz_primary"]), factor)
    assert value == d(expected["sssc"]["value"])


def test_s000_board_count() -> None:
    """{1, 0, ½, ½} gives 4.5 and {1, 1, 0, 0} the better 3.0: lower is better."""
    case = CASES["s000-board-count"]
    values = {
        m["label"]: weighted([d(v) for v in m["board_points"]]) for m in case["input"]["matches"]
    }
    assert values == {label: d(e["value"]) for label, e in case["expected"]["bc"].items()}
    assert min(values, key=values.__getitem__) == case["expected"]["better"]["value"]


def test_s000_board_count_in_standings() -> None:
    """The same two match results in an event: team a and team b tie on MP and GP, and BC
    ranks b (3.0) above a (4.5)."""
    t = team_swiss(rounds=1, teams="ABXY", boards=4)
    # From a's side 1, 0, ½, ½: boards 2 and 4 have the opponent's player in White.
    t.round(1, match("A", "X", "1 0 = ="), match("B", "Y", "1 1 0 0"))
    standings = rank_teams(t.view(), parse_list("MPTS,GPTS,BC", teams=True))
    top = [(r.start_no, r.rank, r.values[-1]) for r in standings.rows[:2]]
    assert top == [(2, 1, d("3.0")), (1, 2, d("4.5"))]
