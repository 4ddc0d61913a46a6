"""Round-robin pairings from the Berger tables (FIDE Handbook C.05, Annex 1), 3 to 24 players.

FIDE's table for n players (n even) lists, per round, the board of player n first, then the
others; with an odd number of players the table of n + 1 is used and n + 1 is the bye. The
tables follow one rule, which `berger` applies instead of storing them (the tests carry FIDE's
published tables for 4 to 16 players as data and compare):

- in round r, player n meets p = 1 + ((r - 1) * n / 2 mod (n - 1)), with white in even rounds
  and black in odd ones;
- the other boards pair p + k (white) with p - k (black), k = 1 .. n/2 - 1, counted round the
  ring 1 .. n - 1.

A double round robin plays the cycle again with colours reversed. (C.05 also recommends
swapping the last two rounds of the first cycle, so nobody has the same colour three times in
a row; that is not done here: the second cycle mirrors the first round for round.)
"""

from __future__ import annotations

import msgspec

from livetb.events.schema import Board

MIN_PLAYERS, MAX_PLAYERS = 3, 24


class BergerRound(msgspec.Struct, frozen=True, kw_only=True):
    """One round: its boards in FIDE's order, as `PairRound` takes them, and, with an odd
    number of players, who sits out (the table's board against n + 1, left out). That player
    has no game; posting it as the pairings' `bye` would give the pairing-allocated bye's
    points, so the console decides how to record it."""

    round: int
    boards: tuple[Board, ...]
    bye: int | None = None


def berger(players: int, double: bool = False) -> list[BergerRound]:
    """The rounds of a round robin of `players` (3..24) by the Berger tables."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players={players}: Berger tables cover {MIN_PLAYERS}..{MAX_PLAYERS}")
    n = players + players % 2  # an odd field plays the table of n + 1
    cycle = [_round(n, r) for r in range(1, n)]
    if double:
        cycle += [[(black, white) for white, black in pairs] for pairs in cycle]
    return [_numbered(r, pairs, players) for r, pairs in enumerate(cycle, start=1)]


def _round(n: int, r: int) -> list[tuple[int, int]]:
    """Round `r` of the table for `n` (even) players as (white, black) pairs, in FIDE's order."""
    ring = n - 1
    p = 1 + (r - 1) * (n // 2) % ring
    pairs = [(n, p) if r % 2 == 0 else (p, n)]
    for k in range(1, n // 2):
        pairs.append(((p + k - 1) % ring + 1, (p - k - 1) % ring + 1))
    return pairs


def _numbered(rnd: int, pairs: list[tuple[int, int]], players: int) -> BergerRound:
    bye = None
    boards: list[Board] = []
    for white, black in pairs:
        if players + 1 in (white, black):  # only in an odd field: its n + 1 is the bye
            bye = black if white == players + 1 else white
        else:
            boards.append(Board(board=len(boards) + 1, white=white, black=black))
    return BergerRound(round=rnd, boards=tuple(boards), bye=bye)
