"""Team competitions: rosters, matches rebuilt from board games, match and game points
(C.07 2023 Art. 10; 2024 Art. 11).

A team event is still recorded game by game (the `001` lines of a TRF); this module turns the
board games of one round into one `Match` per team:

* the boards of a match are the games between the two teams, numbered in the roster order of
  the lower-numbered team (its `013`/`310` list; a reserve who plays takes its roster place,
  the players below it move up), as the FIDE reference numbers them;
* the "white" team is the one whose player has White on board 1 (with the `352` colour
  sequence, the one with that sequence's first colour); colours then alternate by board;
* game points (GP) are the sum of the board results; match points (MP) follow from comparing
  the two GP totals (2 / 1 / 0 unless the tournament sets others);
* a match is played when at least one board was played over the board; otherwise it is a
  whole-team forfeit: a forfeit win for the side with more game points, a forfeit loss for
  the other (both lose when neither scored, e.g. every board double-forfeited);
* a team bye is read from its players' round blocks: a pairing-allocated bye (`U` on every
  board) is worth a drawn match and a win on every board (the FIDE reference's convention),
  full- and half-point byes a won or drawn match and that result on every board, a team with
  no game at all a zero-point bye.

TRF-2026 can also state a team's round at team level (`320` PAB, `240` byes, `330` forfeited
match: `TeamRound`) and a line-up out of roster order (`300`: who sat on which board, 0 for an
empty board); they apply to the rounds the board lines leave open or unordered.

Everything is pure: the TRF importer checks that the board lines make sense (each team meets
one team per round) before calling `build_team_event`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Literal

import msgspec

from livetb.engine.model import Code, Colour, Entry, Participant, Scoring, Tournament

PointType = Literal["MP", "GP"]
ZERO = Decimal(0)


class MatchScoring(msgspec.Struct, frozen=True):
    """Match points per team result (TRF `362`); a PAB is worth a drawn match unless set."""

    win: Decimal = Decimal(2)
    draw: Decimal = Decimal(1)
    loss: Decimal = Decimal(0)
    absent: Decimal = Decimal(0)  # whole-team forfeit loss and zero-point bye
    pab: Decimal | None = None  # None: worth a draw
    pab_games: Decimal | None = None  # game points of a PAB (TRF `320`); None: all boards won

    def points(self, code: Code) -> Decimal:
        match code:
            case Code.WIN | Code.FORFEIT_WIN | Code.FULL_BYE:
                return self.win
            case Code.DRAW | Code.HALF_BYE:
                return self.draw
            case Code.PAB:
                return self.draw if self.pab is None else self.pab
            case Code.LOSS:
                return self.loss
            case _:
                return self.absent


class Roster(msgspec.Struct, frozen=True):
    """A team as its record lists it: number, name, players in board order."""

    number: int
    name: str
    members: tuple[int, ...]


class Board(msgspec.Struct, frozen=True):
    """One board of a team's round, from the team's side.

    For a match every board is a game (`player` and `opponent` are start numbers). For a team
    bye, or a forfeited match known only from a `330` record, `player` is None and every board
    carries the team's own code (PAB, FPB, HPB, ZPB, +, -) and the game points it is worth.
    """

    board: int
    code: Code
    points: Decimal
    player: int | None = None
    opponent: int | None = None
    colour: Colour | None = None

    @property
    def played(self) -> bool:
        return self.code.played


class Match(msgspec.Struct, frozen=True):
    """One team's round: the team result, both scores, and the boards."""

    rnd: int
    code: Code  # the team result, in the individual codes (a whole-team forfeit is +/-)
    opponent: int | None  # team number; None for a bye
    colour: Colour | None  # the team's colour: "w" for the white (first-named) team
    mp: Decimal
    gp: Decimal
    boards: tuple[Board, ...]

    def points(self, kind: PointType) -> Decimal:
        return self.mp if kind == "MP" else self.gp


