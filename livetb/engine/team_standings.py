"""Rank teams by a tie-break list (C.07 2023 4.2 and Art. 10-12; 2024 Art. 11-13).

Every individual tie-break applies to teams on the score its `:MP` / `:GP` names, else on the
primary score (`BH:MP`, `SB:GP`, `PS:MP`, plain `BH`); the team tie-breaks have their own
modules. Group tie-breaks (DE, EDE, TBR, BBE) are computed on the teams still tied at their
turn; their value is the place within that group (1 = best), or 0 when they left the group
tied as a whole (a team alone in its group included): the FIDE reference's encoding, which the
conformance corpus checks for TBR and BBE.
"""

from __future__ import annotations

from collections.abc import Callable

from livetb.engine import team_boards, team_scores
from livetb.engine.context import Context
from livetb.engine.direct_encounter import direct_encounter
from livetb.engine.result import Number, Value
from livetb.engine.spec import Spec
from livetb.engine.standings import CATALOGUE, Standings, rows_of, split_ties
from livetb.engine.team_context import TeamView
from livetb.engine.team_encounter import extended_direct_encounter, tiers
from livetb.engine.team_sonneborn import extended_sonneborn_berger

TeamCompute = Callable[[TeamView, Spec, int], Value]
GroupCompute = Callable[[TeamView, Spec, list[int]], dict[int, int]]


def _on_score(compute: Callable[[Context, Spec, int], Value]) -> TeamCompute:
    """An individual tie-break applied to the teams on the score the spec reads."""

    def on_score(view: TeamView, spec: Spec, no: int) -> Value:
        return compute(view.on(spec), spec, no)

    return on_score


def _per_board_on_gp(code: str) -> TeamCompute:
    """Counting tie-breaks: matches on match points, boards on game points."""
    by_match, by_board = _on_score(CATALOGUE[code]), team_scores.BOARD_COUNTS[code]

    def count(view: TeamView, spec: Spec, no: int) -> Value:
        return (by_board if view.kind_of(spec) == "GP" else by_match)(view, spec, no)

    return count


TEAM_CATALOGUE: dict[str, TeamCompute] = {
    **{code: _on_score(compute) for code, compute in CATALOGUE.items()},
    **{code: _per_board_on_gp(code) for code in team_scores.BOARD_COUNTS},
    "MPTS": _on_score(CATALOGUE["PTS"]),
    "GPTS": _on_score(CATALOGUE["PTS"]),
    "MPVGP": team_scores.secondary_score,
    "SSSC": team_scores.score_strength,
    "EMMSB": extended_sonneborn_berger,
    "EMGSB": extended_sonneborn_berger,
    "EGMSB": extended_sonneborn_berger,
    "EGGSB": extended_sonneborn_berger,
    "BC": team_boards.board_count,
}


def _direct_encounter(view: TeamView, spec: Spec, group: list[int]) -> dict[int, int]:
    return direct_encounter(view.on(spec), group)


TEAM_GROUP: dict[str, GroupCompute] = {
    "DE": _direct_encounter,
    "EDE": extended_direct_encounter,
    "TBR": team_boards.top_board_results,
    "BBE": team_boards.bottom_board_elimination,
}
TEAM_LOWER_IS_BETTER = frozenset({"BC", *TEAM_GROUP})


def compute_team(view: TeamView, spec: Spec, no: int) -> Value:
    """One tie-break for one team (not the group tie-breaks)."""
    return TEAM_CATALOGUE[spec.code](view, spec, no)


def rank_teams(
    view: TeamView,
    specs: tuple[Spec, ...],
    on: Callable[[Spec], TeamView] | None = None,
    columns: dict[int, dict[int, Number | None]] | None = None,
) -> Standings:
    """Compute every value and rank the teams by the list, in order; `on` picks the view a
    tie-break reads (default `view`: the live projection reads opponents' values on the
    closed rounds only); `columns`, by the tie-break's index, are values known already (the
    live projection keeps those an event did not change) and receive the ones computed."""
    nos = view.start_nos
    values: dict[int, list[Number | None]] = {no: [] for no in nos}
    groups: list[list[int]] = [sorted(nos)]
    for k, spec in enumerate(specs):
        if spec.code in TEAM_GROUP:
            column: dict[int, Number | None] = {}
            refined = []
            for group in groups:
                places = TEAM_GROUP[spec.code](view, spec, group) if len(group) > 1 else {}
                split = tiers(places) if len(set(places.values())) > 1 else [group]
                column.update((no, places[no] if len(split) > 1 else 0) for no in group)
                refined.extend(split)
            groups = refined
        else:
            known = None if columns is None else columns.get(k)
            if known is None:
                source = view if on is None else on(spec)
                column = {no: compute_team(source, spec, no).value for no in nos}
                if columns is not None:
                    columns[k] = column
            else:
                column = known
            groups = split_ties(groups, column, spec.code in TEAM_LOWER_IS_BETTER)
        for no in nos:
            values[no].append(column[no])
    rows = rows_of(groups, values, lambda no: view.event.team(no).name)
    return Standings(view.edition.value, view.upto, tuple(s.text for s in specs), rows)
