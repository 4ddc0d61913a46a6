"""Prize allocation (pure): a prize table and the lists' ordered standings in, the awards out.

A table has prizes by place for the main list ("main") and for categories (their codes), each
an exact amount in one currency and/or a label (a trophy). Rules (docs/prizes.md says them in
words, with worked examples):

- `ranking`: places follow the ranking with its tie-breaks, one participant a place, in the
  standings' order (participants every tie-break leaves equal are in start-number order until
  a playoff or lots order them).
- `shared`: participants tied on points share the sum of the prizes of the places they occupy.
- `hort`: of that sum, half is shared equally and half follows the ranking (each member takes
  half of its own place's prize).

A group of tied participants occupies the places after those already given; places past the
list's last prize are worth nothing, so a tie across the last prize place shares what is left.

With `one_prize_per_player` (the default), the largest offer goes first: each list offers its
first group of participants without a prize yet the places it would occupy, an offer is worth
what its least-paid member would take, and the best offer is awarded whole (equal offers: the
main list first, then the categories in their order, then by place), until no list has a place
left or a participant to take it. With singletons and amounts that do not grow with the place
(the table's rule), that is: prizes in decreasing order of amount, each to the best-placed
eligible participant who has no prize yet. A participant eligible in several lists takes the
larger and leaves the other list to its next participants.

Amounts are split to the currency's minor unit, rounded down, the remainder given cent by cent
to the best-ranked members of the group, so the sum paid is the sum of the places awarded.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from decimal import ROUND_FLOOR, Decimal
from fractions import Fraction
from typing import Annotated, Literal, NamedTuple

import msgspec

from livetb.errors import Num, Said

Rule = Literal["ranking", "shared", "hort"]
MAIN = "main"
# ISO 4217 minor units other than 2 (the currencies a chess prize is likely to be paid in).
_MINOR_UNITS = {
    "JPY": 0, "KRW": 0, "ISK": 0, "CLP": 0, "VND": 0, "UGX": 0, "PYG": 0, "XOF": 0, "XAF": 0,
    "BHD": 3, "KWD": 3, "OMR": 3, "JOD": 3, "TND": 3, "LYD": 3, "IQD": 3,
}  # fmt: skip


class Prize(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One place of one list: an amount (0 for a trophy alone) and an optional label."""

    list: Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
    place: Annotated[int, msgspec.Meta(ge=1, le=999)]
    amount: Decimal = Decimal(0)
    label: Annotated[str, msgspec.Meta(max_length=100)] = ""


class Table(msgspec.Struct, frozen=True):
    rule: Rule
    one_prize_per_player: bool
    currency: str
    prizes: tuple[Prize, ...]


class Standing(msgspec.Struct, frozen=True, gc=False):
    """One row of a list, best first: the ranking's rank (shared by the tied) and points. (A
    struct, not a NamedTuple: a live list reads hundreds a result, and this one is made
    several times faster.)"""

    start_no: int
    rank: int
    points: Decimal


class Award(msgspec.Struct, frozen=True):
    """What one participant takes from one list: the places its group occupied (`places`,
    first and last; `shared` members), its own amount, and the label of its own place."""

    start_no: int
    list: str
    place: int
    amount: Decimal
    places: tuple[int, int]
    shared: int
    label: str = ""


def minor_unit(currency: str) -> Decimal:
    """The currency's smallest amount: 0.01 for EUR, 1 for JPY, 0.001 for KWD."""
    return Decimal(1).scaleb(-_MINOR_UNITS.get(currency, 2))


def money(amount: Decimal, currency: str) -> str:
    """An amount written to the currency's minor unit: "500.00"."""
    return str(amount.quantize(minor_unit(currency)))


