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

from livetb.engine.catalogue import (
    TIEBREAKS,
    Compute,
    TeamCompute,
    TeamPlaces,
    Tiebreak,
    tiebreak_of,
)
from livetb.engine.modifiers import Spec
from livetb.engine.result import Number, Value
from livetb.engine.standings import Standings, rows_of, split_ties
from livetb.engine.team_context import TeamView
from livetb.engine.team_encounter import tiers


def _on_score(compute: Compute) -> TeamCompute:
    """An individual tie-break applied to the teams on the score the spec reads."""

    def on_score(view: TeamView, spec: Spec, no: int) -> Value:
        return compute(view.on(spec), spec, no)

    return on_score


def _per_board_on_gp(compute: Compute, boards: TeamCompute) -> TeamCompute:
    """Counting tie-breaks: matches on match points, boards on game points."""
    by_match = _on_score(compute)

    def count(view: TeamView, spec: Spec, no: int) -> Value:
        return (boards if view.kind_of(spec) == "GP" else by_match)(view, spec, no)

    return count


def _team_compute(tb: Tiebreak) -> TeamCompute | None:
    """A team's value (2023 Art. 12 intro: any individual tie-break, on MP or GP)."""
    if tb.team_compute is not None:
        return tb.team_compute
    if tb.compute is None:
        return None
    return _on_score(tb.compute) if tb.boards is None else _per_board_on_gp(tb.compute, tb.boards)


def _team_places(tb: Tiebreak) -> TeamPlaces | None:
    """A group tie-break's places among teams; DE reads the score the spec names."""
    places = tb.places
    if places is None:
        return tb.team_places

    def on_score(view: TeamView, spec: Spec, group: list[int]) -> dict[int, int]:
        return places(view.on(spec), group)

    return on_score


# From the catalogue: every tie-break a team has a value of, and the team group tie-breaks.
TEAM_CATALOGUE: dict[str, TeamCompute] = {
    code: fn for code, tb in TIEBREAKS.items() if (fn := _team_compute(tb)) is not None
}
TEAM_GROUP: dict[str, TeamPlaces] = {
    code: place for code, tb in TIEBREAKS.items() if (place := _team_places(tb)) is not None
}


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
        tb = tiebreak_of(spec)
        if tb.group:
            column: dict[int, Number | None] = {}
            refined = []
            place = TEAM_GROUP[spec.code]
            for group in groups:
                places = place(view, spec, group) if len(group) > 1 else {}
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
            groups = split_ties(groups, column, tb.lower_is_better)
        for no in nos:
            values[no].append(column[no])
    rows = rows_of(groups, values, lambda no: view.event.team(no).name)
    return Standings(view.edition.value, view.upto, tuple(s.text for s in specs), rows)
