"""Property: after every event, the incrementally maintained standings equal the standings
computed from scratch over the same log prefix, each delta carries exactly the rows whose content
changed, and a viewer applying the feed's v2 messages has exactly what GET would return."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from types import MappingProxyType
from typing import get_args

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from livetb.engine.model import System
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
    Recorded,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    ScoringSpec,
    TournamentCreated,
)
from livetb.projections.standings import StandingsProjection
from tests.wire import follow_log

RESULTS = list(get_args(GameResult))  # every result the log may hold, 0-0 included
PLAYED: tuple[GameResult, ...] = ("1-0", "0-1", "1/2-1/2")
MISSED: tuple[ByePoints | None, ...] = (None, "zero", "half")
CATALOGUE = [
    "PTS",
    "BH/C1",
    "BH",
    "DE",
    "SB",
    "AOB",
    "FB",
    "WIN",
    "BWG",
    "KS",
    "ARO",
    "TPR",
    "APRO",
    "PS/C1",
    "FB/C1",
    "GE",
    "STD",
    "BH/M1",
    "SB/C1",
    "APPO",
    "PTP",
    "WON",
]
AT = dt.datetime(2026, 5, 1, tzinfo=dt.UTC)


@st.composite
def tournaments(
    draw: st.DrawFn,
    players: tuple[int, int] = (3, 9),
    rounds_: tuple[int, int] = (1, 4),
    late: bool = False,
) -> list[AnyEvent]:
    """`late`: a Swiss with a late entry in every round (else now and then)."""
    n = draw(st.integers(*players))
    rounds = draw(st.integers(*rounds_))
    systems: tuple[System, ...] = ("swiss", "roundrobin")
    system = "swiss" if late else draw(st.sampled_from(systems))
    tiebreaks = draw(st.lists(st.sampled_from(CATALOGUE), min_size=1, max_size=7, unique=True))
    start = draw(st.sampled_from([dt.date(2025, 5, 1), dt.date(2026, 5, 1)]))
    events: list[AnyEvent] = [
        TournamentCreated(
            name="prop",
            rounds=rounds,
            system=system,
            start_date=start,
            tiebreaks=tuple(tiebreaks),
            unrated_rating=1500,
        )
    ]
    for no in range(1, n + 1):
        rating = draw(st.one_of(st.none(), st.integers(1400, 2600)))
        events.append(ParticipantRegistered(start_no=no, name=f"P{no}", rating=rating))
    registered = list(range(1, n + 1))

    def late_entry(paired: int) -> None:
        """A Swiss's late entrant, as `decide` writes it: registered, then a bye for each
        round already paired that is not simply absent."""
        no = len(registered) + 1
        registered.append(no)
        rating = draw(st.one_of(st.none(), st.integers(1400, 2600)))
        events.append(ParticipantRegistered(start_no=no, name=f"Late{no}", rating=rating))
        for r in range(1, paired + 1):
            missed = draw(st.sampled_from(MISSED))  # None: absent, no bye asked
            if missed is not None:
                events.append(ByeRequested(start_no=no, round=r, points=missed))

    withdrawn: set[int] = set()
    results: dict[tuple[int, int], str] = {}
    for rnd in range(1, rounds + 1):
        present = [no for no in registered if no not in withdrawn]
        byes = draw(st.lists(st.sampled_from(present), max_size=2, unique=True)) if present else []
        for no in byes:
            events.append(
                ByeRequested(start_no=no, round=rnd, points=draw(st.sampled_from(["half", "zero"])))
            )
        pool = draw(st.permutations([no for no in present if no not in byes]))
        pab = pool.pop() if len(pool) % 2 else None
        boards = tuple(Board(b + 1, pool[2 * b], pool[2 * b + 1]) for b in range(len(pool) // 2))
        events.append(RoundPaired(round=rnd, boards=boards, bye=pab))
        order = draw(st.permutations([b.board for b in boards]))
        # A late entry while the round is played (before its k-th result) or once it is closed.
        last_entry = len(order) + 1 if rnd < rounds else len(order)
        entering = late or (system == "swiss" and draw(st.booleans()))
        late_at = draw(st.integers(0, last_entry)) if entering else -1
        for k, board in enumerate(order):
            if k == late_at:
                late_entry(rnd)
            result = draw(st.sampled_from(RESULTS))
            results[(rnd, board)] = result
            events.append(ResultRecorded(round=rnd, board=board, result=result))
            if draw(st.integers(0, 9)) == 0:  # a correction of any earlier result
                (r, b) = draw(st.sampled_from(sorted(results)))
                events.append(
                    ResultCorrected(
                        round=r, board=b, result=draw(st.sampled_from(RESULTS)), reason="arbiter"
                    )
                )
        if late_at == len(order):
            late_entry(rnd)
        events.append(RoundClosed(round=rnd))
        if late_at == len(order) + 1:
            late_entry(rnd)
        if present and draw(st.integers(0, 3)) == 0:
            leaver = draw(st.sampled_from(present))
            withdrawn.add(leaver)
            events.append(ParticipantWithdrawn(start_no=leaver, from_round=rnd + 1))
    if draw(st.booleans()):
        events.append(PlayoffDecided(order=(2, 1)))
    if draw(st.booleans()):
        events.append(LotsDrawn(seed=draw(st.integers(0, 999))))
    return events


def recorded(events: list[AnyEvent]) -> list[Recorded]:
    return [
        Recorded(tournament_id="t", seq=i, at=AT, actor="test", event=e)
        for i, e in enumerate(events, start=1)
    ]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments())
def test_incremental_equals_recomputation_after_every_event(events: list[AnyEvent]) -> None:
    follow_log(recorded(events))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments(rounds_=(2, 5), late=True))
def test_late_entries_keep_the_incremental_standings_equal_to_a_rebuild(
    events: list[AnyEvent],
) -> None:
    """A participant registered once rounds are paired, with byes for some of them (a late
    entry): every row, its values under both editions and the round on show stay exactly
    what a rebuild gives, after each event."""
    follow_log(recorded(events))


@settings(max_examples=30, deadline=None)
@given(tournaments(), st.sampled_from([Decimal(0), Decimal(1)]))
def test_counts_of_wins_after_a_pairing_whatever_an_unfinished_game_scores(
    events: list[AnyEvent], absent: Decimal
) -> None:
    """A pairing recomputes the counts of wins only for the participants whose new round is not
    an unfinished game, which scores what an absence does: here nothing, or a win."""
    created = events[0]
    assert isinstance(created, TournamentCreated)
    created = msgspec.structs.replace(
        created, scoring=ScoringSpec(absent=absent), tiebreaks=("WIN", "WON", "BWG", "PTS")
    )
    follow_log(recorded([created, *events[1:]]))


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(tournaments(players=(300, 360), rounds_=(2, 3)))
def test_a_large_field_keeps_its_order_and_ties_incrementally(events: list[AnyEvent]) -> None:
    """Hundreds of players in a few score groups: rows move far past others and ties flip at
    both ends of each move (`ranking.py`). Recomputed from scratch at every close and every
    37th event (all of them would take minutes); the delta and the viewer after every event."""
    log = recorded(events)
    last = len(log)
    follow_log(log, lambda k, rec: k % 37 == 0 or k == last or isinstance(rec.event, RoundClosed))


@settings(max_examples=20, deadline=None)
@given(tournaments())
def test_replay_is_deterministic(events: list[AnyEvent]) -> None:
    log = recorded(events)
    first, second = StandingsProjection(), StandingsProjection()
    deltas = [first.apply(rec) for rec in log]
    assert deltas == [second.apply(rec) for rec in log]


@settings(max_examples=50, deadline=None)
@given(tournaments(players=(3, 24)), st.integers(0, 200), st.integers(0, 4))
def test_snapshot_plus_tail_equals_the_live_projection(
    events: list[AnyEvent], cut: int, budget: int
) -> None:
    """A node started from a snapshot gives the deltas of the live projection. When it
    `settle`s (`budget` > 0) while a round runs, it takes the rows into the close's table a
    few at a time, some of them twice (a result reaches them again): each row keeps one place
    in that table's order, and the close publishes what a rebuild has."""
    log = recorded(events)
    cut = min(cut, len(log))
    live = StandingsProjection()
    for rec in log[:cut]:
        live.apply(rec)
    resumed = StandingsProjection.restore(live.snapshot())
    assert resumed.standings() == live.standings()
    for rec in log[cut:]:
        assert resumed.apply(rec) == live.apply(rec)
        if budget:
            resumed.settle(budget)
    assert resumed.standings() == StandingsProjection.rebuild(log).standings()


