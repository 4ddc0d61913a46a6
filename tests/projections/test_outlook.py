"""The participant card's "what I need" (`livetb/projections/outlook.py`): hand-computed cases,
and a brute force over every outcome of the running round's unfinished boards, whose ranks are
read from the standings the round's close publishes (`tests/projections/closing.py`): each
option's best and worst are the lowest and highest rank over those outcomes."""

from __future__ import annotations

from decimal import Decimal

import msgspec
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from livetb.events.schema import (
    AnyEvent,
    Board,
    ByePoints,
    ByeRequested,
    GameResult,
    LotsDrawn,
    ParticipantRegistered,
    ParticipantWithdrawn,
    PlayoffDecided,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    ScoringSpec,
    TournamentCreated,
)
from livetb.projections import card
from livetb.projections.outlook import Option, Outlook, outlook, ranks
from livetb.projections.standings import StandingsProjection
from livetb.web.api.openapi import all_endpoints, document
from tests.projections.closing import PLAYED, closings, recorded

__all__ = ["PLAYED", "recorded"]  # read by the prize tests from here too
BYES: tuple[ByePoints, ...] = ("half", "zero", "full")
THREE_ONE_ZERO = ScoringSpec(win=Decimal(3), draw=Decimal(1), loss=Decimal(0))
SIX_OPEN = [Board(1, 1, 3), Board(2, 5, 2)]


def six(tiebreaks: tuple[str, ...], *extra: AnyEvent) -> StandingsProjection:
    return StandingsProjection.rebuild(recorded(six_events(tiebreaks, *extra)))


def six_events(tiebreaks: tuple[str, ...], *extra: AnyEvent) -> list[AnyEvent]:
    """6 players, 3-1-0 scoring, round 2 running.

    R1 (closed): 1-2 1-0, 3-4 +- (a forfeit: 3 takes 3 points, 4 none), 5-6 ½-½.
    R2: 4 takes a half bye (1 point), 6 the PAB (3 points); 1-3 and 5-2 unfinished.
    Points now: 1: 3, 2: 0, 3: 3, 4: 1, 5: 1, 6: 4."""
    return [
        TournamentCreated(name="six", rounds=3, scoring=THREE_ONE_ZERO, tiebreaks=tiebreaks),
        *(ParticipantRegistered(start_no=no, name=f"P{no}") for no in range(1, 7)),
        RoundPaired(round=1, boards=(Board(1, 1, 2), Board(2, 3, 4), Board(3, 5, 6))),
        ResultRecorded(round=1, board=1, result="1-0"),
        ResultRecorded(round=1, board=2, result="+-"),
        ResultRecorded(round=1, board=3, result="1/2-1/2"),
        RoundClosed(round=1),
        ByeRequested(start_no=4, round=2, points="half"),
        RoundPaired(round=2, boards=tuple(SIX_OPEN), bye=6),
        *extra,
    ]


def table(o: Outlook | None) -> list[tuple[str, str, int, int]]:
    assert o is not None
    return [(x.result, x.points, x.best, x.worst) for x in o.options]


DEFAULT = ("PTS", "BH/C1", "BH", "DE", "WIN", "BWG")


def test_six_players_with_a_bye_a_forfeit_and_three_one_zero_scoring() -> None:
    state = six(DEFAULT).state
    # 1 (3 pts) against 3 (3 pts); 6 has 4, 4 has 1; board 5-2 open (5 ends on 4, 2 or 1,
    # 2 on 0, 1 or 3). A draw puts 1 and 3 on 4 with 6, and 5 too if it beats 2. After the
    # close (BH/C1 first): with 5 on 4 too, 6 (BH/C1 4, BH 6) and 3 (4, 5) finish above 1,
    # which shares 3rd with 5 (4, 4: every tie-break equal); otherwise 1 is 1st (shared
    # with 3 when 5 draws) — never 4th, which the points alone allowed.
    assert table(outlook(state, 1)) == [
        ("win", "6.0", 1, 1), ("draw", "4.0", 1, 3), ("loss", "3.0", 3, 4)]  # fmt: skip
    # 3's draw: 2nd behind 6 when 5 wins, shared 1st with 1 when 5 draws, 2nd behind 1 else.
    assert table(outlook(state, 3)) == [
        ("win", "6.0", 1, 1), ("draw", "4.0", 1, 2), ("loss", "3.0", 3, 4)]  # fmt: skip
    # 5 (1 pt, white) against 2 (0): a win puts it on 4 with 6, whose BH (6 over 4) keeps it
    # above 5, and with board 1's winner above or 1 and 3 level with it: always 3rd.
    assert table(outlook(state, 5)) == [
        ("win", "4.0", 3, 3), ("draw", "2.0", 4, 4), ("loss", "1.0", 5, 5)]  # fmt: skip
    assert table(outlook(state, 2)) == [
        ("win", "3.0", 3, 4), ("draw", "1.0", 5, 5), ("loss", "0.0", 6, 6)]  # fmt: skip
    # No game this round: one range, over every outcome of the two boards.
    assert table(outlook(state, 6)) == [("bye", "4.0", 1, 3)]
    assert table(outlook(state, 4)) == [("bye", "1.0", 5, 6)]
    o = outlook(state, 1)
    assert o is not None and o.round == 2 and not o.ties_share_rank
    brute_force(Running(six_events(DEFAULT), SIX_OPEN, False))


