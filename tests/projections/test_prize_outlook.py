"""What I need for a prize (`livetb/projections/prize_outlook.py`): a brute force over every
outcome of the running round's unfinished boards (up to 8), the prize list read from the
standings the results are applied to: the prize each participant takes lies within the best
and worst its own result states; and the last round's sentence, by hand."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from livetb.engine.prizes import Prize
from livetb.events.schema import (
    AnyEvent,
    Board,
    CategoriesDefined,
    Category,
    GameResult,
    ParticipantRegistered,
    PrizesDefined,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    TournamentCreated,
)
from livetb.projections import card
from livetb.projections.prize_outlook import prize_outlook
from livetb.projections.prizes import prize_list
from livetb.projections.standings import StandingsProjection
from tests.projections.test_outlook import (
    PLAYED,
    Running,
    full_field,
    gray,
    recorded,
    running,
)

FIRST_ROUND: tuple[GameResult, ...] = ("1/2-1/2", "0-1", "1/2-1/2", "1-0")
AMOUNTS = [Decimal(a) for a in ("500", "300", "200", "150", "100", "80", "50", "0.05")]


@st.composite
def tables(draw: st.DrawFn, n: int) -> list[AnyEvent]:
    """Up to two categories (explicit members) and a prize table over them."""
    codes = draw(st.lists(st.sampled_from(["A", "B"]), max_size=2, unique=True))
    cats = tuple(
        Category(
            code=code,
            name=f"Cat {code}",
            members=tuple(sorted(draw(st.sets(st.integers(1, n), min_size=1, max_size=n)))),
        )
        for code in codes
    )
    prizes: list[Prize] = []
    for name in ["main", *codes]:
        count = draw(st.integers(0 if name != "main" else 1, 4))
        paid = sorted(draw(st.lists(st.sampled_from(AMOUNTS), min_size=count, max_size=count)))
        for place, amount in enumerate(reversed(paid), start=1):
            prizes.append(Prize(name, place, amount))
    return [
        CategoriesDefined(categories=cats),
        PrizesDefined(
            rule=draw(st.sampled_from(["ranking", "shared", "hort"])),
            one_prize_per_player=draw(st.booleans()),
            currency="EUR",
            prizes=tuple(prizes),
        ),
    ]


def taken(projection: StandingsProjection) -> dict[int, Decimal]:
    """Each participant's total from the prize list now."""
    out: dict[int, Decimal] = {}
    for a in prize_list(projection).awards:
        out[a.start_no] = out.get(a.start_no, Decimal(0)) + Decimal(a.amount)
    return out


def brute_force(case: Running, table: list[AnyEvent]) -> None:
    """Every combination of played results of the open boards: each participant's prize lies
    within its own result's best and worst."""
    paired = [i for i, e in enumerate(case.events) if isinstance(e, TournamentCreated)]
    assert paired == [0]
    log = recorded([*case.events, *table])
    projection = StandingsProjection.rebuild(log)
    state = projection.state
    outlooks = {no: prize_outlook(state, no) for no in state.participants}
    open_boards = case.open
    current: list[int | None] = [None] * len(open_boards)
    seq = len(log)
    for combo in gray(len(open_boards)):
        for i, (b, outcome) in enumerate(zip(open_boards, combo, strict=True)):
            if current[i] == outcome:
                continue
            seq += 1
            rnd = state.paired
            change: AnyEvent = (
                ResultRecorded(round=rnd, board=b.board, result=PLAYED[outcome])
                if current[i] is None
                else ResultCorrected(round=rnd, board=b.board, result=PLAYED[outcome])
            )
            (rec,) = recorded([change], start=seq)
            projection.apply(rec)
            current[i] = outcome
        got = taken(projection)
        for no, o in outlooks.items():
            assert o is not None
            if len(o.options) == 1:
                option = o.options[0]
            else:
                (i,) = [i for i, b in enumerate(open_boards) if no in (b.white, b.black)]
                outcome = combo[i] if open_boards[i].white == no else 2 - combo[i]
                option = o.options[outcome]
            amount = got.get(no, Decimal(0))
            assert Decimal(option.worst) <= amount <= Decimal(option.best), (no, combo, option)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_outcome_of_the_open_boards_pays_within_the_stated_prizes(
    data: st.DataObject,
) -> None:
    case = data.draw(running())
    n = sum(isinstance(e, ParticipantRegistered) for e in case.events)
    table = data.draw(tables(n))
    defined = table[1]
    assert isinstance(defined, PrizesDefined)
    event(f"{defined.rule}, one prize per player: {defined.one_prize_per_player}")
    event(f"{len(case.open)} unfinished boards")
    brute_force(case, table)