def crowd(
    rounds: int,
    result: Callable[[int, int], GameResult],
    after_pairing: Mapping[int, Sequence[AnyEvent]] = MappingProxyType({}),
) -> list[AnyEvent]:
    """40 players, PTS and BH: in round r, board k pairs Pk with P(20 + (k + r - 2) % 20 + 1)
    and ends in `result(r, k)`; `after_pairing[r]`: events right after round r is paired."""
    players = 40
    events: list[AnyEvent] = [
        TournamentCreated(
            name="crowd", rounds=rounds, start_date=dt.date(2026, 5, 1), tiebreaks=("PTS", "BH")
        ),
        *(ParticipantRegistered(start_no=no, name=f"P{no}") for no in range(1, players + 1)),
    ]
    half = players // 2
    for rnd in range(1, rounds + 1):
        pairs = ((k, half + (k + rnd - 2) % half + 1) for k in range(1, half + 1))
        events.append(RoundPaired(round=rnd, boards=tuple(Board(k, k, b) for k, b in pairs)))
        events += after_pairing.get(rnd, ())
        for board in range(1, half + 1):
            events.append(ResultRecorded(round=rnd, board=board, result=result(rnd, board)))
        events.append(RoundClosed(round=rnd))
    return events


def test_a_node_restored_after_a_pairing_closes_the_round_in_the_rebuilds_order() -> None:
    """40 players, PTS and BH, restored just after round 3 is paired, settling 4 rows after
    each event: every row is taken into the close's table before the close, some twice. A
    row taken again was placed a second time in that table's order (as if new), and the
    close then ranked P21 11th instead of 7th."""
    rounds = 3
    events = crowd(rounds, lambda rnd, board: PLAYED[(board + rnd) % 3])
    log = recorded(events)
    paired = next(
        k for k, e in enumerate(events, 1) if isinstance(e, RoundPaired) and e.round == rounds
    )
    live = StandingsProjection()
    for rec in log[:paired]:
        live.apply(rec)
    resumed = StandingsProjection.restore(live.snapshot())
    for rec in log[paired:]:
        resumed.apply(rec)
        resumed.settle(4)
    expected = StandingsProjection.rebuild(log).standings()
    assert resumed.standings() == expected
    assert [r.rank for r in expected if r.start_no == 21] == [7]


