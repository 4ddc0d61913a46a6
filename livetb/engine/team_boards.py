"""Board tie-breaks for team knockouts, usable in any team event (C.07 2023 Art. 11; 2024
Art. 12): computed from the game points scored on each board, whoever played there.

| code | name                     | type | 2023 | 2024 | better |
|------|--------------------------|------|------|------|--------|
| BC   | board count              | B    | 11.1 | 12.1 | lower  |
| TBR  | top board results        | B    | 11.2 | 12.2 | higher |
| BBE  | bottom board elimination | B    | 11.3 | 12.3 | higher |

For these tie-breaks board forfeits count as ordinary wins and losses, and a team PAB gives
every board the game points of a win (2023 Art. 11). TBR and BBE are reapplied board by board
to the teams still tied, so they are computed on the tied group at their turn in the list.
"""

from __future__ import annotations

from decimal import Decimal

from livetb.engine.context import ZERO
from livetb.engine.model import Code
from livetb.engine.modifiers import Spec
from livetb.engine.result import BoardProducts, Part, Value
from livetb.engine.team_context import TeamView
from livetb.engine.teams import Match


def _board_values(view: TeamView, m: Match) -> list[tuple[int, Decimal]]:
    """(board number, game points) of one round; a PAB's boards are won boards."""
    win = view.event.game_scoring.win
    return [(b.board, win if b.code is Code.PAB else b.points) for b in m.boards]


def board_points(view: TeamView, no: int) -> list[Decimal]:
    """Game points scored on boards 1..n over rounds 1..K."""
    totals = [ZERO] * view.event.boards
    for m in view.event.team(no).matches[: view.upto]:
        for board, value in _board_values(view, m):
            totals.extend([ZERO] * (board - len(totals)))
            totals[board - 1] += value
    return totals


def weighted(values: list[Decimal]) -> Decimal:
    """Board points times board numbers: seed 000's {1, 0, ½, ½} gives 4.5, {1, 1, 0, 0} 3."""
    return sum((i * v for i, v in enumerate(values, start=1)), ZERO)


def board_count(view: TeamView, spec: Spec, no: int) -> Value:
    """BC, 2023 11.1: each board's game points times the board number, summed (lower is
    better); computed round by round."""
    parts = []
    for m in view.event.team(no).matches[: view.upto]:
        values = _board_values(view, m)
        total = sum((board * v for board, v in values), ZERO)
        parts.append(Part(m.rnd, total, BoardProducts(tuple(values))))
    return Value(sum((Decimal(p.amount) for p in parts), ZERO), tuple(parts))


def top_board_results(view: TeamView, spec: Spec, group: list[int]) -> dict[int, int]:
    """TBR, 2023 11.2: game points on board 1; among the still tied, on board 2; and so on."""
    return _places(group, {no: tuple(board_points(view, no)) for no in group})


def bottom_board_elimination(view: TeamView, spec: Spec, group: list[int]) -> dict[int, int]:
    """BBE, 2023 11.3: game points on every board but the bottom one; among the still tied,
    without the next bottom board too; and so on up to board 1 alone."""
    keys = {}
    for no in group:
        boards = board_points(view, no)
        keys[no] = tuple(sum(boards[:k], ZERO) for k in range(len(boards) - 1, 0, -1))
    return _places(group, keys)


def _places(group: list[int], keys: dict[int, tuple[Decimal, ...]]) -> dict[int, int]:
    """Places by the keys compared board by board (higher first), equal keys tied."""
    order = sorted(group, key=lambda no: tuple(-k for k in keys[no]))
    places: dict[int, int] = {}
    for i, no in enumerate(order):
        tied = i > 0 and keys[no] == keys[order[i - 1]]
        places[no] = places[order[i - 1]] if tied else i + 1
    return places
