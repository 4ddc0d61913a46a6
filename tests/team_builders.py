"""A small language for writing team events in tests, match by match:

    t = team_swiss(rounds=3, teams="ABCDE", boards=2)
    t.round(1, match("A", "B", "1 ="), match("C", "D", "= ="), team_bye("E"))
    view = t.view()

Teams are letters (team numbers 1, 2, ... in the order given); team A's players are A1, A2, ...
(start numbers in team order, board order within a team). A match's results are written from
the first-named (white) team's side, board by board: `1 = 0` for games, `+ -` for forfeits,
`--` for a double forfeit. The white team has White on board 1, colours alternate by board.
Rounds a team has no entry in are zero-point byes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from livetb.engine.editions import Edition
from livetb.engine.model import Code, Colour, Entry, Participant, Scoring, System, Tournament
from livetb.engine.team_context import TeamView
from livetb.engine.teams import MatchScoring, PointType, Roster, TeamEvent, build_team_event

Step = Callable[["TeamEventBuilder", int], None]

_RESULTS = {
    "1": (Code.WIN, Code.LOSS),
    "0": (Code.LOSS, Code.WIN),
    "=": (Code.DRAW, Code.DRAW),
    "+": (Code.FORFEIT_WIN, Code.FORFEIT_LOSS),
    "-": (Code.FORFEIT_LOSS, Code.FORFEIT_WIN),
    "--": (Code.FORFEIT_LOSS, Code.FORFEIT_LOSS),
}


class TeamEventBuilder:
    def __init__(
        self,
        rounds: int,
        teams: str,
        boards: int,
        system: System = "swiss",
        reserves: int = 0,
        start: dt.date = dt.date(2025, 1, 1),
    ) -> None:
        self.rounds = rounds
        self.teams = list(teams)
        self.boards = boards
        self.system = system
        self.start = start
        size = boards + reserves
        self.players = [f"{t}{i}" for t in self.teams for i in range(1, size + 1)]
        self.no = {name: i for i, name in enumerate(self.players, start=1)}
        self.entries: dict[str, dict[int, Entry]] = {name: {} for name in self.players}

    def round(self, rnd: int, *steps: Step) -> TeamEventBuilder:
        for step in steps:
            step(self, rnd)
        return self

    def set(self, name: str, rnd: int, entry: Entry) -> None:
        if rnd in self.entries[name]:
            raise ValueError(f"{name} already has round {rnd}")
        self.entries[name][rnd] = entry

    def event(
        self, match_scoring: MatchScoring | None = None, primary: PointType = "MP"
    ) -> TeamEvent:
        players = Tournament(
            "team test",
            tuple(
                Participant(
                    self.no[name],
                    name,
                    entries=tuple(
                        self.entries[name].get(r, Entry(Code.ZERO_BYE))
                        for r in range(1, self.rounds + 1)
                    ),
                )
                for name in self.players
            ),
            self.rounds,
            self.system,
            Scoring(),
            self.start,
        )
        rosters = [
            Roster(i, team, tuple(self.no[p] for p in self.players if p[0] == team))
            for i, team in enumerate(self.teams, start=1)
        ]
        return build_team_event(
            players, rosters, match_scoring=match_scoring, boards=self.boards, primary=primary
        )

    def view(
        self,
        upto: int | None = None,
        edition: Edition = Edition.FIDE_2024,
        as_final: bool = False,
        primary: PointType = "MP",
    ) -> TeamView:
        return TeamView(
            self.event(primary=primary),
            self.rounds if upto is None else upto,
            edition=edition,
            as_final=as_final,
        )


def team_swiss(rounds: int, teams: str, boards: int, **kw: object) -> TeamEventBuilder:
    return TeamEventBuilder(rounds, teams, boards, "swiss", **kw)  # type: ignore[arg-type]


def team_round_robin(rounds: int, teams: str, boards: int, **kw: object) -> TeamEventBuilder:
    return TeamEventBuilder(rounds, teams, boards, "roundrobin", **kw)  # type: ignore[arg-type]


def match(
    white: str,
    black: str,
    results: str,
    players: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
) -> Step:
    """`white` (first-named) meets `black`; `results` from white's side, board by board.
    `players` names who sits on each board, per team, when reserves play (default 1..n)."""

    def apply(t: TeamEventBuilder, rnd: int) -> None:
        tokens = results.split()
        seats = players or (tuple(range(1, len(tokens) + 1)),) * 2
        for board, (token, w_no, b_no) in enumerate(zip(tokens, *seats, strict=True), start=1):
            ours, theirs = _RESULTS[token]
            w, b = f"{white}{w_no}", f"{black}{b_no}"
            colour: Colour = "w" if board % 2 == 1 else "b"
            other: Colour = "b" if colour == "w" else "w"
            t.set(w, rnd, Entry(ours, t.no[b], colour))
            t.set(b, rnd, Entry(theirs, t.no[w], other))

    return apply


def team_bye(team: str, code: Code = Code.PAB) -> Step:
    """Every board of `team` gets the bye `code` (a PAB unless said otherwise)."""

    def apply(t: TeamEventBuilder, rnd: int) -> None:
        for board in range(1, t.boards + 1):
            t.set(f"{team}{board}", rnd, Entry(code))

    return apply