def test_with_pts_alone_a_tie_shares_the_rank() -> None:
    state = six(("PTS",)).state
    assert table(outlook(state, 1)) == [
        ("win", "6.0", 1, 1), ("draw", "4.0", 1, 1), ("loss", "3.0", 3, 4)]  # fmt: skip
    assert table(outlook(state, 5)) == [
        ("win", "4.0", 1, 2), ("draw", "2.0", 4, 4), ("loss", "1.0", 5, 5)]  # fmt: skip
    assert table(outlook(state, 2)) == [
        ("win", "3.0", 3, 4), ("draw", "1.0", 5, 5), ("loss", "0.0", 6, 6)]  # fmt: skip
    assert table(outlook(state, 6)) == [("bye", "4.0", 1, 2)]
    assert table(outlook(state, 4)) == [("bye", "1.0", 5, 5)]
    o = outlook(state, 1)
    assert o is not None and o.ties_share_rank
    # Lots order the tied: 1 drawing ends 1st or 2nd, as its lot falls against 3's and 6's.
    lots = six(("PTS",), LotsDrawn(seed=7)).state
    assert table(outlook(lots, 1))[1] == ("draw", "4.0", 1, 2)
    # A playoff put 2, then 1, before everybody else tied with them: 6 on 4 is 2nd whatever
    # happens (behind the winner of 1-3, or behind 1 level with it).
    playoff = six(("PTS",), PlayoffDecided(order=(2, 1))).state
    assert table(outlook(playoff, 6)) == [("bye", "4.0", 2, 2)]
    for extra in (LotsDrawn(seed=7), PlayoffDecided(order=(2, 1))):
        brute_force(Running(six_events(("PTS",), extra), SIX_OPEN, False))


def test_a_finished_game_has_one_range_for_its_result() -> None:
    # 5 forfeits board 2: 2 takes 3 points (a forfeit win), 5 stays on 1, level with 4, whose
    # BH/C1 stays below 5's whatever 1-3 gives.
    forfeit = ResultRecorded(round=2, board=2, result="-+")
    state = six(DEFAULT, forfeit).state
    assert table(outlook(state, 2)) == [("forfeit_win", "3.0", 3, 4)]
    assert table(outlook(state, 5)) == [("forfeit_loss", "1.0", 5, 5)]
    # 1-3 is the only open board: its result decides everything but the ties.
    assert table(outlook(state, 1)) == [
        ("win", "6.0", 1, 1), ("draw", "4.0", 1, 1), ("loss", "3.0", 3, 3)]  # fmt: skip
    brute_force(Running(six_events(DEFAULT, forfeit), SIX_OPEN[:1], False))


def test_no_outlook_without_a_running_round_or_when_points_do_not_rank_first() -> None:
    done = six(
        DEFAULT,
        ResultRecorded(round=2, board=1, result="1-0"),
        ResultRecorded(round=2, board=2, result="0-1"),
        RoundClosed(round=2),
    )
    assert outlook(done.state, 1) is None
    assert outlook(six(("BH", "PTS")).state, 1) is None
    unpaired = StandingsProjection.rebuild(
        recorded(
            [TournamentCreated(name="x", rounds=3), ParticipantRegistered(start_no=1, name="A")]
        )
    )
    assert outlook(unpaired.state, 1) is None


def test_a_pending_game_counts_what_the_live_pts_column_counts() -> None:
    # An absent round is worth -1 here, and so is a game not finished yet (`Code.PENDING`):
    # the live PTS shows 2 for 1 (3 - 1); a win still ends on 6.
    scoring = ScoringSpec(win=Decimal(3), draw=Decimal(1), loss=Decimal(0), absent=Decimal(-1))
    events: list[AnyEvent] = [
        TournamentCreated(name="neg", rounds=2, scoring=scoring, tiebreaks=("PTS",)),
        *(ParticipantRegistered(start_no=no, name=f"P{no}") for no in range(1, 4)),
        RoundPaired(round=1, boards=(Board(1, 1, 2),), bye=3),
        ResultRecorded(round=1, board=1, result="1-0"),
        RoundClosed(round=1),
        RoundPaired(round=2, boards=(Board(1, 1, 3),), bye=2),
    ]
    projection = StandingsProjection.rebuild(recorded(events))
    assert projection.rows[1].values[0] == "2.0"
    # 1: 3 now, 3: 3 (PAB), 2: 0 + 3 (PAB) = 3.
    assert table(outlook(projection.state, 1)) == [
        ("win", "6.0", 1, 1), ("draw", "4.0", 1, 1), ("loss", "3.0", 2, 2)]  # fmt: skip