def test_a_correction_between_a_pairing_and_its_seeding_is_kept() -> None:
    """40 players, PTS and BH. Round 3 is paired, which leaves the live view's rows to be
    taken from the view before it (`Contexts.seed`, the first `settle`s' work), and before
    they are all taken the arbiter corrects two round-1 results: one between players not
    taken yet, one with a player taken already. Taking the rest afterwards must not bring
    back the rounds as they were before the correction: every delta and the final standings
    are the ones a projection that never settles, and a rebuild, have."""
    rounds = 3
    # Round 1's board 1: P1-P21, board 20: P20-P40 (P40 is taken first).
    corrections = [
        ResultCorrected(round=1, board=board, result="0-1", reason="arbiter") for board in (1, 20)
    ]
    log = recorded(crowd(rounds, lambda rnd, board: "1-0", {rounds: corrections}))
    settled, plain = StandingsProjection(), StandingsProjection()
    for rec in log:
        assert settled.apply(rec) == plain.apply(rec)
        if isinstance(rec.event, RoundPaired) and rec.event.round == rounds:
            assert settled.settle(1)  # a part of the rows taken, not all
            assert settled.unsettled
        elif isinstance(rec.event, ResultCorrected) and rec.event.board == 20:
            while settled.settle(1):
                pass
    expected = StandingsProjection.rebuild(log).standings()
    assert settled.standings() == plain.standings() == expected
    assert [r.values[0] for r in expected if r.start_no in (1, 21)] == ["2.0", "1.0"]


@settings(max_examples=40, deadline=None)
@given(tournaments(), st.lists(st.integers(0, 4), min_size=1, max_size=60))
def test_settling_between_events_changes_no_delta(
    events: list[AnyEvent], budgets: list[int]
) -> None:
    """The server's work between events (`settle`, a few rows at a time) only brings forward
    the close's catch-up: every delta is the one an unsettled projection gives."""
    log = recorded(events)
    settled, plain = StandingsProjection(), StandingsProjection()
    for k, rec in enumerate(log):
        assert settled.apply(rec) == plain.apply(rec)
        budget = budgets[k % len(budgets)]
        if budget:
            settled.settle(budget)
    assert settled.standings() == plain.standings()


