"""Rating change by the FIDE Rating Regulations: expected scores from table 8.1(b) with the 400
cap and its 2650 exception, K by 8.3.3, per-game changes computed by hand, totals equal to the
sum of the games, and a real tournament from the conformance corpus recomputed independently."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from livetb.engine.model import Code
from livetb.engine.rating import default_k, expected, game_change, text
from livetb.events.schema import (
    Board,
    ParticipantKSet,
    ParticipantRegistered,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    TournamentCreated,
)
from livetb.events.state import TournamentState, fold
from livetb.interchange.importer import events_from_tournament
from livetb.projections import ratings
from livetb.trf import load_trf

# Table 8.1(b) as FIDE prints it: the upper end of each difference range and the higher rated
# player's expected score, typed here from the regulations apart from the engine's own copy.
TABLE_B = [
    (3, 50), (10, 51), (17, 52), (25, 53), (32, 54), (39, 55), (46, 56), (53, 57), (61, 58),
    (68, 59), (76, 60), (83, 61), (91, 62), (98, 63), (106, 64), (113, 65), (121, 66),
    (129, 67), (137, 68), (145, 69), (153, 70), (162, 71), (170, 72), (179, 73), (188, 74),
    (197, 75), (206, 76), (215, 77), (225, 78), (235, 79), (245, 80), (256, 81), (267, 82),
    (278, 83), (290, 84), (302, 85), (315, 86), (328, 87), (344, 88), (357, 89), (374, 90),
    (391, 91), (411, 92), (432, 93), (456, 94), (484, 95), (517, 96), (559, 97), (619, 98),
    (735, 99),
]  # fmt: skip


def table_pd(diff: int) -> int:
    """The higher rated player's expected score (hundredths) at difference `diff` >= 0."""
    return next((pd for upper, pd in TABLE_B if diff <= upper), 100)


def regulations_expected(own: int, opponent: int) -> int:
    """8.3.1 as written: the cap of 400 for a player rated below 2650 only."""
    diff = own - opponent
    if own < 2650:
        diff = max(-400, min(400, diff))
    return table_pd(diff) if diff >= 0 else 100 - table_pd(-diff)


@pytest.mark.parametrize(
    ("own", "opponent", "pd"),
    [
        (2000, 2000, 50),
        (2003, 2000, 50),
        (2004, 2000, 51),
        (2100, 2000, 64),
        (2000, 2100, 36),
        (2400, 2000, 92),  # exactly 400
        (2500, 1800, 92),  # 700 counted as 400
        (1800, 2500, 8),
        (2649, 1900, 92),  # just below 2650: capped
        (2650, 2200, 94),  # 450 used as it is
        (2700, 2000, 99),  # 700
        (2000, 2700, 8),  # the weaker player's cap is its own
        (2800, 1950, 100),  # above 735
    ],
)
def test_expected_scores_from_table_8_1_b(own: int, opponent: int, pd: int) -> None:
    assert expected(own, opponent) == pd


def test_the_whole_table_matches_the_regulations() -> None:
    for own in (1500, 2000, 2649, 2650, 2800):
        for diff in range(-900, 901):
            opponent = own - diff
            assert expected(own, opponent) == regulations_expected(own, opponent), (own, diff)


@pytest.mark.parametrize(
    ("rating", "born", "year", "k"),
    [
        (2100, "2008/05/05", 2026, 40),  # the year of the 18th birthday: still 40
        (2100, "2007", 2026, 20),
        (2299, "2012-01-01", 2026, 40),
        (2300, "2012-01-01", 2026, 20),  # a junior rated 2300: 20
        (2100, "2012-01-01", None, 20),  # no rating year known
        (2100, "", 2026, 20),
        (2399, "1980", 2026, 20),
        (2400, "1980", 2026, 10),
        (2450, "2010", 2026, 10),
    ],
)
def test_k_by_8_3_3(rating: int, born: str, year: int | None, k: int) -> None:
    assert default_k(rating, born, year) == k


@pytest.mark.parametrize(
    ("k", "own", "opponent", "score", "change"),
    [
        (20, 2000, 2100, "1", "12.8"),  # 20 × (1 − 0.36)
        (20, 2100, 2000, "0", "-12.8"),
        (20, 1800, 2500, "0.5", "8.4"),  # 700 counted as 400: 20 × (0.5 − 0.08)
        (10, 2500, 1800, "0.5", "-4.2"),
        (10, 2700, 2000, "1", "0.1"),  # 2650+: 10 × (1 − 0.99)
        (10, 2700, 2000, "0.5", "-4.9"),
        (40, 1850, 2005, "1", "28.4"),  # D −155: 0.29
        (20, 2000, 2000, "0.5", "0.0"),
        (15, 2004, 2000, "0", "-7.65"),  # a K the arbiter set: two decimals
    ],
)
def test_per_game_changes_by_hand(k: int, own: int, opponent: int, score: str, change: str) -> None:
    assert text(game_change(k, own, opponent, Decimal(score))) == change


