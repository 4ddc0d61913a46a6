"""What I need for a prize (`livetb/projections/prize_outlook.py`): a brute force over every
outcome of the running round's unfinished boards (up to 8), the prize list read from the
standings each outcome's close publishes (`tests/projections/closing.py`): each option's best
and worst are the most and the least its participant takes over those outcomes; a real event
cut in its last round; the last round's sentence, by hand."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

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
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    TournamentCreated,
)
from livetb.interchange.importer import events_from_tournament
from livetb.projections import card
from livetb.projections.prize_outlook import PrizeOption, PrizeOutlook, prize_outlook
from livetb.projections.prizes import prize_list
from livetb.projections.standings import StandingsProjection
from livetb.trf import load_trf
from tests.projections import test_outlook
from tests.projections.closing import Combo, closings, own_result, recorded, taken
from tests.projections.test_outlook import Running, full_field, running

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


def brute_force(case: Running, categories: AnyEvent, defined: list[PrizesDefined]) -> None:
    """Every combination of played results of the open boards, each closed: under each prize
    table, the prize each participant takes lies within the option its own result chooses,
    and each option's best and worst are the most and the least taken (all exact: at most 8
    open boards are within the budget), the prizes it names adding up to them."""
    events = [*case.events, categories]
    outlooks = []
    for table in defined:
        state = StandingsProjection.rebuild(recorded([*events, table])).state
        outlooks.append({no: prize_outlook(state, no) for no in state.participants})
    seen: dict[tuple[int, int, str], list[Decimal]] = {}
    for combo, closed in closings(events, case.open):
        for k, table in enumerate(defined):
            got = taken(closed, table)
            for no, o in outlooks[k].items():
                assert o is not None
                option = chosen(o, no, combo, case.open)
                amount = got.get(no, Decimal(0))
                assert Decimal(option.worst) <= amount <= Decimal(option.best), (no, combo)
                seen.setdefault((k, no, option.result), []).append(amount)
    for k, table in enumerate(defined):
        for no, o in outlooks[k].items():
            assert o is not None
            for option in o.options:
                paid = seen[(k, no, option.result)]
                what = (table.rule, table.one_prize_per_player, no, option)
                assert option.exact, what
                assert (Decimal(option.worst), Decimal(option.best)) == (min(paid), max(paid)), what
                for said, refs in ((option.best, option.best_prizes),
                                   (option.worst, option.worst_prizes)):  # fmt: skip
                    assert sum((Decimal(r.amount) for r in refs), Decimal(0)) == Decimal(said)
                    assert all(r.places[1] - r.places[0] + 1 == r.shared for r in refs)


def chosen(o: PrizeOutlook, no: int, combo: Combo, open_boards: list[Board]) -> PrizeOption:
    """The option of `no`'s outlook the combination of results chooses."""
    mine = own_result(no, combo, open_boards)
    return o.options[0] if mine is None else o.options[mine]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_outcome_of_the_open_boards_pays_within_the_stated_prizes(
    data: st.DataObject,
) -> None:
    case = data.draw(running())
    n = sum(isinstance(e, ParticipantRegistered) for e in case.events)
    categories, defined = data.draw(tables(n))
    assert isinstance(defined, PrizesDefined)
    event(f"{defined.rule}, one prize per player: {defined.one_prize_per_player}")
    event(f"{len(case.open)} unfinished boards")
    brute_force(case, categories, [defined])


def test_all_eight_boards_open_with_overlapping_categories() -> None:
    odd = tuple(range(1, 17, 2))
    low = tuple(range(9, 17))
    categories = CategoriesDefined(
        categories=(
            Category(code="ODD", name="Odd", members=odd),
            Category(code="U", name="Under", members=low),
        )
    )
    prizes = (
        Prize("main", 1, Decimal(500)),
        Prize("main", 2, Decimal(300)),
        Prize("main", 3, Decimal(200)),
        Prize("ODD", 1, Decimal(250)),
        Prize("U", 1, Decimal(120)),
        Prize("U", 2, Decimal(80)),
    )
    defined = [
        PrizesDefined(rule=rule, one_prize_per_player=opp, prizes=prizes)
        for rule in ("ranking", "shared", "hort")
        for opp in (True, False)
    ]
    brute_force(full_field(("PTS", "BH")), categories, defined)


