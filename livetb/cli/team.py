"""`livetb standings` on a team file: the same options and JSON contract as for individual
events, with the teams as participants (`start_no` = team number, as numbered by the `013`
order or the `310` records); `--explain N` is `livetb.cli.explain.explain_team`. Called by
`livetb.cli.standings.standings_command`.
"""

from __future__ import annotations

import argparse
import io

from livetb.cli.output import emit, language
from livetb.engine.editions import Edition
from livetb.engine.spec import parse_list
from livetb.engine.team_context import TeamView, primary_from_list
from livetb.engine.team_standings import rank_teams
from livetb.engine.teams import TeamEvent
from livetb.errors import UsageError
from livetb.events.schema import DEFAULT_TEAM_TIEBREAKS


def default_team_tiebreaks(event: TeamEvent) -> str:
    t = event.tournament
    return ",".join(t.tiebreaks or DEFAULT_TEAM_TIEBREAKS[t.system])


def team_standings(args: argparse.Namespace, event: TeamEvent, out: io.TextIOBase) -> int:
    t = event.tournament
    in_file = max((len(team.matches) for team in event.teams), default=0)
    upto = t.played_rounds if args.after_round is None else args.after_round
    if not 0 <= upto <= in_file:
        raise UsageError.of("cli.usage.after_round", round=upto, last=in_file)
    specs = parse_list(args.tiebreaks or default_team_tiebreaks(event), teams=True)
    view = TeamView(
        event,
        upto,
        edition=Edition(args.edition) if args.edition else None,
        as_final=args.as_final,
        primary=primary_from_list(specs, event.primary),
    )
    if args.explain is not None:
        from livetb.cli.explain import explain_team

        return explain_team(view, specs, args.explain, out, language(args))
    return emit(rank_teams(view, specs), args, t.name, out)
