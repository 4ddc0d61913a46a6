"""Direct Encounter (C.07 2024 Art. 6; 2023 §5.1 / Art. 6) and ranking by a list (2024 §4.2).

Every expected value below is computed by hand from the crosstable drawn above the tournament.
"""

from __future__ import annotations

from collections.abc import Callable

from livetb.engine.context import Context
from livetb.engine.direct_encounter import direct_encounter
from livetb.engine.spec import parse_list
from livetb.engine.standings import rank
from tests.builders import (
    TournamentBuilder,
    beats,
    draws,
    forfeit_win,
    loses,
    round_robin,
    swiss,
)


def _ranks(ctx: Context, specs: str = "PTS,DE") -> dict[str, int]:
    return {row.name: row.rank for row in rank(ctx, parse_list(specs)).rows}


# Round robin, 5 players; A, B, C tied on 2½.
#
#          R1         R2         R3         R4         R5         Pts   vs A, B, C
#  A(1)   1 B w      ½ C w      1 D w      0 E w      rest       2½    1 + ½ = 1½
#  B(2)   0 A b      ½ E w      rest       1 D w      1 C w      2½    0 + 1 = 1
#  C(3)   1 D w      ½ A b      1 E w      rest       0 B b      2½    ½ + 0 = ½
#  D(4)   0 C b      rest       0 A b      0 B b      ½ E w      ½
#  E(5)   rest       ½ B b      0 C b      1 A b      ½ D b      2
def test_round_robin_group_decided_by_mutual_games() -> None:
    """C.07 2024 §6 DE (2023 §6): all tied players met; ranked by the points among them."""
    t = round_robin(5, "ABCDE")
    t.round(1, beats("A", "B"), beats("C", "D"))
    t.round(2, draws("A", "C"), draws("B", "E"))
    t.round(3, beats("A", "D"), beats("C", "E"))
    t.round(4, loses("A", "E"), beats("B", "D"))
    t.round(5, beats("B", "C"), draws("D", "E"))
    ctx = t.context()
    assert direct_encounter(ctx, [1, 2, 3]) == {1: 1, 2: 2, 3: 3}
    assert _ranks(ctx) == {"A": 1, "B": 2, "C": 3, "E": 4, "D": 5}


# Swiss, 3 rounds; A, B, C tied on 2.  A beat B and C; B and C did not meet.
#
#          R1         R2         R3         Pts
#  A(1)   1 B w      1 C w      0 D w      2
#  B(2)   0 A b      1 E w      1 F w      2
#  C(3)   1 D w      0 A b      1 E w      2
#  D(4)   0 C b      ½ F w      1 A b      1½
#  E(5)   ½ F w      0 B b      0 C b      ½
#  F(6)   ½ E b      ½ D b      0 B b      1
def test_swiss_player_bound_to_be_first_is_placed() -> None:
    """C.07 2024 §6.2 DE (2023 §6.2): A has 2 against the group; B and C have 0 and could
    reach at most 0 + 1 for their missing game: A is first whatever happened.  B and C stay
    tied (they did not meet)."""
    t = swiss(rounds=3, players="ABCDEF")
    t.round(1, beats("A", "B"), beats("C", "D"), draws("E", "F"))
    t.round(2, beats("A", "C"), beats("B", "E"), draws("D", "F"))
    t.round(3, loses("A", "D"), beats("B", "F"), beats("C", "E"))
    ctx = t.context()
    assert direct_encounter(ctx, [1, 2, 3]) == {1: 1, 2: 2, 3: 2}
    assert _ranks(ctx) == {"A": 1, "B": 2, "C": 2, "D": 4, "F": 5, "E": 6}


# Swiss, 3 rounds; A, B, C tied on 1.  A and B both beat C but did not meet each other.
#
#          R1         R2         R3         Pts
#  A(1)   1 C w      0 E w      0 F w      1
#  B(2)   0 D w      1 C w      0 E w      1
#  C(3)   0 A b      0 B b      1 D w      1
#  D(4)   1 B b      ½ F w      0 C b      1½
#  E(5)   ½ F w      1 A b      1 B b      2½
#  F(6)   ½ E b      ½ D b      1 A b      2
def test_swiss_nobody_placed_when_the_leaders_did_not_meet() -> None:
    """C.07 2024 §6.2 DE (2023 §6.2), seed 000: A and B have 1 each and could reach 2; nobody
    is bound to be first, so all three stay tied (C too, although it lost to both)."""
    t = swiss(rounds=3, players="ABCDEF")
    t.round(1, beats("A", "C"), loses("B", "D"), draws("E", "F"))
    t.round(2, beats("B", "C"), loses("A", "E"), draws("D", "F"))
    t.round(3, loses("A", "F"), loses("B", "E"), beats("C", "D"))
    ctx = t.context()
    assert direct_encounter(ctx, [1, 2, 3]) == {1: 1, 2: 1, 3: 1}
    assert _ranks(ctx) == {"E": 1, "F": 2, "D": 3, "A": 4, "B": 4, "C": 4}


