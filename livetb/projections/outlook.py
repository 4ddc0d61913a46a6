"""What a participant needs: for each result of their own game in the running round, the range
of ranks they can hold once the round is over (the participant card's "what I need").

While round K (the last one paired) is not closed, participant X finishes the round with P
points, known for each result of X's game (win / draw / loss, from X's side; the opponent takes
the complement). Everybody else either has the round's points already (game finished, bye,
absent) or plays one of the other unfinished boards. For each result of X's game, the best and
the worst rank are the ranks X holds in the standings the round's close publishes (with the
type C values over rounds 1..K) for some combination of results of the other boards: exact,
read by `livetb/engine/reach.py`, which goes through the few boards that can change X's place
(those that can bring a player level with X on points, or move the tie-breaks of X's points
group) and counts the others.

When more combinations would have to be read than its budget allows, the option says so
(`exact: false`) and gives bounds instead, from points alone, a board at a time:

    best  = 1 + #{fixed: points > P} + Σ boards, min over its outcomes of #{its players > P}
    worst = 1 + #{fixed, not X: points ≥ P} + Σ boards, max over its outcomes of #{… ≥ P}

(with PTS as the only tie-break and no playoff or lots order, participants tied on points share
the rank, and the worst counts only who can finish with strictly more).

Points are the standings' PTS: the scoring system's points over rounds 1..K, an unfinished game
counting what the live PTS column counts (`Scoring.points(Code.PENDING)`, 0 unless the scoring
says otherwise). Only played results are considered for the unfinished boards (1-0, ½-½, 0-1):
a forfeit, and above all a double forfeit, can end outside the range. Ranks need points to
decide first: no outlook when the tie-break list does not start with PTS, nor for team
tournaments, nor when no round is running.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Literal

import msgspec

from livetb.engine import reach
from livetb.engine.catalogue import tiebreak_of
from livetb.engine.context import Context
from livetb.engine.model import Code
from livetb.engine.reach import World
from livetb.engine.spec import parse_list
from livetb.engine.standings import lot_numbers
from livetb.events.state import Game, TournamentState
from livetb.projections.standings import fmt

Result = Literal["win", "draw", "loss", "forfeit_win", "forfeit_loss", "bye"]
# X's result, X's code, the opponent's code: the played results of an unfinished game.
OUTCOMES: tuple[tuple[Result, Code, Code], ...] = (
    ("win", Code.WIN, Code.LOSS),
    ("draw", Code.DRAW, Code.DRAW),
    ("loss", Code.LOSS, Code.WIN),
)
# A finished game's outcome for one side, as `TournamentState.entry` records it.
FINISHED: dict[Code, Result] = {
    Code.WIN: "win",
    Code.DRAW: "draw",
    Code.LOSS: "loss",
    Code.FORFEIT_WIN: "forfeit_win",
    Code.FORFEIT_LOSS: "forfeit_loss",
}
Board = tuple[tuple[Decimal, Decimal], ...]  # per outcome of OUTCOMES: white's, black's points


class Option(msgspec.Struct):
    """One result of the participant's game and the ranks it leaves open after the round."""

    result: Result  # "bye": no game this round (pairing-allocated, requested, absent)
    points: str  # the participant's points after the round with this result
    best: int
    worst: int
    # Both ranks are held in some outcome of the other boards; false: they are bounds (too
    # many combinations to go through), the rank lies between them.
    exact: bool = True


class Outlook(msgspec.Struct):
    """The running round's outcomes for one participant: three options (win, draw, loss)
    while their game is unfinished, else the one result they already have."""

    round: int
    ties_share_rank: bool  # PTS is the only tie-break (no playoff, no lots): worst counts > only
    options: list[Option]


def ranks(
    points: Decimal, fixed: Iterable[Decimal], boards: Iterable[Board], shared: bool
) -> tuple[int, int]:
    """Best and worst rank of a participant finishing on `points`, against the others' `fixed`
    points and the unfinished `boards` (`shared`: a tie on points shares the rank)."""
    best = worst = 1
    for q in fixed:
        best += q > points
        worst += q > points if shared else q >= points
    for board in boards:
        best += min((w > points) + (b > points) for w, b in board)
        if shared:
            worst += max((w > points) + (b > points) for w, b in board)
        else:
            worst += max((w >= points) + (b >= points) for w, b in board)
    return best, worst


def shares_ties(state: TournamentState) -> bool:
    """Participants equal on points share the rank: PTS is the whole list, and neither a
    playoff nor lots order the tied."""
    created = state.created
    assert created is not None
    specs = parse_list(created.tiebreaks)
    only_pts = len(specs) == 1 and tiebreak_of(specs[0]).score
    return only_pts and state.lots_seed is None and not state.playoffs


