"""The best and worst prize a participant can still take once the running round is over, for
one result of its own game (the card's "what I need", extended to prizes; pure).

The counting is the rank ranges' (`livetb/projections/outlook.py`): the other participants
either have their points for the round or play one of the other unfinished boards, each board
independent, and a tie on points counts as possibly above while tie-breaks are open. For each
list L the participant X belongs to, on P points:

- `above`: who finishes with more points than P whatever happens (summed over boards as the
  minimum over each board's outcomes);
- `level`: who can finish with P or more (the maximum over each board's outcomes).

Worst: X's group in L ends at place `1 + level` or before, and a group's share is never less
than the prize of its last place, so X takes at least `a(L, 1 + level)`. With one prize per
player, X takes at least the largest of those over its lists (the largest offer goes first:
when L's place `1 + level` is given, everyone L could place above X has a prize or X has one
as large); without it, X takes each list's.

Best: X's group starts at place `1 + above` or after, and a share is never more than the
prize of the group's first place. With one prize per player, someone surely above X in L can
leave L's places to X by taking a prize in another list:

- under `ranking` (one participant a place, prizes given in decreasing order of amount),
  someone who left L for another list took a prize at least as large as the one X takes; so
  for a place p of L worth v, only those of the surely-above who belong to another list
  paying v or more can have left, and p is reachable when `p ≥ 1 + above(v)` counting the
  others;
- under `shared` and `hort`, a group's offer can be smaller than its places' prizes, so only
  those who belong to no other list with prizes surely stay.

The best is the largest prize so reachable over X's lists; without one prize per player, the
sum of each list's `a(L, 1 + above)`.

The bounds hold for the prize taken under every rule; `tests/engine/test_prize_reach.py`
checks them by brute force on small tournaments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import NamedTuple

# A player of one list: its points after the round, and the largest prize it could take in
# another list (0: none), by outcome of its board when it plays one.
Other = tuple[Decimal, Decimal]
BoardPoints = tuple[tuple[Other | None, Other | None], ...]  # per outcome; None: not a member


class Place(NamedTuple):
    """A prize of a list: its amount and place."""

    list: str
    place: int
    amount: Decimal


class Bound(NamedTuple):
    """An amount and the prizes it is made of (one with one prize per player)."""

    amount: Decimal
    prizes: tuple[Place, ...]


class Field(NamedTuple):
    """What list L looks like from X's side for one result: the others' fixed points and
    their boards."""

    fixed: Sequence[Other]
    boards: Sequence[BoardPoints]


def level(points: Decimal, field: Field) -> int:
    """Others of the list that can finish on `points` or more."""
    n = sum(q >= points for q, _ in field.fixed)
    for board in field.boards:
        n += max(sum(o is not None and o[0] >= points for o in outcome) for outcome in board)
    return n


_ANY = Decimal("1e-9")  # below every prize: `above(stay=_ANY)` counts who has no other list


def above(points: Decimal, field: Field, stay: Decimal | None = None) -> int:
    """Others of the list that finish with more than `points` whatever happens; with `stay`,
    only those who cannot take a prize of `stay` or more in another list."""

    def counts(o: Other | None) -> bool:
        return o is not None and o[0] > points and (stay is None or o[1] < stay)

    n = sum(counts(o) for o in field.fixed)
    for board in field.boards:
        n += min(sum(counts(o) for o in outcome) for outcome in board)
    return n


def bounds(
    points: Decimal,
    fields: Mapping[str, Field],
    amounts: Mapping[str, Sequence[Decimal]],
    one_prize_per_player: bool,
    ranking: bool,
) -> tuple[Bound, Bound]:
    """The best and the worst prize of a participant finishing on `points`, over the lists
    it belongs to (`fields`, in the lists' order), each list's amounts by place (`ranking`:
    the table's rule is `ranking`)."""
    best: list[Place] = []
    worst: list[Place] = []
    for name, field in fields.items():
        paid = amounts.get(name, ())
        low = 1 + level(points, field)
        if low <= len(paid):
            worst.append(Place(name, low, paid[low - 1]))
        if not one_prize_per_player:
            high = 1 + above(points, field)
        elif ranking:
            high = next(
                (p for p, v in enumerate(paid, 1) if p >= 1 + above(points, field, stay=v)),
                len(paid) + 1,
            )
        else:
            high = 1 + above(points, field, stay=_ANY)
        if high <= len(paid):
            best.append(Place(name, high, paid[high - 1]))
    if one_prize_per_player:
        return _largest(best), _largest(worst)
    return _sum(best), _sum(worst)


def _largest(places: list[Place]) -> Bound:
    if not places:
        return Bound(Decimal(0), ())
    top = max(places, key=lambda p: p.amount)  # the first of the largest: lists' order
    return Bound(top.amount, (top,))


def _sum(places: list[Place]) -> Bound:
    return Bound(sum((p.amount for p in places), Decimal(0)), tuple(places))