class Team(msgspec.Struct, frozen=True):
    number: int
    name: str
    members: tuple[int, ...]
    matches: tuple[Match, ...]

    def match(self, rnd: int) -> Match:
        return self.matches[rnd - 1]


class TeamRound(msgspec.Struct, frozen=True):
    """A team's round stated at team level: a bye (PAB, FPB, HPB, ZPB) or one side of a
    forfeited match (forfeit win or loss, with the opponent team and the team's colour)."""

    code: Code
    opponent: int | None = None
    colour: Colour | None = None


RoundKey = tuple[int, int]  # (round, team number)


class TeamEvent(msgspec.Struct, frozen=True):
    """A team tournament as the tie-break engine sees it.

    `tournament` shows the teams as participants (start number = team number) with one entry
    per round (team result, opponent team, team colour), so that everything built for
    individual events (unplayed-round categories, played rounds, editions) reads it unchanged;
    the scores themselves come from `teams` (`Match.mp`, `Match.gp`).
    """

    tournament: Tournament
    teams: tuple[Team, ...]
    boards: int  # team size: the most boards of any match, or as declared (TRF `352`)
    players: Tournament  # the board games as imported
    match_scoring: MatchScoring = MatchScoring()
    primary: PointType = "MP"
    colours: str = "WB"  # TRF `352`: the first-named team's colours on boards 1..n

    @property
    def game_scoring(self) -> Scoring:
        return self.players.scoring

    def team(self, number: int) -> Team:
        return next(t for t in self.teams if t.number == number)

    def round_win(self, kind: PointType) -> Decimal:
        """The most a team can score in one round: a won match, or every board won."""
        return self.match_scoring.win if kind == "MP" else self.game_scoring.win * self.boards

    def round_draw(self, kind: PointType) -> Decimal:
        """A drawn round: a drawn match, or every board drawn (C.07 2023 14.4 for teams)."""
        return self.match_scoring.draw if kind == "MP" else self.game_scoring.draw * self.boards


def secondary(kind: PointType) -> PointType:
    return "GP" if kind == "MP" else "MP"


# --- building the matches ----------------------------------------------------------------------


def build_team_event(
    players: Tournament,
    rosters: Iterable[Roster],
    *,
    match_scoring: MatchScoring | None = None,
    boards: int | None = None,
    colours: str = "WB",
    primary: PointType = "MP",
    team_rounds: Mapping[RoundKey, TeamRound] | None = None,
    lineups: Mapping[RoundKey, tuple[int, ...]] | None = None,
) -> TeamEvent:
    """Rebuild every team's matches from the board games of `players`.

    `colours` is the `352` sequence (the first-named team's colour on boards 1..n);
    `team_rounds` the rounds stated at team level, used where a team has no game; `lineups`
    the `300` board orders. Raises ValueError when the games do not form matches (a team
    meeting two teams in one round, a game between team-mates or with a player in no team):
    the importer reports those first, with their lines.
    """
    rosters = tuple(rosters)
    scoring = match_scoring or MatchScoring()
    stated = team_rounds or {}
    team_of = {no: r.number for r in rosters for no in r.members}
    by_no = {p.start_no: p for p in players.participants}
    width = max((len(p.entries) for p in players.participants), default=0)
    meetings = [_meetings(rnd, rosters, by_no, team_of) for rnd in range(1, width + 1)]
    size = boards or max((len(g) for m in meetings for g in m.values()), default=1) or 1
    order = _BoardOrder(team_of, {no: i for r in rosters for i, no in enumerate(r.members)})
    order.lineups.update(lineups or {})
    sides: dict[int, list[Match]] = {}
    for r in rosters:
        sides[r.number] = []
        for rnd, meeting in enumerate(meetings, start=1):
            games = meeting[r.number]
            if games:
                side = _side(rnd, order.boards(rnd, games), team_of, players.scoring, colours)
            elif (rnd, r.number) in stated:
                side = _stated(rnd, stated[rnd, r.number], size, players.scoring, scoring)
            else:
                side = _bye(rnd, r, by_no, size, players.scoring, scoring)
            sides[r.number].append(side)
    teams = tuple(
        Team(
            r.number, r.name, r.members, tuple(_settle(m, sides, scoring) for m in sides[r.number])
        )
        for r in rosters
    )
    return TeamEvent(
        tournament=_as_tournament(players, teams),
        teams=teams,
        boards=size,
        players=players,
        match_scoring=scoring,
        primary=primary,
        colours=colours,
    )


