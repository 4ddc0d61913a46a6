"""What I need for a prize: for each result of the participant's running game, the best and
worst prize it can still take once the round is over (`livetb/engine/prize_reach.py`), read
like the rank ranges of `livetb/projections/outlook.py`; in the last round, also the sentence
a player wants ("A draw guarantees at least the U1800 2nd prize (€80); a win can reach the 3rd
overall (€200)"), in every language of the catalogs.

Points after the round are the outlook's: the scoring's points over rounds 1..K, each
unfinished board ending in one of its played results. Only played results of the unfinished
boards are considered (a forfeit can end outside the range), as for the ranks.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import msgspec

from livetb import i18n
from livetb.engine.context import Context
from livetb.engine.model import Code
from livetb.engine.prize_reach import Bound, Field, Other, bounds
from livetb.engine.prizes import MAIN, amounts_of, money
from livetb.events.state import TournamentState
from livetb.projections.categories import members
from livetb.projections.outlook import FINISHED, OUTCOMES, Result, running
from livetb.projections.prizes import table_of
from livetb.projections.standings import fmt

SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥", "INR": "₹"}


class PrizeRef(msgspec.Struct):
    list: str  # "main" or a category's code
    place: int
    amount: str


class PrizeOption(msgspec.Struct):
    """One result of the participant's game: the points it ends on and the best and worst
    prize left open (amounts; with one prize per player, `*_prizes` names the one prize)."""

    result: Result
    points: str
    best: str
    worst: str
    best_prizes: list[PrizeRef]
    worst_prizes: list[PrizeRef]


class PrizeOutlook(msgspec.Struct):
    """The card's `prize_outlook`: set while a round runs and the tournament has prizes."""

    round: int
    last_round: bool
    currency: str
    one_prize_per_player: bool
    options: list[PrizeOption]
    sentence: dict[str, str] | None  # by language; the last round only, when a prize is open


def prize_outlook(
    state: TournamentState, no: int, live: Context | None = None
) -> PrizeOutlook | None:
    """Participant `no`'s prize outlook for the running round (None when no round runs, the
    tournament has no prize table, or points do not rank first)."""
    created, defined = state.created, state.prizes
    if defined is None:
        return None
    live = running(state, live)
    if live is None:
        return None
    assert created is not None
    k = state.paired
    table = table_of(defined)
    amounts = amounts_of(table)
    cats = members(state.categories, state.participants)
    groups: dict[str, frozenset[int] | None] = {MAIN: None, **cats}
    lists = [name for name in groups if name in amounts]
    top = {name: amounts[name][0] for name in lists}

    def within(name: str, n: int) -> bool:
        g = groups[name]
        return g is None or n in g

    def elsewhere(n: int, name: str) -> Decimal:
        """The largest prize `n` could take in a list other than `name`."""
        return max((top[m] for m in lists if m != name and within(m, n)), default=Decimal(0))

    pending = live.scoring.points(Code.PENDING)

    def after(n: int, code: Code) -> Decimal:
        return live.score(n) - pending + live.scoring.points(code)

    rnd = state.rounds[k]
    game = rnd.seat.get(no)
    others = [g for g in rnd.games.values() if g.result is None and g is not game]
    busy = {n for g in others for n in (g.white, g.black)}
    mine = [name for name in lists if within(name, no)]

    def seat(n: int, code: Code, name: str) -> Other | None:
        """A board's player after `code`, as list `name` sees it (None: not a member)."""
        return (after(n, code), elsewhere(n, name)) if within(name, n) else None

    def fields(extra: dict[int, Decimal]) -> dict[str, Field]:
        """X's lists as seen after the round: `extra` fixes the opponent's points."""
        out = {}
        for name in mine:
            fixed: list[Other] = []
            for n in state.participants:
                if n == no or n in busy or not within(name, n):
                    continue
                points = extra.get(n, live.score(n))
                fixed.append((points, elsewhere(n, name)))
            boards = [
                tuple((seat(g.white, w, name), seat(g.black, b, name)) for _, w, b in OUTCOMES)
                for g in others
            ]
            out[name] = Field(fixed, boards)
        return out

    options: list[PrizeOption] = []
    opp = table.one_prize_per_player
    ranking = table.rule == "ranking"
    cur = table.currency
    if game is None or game.result is not None:
        result: Result = "bye" if game is None else FINISHED[state.entry(no, k).code]
        points = live.score(no)
        best, worst = bounds(points, fields({}), amounts, opp, ranking)
        options.append(_option(result, points, best, worst, cur))
    else:
        opponent = game.black if game.white == no else game.white
        for outcome, mine_code, theirs in OUTCOMES:
            points = after(no, mine_code)
            best, worst = bounds(
                points, fields({opponent: after(opponent, theirs)}), amounts, opp, ranking
            )
            options.append(_option(outcome, points, best, worst, cur))
    last = k == created.rounds
    sentence = _sentence(options, cur) if last else None
    return PrizeOutlook(k, last, cur, opp, options, sentence)