def test_the_last_round_sentence_by_hand() -> None:
    """Ratings 2300, 2200, … 2000 for 1-4; 1750, 1700, 1650, 1600 for 5-8 (U1800). Prizes by
    the ranking, one each: main 500, 300, 200; U1800 100, 80. Two rounds.

    R1: 6-3 ½, 4-2 0-1, 8-5 ½, 7-1 1-0. R2 (the last): 8-7 0-1 and 2-6 1-0 in (7 and 2 on 2
    points), 4-3 and 1-5 open; 3, 5, 6, 8 on ½, 1 and 4 on 0.

    2 and 7 finish 1st and 2nd whatever happens: 7 (U1800) takes main 1st or 2nd, larger than
    U1800's prizes. 5 (U1800) draws: 1 point, U1800's best after 7 in every outcome (6 and 8
    stay on ½): U1800 1st (100), exactly. 5 wins: 1½, 3rd on points; level with 3 when 3 beats
    4, and then behind it (the same BH, 3 the lower start number): main 3rd (200) at best,
    U1800 1st (100) at worst. A loss: ½, level with 6 and 8, whose BH (2½ or more) is above 5's
    in every outcome: U1800 goes to them, nothing for 5. (Points alone allowed 80 to 200 for a
    draw and up to 100 for a loss.)"""
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
    assert [(x.result, x.points, x.worst, x.best, x.exact) for x in o.options] == [
        ("win", "1.5", "100.00", "200.00", True),
        ("draw", "1.0", "100.00", "100.00", True),
        ("loss", "0.5", "0.00", "0.00", True),
    ]
    assert o.sentence == {
        "en": "A draw guarantees at least the U1800 1st prize (€100); "
        "a win can reach the 3rd overall (€200)",
        "it": "Con una patta ti assicuri almeno il 1º premio U1800 (100 €); "
        "con una vittoria puoi ottenere il 3º premio assoluto (200 €)",
    }
    boards = [Board(3, 4, 3), Board(4, 1, 5)]
    brute_force(Running(events[:-2], boards, False), events[-2], [events[-1]])  # type: ignore[list-item]
    # Not the last round: the same ranges, no sentence; no prize table: no outlook.
    first = [e if not isinstance(e, TournamentCreated) else TournamentCreated(
        name="last", rounds=3, tiebreaks=("PTS", "BH")) for e in events]  # fmt: skip
    o3 = prize_outlook(StandingsProjection.rebuild(recorded(first)).state, 5)
    assert o3 is not None and not o3.last_round and o3.sentence is None
    assert prize_outlook(StandingsProjection.rebuild(recorded(events[:-1])).state, 5) is None


def club_championship() -> list[AnyEvent]:
    """12 players, 3 rounds, PTS and BH; prizes 100, 60, 40 shared among the tied.

    R1: 1-7, 2-8, 3-9, 4-10, 5-11 1-0, 6-12 ½. R2: 1-8, 2-9, 3-10, 4-11, 5-12 1-0, 6-7 ½.
    R3, the last: 1 beat 12 (1 has a finished 3 points), 8-9 1-0 and 10-11 0-1 are in;
    2-7, 3-4 and 5-6 are open: 2, 3, 4, 5 on 2 points, 6 on 1, 7 on ½."""
    r1 = [(1, 7), (2, 8), (3, 9), (4, 10), (5, 11), (6, 12)]
    r2 = [(1, 8), (2, 9), (3, 10), (4, 11), (5, 12), (6, 7)]
    r3 = [(1, 12), (2, 7), (3, 4), (5, 6), (8, 9), (10, 11)]

    def paired(rnd: int, games: list[tuple[int, int]]) -> RoundPaired:
        return RoundPaired(
            round=rnd, boards=tuple(Board(b, w, k) for b, (w, k) in enumerate(games, start=1))
        )

    events: list[AnyEvent] = [
        TournamentCreated(name="club", rounds=3, tiebreaks=("PTS", "BH")),
        *(ParticipantRegistered(start_no=n, name=f"P{n}") for n in range(1, 13)),
    ]
    for rnd, games in ((1, r1), (2, r2)):
        events.append(paired(rnd, games))
        events += [ResultRecorded(round=rnd, board=b, result="1-0") for b in range(1, 6)]
        events += [ResultRecorded(round=rnd, board=6, result="1/2-1/2"), RoundClosed(round=rnd)]
    return [
        *events,
        paired(3, r3),
        ResultRecorded(round=3, board=1, result="1-0"),
        ResultRecorded(round=3, board=5, result="1-0"),
        ResultRecorded(round=3, board=6, result="0-1"),
        PrizesDefined(
            rule="shared",
            prizes=(
                Prize("main", 1, Decimal(100)),
                Prize("main", 2, Decimal(60)),
                Prize("main", 3, Decimal(40)),
            ),
        ),
    ]


