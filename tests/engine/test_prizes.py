"""Prize allocation (`livetb/engine/prizes.py`): hand-computed cases for each rule (ranking,
shared, hort), one prize per player across overlapping categories, a tie across the last prize
place, a participant eligible for a main and a category prize, remainders in cents; the
table's checks; and properties over generated standings and tables: nobody takes two prizes
with one prize per player, the sum paid is the sum of the places awarded, and the same final
standings give the same list whatever the order of the events that led to them."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from livetb.engine.prizes import (
    MAIN,
    Award,
    Prize,
    Rule,
    Standing,
    Table,
    allocate,
    amounts_of,
    money,
    problems,
)
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
from livetb.projections.prizes import prize_list
from livetb.projections.standings import StandingsProjection
from tests.projections.test_outlook import recorded

D = Decimal


def rows(*points: str, ranks: tuple[int, ...] | None = None) -> list[Standing]:
    """Start numbers 1, 2, … with these points, best first, ranks 1, 2, … unless given."""
    return [
        Standing(no, ranks[no - 1] if ranks else no, D(p)) for no, p in enumerate(points, start=1)
    ]


def table(rule: Rule, *prizes: tuple[str, int, str], one: bool = True) -> Table:
    return Table(rule, one, "EUR", tuple(Prize(lst, place, D(a)) for lst, place, a in prizes))


def paid(awards: list[Award]) -> list[tuple[int, str, int, str]]:
    return [(a.start_no, a.list, a.place, money(a.amount, "EUR")) for a in awards]


MAIN4 = (("main", 1, "1000"), ("main", 2, "600"), ("main", 3, "400"), ("main", 4, "200"))
# 1 alone on 5; 2, 3, 4 on 4 points, ranked 2, 3, 4 by their tie-breaks; 5 on 3.
FIELD = rows("5", "4", "4", "4", "3")


def test_ranking_follows_the_order_one_participant_a_place() -> None:
    assert paid(allocate(table("ranking", *MAIN4), {MAIN: FIELD})) == [
        (1, "main", 1, "1000.00"), (2, "main", 2, "600.00"),
        (3, "main", 3, "400.00"), (4, "main", 4, "200.00"),
    ]  # fmt: skip


def test_shared_splits_the_places_of_a_points_group_equally() -> None:
    # 2, 3, 4 occupy places 2-4: (600 + 400 + 200) / 3 = 400 each.
    assert paid(allocate(table("shared", *MAIN4), {MAIN: FIELD})) == [
        (1, "main", 1, "1000.00"),
        (2, "main", 2, "400.00"), (3, "main", 2, "400.00"), (4, "main", 2, "400.00"),
    ]  # fmt: skip


def test_hort_gives_half_by_the_ranking_and_half_equally() -> None:
    # Places 2-4 pay 1200: 600 shared equally (200 each); the other half by the ranking,
    # each half its own place's prize: 300, 200, 100. Totals 500, 400, 300.
    awards = allocate(table("hort", *MAIN4), {MAIN: FIELD})
    assert paid(awards) == [
        (1, "main", 1, "1000.00"),
        (2, "main", 2, "500.00"), (3, "main", 2, "400.00"), (4, "main", 2, "300.00"),
    ]  # fmt: skip
    assert {(a.places, a.shared) for a in awards[1:]} == {((2, 4), 3)}


def test_a_tie_across_the_last_prize_place_shares_what_is_left_cent_by_cent() -> None:
    # 3, 4, 5 tied on 3 points occupy places 3-5; only place 3 pays (100): 33.33 each and the
    # remaining cent to the best-ranked of them.
    t = table("shared", ("main", 1, "300"), ("main", 2, "200"), ("main", 3, "100"))
    awards = allocate(t, {MAIN: rows("5", "4", "3", "3", "3", "2")})
    assert paid(awards) == [
        (1, "main", 1, "300.00"), (2, "main", 2, "200.00"),
        (3, "main", 3, "33.34"), (4, "main", 3, "33.33"), (5, "main", 3, "33.33"),
    ]  # fmt: skip
    # The share names the three places it occupies, the two unpaid ones too.
    assert awards[-1].places == (3, 5) and awards[-1].shared == 3
    # Hort: 100.01 and 50 over two: exact 87.5075 and 62.5025, 87.50 + 62.50 paid, the cent
    # left to the better-ranked.
    t = table("hort", ("main", 1, "100.01"), ("main", 2, "50"))
    assert paid(allocate(t, {MAIN: rows("2", "2", "1")})) == [
        (1, "main", 1, "87.51"), (2, "main", 1, "62.50")]  # fmt: skip


def test_one_prize_per_player_across_overlapping_categories() -> None:
    # 1 (main only), 2 (U2000 and W), 3 (W), 4 (U2000), 5 (U2000 and W), 6.
    field = rows("6", "5", "4", "3", "2", "1")
    lists = {
        MAIN: field,
        "U2000": [field[1], field[3], field[4]],
        "W": [field[1], field[2], field[4]],
    }
    base = (("main", 1, "500"), ("main", 2, "300"), ("main", 3, "200"), ("W", 1, "150"))
    # Decreasing order: main 1st (1), main 2nd (2), U2000 1st 250 (4: 2 has a prize), main
    # 3rd (3), W 1st (5: 2 and 3 have theirs).
    assert paid(allocate(table("ranking", *base, ("U2000", 1, "250")), lists)) == [
        (1, "main", 1, "500.00"), (2, "main", 2, "300.00"), (4, "U2000", 1, "250.00"),
        (3, "main", 3, "200.00"), (5, "W", 1, "150.00"),
    ]  # fmt: skip
    # U2000 1st worth more than main 2nd: 2 takes it and leaves main 2nd to 3.
    assert paid(allocate(table("ranking", *base, ("U2000", 1, "350")), lists)) == [
        (1, "main", 1, "500.00"), (2, "U2000", 1, "350.00"), (3, "main", 2, "300.00"),
        (4, "main", 3, "200.00"), (5, "W", 1, "150.00"),
    ]  # fmt: skip
    # Without one prize per player every list pays its own best.
    many = paid(allocate(table("ranking", *base, ("U2000", 1, "350"), one=False), lists))
    assert sorted(many) == sorted([
        (1, "main", 1, "500.00"), (2, "main", 2, "300.00"), (3, "main", 3, "200.00"),
        (2, "U2000", 1, "350.00"), (2, "W", 1, "150.00"),
    ])  # fmt: skip


def test_a_participant_eligible_for_a_main_share_and_a_category_prize_takes_the_larger() -> None:
    # 2 and 3 tied on 4 share main places 2-3 (200 + nothing: 100 each); 2 is also alone at
    # the top of U (250). 2 takes U's 250 and leaves main 2nd to 3 alone: 200.
    field = rows("5", "4", "4", "3")
    lists = {MAIN: field, "U": [field[1], field[3]]}
    prizes = (("main", 1, "400"), ("main", 2, "200"), ("U", 1, "250"))
    assert paid(allocate(table("shared", *prizes), lists)) == [
        (1, "main", 1, "400.00"), (2, "U", 1, "250.00"), (3, "main", 2, "200.00")]  # fmt: skip
    assert paid(allocate(table("shared", *prizes, one=False), lists)) == [
        (1, "main", 1, "400.00"), (2, "U", 1, "250.00"),
        (2, "main", 2, "100.00"), (3, "main", 2, "100.00"),
    ]  # fmt: skip


def test_a_trophy_goes_with_its_place_and_minor_units_follow_the_currency() -> None:
    t = Table("ranking", True, "JPY", (
        Prize("main", 1, D(10000), "Cup"), Prize("main", 2, D(0), "Medal")))  # fmt: skip
    awards = allocate(t, {MAIN: rows("2", "1")})
    assert [(a.start_no, money(a.amount, "JPY"), a.label) for a in awards] == [
        (1, "10000", "Cup"), (2, "0", "Medal")]  # fmt: skip
    assert money(D("7.5"), "KWD") == "7.500"


def test_the_checks_name_the_field() -> None:
    lists = [MAIN, "U2000"]

    def check(*prizes: Prize, currency: str = "EUR") -> list[str]:
        return [path for path, _ in problems(Table("shared", True, currency, prizes), lists)]

    ok = Prize("main", 1, D(100))
    assert check(ok, Prize("U1800", 1, D(50))) == ["$.prizes[1].list"]
    assert check(ok, Prize("main", 2, D(-1))) == ["$.prizes[1].amount"]
    assert check(ok, Prize("main", 1, D(50))) == ["$.prizes[1].place"]
    assert check(ok, Prize("main", 2, D("0.001"))) == ["$.prizes[1].amount"]
    assert check(ok, Prize("main", 2, D(0))) == ["$.prizes[1].amount"]  # no amount, no label
    assert check(ok, Prize("main", 3, D(50))) == ["$.prizes[1].place"]  # place 2 missing
    assert check(ok, Prize("main", 2, D(150))) == ["$.prizes[1].amount"]  # pays more than 1st
    assert check(ok, currency="euro") == ["$.currency"]
    assert check(ok, Prize("U2000", 1, D(500))) == []


# --- properties ---

AMOUNTS = [D(a) for a in ("1000", "333.33", "250", "100", "99.99", "10", "0.01")]


@st.composite
def cases(draw: st.DrawFn) -> tuple[Table, dict[str, list[Standing]]]:
    n = draw(st.integers(1, 14))
    points = sorted(draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)), reverse=True)
    ranks: list[int] = []
    for i, p in enumerate(points):  # some rows tied on points stay tied on rank
        same = i > 0 and points[i - 1] == p and draw(st.booleans())
        ranks.append(ranks[-1] if same else i + 1)
    field = [
        Standing(i + 1, r, D(p) / 2) for i, (p, r) in enumerate(zip(points, ranks, strict=False))
    ]
    lists: dict[str, list[Standing]] = {MAIN: field}
    for code in draw(st.lists(st.sampled_from(["A", "B", "C"]), max_size=3, unique=True)):
        members = draw(st.sets(st.integers(1, n)))
        lists[code] = [r for r in field if r.start_no in members]
    prizes: list[Prize] = []
    for code in lists:
        count = draw(st.integers(1 if code == MAIN else 0, 5))
        amounts = sorted(draw(st.lists(st.sampled_from(AMOUNTS), min_size=count, max_size=count)))
        prizes += [Prize(code, place, a) for place, a in enumerate(reversed(amounts), start=1)]
    rules: list[Rule] = ["ranking", "shared", "hort"]
    rule = draw(st.sampled_from(rules))
    return Table(rule, draw(st.booleans()), "EUR", tuple(prizes)), lists


@settings(max_examples=400, deadline=None)
@given(cases())
def test_nobody_takes_two_prizes_and_the_sum_paid_is_the_sum_awarded(
    case: tuple[Table, dict[str, list[Standing]]],
) -> None:
    t, lists = case
    assert problems(t, lists) == []
    awards = allocate(t, lists)
    winners = [a.start_no for a in awards]
    if t.one_prize_per_player:
        assert len(winners) == len(set(winners))
    else:  # at most one award per list
        assert len({(a.start_no, a.list) for a in awards}) == len(awards)
    amounts = amounts_of(t)
    blocks = {(a.list, a.places) for a in awards}
    awarded = sum((sum(amounts[lst][p - 1 : q], D(0)) for lst, (p, q) in blocks), D(0))
    assert sum((a.amount for a in awards), D(0)) == awarded
    for lst, (p, q) in blocks:  # a block's shares come from its own list's members
        members = {r.start_no for r in lists[lst]}
        assert {a.start_no for a in awards if (a.list, a.places) == (lst, (p, q))} <= members
    assert all(a.amount >= 0 and a.amount == a.amount.quantize(D("0.01")) for a in awards)
    # A list's places stay ungiven only when it has nobody left to give them to.
    for lst, places in amounts.items():
        given_places = max((q for (name, (_, q)) in blocks if name == lst), default=0)
        holders = set(winners) if t.one_prize_per_player else {
            a.start_no for a in awards if a.list == lst}  # fmt: skip
        if given_places < len(places):
            assert all(r.start_no in holders for r in lists[lst]), (lst, awards)


@st.composite
def orders(draw: st.DrawFn) -> tuple[list[AnyEvent], list[AnyEvent]]:
    """One tournament's log twice: the same results, recorded in two orders."""
    n = 8
    head: list[AnyEvent] = [
        TournamentCreated(name="p", rounds=2, tiebreaks=("PTS", "BH", "SB")),
        *(
            ParticipantRegistered(start_no=no, name=f"P{no}", rating=2400 - 50 * no)
            for no in range(1, n + 1)
        ),
        CategoriesDefined(categories=(Category(code="U", name="U", rating_max=2150),)),
        PrizesDefined(
            rule=draw(st.sampled_from(["ranking", "shared", "hort"])),
            one_prize_per_player=draw(st.booleans()),
            prizes=(
                Prize("main", 1, D(300)),
                Prize("main", 2, D(200)),
                Prize("main", 3, D(100)),
                Prize("U", 1, D(150)),
                Prize("U", 2, D(50)),
            ),
        ),
    ]
    first, second = list(head), list(head)
    for rnd in (1, 2):
        pool = draw(st.permutations(range(1, n + 1)))
        boards = tuple(Board(b + 1, pool[2 * b], pool[2 * b + 1]) for b in range(n // 2))
        results = [
            ResultRecorded(round=rnd, board=b.board, result=draw(st.sampled_from(
                ["1-0", "0-1", "1/2-1/2"])))
            for b in boards
        ]  # fmt: skip
        shuffled = draw(st.permutations(results))
        for log, done in ((first, results), (second, shuffled)):
            log += [RoundPaired(round=rnd, boards=boards), *done, RoundClosed(round=rnd)]
    return first, second


@settings(max_examples=40, deadline=None)
@given(orders())
def test_the_same_standings_give_the_same_prize_list_whatever_the_event_order(
    logs: tuple[list[AnyEvent], list[AnyEvent]],
) -> None:
    a, b = (StandingsProjection.rebuild(recorded(log)) for log in logs)
    assert a.standings() == b.standings()
    one, two = prize_list(a), prize_list(b)
    assert one.status == "final" and one == two