# Round robin, 6 players; A, B, C, D tied on 3, E and F on 1½.
#
#          R1         R2         R3         R4         R5         Pts   vs A-D
#  A(1)   ½ F w      1 B w      1 C b      0 D w      ½ E b      3     B 1, C 1, D 0 = 2
#  B(2)   1 E w      0 A b      1 F w      1 C w      0 D b      3     A 0, C 1, D 0 = 1
#  C(3)   1 D w      1 E b      0 A w      0 B b      1 F w      3     A 0, B 0, D 1 = 1
#  D(4)   0 C b      ½ F b      ½ E w      1 A b      1 B w      3     A 1, B 1, C 0 = 2
#  E(5)   0 B b      0 C w      ½ D b      ½ F b      ½ A w      1½
#  F(6)   ½ A b      ½ D w      0 B b      ½ E w      0 C b      1½
def test_recursive_reapplication_to_the_subsets_still_tied() -> None:
    """C.07 2024 §6.3 DE (2023 §6.3): the first pass splits {A, D} (2) from {B, C} (1); DE is
    applied again inside each pair with only their own games: D beat A, B beat C."""
    t = round_robin(5, "ABCDEF")
    t.round(1, draws("A", "F"), beats("B", "E"), beats("C", "D"))
    t.round(2, draws("F", "D"), loses("E", "C"), beats("A", "B"))
    t.round(3, beats("B", "F"), loses("C", "A"), draws("D", "E"))
    t.round(4, draws("F", "E"), loses("A", "D"), beats("B", "C"))
    t.round(5, beats("C", "F"), beats("D", "B"), draws("E", "A"))
    ctx = t.context()
    assert direct_encounter(ctx, [1, 2, 3, 4]) == {4: 1, 1: 2, 2: 3, 3: 4}
    # E and F drew: still tied after DE, so they share 5th place.
    assert _ranks(ctx) == {"D": 1, "A": 2, "B": 3, "C": 4, "E": 5, "F": 5}


# 4 players, 3 rounds (all-play-all); A and B tied on 1½.  A's point against B is a forfeit.
#
#          R1         R2         R3         Pts
#  A(1)   + (B)      0 C w      ½ D w      1½
#  B(2)   - (A)      1 D w      ½ C w      1½
#  C(3)   ½ D w      1 A b      ½ B b      2
#  D(4)   ½ C b      0 B b      ½ A b      1
def _forfeit_between_tied(system: Callable[..., TournamentBuilder]) -> Context:
    t = system(3, "ABCD")
    t.round(1, forfeit_win("A", over="B"), draws("C", "D"))
    t.round(2, loses("A", "C"), beats("B", "D"))
    t.round(3, draws("A", "D"), draws("B", "C"))
    return t.context()


def test_forfeit_counts_in_round_robin() -> None:
    """C.07 2024 §6.1 + §16 DE (2023 §6.1 + §14): in a round robin the forfeit is a game."""
    ctx = _forfeit_between_tied(round_robin)
    assert direct_encounter(ctx, [1, 2]) == {1: 1, 2: 2}
    assert _ranks(ctx) == {"C": 1, "A": 2, "B": 3, "D": 4}


def test_forfeit_not_counted_in_swiss_and_ranks_shared() -> None:
    """C.07 2024 §6.1 DE, §4.2 (2023 §6.1, §4.2): in a Swiss the forfeit is no encounter; A and
    B stay tied after the whole list and share 2nd place (1, 2, 2, 4)."""
    ctx = _forfeit_between_tied(swiss)
    assert direct_encounter(ctx, [1, 2]) == {1: 1, 2: 1}
    assert _ranks(ctx) == {"C": 1, "A": 2, "B": 2, "D": 4}
    rows = rank(ctx, parse_list("PTS,DE")).rows
    assert [row.rank for row in rows] == [1, 2, 2, 4]
    assert [row.name for row in rows] == ["C", "A", "B", "D"]