_Game = tuple[int, Entry]  # (player, the player's entry): one board of a match


def _meetings(
    rnd: int, rosters: tuple[Roster, ...], by_no: dict[int, Participant], team_of: dict[int, int]
) -> dict[int, list[_Game]]:
    """Each team's games of round `rnd`, its players in roster order."""
    out: dict[int, list[_Game]] = {}
    for roster in rosters:
        games, opponents = [], set()
        for no in roster.members:
            entry = by_no[no].entry(rnd)
            if entry.opponent is None:
                continue
            other = team_of.get(entry.opponent)
            if other is None or other == roster.number:
                raise ValueError(f"round {rnd}: #{no} plays #{entry.opponent}, not a team match")
            opponents.add(other)
            games.append((no, entry))
        if len(opponents) > 1:
            raise ValueError(f"round {rnd}: team {roster.number} meets teams {sorted(opponents)}")
        out[roster.number] = games
    return out


class _BoardOrder:
    """Board numbers of a match's games: a `300` line-up of either team if there is one, else
    the roster order of the lower-numbered team (the FIDE reference's rule)."""

    def __init__(self, team_of: dict[int, int], position: dict[int, int]) -> None:
        self.team_of = team_of
        self.position = position
        self.lineups: dict[RoundKey, tuple[int, ...]] = {}

    def boards(self, rnd: int, games: list[_Game]) -> list[tuple[int, _Game]]:
        mine, theirs = self.team_of[games[0][0]], self.team_of[_opponent(games[0])]
        for team, seat in ((mine, 0), (theirs, 1)):
            lineup = self.lineups.get((rnd, team))
            if lineup is not None:
                board = {no: i for i, no in enumerate(lineup, start=1) if no}
                numbered = [(board[_seat(g, seat)], g) for g in games]
                return sorted(numbered, key=lambda item: item[0])
        lower = 1 if theirs < mine else 0
        ordered = sorted(games, key=lambda g: self.position[_seat(g, lower)])
        return list(enumerate(ordered, start=1))


def _seat(game: _Game, side: int) -> int:
    """The game's player (side 0) or opponent (side 1)."""
    return game[0] if side == 0 else _opponent(game)


def _side(
    rnd: int,
    games: list[tuple[int, _Game]],
    team_of: dict[int, int],
    scoring: Scoring,
    colours: str,
) -> Match:
    """One side of a match, with its boards and game points; the result is settled once the
    other side is known."""
    opponent = team_of[_opponent(games[0][1])]
    boards = tuple(
        Board(board, entry.code, scoring.points(entry.code), no, entry.opponent, entry.colour)
        for board, (no, entry) in games
    )
    gp = sum((b.points for b in boards), ZERO)
    return Match(rnd, Code.PENDING, opponent, _team_colour(boards, colours), ZERO, gp, boards)


def _opponent(game: _Game) -> int:
    opponent = game[1].opponent
    assert opponent is not None
    return opponent


def _team_colour(boards: tuple[Board, ...], colours: str) -> Colour | None:
    """The team's colour, "w" for the white (first-named) team: the one whose player has the
    sequence's colour on the first board whose colour is known (board 1 unless forfeited)."""
    for b in boards:
        if b.colour is not None:
            wanted: Colour = "w" if colours[(b.board - 1) % len(colours)].upper() == "W" else "b"
            return "w" if b.colour == wanted else "b"
    return None


_TEAM_BYES = (Code.PAB, Code.FULL_BYE, Code.HALF_BYE)