def problems(table: Table, lists: Iterable[str]) -> list[tuple[str, Said]]:
    """What is wrong with a table, as (path, message) pairs, each message for the catalogs to
    word (`input.prizes.*`): a list nobody defined, a negative amount or one finer than the
    currency's minor unit, a place given twice, a list whose places skip one or whose amount
    grows with the place."""
    known = set(lists)
    found: list[tuple[str, Said]] = []
    currency = table.currency
    if len(currency) != 3 or not currency.isascii() or not currency.isupper():
        found.append(("$.currency", Said("input.prizes.currency", currency=repr(currency))))
    unit = minor_unit(currency)
    seen: dict[tuple[str, int], int] = {}
    for i, p in enumerate(table.prizes):
        at = f"$.prizes[{i}]"
        if p.list not in known:
            names = ", ".join(sorted(known))
            said = Said("input.prizes.unknown_list", list=repr(p.list), lists=names)
            found.append((f"{at}.list", said))
        if p.amount == 0 and not p.label:
            found.append((f"{at}.amount", Said("input.prizes.empty")))
        elif not p.amount.is_finite() or p.amount < 0:
            found.append((f"{at}.amount", Said("input.prizes.negative", amount=Num(p.amount))))
        elif p.amount != p.amount.quantize(unit, rounding=ROUND_FLOOR):
            said = Said(
                "input.prizes.finer", amount=Num(p.amount), unit=Num(unit), currency=currency
            )
            found.append((f"{at}.amount", said))
        if (p.list, p.place) in seen:
            first = seen[(p.list, p.place)]
            said = Said("input.prizes.place_twice", list=p.list, place=p.place, first=first)
            found.append((f"{at}.place", said))
        seen.setdefault((p.list, p.place), i)
    if found:
        return found
    by_list: dict[str, dict[int, int]] = {}
    for i, p in enumerate(table.prizes):
        by_list.setdefault(p.list, {})[p.place] = i
    for name, places in by_list.items():
        for place in range(1, max(places) + 1):
            if place not in places:
                i = places[max(places)]
                said = Said("input.prizes.place_missing", list=name, place=place)
                found.append((f"$.prizes[{i}].place", said))
                break
            before = places.get(place - 1)
            here = table.prizes[places[place]].amount
            if before is not None and here > table.prizes[before].amount:
                said = Said(
                    "input.prizes.pays_more",
                    list=name,
                    place=place,
                    amount=Num(here),
                    before=place - 1,
                )
                found.append((f"$.prizes[{places[place]}].amount", said))
    return found


def amounts_of(table: Table) -> dict[str, list[Decimal]]:
    """Each list's amounts by place (index 0: 1st)."""
    out: dict[str, list[Decimal]] = {}
    for p in sorted(table.prizes, key=lambda p: (p.list, p.place)):
        out.setdefault(p.list, []).append(p.amount)
    return out


def labels_of(table: Table) -> dict[tuple[str, int], str]:
    return {(p.list, p.place): p.label for p in table.prizes if p.label}


Share = int | Fraction  # in the currency's minor unit: exact (ints while nothing is split)


class _Offer(NamedTuple):
    key: tuple[Share, int, int]  # (-worth, list order, first place): the smallest goes first
    name: str
    group: list[Standing]
    shares: list[Share]
    end: int  # the index in the list's rows after the group