def running(state: TournamentState, live: Context | None) -> Context | None:
    """The engine's context on rounds 1..K while an individual round K runs and points rank
    first (an outlook has nothing to say otherwise): `live` when given, else built."""
    created = state.created
    k = state.paired
    if created is None or created.kind == "team" or k == 0 or state.rounds[k].closed:
        return None
    specs = parse_list(created.tiebreaks)
    if not specs or not tiebreak_of(specs[0]).score:
        return None
    if live is None:
        live = Context(state.tournament(), k, edition=state.edition)
    assert live.upto == k
    return live


def world_of(state: TournamentState, live: Context | None = None) -> World:
    """The running round as its close will leave it, each unfinished board's result to be
    set (`reach.World`): the close's view of rounds 1..K, the tie-break list, the playoffs
    and lots as the standings order by them. `live`: a context on rounds 1..K, whose
    tournament (immutable) is read again rather than built anew."""
    created = state.created
    assert created is not None
    k = state.paired
    ctx = Context(
        state.tournament() if live is None else live.tournament,
        k,
        edition=state.edition,
        unrated_rating=created.unrated_rating,
        unfinished=Code.DRAW,
    )
    games = [(g.white, g.black) for _, g in sorted(state.rounds[k].games.items())
             if g.result is None]  # fmt: skip
    return World(ctx, parse_list(created.tiebreaks), games, tails(state))


def tails(state: TournamentState) -> dict[int, tuple[int, int]]:
    """Each participant's place after the whole list: its playoff position, then its lot
    (the standings projection's row tails)."""
    seed = state.lots_seed
    lots = lot_numbers(state.participants, seed) if seed is not None else {}
    playoff = {no: k for order in state.playoffs for k, no in enumerate(order)}
    last = len(playoff)
    return {no: (playoff.get(no, last), lots.get(no, 0)) for no in state.participants}


def side(world: World, no: int, index: int) -> int:
    """Set participant `no`'s board to its `index`-th outcome of `OUTCOMES` (its own side)."""
    board = world.board[no]
    world.play(board, index if world.games[board][0] == no else 2 - index)
    return board


def outlook(
    state: TournamentState, no: int, live: Context | None = None, world: World | None = None
) -> Outlook | None:
    """Participant `no`'s outlook for the running round (None when no round runs). `live`:
    the engine's context on rounds 1..K with unfinished games pending; `world`: the round as
    its close will leave it (`world_of`; each built when not given)."""
    live = running(state, live)
    if live is None:
        return None
    if world is None:
        world = world_of(state, live)
    k = state.paired
    scoring = live.scoring
    pending = scoring.points(Code.PENDING)

    def after(n: int, code: Code) -> Decimal:
        """Participant `n`'s points once their unfinished game ends with `code`."""
        return live.score(n) - pending + scoring.points(code)

    rnd = state.rounds[k]
    game = rnd.seat.get(no)
    others = [g for g in rnd.games.values() if g.result is None and g is not game]
    boards = [_board(g, after) for g in others]
    busy = {n for g in others for n in (g.white, g.black)}
    shared = shares_ties(state)
    if game is None or game.result is not None:
        fixed = [live.score(n) for n in state.participants if n != no and n not in busy]
        points = live.score(no)
        result = "bye" if game is None else FINISHED[state.entry(no, k).code]
        return Outlook(k, shared, [_option(world, no, result, points, fixed, boards, shared)])
    opponent = game.black if game.white == no else game.white
    busy |= {no, opponent}
    fixed = [live.score(n) for n in state.participants if n not in busy]
    options = []
    for index, (result, mine, theirs) in enumerate(OUTCOMES):
        points = after(no, mine)
        side(world, no, index)
        seen = [*fixed, after(opponent, theirs)]
        options.append(_option(world, no, result, points, seen, boards, shared))
    return Outlook(k, shared, options)


def _option(
    world: World,
    no: int,
    result: Result,
    points: Decimal,
    fixed: list[Decimal],
    boards: list[Board],
    shared: bool,
) -> Option:
    """The exact ranks of one result (its board as set), or the bounds of `ranks` when too
    many combinations would have to be read. Bounds that meet are exact as they are: the
    rank is the same whatever happens."""
    best, worst = ranks(points, fixed, boards, shared)
    if best != worst:
        exact = reach.ranks(world, no)
        if exact is None:
            return Option(result, str(fmt(points)), best, worst, False)
        best, worst = exact
    return Option(result, str(fmt(points)), best, worst, True)


def _board(game: Game, after: Callable[[int, Code], Decimal]) -> Board:
    """An unfinished board's two players' points after each played result."""
    return tuple((after(game.white, w), after(game.black, b)) for _, w, b in OUTCOMES)
