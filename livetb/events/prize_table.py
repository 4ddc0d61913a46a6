"""The prize table as the arbiter sets it (`DefinePrizes`): checked against the tournament's
lists (the main list and the categories defined now), then logged as `PrizesDefined`."""

from __future__ import annotations

from livetb.engine.prizes import MAIN, Prize, Rule, Table, problems
from livetb.errors import InvalidInput, Said
from livetb.events.schema import PrizesDefined
from livetb.events.state import TournamentState


def prizes_defined(
    state: TournamentState,
    rule: Rule,
    one_prize_per_player: bool,
    currency: str,
    prizes: tuple[Prize, ...],
) -> PrizesDefined:
    """The event, or `InvalidInput` naming the first field that is wrong (an unknown list, a
    negative amount, a place given twice, ...): nothing is logged then."""
    table = Table(rule, one_prize_per_player, currency, prizes)
    lists = [MAIN, *(c.code for c in state.categories)]
    found = problems(table, lists)
    if found:
        path, problem = found[0]
        raise InvalidInput(Said("input.prizes.at", path=path, problem=problem), path=path)
    return PrizesDefined(
        rule=rule, one_prize_per_player=one_prize_per_player, currency=currency, prizes=prizes
    )
