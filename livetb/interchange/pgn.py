"""Live results from PGN (`livetb pgn`, `POST …/rounds/{r}/pgn`): DGT LiveChess and broadcast
relays publish a round's games as one PGN that grows; each game whose `Result` is final becomes
its board's result.

A game is matched to a board of the pairing by its `Round` and `Board` tags (`Round "3.5"`, as
broadcasts write it, means round 3 board 5; refused if its players are known and sit elsewhere),
or else by its players: FIDE ids (`WhiteFideId`,
`BlackFideId`) or names (`Last, First` and `First Last` read alike), White against White. A
game that matches no board is listed with the reason, never guessed. Reading the same PGN again
records nothing twice; a different final result for a board that has one is a correction only
when corrections are allowed, and is listed as refused otherwise. Pure: `plan()` turns the
games and the tournament's state into commands; the caller executes them.
"""

from __future__ import annotations

import io
import re
import unicodedata

import msgspec

from livetb.events.commands import CorrectResult, RecordResult

__all__ = ["FINAL", "CorrectResult", "PgnGame", "Plan", "RecordResult", "plan", "read_games"]
from livetb.events.schema import GameResult
from livetb.events.state import Game, TournamentState

FINAL: frozenset[str] = frozenset({"1-0", "0-1", "1/2-1/2"})
ResultCommand = RecordResult | CorrectResult


class PgnGame(msgspec.Struct, frozen=True):
    """The tags of one game that matter here; `index` is its place in the PGN (1-based)."""

    index: int
    white: str
    black: str
    result: str
    round: str = ""
    board: str = ""
    white_fide: str = ""
    black_fide: str = ""

    def label(self) -> str:
        where = f" (Round {self.round})" if self.round else ""
        return f"game {self.index}: {self.white} - {self.black} {self.result}{where}"


class Unmatched(msgspec.Struct, frozen=True):
    game: str
    reason: str


class Plan(msgspec.Struct, frozen=True):
    """What a reading of the PGN asks for, and what it leaves out."""

    commands: list[ResultCommand]
    already: int  # final results the log already holds
    unfinished: int  # matched games still being played (`*`)
    refused: list[Unmatched]  # changed results without corrections allowed
    unmatched: list[Unmatched]


def _final(result: str) -> GameResult | None:
    """A PGN `Result` that is final (one of `FINAL`) as the game's result; else None (`*`)."""
    match result:
        case "1-0" | "0-1" | "1/2-1/2":
            return result
    return None


def read_games(text: str) -> list[PgnGame]:
    """Every game's headers; a game cut off at the end of a growing file is read as far as it
    goes (its result tag is what counts)."""
    import chess.pgn

    stream = io.StringIO(text)
    games: list[PgnGame] = []
    while (headers := chess.pgn.read_headers(stream)) is not None:
        games.append(
            PgnGame(
                index=len(games) + 1,
                white=headers.get("White", "?"),
                black=headers.get("Black", "?"),
                result=headers.get("Result", "*"),
                round=headers.get("Round", "").strip(),
                board=headers.get("Board", "").strip(),
                white_fide=headers.get("WhiteFideId", "").strip(),
                black_fide=headers.get("BlackFideId", "").strip(),
            )
        )
    return games


def plan(
    state: TournamentState,
    games: list[PgnGame],
    *,
    round_: int | None = None,
    corrections: bool = False,
) -> Plan:
    """The commands that record the final results of `games` (in round `round_` if given,
    else each game's `Round` tag, else the round last paired)."""
    people = _People(state)
    commands: list[ResultCommand] = []
    refused: list[Unmatched] = []
    unmatched: list[Unmatched] = []
    already = unfinished = 0
    seen: dict[tuple[int, int], str] = {}
    for g in games:
        rnd, board, why = _locate(state, people, g, round_)
        if board is None:
            unmatched.append(Unmatched(g.label(), why))
            continue
        key = (rnd, board.board)
        if key in seen:
            unmatched.append(
                Unmatched(g.label(), f"round {rnd} board {board.board} is {seen[key]}")
            )
            continue
        seen[key] = f"game {g.index} already"
        result = _final(g.result)
        if result is None:
            unfinished += 1
            continue
        if board.result is None:
            commands.append(RecordResult(round=rnd, board=board.board, result=result))
        elif board.result == result:
            already += 1
        elif corrections:
            why = f"PGN game {g.index}: {board.result} -> {result}"
            commands.append(CorrectResult(round=rnd, board=board.board, result=result, reason=why))
        else:
            why = f"round {rnd} board {board.board} has {board.result}; a change needs "
            why += "corrections allowed"
            refused.append(Unmatched(g.label(), why))
    return Plan(commands, already, unfinished, refused, unmatched)


def _locate(
    state: TournamentState, people: _People, g: PgnGame, round_: int | None
) -> tuple[int, Game | None, str]:
    tag_round, tag_board = _round_board(g)
    rnd = round_ or tag_round or state.paired
    paired = state.rounds.get(rnd)
    if paired is None:
        return rnd, None, f"round {rnd} is not paired"
    if tag_board is not None and (round_ is None or tag_round in (None, round_)):
        board = paired.games.get(tag_board)
        if board is None:
            return rnd, None, f"round {rnd} has no board {tag_board}"
        white = people.find(g.white, g.white_fide)
        black = people.find(g.black, g.black_fide)
        if white is not None and black is not None and (white, black) != (board.white, board.black):
            seated = f"#{board.white} - #{board.black}"
            return rnd, None, f"round {rnd} board {tag_board} is {seated}, not #{white} - #{black}"
        return rnd, board, ""
    white = people.find(g.white, g.white_fide)
    black = people.find(g.black, g.black_fide)
    if white is None or black is None:
        missing = g.white if white is None else g.black
        return rnd, None, f"no registered player named {missing!r} (and no Board tag)"
    board = paired.seat.get(white)
    if board is None or {board.white, board.black} != {white, black}:
        return rnd, None, f"#{white} and #{black} are not paired together in round {rnd}"
    if board.white != white:
        return rnd, None, f"#{white} has Black on board {board.board} in round {rnd}"
    return rnd, board, ""


_ROUND = re.compile(r"(\d+)(?:\.(\d+))?")


def _round_board(g: PgnGame) -> tuple[int | None, int | None]:
    m = _ROUND.fullmatch(g.round)
    rnd = int(m[1]) if m else None
    board = int(m[2]) if m and m[2] else None
    if g.board.isdigit():
        board = int(g.board)
    return rnd, board


class _People:
    """Start numbers by FIDE id and by normalised name (a name two players share is no key)."""

    def __init__(self, state: TournamentState) -> None:
        self.by_fide = {p.fide_id: no for no, p in state.participants.items() if p.fide_id}
        names: dict[str, int | None] = {}
        for no, p in state.participants.items():
            key = _name_key(p.name)
            names[key] = None if key in names else no
        self.by_name = names

    def find(self, name: str, fide: str) -> int | None:
        if fide and fide in self.by_fide:
            return self.by_fide[fide]
        return self.by_name.get(_name_key(name))


def _name_key(name: str) -> str:
    """`Carlsen, Magnus`, `Magnus Carlsen` and `CARLSEN Magnus` alike: the words, sorted."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return " ".join(sorted(re.findall(r"[a-z0-9]+", plain)))
