"""The exact reach's own parts (`livetb/engine/reach.py`): the order of results it visits, the
standings order it reads after the close (the same as the projection's close publishes), and
what a card says when the budget does not allow reading every outcome."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest

from livetb.engine import reach
from livetb.events.schema import AnyEvent, Board, LotsDrawn, PlayoffDecided, PrizesDefined
from livetb.projections.outlook import outlook, world_of
from livetb.projections.prize_outlook import prize_outlook
from livetb.projections.standings import StandingsProjection
from tests.projections.closing import closings, own_result, recorded, taken
from tests.projections.test_outlook import DEFAULT, SIX_OPEN, full_field, six_events
from tests.projections.test_prize_outlook import club_championship


class Board3:
    """A stand-in for a world: the results played, one call at a time."""

    def __init__(self, n: int) -> None:
        self.results = [1] * n
        self.calls = 0

    def play(self, i: int, result: int) -> None:
        self.results[i] = result
        self.calls += 1


def test_every_combination_is_visited_once_one_board_changing_at_a_time() -> None:
    world = Board3(4)
    seen = []
    for _ in reach.combinations(world, [0, 1, 2, 3]):  # type: ignore[arg-type]
        seen.append(tuple(world.results))
    assert sorted(seen) == list(itertools.product(range(3), repeat=4))
    assert all(
        sum(a != b for a, b in zip(x, y, strict=True)) == 1 for x, y in itertools.pairwise(seen)
    )
    # The first combination sets each board, every later one a single board.
    assert world.calls == 4 + 3**4 - 1


@pytest.mark.parametrize(
    "events",
    [
        full_field(DEFAULT).events,
        six_events(("PTS",), LotsDrawn(seed=7)),
        six_events(("PTS", "BH"), PlayoffDecided(order=(2, 1))),
    ],
    ids=["sixteen", "lots", "playoff"],
)
def test_the_order_after_the_close_is_the_one_the_close_publishes(events: list[AnyEvent]) -> None:
    """For every combination of results, `World.order` over everyone gives the order and the
    shared ranks of the standings the round's close publishes (a sample of the 3^8 for the
    sixteen players)."""
    state = StandingsProjection.rebuild(recorded(events)).state
    open_boards = [b for b in state.rounds[state.paired].games.values() if b.result is None]
    boards = [Board(b.board, b.white, b.black) for b in open_boards]
    world = world_of(state)
    for k, (combo, closed) in enumerate(closings(events, boards)):
        if len(boards) > 4 and k % 97:
            continue
        for i, result in enumerate(combo):
            world.play(i, result)
        order = world.order(list(state.participants))
        ranks = [next(j for j, (_, other) in enumerate(order) if other == key) + 1
                 for _, key in order]  # fmt: skip
        rows = closed.standings()
        assert [(r.start_no, r.rank) for r in rows] == [
            (no, rank) for (no, _), rank in zip(order, ranks, strict=True)
        ], combo


def test_over_the_budget_the_card_gives_bounds_and_says_them_as_bounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a budget too small to read the outcomes, 2's win (see
    `test_a_win_level_with_a_finished_leader_can_only_share`) falls back to the bounds from
    points alone: sound, marked `exact: false`, and the sentence says what a win pays at most,
    never what it can reach."""
    monkeypatch.setattr(reach, "BUDGET", 2)
    events = club_championship()
    table = events[-1]
    assert isinstance(table, PrizesDefined)
    state = StandingsProjection.rebuild(recorded(events)).state
    o = prize_outlook(state, 2)
    assert o is not None
    win = o.options[0]
    assert (win.best, win.worst, win.exact) == ("100.00", "0.00", False)
    assert o.sentence == {
        "en": "A win pays at most the 1st overall (€100)",
        "it": "Con una vittoria ottieni al massimo il 1º premio assoluto (100 €)",
    }
    ranks = outlook(state, 2)
    assert ranks is not None
    win_rank = ranks.options[0]
    assert (win_rank.result, win_rank.best, win_rank.worst, win_rank.exact) == ("win", 1, 4, False)
    # The bounds hold in every outcome.
    boards = [Board(2, 2, 7), Board(3, 3, 4), Board(4, 5, 6)]
    for combo, closed in closings(events, boards):
        option = o.options[own_result(2, combo, boards) or 0]
        paid = taken(closed, table).get(2, Decimal(0))
        assert Decimal(option.worst) <= paid <= Decimal(option.best)


def test_six_open_boards_of_the_six() -> None:
    """The budget reads every outcome of a small event: every option exact."""
    state = StandingsProjection.rebuild(recorded(six_events(DEFAULT))).state
    assert len(SIX_OPEN) == 2
    for no in state.participants:
        o = outlook(state, no)
        assert o is not None and all(x.exact for x in o.options)
