"""Berger tables: FIDE's published tables (C.05 Annex 1) as data, and the shape of every table
from 3 to 24 players."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from livetb.pairing.berger import berger

# FIDE Handbook C.05, Annex 1, "Berger Tables for Round-Robin Tournaments", for 4 to 16 players
# (n - 1 players use the table of n with n as the bye), written out as the regulation prints it.
FIDE = """
4
Rd 1: 1-4, 2-3
Rd 2: 4-3, 1-2
Rd 3: 2-4, 3-1
6
Rd 1: 1-6, 2-5, 3-4
Rd 2: 6-4, 5-3, 1-2
Rd 3: 2-6, 3-1, 4-5
Rd 4: 6-5, 1-4, 2-3
Rd 5: 3-6, 4-2, 5-1
8
Rd 1: 1-8, 2-7, 3-6, 4-5
Rd 2: 8-5, 6-4, 7-3, 1-2
Rd 3: 2-8, 3-1, 4-7, 5-6
Rd 4: 8-6, 7-5, 1-4, 2-3
Rd 5: 3-8, 4-2, 5-1, 6-7
Rd 6: 8-7, 1-6, 2-5, 3-4
Rd 7: 4-8, 5-3, 6-2, 7-1
10
Rd 1: 1-10, 2-9, 3-8, 4-7, 5-6
Rd 2: 10-6, 7-5, 8-4, 9-3, 1-2
Rd 3: 2-10, 3-1, 4-9, 5-8, 6-7
Rd 4: 10-7, 8-6, 9-5, 1-4, 2-3
Rd 5: 3-10, 4-2, 5-1, 6-9, 7-8
Rd 6: 10-8, 9-7, 1-6, 2-5, 3-4
Rd 7: 4-10, 5-3, 6-2, 7-1, 8-9
Rd 8: 10-9, 1-8, 2-7, 3-6, 4-5
Rd 9: 5-10, 6-4, 7-3, 8-2, 9-1
12
Rd 1: 1-12, 2-11, 3-10, 4-9, 5-8, 6-7
Rd 2: 12-7, 8-6, 9-5, 10-4, 11-3, 1-2
Rd 3: 2-12, 3-1, 4-11, 5-10, 6-9, 7-8
Rd 4: 12-8, 9-7, 10-6, 11-5, 1-4, 2-3
Rd 5: 3-12, 4-2, 5-1, 6-11, 7-10, 8-9
Rd 6: 12-9, 10-8, 11-7, 1-6, 2-5, 3-4
Rd 7: 4-12, 5-3, 6-2, 7-1, 8-11, 9-10
Rd 8: 12-10, 11-9, 1-8, 2-7, 3-6, 4-5
Rd 9: 5-12, 6-4, 7-3, 8-2, 9-1, 10-11
Rd 10: 12-11, 1-10, 2-9, 3-8, 4-7, 5-6
Rd 11: 6-12, 7-5, 8-4, 9-3, 10-2, 11-1
14
Rd 1: 1-14, 2-13, 3-12, 4-11, 5-10, 6-9, 7-8
Rd 2: 14-8, 9-7, 10-6, 11-5, 12-4, 13-3, 1-2
Rd 3: 2-14, 3-1, 4-13, 5-12, 6-11, 7-10, 8-9
Rd 4: 14-9, 10-8, 11-7, 12-6, 13-5, 1-4, 2-3
Rd 5: 3-14, 4-2, 5-1, 6-13, 7-12, 8-11, 9-10
Rd 6: 14-10, 11-9, 12-8, 13-7, 1-6, 2-5, 3-4
Rd 7: 4-14, 5-3, 6-2, 7-1, 8-13, 9-12, 10-11
Rd 8: 14-11, 12-10, 13-9, 1-8, 2-7, 3-6, 4-5
Rd 9: 5-14, 6-4, 7-3, 8-2, 9-1, 10-13, 11-12
Rd 10: 14-12, 13-11, 1-10, 2-9, 3-8, 4-7, 5-6
Rd 11: 6-14, 7-5, 8-4, 9-3, 10-2, 11-1, 12-13
Rd 12: 14-13, 1-12, 2-11, 3-10, 4-9, 5-8, 6-7
Rd 13: 7-14, 8-6, 9-5, 10-4, 11-3, 12-2, 13-1
16
Rd 1: 1-16, 2-15, 3-14, 4-13, 5-12, 6-11, 7-10, 8-9
Rd 2: 16-9, 10-8, 11-7, 12-6, 13-5, 14-4, 15-3, 1-2
Rd 3: 2-16, 3-1, 4-15, 5-14, 6-13, 7-12, 8-11, 9-10
Rd 4: 16-10, 11-9, 12-8, 13-7, 14-6, 15-5, 1-4, 2-3
Rd 5: 3-16, 4-2, 5-1, 6-15, 7-14, 8-13, 9-12, 10-11
Rd 6: 16-11, 12-10, 13-9, 14-8, 15-7, 1-6, 2-5, 3-4
Rd 7: 4-16, 5-3, 6-2, 7-1, 8-15, 9-14, 10-13, 11-12
Rd 8: 16-12, 13-11, 14-10, 15-9, 1-8, 2-7, 3-6, 4-5
Rd 9: 5-16, 6-4, 7-3, 8-2, 9-1, 10-15, 11-14, 12-13
Rd 10: 16-13, 14-12, 15-11, 1-10, 2-9, 3-8, 4-7, 5-6
Rd 11: 6-16, 7-5, 8-4, 9-3, 10-2, 11-1, 12-15, 13-14
Rd 12: 16-14, 15-13, 1-12, 2-11, 3-10, 4-9, 5-8, 6-7
Rd 13: 7-16, 8-6, 9-5, 10-4, 11-3, 12-2, 13-1, 14-15
Rd 14: 16-15, 1-14, 2-13, 3-12, 4-11, 5-10, 6-9, 7-8
Rd 15: 8-16, 9-7, 10-6, 11-5, 12-4, 13-3, 14-2, 15-1
"""

Pairs = list[list[tuple[int, int]]]


def fide_tables() -> dict[int, Pairs]:
    tables: dict[int, Pairs] = {}
    for line in FIDE.strip().splitlines():
        if not line.startswith("Rd"):
            size = int(line)
            tables[size] = []
            continue
        games = line.partition(": ")[2].split(", ")
        tables[size].append([tuple(map(int, g.split("-"))) for g in games])  # type: ignore[misc]
    return tables


def pairs(players: int, double: bool = False) -> Pairs:
    return [[(b.white, b.black) for b in r.boards] for r in berger(players, double)]


@pytest.mark.parametrize("size", [4, 6, 8, 10, 12, 14, 16])
def test_the_rounds_are_fides_published_table(size: int) -> None:
    assert pairs(size) == fide_tables()[size]


@pytest.mark.parametrize("size", [4, 6, 8, 10, 12, 14, 16])
def test_an_odd_field_plays_the_next_table_with_its_last_number_as_the_bye(size: int) -> None:
    for rnd, table in zip(berger(size - 1), fide_tables()[size], strict=True):
        games = [(w, b) for w, b in table if size not in (w, b)]
        (sitting,) = [w if b == size else b for w, b in table if size in (w, b)]
        assert [(b.white, b.black) for b in rnd.boards] == games
        assert rnd.bye == sitting
        assert [b.board for b in rnd.boards] == list(range(1, len(games) + 1))


def test_four_players_double_round_robin() -> None:
    assert pairs(4, double=True) == [
        [(1, 4), (2, 3)],
        [(4, 3), (1, 2)],
        [(2, 4), (3, 1)],
        [(4, 1), (3, 2)],
        [(3, 4), (2, 1)],
        [(4, 2), (1, 3)],
    ]
    assert [r.round for r in berger(4, double=True)] == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("players", range(3, 25))
def test_everyone_meets_everyone_once_with_colours_balanced(players: int) -> None:
    rounds = berger(players)
    n = players + players % 2
    assert len(rounds) == n - 1
    met = Counter(frozenset((b.white, b.black)) for r in rounds for b in r.boards)
    everyone = range(1, players + 1)
    assert set(met) == {frozenset(p) for p in itertools.combinations(everyone, 2)}
    assert set(met.values()) == {1}
    for r in rounds:
        seated = [no for b in r.boards for no in (b.white, b.black)]
        seated += [] if r.bye is None else [r.bye]
        assert sorted(seated) == list(everyone)  # each plays once a round, or sits out
    whites = Counter(b.white for r in rounds for b in r.boards)
    blacks = Counter(b.black for r in rounds for b in r.boards)
    for no in everyone:
        assert abs(whites[no] - blacks[no]) <= 1, no
    byes = Counter(r.bye for r in rounds)
    assert byes == (Counter(everyone) if players % 2 else Counter({None: n - 1}))


@pytest.mark.parametrize("players", range(3, 25))
def test_a_double_round_robin_repeats_the_cycle_with_colours_reversed(players: int) -> None:
    single, double = berger(players), berger(players, double=True)
    assert double[: len(single)] == single
    for first, second in zip(single, double[len(single) :], strict=True):
        assert second.round == first.round + len(single) and second.bye == first.bye
        assert [(b.board, b.black, b.white) for b in second.boards] == [
            (b.board, b.white, b.black) for b in first.boards
        ]
    whites = Counter(b.white for r in double for b in r.boards)
    blacks = Counter(b.black for r in double for b in r.boards)
    assert whites == blacks  # everyone has each colour once against each opponent


@pytest.mark.parametrize("players", [-1, 0, 1, 2, 25, 100])
def test_sizes_outside_3_to_24_are_refused(players: int) -> None:
    with pytest.raises(ValueError, match=f"players={players}"):
        berger(players)