def allocate(table: Table, lists: Mapping[str, Sequence[Standing]]) -> list[Award]:
    """The awards of `table` over `lists` (the main list first, then the categories in their
    order; each list's rows best first). A list the table names but `lists` lacks awards
    nothing. Awards come in the order given: the best offer first."""
    unit = minor_unit(table.currency)
    units, labels = _plan(table)
    order = [name for name in lists if name in units]
    exclusive = table.one_prize_per_player
    next_place = dict.fromkeys(order, 1)
    cursor = dict.fromkeys(order, 0)  # rows before it have a prize (from this list or another)
    taken: set[int] = set()
    awards: list[Award] = []
    offers: dict[str, _Offer | None] = {}  # each list's offer, until an award changes it
    while True:
        best: _Offer | None = None
        for index, name in enumerate(order):
            first = next_place[name]
            if first > len(units[name]):
                continue
            if name not in offers:
                offers[name] = _offer(table.rule, name, (index, first), lists[name],
                                      cursor[name], units[name][first - 1 :], taken)  # fmt: skip
            offer = offers[name]
            if offer is not None and (best is None or offer.key < best.key):
                best = offer
        if best is None:
            return awards
        first = next_place[best.name]
        size = len(best.group)
        # The group occupies its places whether or not the list pays them all.
        last = first + size - 1
        paid = _round(best.shares, sum(units[best.name][first - 1 : last]))
        for i, (row, amount) in enumerate(zip(best.group, paid, strict=True)):
            label = labels.get((best.name, first + i), "")
            awards.append(
                Award(row.start_no, best.name, first, amount * unit, (first, last), size, label)
            )
        next_place[best.name] = first + size
        cursor[best.name] = best.end
        del offers[best.name]
        if exclusive:
            won = {row.start_no for row in best.group}
            taken |= won
            # An offer reads its list from the cursor to the end of its group: only a group
            # that lost a member changes.
            for name, offer in list(offers.items()):
                if offer is not None and any(r.start_no in won for r in offer.group):
                    del offers[name]


@functools.lru_cache(maxsize=64)
def _plan(table: Table) -> tuple[dict[str, list[int]], dict[tuple[str, int], str]]:
    """Each list's amounts by place in minor units (the table's checks: exact), and the labels:
    read once per table, not per result."""
    unit = minor_unit(table.currency)
    units = {
        name: [int((a / unit).to_integral_value(ROUND_FLOOR)) for a in paid]
        for name, paid in amounts_of(table).items()
    }
    return units, labels_of(table)


def _offer(
    rule: Rule,
    name: str,
    at: tuple[int, int],
    rows: Sequence[Standing],
    start: int,
    units: list[int],
    taken: set[int],
) -> _Offer | None:
    """List `name`'s offer (`at`: its order among the lists, its next place): its first row
    without a prize from `start` on (with the rows tied with it on points under `shared` and
    `hort`) and each member's exact share of the places left (`units`, the next first)."""
    i = start
    while (row := _at(rows, i)) is not None and row.start_no in taken:
        i += 1
    if row is None:
        return None
    group = [row]
    j = i + 1
    if rule != "ranking":  # the ranking gives every place to one row, as the standings list it
        while (row := _at(rows, j)) is not None and row.points == group[0].points:
            if row.start_no not in taken:
                group.append(row)
            j += 1
    if len(group) == 1:
        return _Offer((-units[0], *at), name, group, [units[0]], j)
    worth = units[: len(group)] + [0] * (len(group) - len(units))
    equal = Fraction(sum(worth), len(group))
    shares: list[Share] = _hort(group, worth, equal) if rule == "hort" else [equal] * len(group)
    return _Offer((-min(shares), *at), name, group, shares, j)


def _at(rows: Sequence[Standing], i: int) -> Standing | None:
    """Row `i`, None past the end: `rows` may be read lazily (without a length)."""
    try:
        return rows[i]
    except IndexError:
        return None


def _hort(group: list[Standing], worth: list[int], equal: Fraction) -> list[Share]:
    """Half of the group's sum equally, half by the ranking: each member half of its own
    place's prize (members the ranking leaves on one rank share their places' halves)."""
    shares: list[Share] = []
    i = 0
    while i < len(group):
        j = i
        while j < len(group) and group[j].rank == group[i].rank:
            j += 1
        own = Fraction(sum(worth[i:j]), j - i)
        shares += [own / 2 + equal / 2] * (j - i)
        i = j
    return shares


def _round(shares: list[Share], total: int) -> list[int]:
    """Each exact share rounded down to the minor unit; the remainder, unit by unit, to the
    first members (the best-ranked)."""
    paid = [math.floor(s) for s in shares]
    for i in range(total - sum(paid)):
        paid[i] += 1
    return paid