def test_the_bounds_are_sums_over_independent_boards() -> None:
    d = Decimal
    one, two, three = d(1), d(2), d(3)
    board = ((three, one), (two, two), (one, three))
    # 2 points against fixed 3, 2, 1 and one board: best 1 + 1 + 0 (the draw leaves nobody
    # above), worst 1 + 2 (3 and 2) + 2 (the draw: both on 2); sharing ties: 1 + 1 + 1.
    assert ranks(two, [three, two, one], [board], shared=False) == (2, 5)
    assert ranks(two, [three, two, one], [board], shared=True) == (2, 3)
    assert ranks(two, [], [], shared=False) == (1, 1)


def test_the_card_carries_the_outlook_and_the_openapi_document_describes_it() -> None:
    projection = six(DEFAULT)
    c = card.build(projection, 1)
    assert c.outlook == outlook(projection.state, 1)
    doc = msgspec.json.decode(msgspec.json.encode(c))
    assert doc["outlook"]["options"][1] == {
        "result": "draw",
        "points": "4.0",
        "best": 1,
        "worst": 3,
        "exact": True,
    }
    schemas = document(all_endpoints())["components"]["schemas"]
    assert {"Outlook", "Option"} <= schemas.keys()
    assert schemas["Option"]["properties"]["best"]["type"] == "integer"
    assert "outlook" in schemas["Card"]["required"]


# --- brute force ---

ANY: tuple[GameResult, ...] = (*PLAYED, "+-", "-+", "--")
TIEBREAKS = ["BH/C1", "BH", "DE", "SB", "WIN", "BWG", "ARO", "FB", "KS", "PS"]
SCORINGS = [
    ScoringSpec(),
    THREE_ONE_ZERO,
    ScoringSpec(win=Decimal(2), draw=Decimal(1), loss=Decimal(0), pab=Decimal(1)),
    ScoringSpec(win=Decimal(3), draw=Decimal(1), loss=Decimal(0), absent=Decimal(-1)),
]
MAX_OPEN = 8  # unfinished boards in the running round: 3^8 = 6561 combinations at most


class Running(msgspec.Struct):
    events: list[AnyEvent]
    open: list[Board]  # the running round's unfinished boards
    shared: bool  # PTS alone, no lots, no playoff: the tied share the rank