def test_a_group_tied_for_its_size_is_decided_again_once_rows_leave_it() -> None:
    """DE on PTS in a 16-player Swiss. After two rounds, eight players have 1 point, p1 and
    p2 among them, and p1 beat p2. While round 3 runs (K = 3, so a group of 7 or more cannot be
    separated: `inseparable`), they are all placed 1. Draws then take the other six out of
    the group, two per result. Once p1 and p2 are left alone, p1's win separates them (places
    1 and 2), as a rebuild finds, though rows only left the group and no game inside it
    changed. Random Swisses rarely reach this case: the property above did not catch a DE
    that skipped it."""
    boards = {
        1: ((1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, 16)),
        2: ((3, 1), (5, 7), (9, 11), (13, 15), (2, 4), (6, 8), (10, 12), (14, 16)),
        3: ((7, 11), (15, 6), (10, 14), (3, 5), (9, 13), (1, 4), (2, 8), (12, 16)),
    }
    events: list[AnyEvent] = [
        TournamentCreated(
            name="de", rounds=4, start_date=dt.date(2026, 5, 1), tiebreaks=("PTS", "DE")
        )
    ]
    events += [ParticipantRegistered(start_no=no, name=f"P{no}") for no in range(1, 17)]
    for rnd in (1, 2):  # white wins every game
        events.append(
            RoundPaired(
                round=rnd, boards=tuple(Board(b, w, k) for b, (w, k) in enumerate(boards[rnd], 1))
            )
        )
        events += [ResultRecorded(round=rnd, board=b, result="1-0") for b in range(1, 9)]
        events.append(RoundClosed(round=rnd))
    events.append(
        RoundPaired(round=3, boards=tuple(Board(b, w, k) for b, (w, k) in enumerate(boards[3], 1)))
    )
    events += [ResultRecorded(round=3, board=b, result="1/2-1/2") for b in (1, 2, 3)]
    log = recorded(events)
    paired = StandingsProjection.rebuild(log[:-3])
    ones = [(r.rank, r.values) for r in paired.standings() if r.values[0] == "1.0"]
    assert ones == [(5, ("1.0", 1))] * 8  # p1 p2 p6 p7 p10 p11 p14 p15, all placed 1
    follow_log(log)  # incremental == rebuild after every event
    rows = {r.start_no: r for r in StandingsProjection.rebuild(log).standings()}
    assert (rows[1].rank, rows[1].values) == (11, ("1.0", 1))
    assert (rows[2].rank, rows[2].values) == (12, ("1.0", 2))


def test_a_game_inside_a_group_decides_it_though_nobody_joined_it() -> None:
    """DE first in the list: the two players are one group, whatever the results. A forfeit is
    no game: after round 1, nobody played inside the group, both are placed 1. Round 2's game
    (K = 2: a group of 5 or more cannot be separated, 2 can) brings the group's first game
    inside it, though no row joined or left it: DE decides it again, as a rebuild does."""
    events: list[AnyEvent] = [
        TournamentCreated(
            name="de", rounds=2, start_date=dt.date(2026, 5, 1), tiebreaks=("DE", "PTS")
        ),
        ParticipantRegistered(start_no=1, name="P1"),
        ParticipantRegistered(start_no=2, name="P2"),
        RoundPaired(round=1, boards=(Board(1, 1, 2),)),
        ResultRecorded(round=1, board=1, result="+-"),
        RoundClosed(round=1),
        RoundPaired(round=2, boards=(Board(1, 2, 1),)),
        ResultRecorded(round=2, board=1, result="0-1"),
    ]
    log = recorded(events)
    before = StandingsProjection.rebuild(log[:-1]).standings()
    assert [(r.rank, r.start_no, r.values) for r in before] == [
        (1, 1, (1, "1.0")),
        (2, 2, (1, "0.0")),
    ]
    follow_log(log)  # incremental == rebuild after every event
    after = StandingsProjection.rebuild(log).standings()
    assert [(r.rank, r.start_no, r.values) for r in after] == [
        (1, 1, (1, "2.0")),
        (2, 2, (2, "0.0")),
    ]
