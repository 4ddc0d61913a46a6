"""Team standings from the event log: the teams as participants (C.07 2024 Art. 5 ff.).

The matches are rebuilt from the board games of the folded state (`build_team_event`, as for a
team TRF), then read through the same three views as individual standings: rounds 1..K for
own results (unfinished games 0), rounds 1..C for opponents' results (type C), and round K as
the last one for FB while a round runs. Every event recomputes the whole table, and the delta
is the rows that differ: a single board changes its match, both teams' match and game points
and, through them, every opponent-based value of every team that met them. For 40 teams of 4
boards over 11 rounds (team-swiss-1206) a result costs 5.5 ms at p50 and 37 ms at p99 with
five tie-breaks (10 / 37 ms with eighteen); an incremental team projection is left for later.
"""

from __future__ import annotations

from collections.abc import Callable

from livetb.engine.editions import Edition
from livetb.engine.spec import Spec
from livetb.engine.standings import TYPE_C
from livetb.engine.team_context import TeamView, primary_from_list
from livetb.engine.team_standings import rank_teams
from livetb.engine.teams import Roster, build_team_event
from livetb.events.state import TournamentState

# Team tie-breaks reading the opponents' final scores besides the individual type C ones:
# the extended Sonneborn-Bergers and the strength-of-schedule score.
TEAM_TYPE_C = TYPE_C | {"EMMSB", "EMGSB", "EGMSB", "EGGSB", "SSSC"}


def team_table(
    state: TournamentState, specs: tuple[Spec, ...], fmt: Callable[[object], object]
) -> list[tuple[int, int, str, tuple[object, ...], tuple[str, ...]]]:
    """Each team's (rank, number, name, values, statuses), best first; `fmt` turns a value
    into what a row shows."""
    created = state.created
    assert created is not None
    if not state.teams:
        return []
    players = state.tournament()
    rosters = [Roster(t.number, t.name, t.members) for _, t in sorted(state.teams.items())]
    event = build_team_event(players, rosters)
    paired, closed = state.paired, state.closed
    running = paired > closed
    edition = Edition(created.edition) if created.edition else None
    primary = primary_from_list(specs, event.primary)

    def view(upto: int, as_final: bool = False) -> TeamView:
        return TeamView(event, upto, edition=edition, as_final=as_final, primary=primary)

    live = view(paired)
    done = view(closed) if running else live
    fore = view(paired, as_final=True) if running else done

    def on(spec: Spec) -> TeamView:
        if spec.code == "FB":
            return fore
        return done if spec.code in TEAM_TYPE_C else live

    def status(spec: Spec) -> str:
        if spec.code == "FB":
            return "predicted" if running else "final"
        if spec.code in TEAM_TYPE_C:
            return "final"
        return "provisional" if running else "final"

    statuses = tuple(status(s) for s in specs)
    table = rank_teams(live, specs, on)
    return [
        (row.rank, row.start_no, row.name, tuple(fmt(v) for v in row.values), statuses)
        for row in table.rows
    ]