def small_event() -> TournamentState:
    """2000 (K 20) beats 2100; draws an unrated; wins by forfeit; K set to 40 for player 3."""
    events = [
        TournamentCreated(name="t", rounds=3),
        ParticipantRegistered(start_no=1, name="A", rating=2000),
        ParticipantRegistered(start_no=2, name="B", rating=2100),
        ParticipantRegistered(start_no=3, name="C", rating=None),
        ParticipantRegistered(start_no=4, name="D", rating=1500),
        ParticipantKSet(start_no=4, k=40),
        RoundPaired(round=1, boards=(Board(1, 1, 2), Board(2, 3, 4))),
        ResultRecorded(round=1, board=1, result="1-0"),
        ResultRecorded(round=1, board=2, result="0-1"),
        RoundClosed(round=1),
        RoundPaired(round=2, boards=(Board(1, 3, 1), Board(2, 2, 4))),
        ResultRecorded(round=2, board=1, result="1/2-1/2"),
        ResultRecorded(round=2, board=2, result="0-1"),
        RoundClosed(round=2),
        RoundPaired(round=3, boards=(Board(1, 1, 4), Board(2, 2, 3))),
        ResultRecorded(round=3, board=1, result="+-"),
    ]
    return fold(events)  # type: ignore[arg-type]


def test_totals_are_the_sum_of_the_rated_games() -> None:
    state = small_event()
    one = ratings.of(state, 1)
    # Round 2 against the unrated 3 and round 3's forfeit are not rated.
    assert [(g.round, g.expected, g.change) for g in one.games] == [(1, "0.36", "12.8")]
    assert one.total == "12.8" and one.k == 20
    four = ratings.of(state, 4)
    # 1500 (K 40): beat 2100 (D −600, capped: 0.08) → 36.8; round 1 against the unrated.
    assert [(g.round, g.opponent, g.change) for g in four.games] == [(2, 2, "36.8")]
    assert four.k == 40 and four.total == "36.8"
    two = ratings.of(state, 2)
    # 20 × (0 − 0.64), then 20 × (0 − 0.92) against 1500 (D 600 counted as 400).
    assert [g.change for g in two.games] == ["-12.8", "-18.4"]
    assert two.total == "-31.2"
    # Board 2 of round 3 is still being played, against the unrated 3: nothing to gain.
    assert (two.running_round, two.if_win) == (None, None)
    assert ratings.of(state, 3).total is None and ratings.of(state, 3).k is None
    totals = ratings.totals(state)
    for no, total in totals.items():
        games = ratings.of(state, no).games
        assert total == (sum(Decimal(g.change) for g in games) if games else None)


TRF_DIR = Path(__file__).parents[1] / "data" / "conformance" / "individual-swiss"


@pytest.mark.parametrize("name", ["swiss-1001.trf", "swiss-1004.trf"])
def test_a_real_tournament_recomputed_from_the_regulations(name: str) -> None:
    """Every rated game of the file recomputed here from the records (8.1(b), 8.3.1, 8.3.3):
    the per-game changes and the totals agree."""
    t = load_trf(TRF_DIR / name).tournament
    state = fold(events_from_tournament(t))
    year = t.start_date.year if t.start_date else None
    by_no = {p.start_no: p for p in t.participants}
    rated_games = 0
    for p in t.participants:
        got = ratings.of(state, p.start_no)
        if p.rating is None:
            assert got.total is None
            continue
        born = p.birth_date[:4]
        junior = born.isdigit() and year is not None and year - int(born) <= 18
        k = 40 if junior and p.rating < 2300 else 20 if p.rating < 2400 else 10
        expected_games = []
        for rnd, e in enumerate(p.entries, start=1):
            score = {Code.WIN: Decimal(1), Code.DRAW: Decimal("0.5"), Code.LOSS: Decimal(0)}.get(
                e.code
            )
            if score is None or e.opponent is None or by_no[e.opponent].rating is None:
                continue
            other = by_no[e.opponent].rating
            assert other is not None
            pd = Decimal(regulations_expected(p.rating, other)) / 100
            expected_games.append((rnd, k * (score - pd)))
        assert [(g.round, Decimal(g.change)) for g in got.games] == expected_games
        total = sum((d for _, d in expected_games), Decimal(0))
        assert got.total == (text(total) if expected_games else None)
        rated_games += len(expected_games)
    assert rated_games > 20  # the file has ratings: the check is not empty
