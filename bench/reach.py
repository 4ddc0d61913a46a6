"""What a card's exact outlook costs: the ranks and prizes each result of the running game
leaves open, read over the outcomes of the other boards (`livetb/engine/reach.py`).

    .venv/bin/python -m bench.reach                         # 2000 x 11, 30 prizes, ranking
    .venv/bin/python -m bench.reach --rule shared --players 500

Two measures:

- `field`: the generated Swiss of `bench.extras` (5 categories, 30 prizes: main 1-10 and
  4 categories x 5, one prize per player) in its last round, half of the boards finished. A
  card's outlooks are timed for participants spread over the standings (every one of the
  top 60, where the prizes are, and 60 more drawn from the rest): the world built once,
  then the rank outlook and the prize outlook, as `card.build` does; and the prize outlook
  alone. p50 and p99 over those participants, and how many options are exact.
- `budget`: the worst case the budget allows, 17 players whose last round has all 8 boards
  open and the 17th the bye: every one of the 3^8 combinations is read for the bye's
  options and for those of the players whose boards all matter, with categories and one
  prize per player under each rule. The slowest card, and the mean.

Each card is timed as the best of `--repeat` runs, with the card's own context on rounds 1..K
built beforehand (`card.build` has it for the tie-breaks); a reference loop is timed before
and after (`bench.projection`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from decimal import Decimal

from bench.extras import CATEGORIES, prizes, with_details
from bench.generate import as_log, swiss_events
from bench.projection import TIEBREAKS, percentile, reference_ms
from livetb.engine.context import Context
from livetb.engine.prizes import Prize, Rule
from livetb.events.schema import (
    AnyEvent,
    Board,
    CategoriesDefined,
    Category,
    ParticipantRegistered,
    PrizesDefined,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    TournamentCreated,
)
from livetb.events.state import TournamentState
from livetb.projections.outlook import outlook, world_of
from livetb.projections.prize_outlook import prize_outlook
from livetb.projections.standings import StandingsProjection


def last_round(events: list[AnyEvent], finished: float, seed: int = 3) -> list[AnyEvent]:
    """The log up to the last round's pairing, with a share `finished` of its results in."""
    rng = random.Random(seed)
    last = max(e.round for e in events if isinstance(e, RoundPaired))
    out: list[AnyEvent] = []
    for e in events:
        if isinstance(e, RoundClosed) and e.round == last:
            continue
        if isinstance(e, ResultRecorded) and e.round == last and rng.random() >= finished:
            continue
        out.append(e)
    return out


def card_ms(state: TournamentState, no: int, repeat: int) -> tuple[float, float]:
    """A card's outlooks (the world, the ranks, the prizes) and the prize outlook alone, in
    ms, each the best of `repeat`. The card's own context on rounds 1..K (which it builds for
    its tie-breaks anyway) is built before the clock starts."""
    created = state.created
    assert created is not None
    whole = alone = float("inf")
    for _ in range(repeat):
        live = Context(state.tournament(), state.paired, edition=state.edition,
                       unrated_rating=created.unrated_rating)  # fmt: skip
        t0 = time.perf_counter()
        world = world_of(state, live)
        outlook(state, no, live, world)
        t1 = time.perf_counter()
        prize_outlook(state, no, live, world)
        t2 = time.perf_counter()
        whole = min(whole, (t2 - t0) * 1000)
        alone = min(alone, (t2 - t1) * 1000)
    return whole, alone


def field(players: int, rounds: int, rule: Rule, repeat: int) -> None:
    base = with_details(swiss_events(players, rounds, tiebreaks=TIEBREAKS))
    first = next(i for i, e in enumerate(base) if isinstance(e, RoundPaired))
    events = [*base[:first], CategoriesDefined(categories=CATEGORIES), prizes(rule), *base[first:]]
    projection = StandingsProjection.rebuild(as_log(last_round(events, 0.5)))
    state = projection.state
    order = [row.start_no for row in projection.standings()]
    sample = order[:60] + random.Random(5).sample(order[60:], min(60, len(order) - 60))
    wholes, alones, exact, options = [], [], 0, 0
    for no in sample:
        whole, alone = card_ms(state, no, repeat)
        wholes.append(whole)
        alones.append(alone)
        o = prize_outlook(state, no)
        assert o is not None
        options += len(o.options)
        exact += sum(x.exact for x in o.options)
    unfinished = sum(g.result is None for g in state.rounds[state.paired].games.values())
    print(f"field: {players} x {rounds}, {unfinished} boards open, rule {rule}, "
          f"{len(sample)} cards")  # fmt: skip
    print("| card (world + ranks + prizes) p50 | p99 | prize outlook p50 | p99 | exact options |")
    print("|---:|---:|---:|---:|---:|")
    print(
        f"| {percentile(wholes, 50):.1f} ms | {percentile(wholes, 99):.1f} ms "
        f"| {percentile(alones, 50):.1f} ms | {percentile(alones, 99):.1f} ms "
        f"| {exact} of {options} |"
    )


def budget_events(rule: Rule) -> list[AnyEvent]:
    """17 players, 2 rounds, PTS and BH; round 1 decisive on every board and 17 the bye,
    round 2 (the last) paired winners against losers crosswise and 17 the bye again, every
    board open. Categories ODD (odd numbers) and LOW (9-17), six prizes, one per player."""
    r1 = [Board(b, b, b + 8) for b in range(1, 9)]
    r2 = [Board(b, b + 8, (b % 8) + 1) for b in range(1, 9)]
    prizes = (
        Prize("main", 1, Decimal(500)), Prize("main", 2, Decimal(300)),
        Prize("main", 3, Decimal(200)), Prize("ODD", 1, Decimal(250)),
        Prize("LOW", 1, Decimal(120)), Prize("LOW", 2, Decimal(80)),
    )  # fmt: skip
    return [
        TournamentCreated(name="budget", rounds=2, tiebreaks=("PTS", "BH")),
        *(ParticipantRegistered(start_no=n, name=f"P{n}") for n in range(1, 18)),
        CategoriesDefined(
            categories=(
                Category(code="ODD", name="Odd", members=tuple(range(1, 18, 2))),
                Category(code="LOW", name="Low", members=tuple(range(9, 18))),
            )
        ),
        PrizesDefined(rule=rule, prizes=prizes),
        RoundPaired(round=1, boards=tuple(r1), bye=17),
        *(ResultRecorded(round=1, board=b, result="1-0" if b % 2 else "0-1") for b in range(1, 9)),
        RoundClosed(round=1),
        RoundPaired(round=2, boards=tuple(r2), bye=17),
    ]


def budget(repeat: int) -> None:
    print("budget: 17 players, all 8 boards of the last round open, 2 categories, 6 prizes")
    print("| rule | slowest card | its participant | mean card |")
    print("|---|---:|---:|---:|")
    for rule in ("ranking", "shared", "hort"):
        state = StandingsProjection.rebuild(as_log(budget_events(rule))).state
        times = {no: card_ms(state, no, repeat)[0] for no in state.participants}
        slowest = max(times, key=lambda no: times[no])
        mean = statistics.mean(times.values())
        print(f"| {rule} | {times[slowest]:.0f} ms | {slowest} | {mean:.0f} ms |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--rule", choices=("ranking", "shared", "hort"), default="ranking")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-budget", action="store_true")
    args = parser.parse_args()
    print(f"reference loop: {reference_ms():.0f} ms")
    field(args.players, args.rounds, args.rule, args.repeat)
    if not args.skip_budget:
        budget(args.repeat)
    print(f"reference loop: {reference_ms():.0f} ms")


if __name__ == "__main__":
    main()
