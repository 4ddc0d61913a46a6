"""What I need for a prize: for each result of the participant's running game, the best and
worst prize it can still take once the round is over, read like the rank ranges of
`livetb/projections/outlook.py`; in the last round, also the sentence a player wants ("A draw
guarantees at least the U1800 2nd prize (€80); a win can reach the 3rd overall (€200)"), in
every language of the catalogs.

Each option's best and worst are what the participant takes in the prize list after the
round's close for some combination of results of the other unfinished boards
(`livetb/engine/prize_reach.py`'s `exact`). When more combinations would have to be read than
the budget allows, the option says so (`exact: false`) and its amounts are sound bounds
instead (its `bounds`, from points alone): the card then says "at least" and "at most", and
the sentence never says that a result can reach an amount.

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
from livetb.engine.prize_reach import (
    NOTHING,
    BoardPoints,
    Bound,
    Field,
    Other,
    Reached,
    Take,
    bounds,
    exact,
)
from livetb.engine.prizes import MAIN, Award, Table, amounts_of, money
from livetb.engine.reach import Lists, World
from livetb.events.state import TournamentState
from livetb.projections.categories import members
from livetb.projections.outlook import FINISHED, OUTCOMES, Result, running, side, world_of
from livetb.projections.prizes import table_of
from livetb.projections.standings import fmt

SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥", "INR": "₹"}


class PrizeRef(msgspec.Struct):
    """A prize taken: its list and place, the amount the participant takes, and the places
    its points group shares (`shared` members; the place alone when 1)."""

    list: str  # "main" or a category's code
    place: int
    amount: str
    places: tuple[int, int]
    shared: int


class PrizeOption(msgspec.Struct):
    """One result of the participant's game: the points it ends on and the best and worst
    prize left open (amounts; with one prize per player, `*_prizes` names the one prize).
    `exact`: each is taken in some outcome of the other boards (else they are bounds)."""

    result: Result
    points: str
    best: str
    worst: str
    best_prizes: list[PrizeRef]
    worst_prizes: list[PrizeRef]
    exact: bool = True


class PrizeOutlook(msgspec.Struct):
    """The card's `prize_outlook`: set while a round runs and the tournament has prizes."""

    round: int
    last_round: bool
    currency: str
    one_prize_per_player: bool
    options: list[PrizeOption]
    sentence: dict[str, str] | None  # by language; the last round only, when a prize is open


def prize_outlook(
    state: TournamentState, no: int, live: Context | None = None, world: World | None = None
) -> PrizeOutlook | None:
    """Participant `no`'s prize outlook for the running round (None when no round runs, the
    tournament has no prize table, or points do not rank first). `live` and `world` as
    `outlook` takes them (built when not given)."""
    created, defined = state.created, state.prizes
    if defined is None:
        return None
    live = running(state, live)
    if live is None:
        return None
    assert created is not None
    if world is None:
        world = world_of(state, live)
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

    # Each participant's two largest first prizes over its lists (the list of the largest):
    # the largest it could take in a list other than one of them is read from those.
    zero = Decimal(0)
    ranked = sorted(lists, key=lambda m: -top[m])  # the lists' order among equal amounts
    best_two: dict[int, tuple[str | None, Decimal, Decimal]] = {}
    for n in state.participants:
        held = [m for m in ranked if within(m, n)][:2]
        first = top[held[0]] if held else zero
        second = top[held[1]] if len(held) > 1 else zero
        best_two[n] = (held[0] if held else None, first, second)

    def elsewhere(n: int, name: str) -> Decimal:
        """The largest prize `n` could take in a list other than `name`."""
        largest, first, second = best_two[n]
        return second if largest == name else first

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

    # X's lists as seen after the round, but for the opponent's points (`fields`).
    seen_from: dict[str, tuple[list[Other], list[BoardPoints]]] = {}
    opponent_of = None if game is None else game.black if game.white == no else game.white
    for name in mine:
        fixed = [
            (live.score(n), elsewhere(n, name))
            for n in state.participants
            if n != no and n != opponent_of and n not in busy and within(name, n)
        ]
        boards = [
            tuple((seat(g.white, w, name), seat(g.black, b, name)) for _, w, b in OUTCOMES)
            for g in others
        ]
        seen_from[name] = (fixed, boards)

    def fields(extra: dict[int, Decimal]) -> dict[str, Field]:
        """X's lists as seen after the round: `extra` fixes the opponent's points."""
        out = {}
        for name, (fixed, boards) in seen_from.items():
            theirs = [
                (extra.get(n, live.score(n)), elsewhere(n, name))
                for n in (opponent_of,)
                if n is not None and within(name, n)
            ]
            out[name] = Field([*fixed, *theirs], boards)
        return out

    options: list[PrizeOption] = []
    opp = table.one_prize_per_player
    ranking = table.rule == "ranking"
    cur = table.currency
    if game is None or game.result is not None:
        result: Result = "bye" if game is None else FINISHED[state.entry(no, k).code]
        points = live.score(no)
        loose = bounds(points, fields({}), amounts, opp, ranking)
        options.append(_option(result, points, _exact(world, no, table, groups, loose), cur))
    else:
        opponent = game.black if game.white == no else game.white
        for index, (outcome, mine_code, theirs) in enumerate(OUTCOMES):
            points = after(no, mine_code)
            side(world, no, index)
            seen = fields({opponent: after(opponent, theirs)})
            loose = bounds(points, seen, amounts, opp, ranking)
            options.append(_option(outcome, points, _exact(world, no, table, groups, loose), cur))
    last = k == created.rounds
    sentence = _sentence(options, cur) if last else None
    return PrizeOutlook(k, last, cur, opp, options, sentence)