def test_a_win_level_with_a_finished_leader_can_only_share() -> None:
    """2 beats 7: 3 points, level with 1, who finished on 3. Who else reaches 3 depends on two
    boards: the winner of 3-4 (a draw leaves both on 2½) and 5 if it beats 6. So 2's group is
    2, 3 or 4 players sharing places 1 onwards: (100 + 60) / 2 = 80, 200 / 3 = 66.67 or 66.66
    (the cent to the better BH), 200 / 4 = 50. Never 100 (1 is always level), never nothing.
    Points alone, a tie counting either way, said "the 1st overall (€100)" to "no prize"."""
    events = club_championship()
    projection = StandingsProjection.rebuild(recorded(events))
    o = prize_outlook(projection.state, 2)
    assert o is not None and o.last_round
    win = o.options[0]
    assert (win.result, win.points, win.best, win.worst, win.exact) == (
        "win", "3.0", "80.00", "50.00", True)  # fmt: skip
    (best,) = win.best_prizes
    assert (best.list, best.places, best.shared, best.amount) == ("main", (1, 2), 2, "80.00")
    (worst,) = win.worst_prizes
    assert (worst.places, worst.shared, worst.amount) == ((1, 4), 4, "50.00")
    assert o.sentence is not None
    assert o.sentence["en"] == (
        "A win guarantees at least the 1st–4th overall shared by 4 (€50) "
        "and can reach the 1st–2nd overall shared by 2 (€80)"
    )
    boards = [Board(2, 2, 7), Board(3, 3, 4), Board(4, 5, 6)]
    brute_force(Running(events[:-1], boards, False), CategoriesDefined(), [events[-1]])  # type: ignore[list-item]


REAL = Path("tests/data/real/hobsons-bay-reserves-ch-2025.trf")  # 25 players, 7 rounds


def last_round_cut(path: Path, unfinished: int) -> Running:
    """A real event in its last round: the log of the file with the last round paired, the
    results of its first `unfinished` boards (the top of the standings) not in yet, the rest
    in."""
    t = load_trf(path).tournament
    events = events_from_tournament(t)
    last = t.played_rounds
    opened = set(range(1, unfinished + 1))
    (paired,) = [e for e in events if isinstance(e, RoundPaired) and e.round == last]
    kept = [
        e
        for e in events
        if not (isinstance(e, ResultRecorded) and e.round == last and e.board in opened)
        and not (isinstance(e, RoundClosed) and e.round == last)
    ]
    return Running(kept, [b for b in paired.boards if b.board in opened], False)


def test_a_real_event_in_its_last_round() -> None:
    """Every rank range and prize range of every participant, under the three rules, with a
    rating category and one prize per player or not, is exact over the open top boards."""
    case = last_round_cut(REAL, 6)
    test_outlook.brute_force(case)
    u1400 = CategoriesDefined(categories=(Category(code="U1400", name="U1400", rating_max=1399),))
    main = (
        Prize("main", 1, Decimal(100)),
        Prize("main", 2, Decimal(60)),
        Prize("main", 3, Decimal(40)),
    )
    under = (Prize("U1400", 1, Decimal(50)), Prize("U1400", 2, Decimal("30.50")))
    defined = [
        PrizesDefined(rule="shared", prizes=main),
        PrizesDefined(rule="ranking", prizes=(*main, *under)),
        PrizesDefined(rule="shared", prizes=(*main, *under)),
        PrizesDefined(rule="hort", one_prize_per_player=False, prizes=(*main, *under)),
    ]
    brute_force(case, u1400, defined)