def _bye(
    rnd: int,
    roster: Roster,
    by_no: dict[int, Participant],
    size: int,
    games: Scoring,
    scoring: MatchScoring,
) -> Match:
    """A round without a match: the team's bye is its players' (the first in roster order;
    the importer checks that they agree), and no bye at all is a zero-point bye."""
    code = next(
        (c for no in roster.members if (c := by_no[no].entry(rnd).code) in _TEAM_BYES),
        Code.ZERO_BYE,
    )
    return _stated(rnd, TeamRound(code), size, games, scoring)


def _stated(rnd: int, stated: TeamRound, size: int, games: Scoring, scoring: MatchScoring) -> Match:
    """A round stated at team level. Every board scores the bye's game result (a forfeit
    win: won boards); a PAB's game points may be set apart (TRF `320`)."""
    code = stated.code
    per_board = games.points(code)
    gp = per_board * size
    if code is Code.PAB and scoring.pab_games is not None:
        gp = scoring.pab_games
    boards = tuple(Board(i, code, per_board) for i in range(1, size + 1))
    return Match(rnd, code, stated.opponent, stated.colour, scoring.points(code), gp, boards)


def _settle(m: Match, sides: Mapping[int, Sequence[Match]], scoring: MatchScoring) -> Match:
    """The match result from both sides' game points (`sides`: each team's matches of rounds
    1..m.rnd at least)."""
    if m.opponent is None:
        return m
    theirs = sides[m.opponent][m.rnd - 1].gp
    played = any(b.played for b in m.boards)
    if m.gp > theirs:
        code = Code.WIN if played else Code.FORFEIT_WIN
    elif m.gp == theirs and m.gp > 0:
        # Unplayed with equal game points: a drawn match, but an unplayed voluntary round.
        code = Code.DRAW if played else Code.FORFEIT_LOSS
        return msgspec.structs.replace(m, code=code, mp=scoring.draw)
    else:
        code = Code.LOSS if played else Code.FORFEIT_LOSS
    return msgspec.structs.replace(m, code=code, mp=scoring.points(code))


def rebuild_round(event: TeamEvent, players: Tournament, rnd: int) -> TeamEvent:
    """`event` with round `rnd`'s matches rebuilt from `players`, whose other rounds and
    pairings are `event`'s: what a result or a correction changes. For events built without
    `300` line-ups and rounds stated at team level (what the event log records), the same as
    `build_team_event` from scratch."""
    rosters = tuple(Roster(t.number, t.name, t.members) for t in event.teams)
    team_of = {no: r.number for r in rosters for no in r.members}
    by_no = {p.start_no: p for p in players.participants}
    meeting = _meetings(rnd, rosters, by_no, team_of)
    order = _BoardOrder(team_of, {no: i for r in rosters for i, no in enumerate(r.members)})
    games_scoring, scoring = players.scoring, event.match_scoring
    sides: dict[int, list[Match]] = {}
    for r in rosters:
        games = meeting[r.number]
        if games:
            side = _side(rnd, order.boards(rnd, games), team_of, games_scoring, event.colours)
        else:
            side = _bye(rnd, r, by_no, event.boards, games_scoring, scoring)
        sides[r.number] = [side] * rnd  # `_settle` reads index rnd - 1
    teams = tuple(
        msgspec.structs.replace(
            t,
            matches=(
                *t.matches[: rnd - 1],
                _settle(sides[t.number][-1], sides, scoring),
                *t.matches[rnd:],
            ),
        )
        for t in event.teams
    )
    return msgspec.structs.replace(
        event, tournament=_as_tournament(players, teams), teams=teams, players=players
    )


def _as_tournament(players: Tournament, teams: tuple[Team, ...]) -> Tournament:
    """The teams as participants, for everything that reads a `Tournament`."""
    participants = tuple(
        Participant(
            t.number, t.name, entries=tuple(Entry(m.code, m.opponent, m.colour) for m in t.matches)
        )
        for t in teams
    )
    return msgspec.structs.replace(players, participants=participants)