def _exact(
    world: World, no: int, table: Table, lists: Lists, loose: tuple[Bound, Bound]
) -> Reached:
    """The best and worst prize over the outcomes of the other boards (X's own as set), or
    the sound bounds `loose` when there are too many: no prize at all needs no enumeration."""
    best, worst = loose
    if best.amount == 0:
        return Reached(NOTHING, NOTHING, True)
    got = exact(world, no, table, lists, (best.amount, worst.amount))
    return got if got is not None else _bounds(best, worst)


def _bounds(best: Bound, worst: Bound) -> Reached:
    """Sound bounds as what the option states: each prize named by its place (exact when the
    two meet: every outcome pays that)."""

    def take(b: Bound) -> Take:
        awards = tuple(Award(0, p.list, p.place, p.amount, (p.place, p.place), 1) for p in b.prizes)
        return Take(b.amount, awards)

    return Reached(take(best), take(worst), best.amount == worst.amount)


def _option(result: Result, points: Decimal, got: Reached, cur: str) -> PrizeOption:
    def refs(t: Take) -> list[PrizeRef]:
        return [
            PrizeRef(a.list, a.place, money(a.amount, cur), a.places, a.shared) for a in t.awards
        ]

    best, worst = got.best, got.worst
    return PrizeOption(
        result, str(fmt(points)), money(best.amount, cur), money(worst.amount, cur),
        refs(best), refs(worst), got.exact,
    )  # fmt: skip


def _sentence(options: list[PrizeOption], currency: str) -> dict[str, str] | None:
    """ "A draw guarantees at least …; a win can reach …": the weakest result that guarantees a
    prize, and the strongest result's best when it is more than that guarantee. A best that
    is a bound (`exact` false) is said as what the result pays at most, never as reached."""
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
    reaching = strongest if Decimal(strongest.best) > 0 else None
    if reaching and guarantee and Decimal(reaching.best) <= Decimal(guarantee.worst):
        reaching = None
    if guarantee is None and reaching is None:
        return None
    most = "" if reaching is None or reaching.exact else "_most"
    out = {}
    for lang in i18n.LANGUAGES:
        say = _Say(lang, currency)
        if guarantee is not None and reaching is not None:
            key = "same" if guarantee.result == reaching.result else "both"
            parts = {**say.guarantee(guarantee), **say.reach(reaching)}
            text = i18n.text(lang, f"prize.need.{key}{most}", **parts)
        elif guarantee is not None:
            text = i18n.text(lang, "prize.need.guarantee", **say.guarantee(guarantee))
        else:
            assert reaching is not None
            text = i18n.text(lang, f"prize.need.reach{most}", **say.reach(reaching))
        out[lang] = text[:1].upper() + text[1:]
    return out


class _Say:
    """The sentence's parts in one language."""

    def __init__(self, lang: str, currency: str) -> None:
        self.lang = lang
        self.currency = currency
        self.text: Callable[..., str] = lambda key, **kw: i18n.text(lang, key, **kw)

    def prize(self, ref: PrizeRef) -> str:
        """ "the 3rd overall", "the U1800 2nd prize"; a share names the places it shares:
        "the 1st–3rd overall shared by 3"."""
        first, last = ref.places
        if ref.shared > 1:
            key = "prize.phrase.main_shared" if ref.list == MAIN else "prize.phrase.list_shared"
            at = {"first": ordinal(self.lang, first), "last": ordinal(self.lang, last)}
            return self.text(key, **at, n=ref.shared, list=ref.list)
        place = ordinal(self.lang, ref.place)
        if ref.list == MAIN:
            return self.text("prize.phrase.main", place=place)
        return self.text("prize.phrase.list", place=place, list=ref.list)

    def prizes(self, refs: list[PrizeRef]) -> str:
        """Each prize taken, "A, B and C" (without one prize per player, one per list)."""
        names = [self.prize(ref) for ref in refs]
        if len(names) < 2:
            return "".join(names)
        return self.text("list.comma").join(names[:-1]) + self.text("list.and") + names[-1]

    def amount(self, text: str) -> str:
        return amount_text(self.lang, self.currency, text)

    def guarantee(self, o: PrizeOption) -> dict[str, str]:
        return {
            "guarantee_result": self.text(f"prize.result.{o.result}"),
            "guarantee_prize": self.prizes(o.worst_prizes),
            "guarantee_amount": self.amount(o.worst),
        }

    def reach(self, o: PrizeOption) -> dict[str, str]:
        return {
            "reach_result": self.text(f"prize.result.{o.result}"),
            "reach_prize": self.prizes(o.best_prizes),
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
