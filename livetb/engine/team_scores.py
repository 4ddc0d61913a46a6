"""Team scores and the tie-breaks built from them (C.07 2023 Art. 10, 12.1, 12.4; 2024 Art. 11,
13.1, 13.4: the 2024 text numbers every article from 5 on one higher).

| code   | name                                       | type | 2023 | 2024 |
|--------|--------------------------------------------|------|------|------|
| MPTS   | match points                               |  -   | 10   | 11   |
| GPTS   | game points                                |  -   | 10   | 11   |
| MPVGP  | the secondary score (GP if MP decide, ...) | B    | 12.1 | 13.1 |
| SSSC   | score and schedule strength combination    | B, D | 12.4 | 13.4 |

MPTS, GPTS and PTS are `counts.points` on the chosen score. Counting tie-breaks (WIN, WON,
BPG, BWG, GE, STD) read matches on match points, and boards on game points: `WIN:GP` is the
number of boards won, as the FIDE reference counts it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from decimal import ROUND_HALF_UP, Decimal

from livetb.engine import buchholz
from livetb.engine.context import ZERO
from livetb.engine.counts import points
from livetb.engine.model import Code
from livetb.engine.modifiers import Spec
from livetb.engine.result import NORMALISING_FACTOR, OnBoard, Part, SecondaryScore, Value
from livetb.engine.team_context import TeamView
from livetb.engine.teams import Board, secondary

_PLAIN_BH = Spec("BH")


def secondary_score(view: TeamView, spec: Spec, no: int) -> Value:
    """MPVGP, 2023 12.1: game points when match points decide the standings, and vice versa."""
    return points(view.secondary_of(spec), spec, no)


def normalising_factor(highest_primary: Decimal, highest_secondary_per_round: Decimal) -> int:
    """2023 12.4.2: the highest primary score achievable over the highest secondary score
    achievable in a single round (the seed's reading; the English text says "game"), rounded
    toward zero. Seed 000: 22 MP / 4 GP = 5.5, so 5."""
    return int(highest_primary // highest_secondary_per_round)


def combination(secondary_score: Decimal, buchholz: Decimal, factor: int) -> Decimal | None:
    """2023 12.4: secondary score + schedule strength (BH / factor), to 0.01 rounded half up;
    undefined while the factor is 0. Seed 000: 22 + 120 / 5 = 46."""
    if factor == 0:
        return None
    value = secondary_score + buchholz / factor
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def event_factor(view: TeamView, spec: Spec) -> int:
    """The factor after round K: the FIDE reference counts the rounds played so far."""
    kind = view.kind_of(spec)
    event = view.event
    return normalising_factor(event.round_win(kind) * view.upto, event.round_win(secondary(kind)))


def score_strength(view: TeamView, spec: Spec, no: int) -> Value:
    """SSSC, 2023 12.4: the secondary score plus BH on the primary score over the normalising
    factor (null while the factor is 0, e.g. after round 1 with 4 boards)."""
    second = view.secondary_of(spec).score(no)
    factor = event_factor(view, spec)
    bh = buchholz.buchholz(view.on(spec), _PLAIN_BH, no)
    totals = (
        Part(0, second, SecondaryScore(secondary(view.kind_of(spec)))),
        Part(0, Decimal(factor), NORMALISING_FACTOR),
    )
    return Value(combination(second, Decimal(bh.value or 0), factor), totals + bh.parts, bh.cut)


# --- counts on game points: one per board -----------------------------------------------------


def _boards(view: TeamView, no: int) -> Iterator[tuple[int, Board]]:
    ctx = view.context("GP")
    for m in view.event.team(no).matches[: ctx.upto]:
        for b in m.boards:
            yield m.rnd, b


def _count_boards(view: TeamView, no: int, test: Callable[[Board], bool]) -> Value:
    parts = tuple(Part(rnd, 1, OnBoard(b.board)) for rnd, b in _boards(view, no) if test(b))
    return Value(len(parts), parts)


def _won(view: TeamView, b: Board) -> bool:
    return b.points == view.event.game_scoring.win


def board_wins(view: TeamView, spec: Spec, no: int) -> Value:
    """WIN:GP: boards scored as a win, played or not."""
    return _count_boards(view, no, lambda b: _won(view, b))


def board_games_won(view: TeamView, spec: Spec, no: int) -> Value:
    """WON:GP: boards won over the board."""
    return _count_boards(view, no, lambda b: b.played and _won(view, b))


def board_black_games(view: TeamView, spec: Spec, no: int) -> Value:
    """BPG:GP: boards played over the board with Black."""
    return _count_boards(view, no, lambda b: b.played and b.colour == "b")


def board_black_wins(view: TeamView, spec: Spec, no: int) -> Value:
    """BWG:GP: boards won over the board with Black."""
    return _count_boards(view, no, lambda b: b.played and b.colour == "b" and _won(view, b))


def board_games_elected(view: TeamView, spec: Spec, no: int) -> Value:
    """GE:GP: boards played, won unplayed, or of a PAB."""
    return _count_boards(view, no, lambda b: b.played or b.code is Code.PAB or _won(view, b))


def board_standard_points(view: TeamView, spec: Spec, no: int) -> Value:
    """STD:GP (2026): each board re-counted as 1 / ½ / 0 for results above, at, below a draw."""
    draw = view.event.game_scoring.draw
    parts = tuple(
        Part(rnd, _standard(b.points, draw), OnBoard(b.board)) for rnd, b in _boards(view, no)
    )
    return Value(sum((Decimal(p.amount) for p in parts), ZERO), parts)


def _standard(value: Decimal, draw: Decimal) -> Decimal:
    if value > draw:
        return Decimal(1)
    return Decimal("0.5") if value == draw else ZERO