def test_all_eight_boards_open_with_overlapping_categories() -> None:
    odd = tuple(range(1, 17, 2))
    low = tuple(range(9, 17))
    for rule in ("ranking", "shared", "hort"):
        for opp in (True, False):
            table: list[AnyEvent] = [
                CategoriesDefined(
                    categories=(
                        Category(code="ODD", name="Odd", members=odd),
                        Category(code="U", name="Under", members=low),
                    )
                ),
                PrizesDefined(
                    rule=rule,
                    one_prize_per_player=opp,
                    prizes=(
                        Prize("main", 1, Decimal(500)),
                        Prize("main", 2, Decimal(300)),
                        Prize("main", 3, Decimal(200)),
                        Prize("ODD", 1, Decimal(250)),
                        Prize("U", 1, Decimal(120)),
                        Prize("U", 2, Decimal(80)),
                    ),
                ),
            ]
            brute_force(full_field(("PTS", "BH")), table)


def test_the_last_round_sentence_by_hand() -> None:
    """Ratings 2300, 2200, … 2000 for 1-4; 1750, 1700, 1650, 1600 for 5-8 (U1800). Prizes by
    the ranking, one each: main 500, 300, 200; U1800 100, 80. Two rounds.

    R1: 6-3 ½, 4-2 0-1, 8-5 ½, 7-1 1-0. R2 (the last): 8-7 0-1 and 2-6 1-0 in (7 and 2 on 2
    points), 4-3 and 1-5 open; 3, 5, 6, 8 on ½, 1 and 4 on 0.

    5 (U1800) draws: 1 point. Only 7 of U1800 can finish on 1 or more: U1800 2nd (80) is
    sure. 5 wins: 1½. Only 2 and 7 surely finish above it; 7 could leave main for U1800, but
    U1800 pays at most 100, less than main 3rd (200): main 3rd is in reach, 2nd is not (a
    draw too may reach it: 4-3 can leave nobody else above 1 point). A loss: ½, tied with 6 and
    8; if 7 takes a main prize, U1800 1st (100) is still possible, nothing is sure."""
    ratings = [2300, 2200, 2100, 2000, 1750, 1700, 1650, 1600]
    events: list[AnyEvent] = [
        TournamentCreated(name="last", rounds=2, tiebreaks=("PTS", "BH")),
        *(
            ParticipantRegistered(start_no=n, name=f"P{n}", rating=ratings[n - 1])
            for n in range(1, 9)
        ),
        RoundPaired(
            round=1, boards=(Board(1, 6, 3), Board(2, 4, 2), Board(3, 8, 5), Board(4, 7, 1))
        ),
        *(ResultRecorded(round=1, board=b, result=r) for b, r in enumerate(FIRST_ROUND, start=1)),
        RoundClosed(round=1),
        RoundPaired(
            round=2, boards=(Board(1, 8, 7), Board(2, 2, 6), Board(3, 4, 3), Board(4, 1, 5))
        ),
        ResultRecorded(round=2, board=1, result="0-1"),
        ResultRecorded(round=2, board=2, result="1-0"),
        CategoriesDefined(categories=(Category(code="U1800", name="Under 1800", rating_max=1799),)),
        PrizesDefined(
            prizes=(
                Prize("main", 1, Decimal(500)),
                Prize("main", 2, Decimal(300)),
                Prize("main", 3, Decimal(200)),
                Prize("U1800", 1, Decimal(100)),
                Prize("U1800", 2, Decimal(80)),
            )
        ),
    ]
    projection = StandingsProjection.rebuild(recorded(events))
    state = projection.state
    o = prize_outlook(state, 5)
    shown = card.build(projection, 5)  # the card's JSON carries it, and the prizes now
    assert shown.prize_outlook == o
    assert shown.prizes == [a for a in prize_list(projection).awards if a.start_no == 5]
    assert o is not None and o.last_round and o.round == 2
    assert [(x.result, x.points, x.worst, x.best) for x in o.options] == [
        ("win", "1.5", "80.00", "200.00"),
        ("draw", "1.0", "80.00", "200.00"),
        ("loss", "0.5", "0.00", "100.00"),
    ]
    assert o.sentence == {
        "en": "A draw guarantees at least the U1800 2nd prize (€80); "
        "a win can reach the 3rd overall (€200)",
        "it": "Con una patta ti assicuri almeno il 2º premio U1800 (80 €); "
        "con una vittoria puoi ottenere il 3º premio assoluto (200 €)",
    }
    # Not the last round: the same ranges, no sentence; no prize table: no outlook.
    first = [e if not isinstance(e, TournamentCreated) else TournamentCreated(
        name="last", rounds=3, tiebreaks=("PTS", "BH")) for e in events]  # fmt: skip
    o3 = prize_outlook(StandingsProjection.rebuild(recorded(first)).state, 5)
    assert o3 is not None and not o3.last_round and o3.sentence is None
    assert prize_outlook(StandingsProjection.rebuild(recorded(events[:-1])).state, 5) is None
