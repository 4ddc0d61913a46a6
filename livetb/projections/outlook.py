"""What a participant needs: for each result of their own game in the running round, the range
of ranks they can hold once the round is over (the participant card's "what I need").

While round K (the last one paired) is not closed, participant X finishes the round with P
points, known for each result of X's game (win / draw / loss, from X's side; the opponent takes
the complement). Everybody else either has the round's points already (game finished, bye,
absent) or plays one of the other unfinished boards. A participant plays at most one game per
round, so those boards are independent and the extremes of the rank are sums over them:

    best  = 1 + #{fixed: points > P} + Σ boards, min over its outcomes of #{its players > P}
    worst = 1 + #{fixed, not X: points ≥ P} + Σ boards, max over its outcomes of #{… ≥ P}

The best rank counts who finishes with more points whatever happens; the worst counts who can
finish with at least as many, as a tie on points may be broken either way while the other
tie-breaks are open. Exception: with PTS as the only tie-break and no playoff or lots order,
participants tied on points share the rank, so the worst counts only who can finish with
strictly more. Then both bounds are ranks some combination of results gives (each board at its
extreme); with other tie-breaks the rank lies within them.

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

from livetb.engine.catalogue import tiebreak_of
from livetb.engine.context import Context
from livetb.engine.model import Code
from livetb.engine.spec import parse_list
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


def outlook(state: TournamentState, no: int, live: Context | None = None) -> Outlook | None:
    """Participant `no`'s outlook for the running round (None when no round runs). `live`:
    the engine's context on rounds 1..K with unfinished games pending (built when not given)."""
    live = running(state, live)
    if live is None:
        return None
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
        best, worst = ranks(points, fixed, boards, shared)
        return Outlook(k, shared, [Option(result, str(fmt(points)), best, worst)])
    opponent = game.black if game.white == no else game.white
    busy |= {no, opponent}
    fixed = [live.score(n) for n in state.participants if n not in busy]
    options = []
    for result, mine, theirs in OUTCOMES:
        points = after(no, mine)
        best, worst = ranks(points, [*fixed, after(opponent, theirs)], boards, shared)
        options.append(Option(result, str(fmt(points)), best, worst))
    return Outlook(k, shared, options)


def _board(game: Game, after: Callable[[int, Code], Decimal]) -> Board:
    """An unfinished board's two players' points after each played result."""
    return tuple((after(game.white, w), after(game.black, b)) for _, w, b in OUTCOMES)