def _option(result: Result, points: Decimal, best: Bound, worst: Bound, cur: str) -> PrizeOption:
    def refs(b: Bound) -> list[PrizeRef]:
        return [PrizeRef(p.list, p.place, money(p.amount, cur)) for p in b.prizes]

    return PrizeOption(
        result, str(fmt(points)), money(best.amount, cur), money(worst.amount, cur),
        refs(best), refs(worst),
    )  # fmt: skip


def _sentence(options: list[PrizeOption], currency: str) -> dict[str, str] | None:
    """ "A draw guarantees at least …; a win can reach …": the weakest result that guarantees a
    prize, and the strongest result's best when it is more than that guarantee."""
    by_result = {o.result: o for o in options}
    guarantee = next(
        (by_result[r] for r in ("loss", "draw", "win") if r in by_result
         and Decimal(by_result[r].worst) > 0),
        None,
    )  # fmt: skip
    strongest = next((by_result[r] for r in ("win", "draw", "loss") if r in by_result), None)
    if strongest is None:  # no game: its only result
        strongest = options[0]
        if Decimal(strongest.worst) > 0:
            guarantee = strongest
    reach = strongest if Decimal(strongest.best) > 0 else None
    if reach and guarantee and Decimal(reach.best) <= Decimal(guarantee.worst):
        reach = None
    if guarantee is None and reach is None:
        return None
    out = {}
    for lang in i18n.LANGUAGES:
        say = _Say(lang, currency)
        if guarantee is not None and reach is not None:
            key = "prize.need.same" if guarantee.result == reach.result else "prize.need.both"
            text = i18n.text(lang, key, **say.guarantee(guarantee), **say.reach(reach))
        elif guarantee is not None:
            text = i18n.text(lang, "prize.need.guarantee", **say.guarantee(guarantee))
        else:
            assert reach is not None
            text = i18n.text(lang, "prize.need.reach", **say.reach(reach))
        out[lang] = text[:1].upper() + text[1:]
    return out


class _Say:
    """The sentence's parts in one language."""

    def __init__(self, lang: str, currency: str) -> None:
        self.lang = lang
        self.currency = currency
        self.text: Callable[..., str] = lambda key, **kw: i18n.text(lang, key, **kw)

    def prize(self, ref: PrizeRef) -> str:
        place = ordinal(self.lang, ref.place)
        if ref.list == MAIN:
            return self.text("prize.phrase.main", place=place)
        return self.text("prize.phrase.list", place=place, list=ref.list)

    def amount(self, text: str) -> str:
        return amount_text(self.lang, self.currency, text)

    def guarantee(self, o: PrizeOption) -> dict[str, str]:
        (ref,) = o.worst_prizes[:1] or [PrizeRef(MAIN, 0, o.worst)]
        return {
            "guarantee_result": self.text(f"prize.result.{o.result}"),
            "guarantee_prize": self.prize(ref) if ref.place else "",
            "guarantee_amount": self.amount(o.worst),
        }

    def reach(self, o: PrizeOption) -> dict[str, str]:
        (ref,) = o.best_prizes[:1] or [PrizeRef(MAIN, 0, o.best)]
        return {
            "reach_result": self.text(f"prize.result.{o.result}"),
            "reach_prize": self.prize(ref) if ref.place else "",
            "reach_amount": self.amount(o.best),
        }


def ordinal(lang: str, n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st (English); 1º, 2º … (Italian)."""
    last = n % 10 if n % 100 not in (11, 12, 13) else 0
    key = f"prize.ordinal.{last}" if last in (1, 2, 3) else "prize.ordinal.other"
    return i18n.text(lang, key, n=n)


def amount_text(lang: str, currency: str, amount: str) -> str:
    """An amount as a player reads it: "€80", "€80.50" (English), "80 €", "80,50 €" (Italian);
    whole amounts without their zero cents."""
    value = Decimal(amount)
    shown = str(value.quantize(Decimal(1))) if value == value.to_integral_value() else amount
    symbol = SYMBOLS.get(currency, currency + " ")
    return i18n.text(lang, "prize.money", symbol=symbol, amount=i18n.number(lang, shown)).strip()
