"""`livetb standings` on a team file: the same options and JSON contract as for individual
events, with the teams as participants (`start_no` = team number, as numbered by the `013`
order or the `310` records). `--explain N` shows team N's match and game points round by round,
its boards, and each tie-break's contributions. Called by `livetb.cli.standings.standings_command`.
"""

from __future__ import annotations

import argparse
import io

from livetb.cli.output import emit, format_value
from livetb.engine.categories import category_text
from livetb.engine.context import Round
from livetb.engine.editions import Edition
from livetb.engine.result import Value
from livetb.engine.spec import Spec, parse_list
from livetb.engine.team_boards import board_points
from livetb.engine.team_context import TeamView, primary_from_list
from livetb.engine.team_standings import TEAM_GROUP, compute_team, rank_teams
from livetb.engine.teams import Match, TeamEvent
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
        raise UsageError(f"--after-round {upto}: the tournament has rounds 0..{in_file}")
    specs = parse_list(args.tiebreaks or default_team_tiebreaks(event), teams=True)
    view = TeamView(
        event,
        upto,
        edition=Edition(args.edition) if args.edition else None,
        as_final=args.as_final,
        primary=primary_from_list(specs, event.primary),
    )
    if args.explain is not None:
        return explain_team(view, specs, args.explain, out)
    return emit(rank_teams(view, specs), args, t.name, out)


def explain_team(view: TeamView, specs: tuple[Spec, ...], no: int, out: io.TextIOBase) -> int:
    """Team `no`: each round's match (MP, GP, boards), then each tie-break's contributions."""
    if no not in view.start_nos:
        raise UsageError(f"--explain {no}: no team with that number")
    team = view.event.team(no)
    print(
        f"{no} {team.name}: after round {view.upto}, C.07 edition {view.edition}, "
        f"primary score {view.primary}",
        file=out,
    )
    ctx = view.context("MP")
    for m, r in zip(team.matches, ctx.rounds(no), strict=False):
        print(f"  round {m.rnd}: {_match_line(m)} — {_unplayed(view, no, r)}", file=out)
    for spec in specs:
        kind = view.kind_of(spec)
        if spec.code in TEAM_GROUP:
            print(f"{spec.text}: decided within the tied group (see the standings)", file=out)
            if spec.code in ("TBR", "BBE"):
                boards = "  ".join(
                    f"board {i}: {format_value(v)}"
                    for i, v in enumerate(board_points(view, no), start=1)
                )
                print(f"  game points by board: {boards}", file=out)
            continue
        _print_value(spec, kind, compute_team(view, spec, no), out)
    return 0


def _match_line(m: Match) -> str:
    against = f"vs team {m.opponent} ({'white' if m.colour == 'w' else 'black'})"
    opponent = against if m.opponent is not None else "no opponent"
    boards = " ".join(str(format_value(b.points)) for b in m.boards)
    return (
        f"{m.code.name} {opponent}, {format_value(m.mp)} MP, {format_value(m.gp)} GP "
        f"(boards {boards})"
    )


def _unplayed(view: TeamView, no: int, r: Round) -> str:
    """C.07 2023 14.3.n (2024 16.2.n) for the team's round, which holds for MP and GP alike."""
    return category_text(view.context("MP"), no, r, unit="match")


# Tie-breaks whose score is in their name (or is the boards' game points).
_OWN_SCORE = frozenset({"MPTS", "GPTS", "MPVGP", "EMMSB", "EMGSB", "EGMSB", "EGGSB", "BC"})


def _print_value(spec: Spec, kind: str, v: Value, out: io.TextIOBase) -> None:
    shown = "undefined (null)" if v.value is None else format_value(v.value)
    on = "" if spec.code in _OWN_SCORE else f"  (on {kind})"
    print(f"{spec.text} = {shown}{on}", file=out)
    cut = dict(v.cut)
    for part in v.parts:
        amount = format_value(part.amount) if not isinstance(part.amount, int) else part.amount
        if part.rnd == 0:  # a total the value is built from, not a round
            print(f"  {part.note}: {amount}", file=out)
            continue
        mark = f"  [{cut[part.rnd]}]" if part.rnd in cut else ""
        print(f"  round {part.rnd}: {amount} {part.note}{mark}", file=out)
    for rnd, why in v.cut:
        if not any(part.rnd == rnd for part in v.parts):
            print(f"  round {rnd}: {why}", file=out)