@st.composite
def running(draw: st.DrawFn, max_open: int = MAX_OPEN) -> Running:
    n = draw(st.one_of(st.integers(2, 16), st.integers(12, 16)))  # larger fields more often
    total = draw(st.integers(1, 4))
    k = draw(st.integers(1, total))  # the running round; 1..k-1 closed
    only_pts = draw(st.booleans())
    extra = [] if only_pts else draw(st.lists(st.sampled_from(TIEBREAKS), max_size=3, unique=True))
    events: list[AnyEvent] = [
        TournamentCreated(
            name="brute",
            rounds=total,
            system=draw(st.sampled_from(["swiss", "roundrobin"])),
            scoring=draw(st.sampled_from(SCORINGS)),
            tiebreaks=("PTS", *extra),
            unrated_rating=1500,
        )
    ]
    for no in range(1, n + 1):
        rating = draw(st.one_of(st.none(), st.integers(1400, 2600)))
        events.append(ParticipantRegistered(start_no=no, name=f"P{no}", rating=rating))
    withdrawn: set[int] = set()
    open_boards: list[Board] = []
    for rnd in range(1, k + 1):
        present = [no for no in range(1, n + 1) if no not in withdrawn]
        byes = draw(st.lists(st.sampled_from(present), max_size=2, unique=True))
        for no in byes:
            points = draw(st.sampled_from(BYES))
            events.append(ByeRequested(start_no=no, round=rnd, points=points))
        pool = draw(st.permutations([no for no in present if no not in byes]))
        pab = pool.pop() if len(pool) % 2 else None
        boards = [Board(b + 1, pool[2 * b], pool[2 * b + 1]) for b in range(len(pool) // 2)]
        events.append(RoundPaired(round=rnd, boards=tuple(boards), bye=pab))
        if rnd < k:
            for b in boards:
                events.append(
                    ResultRecorded(round=rnd, board=b.board, result=draw(st.sampled_from(ANY)))
                )
            events.append(RoundClosed(round=rnd))
            if len(present) > 2 and draw(st.integers(0, 3)) == 0:
                leaver = draw(st.sampled_from(present))
                withdrawn.add(leaver)
                events.append(ParticipantWithdrawn(start_no=leaver, from_round=rnd + 1))
            continue
        most = min(max_open, len(boards))
        unfinished = draw(st.one_of(st.integers(min(1, most), most), st.just(most)))
        order = draw(st.permutations(boards))
        open_boards = sorted(order[:unfinished], key=lambda b: b.board)
        for b in order[unfinished:]:
            events.append(
                ResultRecorded(round=rnd, board=b.board, result=draw(st.sampled_from(ANY)))
            )
    ordered = False
    if draw(st.integers(0, 4)) == 0:
        events.append(PlayoffDecided(order=(2, 1)))
        ordered = True
    if draw(st.integers(0, 4)) == 0:
        events.append(LotsDrawn(seed=draw(st.integers(0, 999))))
        ordered = True
    return Running(events, open_boards, not extra and not ordered)


def option_for(o: Outlook, no: int, combo: tuple[int, ...], open_boards: list[Board]) -> Option:
    """The option of `no`'s outlook the combination of results chooses."""
    if len(o.options) == 1:
        return o.options[0]
    (i,) = [i for i, b in enumerate(open_boards) if no in (b.white, b.black)]
    outcome = combo[i] if open_boards[i].white == no else 2 - combo[i]
    return o.options[outcome]


def full_field(tiebreaks: tuple[str, ...]) -> Running:
    """16 players, round 1 closed (wins, draws, a forfeit, a double forfeit), round 2 running
    with all 8 boards unfinished: every one of the 3^8 combinations is checked."""
    r1: list[GameResult] = ["1-0", "0-1", "1/2-1/2", "+-", "1-0", "--", "1/2-1/2", "0-1"]
    r2 = [Board(b + 1, w, k) for b, (w, k) in enumerate(
        [(9, 1), (2, 10), (11, 3), (4, 12), (13, 5), (6, 14), (15, 7), (8, 16)])]  # fmt: skip
    events: list[AnyEvent] = [
        TournamentCreated(name="full", rounds=5, scoring=THREE_ONE_ZERO, tiebreaks=tiebreaks),
        *(ParticipantRegistered(start_no=no, name=f"P{no}") for no in range(1, 17)),
        RoundPaired(round=1, boards=tuple(Board(b, b, b + 8) for b in range(1, 9))),
        *(ResultRecorded(round=1, board=b, result=r) for b, r in enumerate(r1, start=1)),
        RoundClosed(round=1),
        RoundPaired(round=2, boards=tuple(r2)),
    ]
    return Running(events, r2, tiebreaks == ("PTS",))


def test_all_eight_boards_open_with_pts_alone() -> None:
    brute_force(full_field(("PTS",)))


def test_all_eight_boards_open_with_the_default_list() -> None:
    brute_force(full_field(DEFAULT))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(running(max_open=6))
def test_every_outcome_of_the_open_boards_lands_in_the_stated_range(case: Running) -> None:
    event(f"{len(case.open)} unfinished boards")
    event("PTS alone" if case.shared else "tie-breaks")
    brute_force(case)


def brute_force(case: Running) -> None:
    """Every combination of played results of the open boards, each closed: every rank lies
    within the option its participant's own result chooses, and each option's best and worst
    are the lowest and highest rank seen (with at most 8 open boards, within the budget)."""
    state = StandingsProjection.rebuild(recorded(case.events)).state
    outlooks = {no: outlook(state, no) for no in state.participants}
    open_boards = case.open
    playing = {no for b in open_boards for no in (b.white, b.black)}
    for no, o in outlooks.items():
        assert o is not None and o.round == state.paired and o.ties_share_rank == case.shared
        if no in playing:
            assert [x.result for x in o.options] == ["win", "draw", "loss"]
        else:
            (only,) = o.options
            assert (only.result == "bye") == (state.rounds[state.paired].seat.get(no) is None)
    seen: dict[tuple[int, str], list[int]] = {}
    for combo, closed in closings(case.events, open_boards):
        for row in closed.standings():
            no = row.start_no
            o = outlooks[no]
            assert o is not None
            option = option_for(o, no, combo, open_boards)
            assert Decimal(str(row.values[0])) == Decimal(option.points), (no, combo)
            assert option.best <= row.rank <= option.worst, (no, combo, option, row.rank)
            seen.setdefault((no, option.result), []).append(row.rank)
    for no, o in outlooks.items():
        assert o is not None
        for option in o.options:
            got = seen[(no, option.result)]
            assert option.exact, (no, option)
            assert (min(got), max(got)) == (option.best, option.worst), (no, option)
