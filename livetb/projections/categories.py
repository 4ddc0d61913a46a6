"""Categories: who belongs to each, and a category's standings (`CategoriesDefined`).

A category is a conjunction of criteria on the participant record (`Category`): a rating band
(`rating_min`/`rating_max`, inclusive, on the FIDE rating; an unrated player counts as 0, as
Swiss-Manager and Vega rank them, so a band with a maximum takes the unrated unless the
category also says `unrated: false`), `unrated`, a birth-date band (`born_from`/`born_to`,
inclusive; a birth date written as a year only belongs when its whole year is inside the
band; no birth date belongs to no band), `sex`, `federations` and an explicit list of start
numbers (`members`). A criterion left out does not restrict.

A category's standings are the tournament's ranking restricted to its members, ranks counted
inside the category: a member's rank is one more than the number of members ranked strictly
above it, so members sharing a rank in the main ranking share it in the category. The rows
keep the main order (rank, then start number).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence

import msgspec

from livetb import i18n
from livetb.engine.model import Participant
from livetb.errors import Said
from livetb.events.schema import Category
from livetb.events.state import TournamentState
from livetb.projections.category_order import CategoryOrder, MainOrder
from livetb.projections.ratings import with_rating_change
from livetb.wire.standings import DbStandings, Row


def members(
    categories: Sequence[Category], participants: Mapping[int, Participant]
) -> dict[str, frozenset[int]]:
    """Each category's members by code, in the categories' order."""
    return {
        cat.code: frozenset(no for no, p in participants.items() if belongs(cat, p))
        for cat in categories
    }


def belongs(cat: Category, p: Participant) -> bool:
    """Whether participant `p` meets every criterion of `cat`."""
    if cat.members is not None and p.start_no not in cat.members:
        return False
    if cat.unrated is not None and cat.unrated != (p.rating is None):
        return False
    rating = p.rating or 0
    if cat.rating_min is not None and rating < cat.rating_min:
        return False
    if cat.rating_max is not None and rating > cat.rating_max:
        return False
    if cat.sex is not None and p.sex != cat.sex:
        return False
    if cat.federations is not None and p.federation.strip().upper() not in cat.federations:
        return False
    if cat.born_from is not None or cat.born_to is not None:
        born = birth_span(p.birth_date)
        if born is None:
            return False
        first, last = born
        if cat.born_from is not None and first < cat.born_from:
            return False
        if cat.born_to is not None and last > cat.born_to:
            return False
    return True


def birth_span(text: str) -> tuple[dt.date, dt.date] | None:
    """The days a birth date as written can be: one day, or a whole year for `YYYY`; None
    when blank or unreadable."""
    text = text.strip()
    try:
        if len(text) == 4 and text.isdigit():
            year = int(text)
            return dt.date(year, 1, 1), dt.date(year, 12, 31)
        if len(text) == 10 and text[4] in "-/." and text[7] == text[4]:
            day = dt.date(int(text[:4]), int(text[5:7]), int(text[8:10]))
            return day, day
    except ValueError:
        return None
    return None


def find(state: TournamentState, code: str) -> Category | None:
    """The category `code` of the tournament as defined now, or None."""
    return next((cat for cat in state.categories if cat.code == code), None)


def category_rows(
    rows: Iterable[Row], member_set: frozenset[int] | set[int], ordered: bool = False
) -> list[Row]:
    """The members' rows, best first, with their ranks counted inside the category
    (`CategoryOrder`). `rows` carry their main ranks, in any order (`ordered`: already in the
    standings order)."""
    order = list(rows) if ordered else sorted(rows, key=_main_order)
    main = MainOrder()
    main.reset(order, 0)
    ranks = CategoryOrder(main, frozenset(member_set)).ranks
    return [
        row
        if row.rank == ranks[row.start_no]
        else msgspec.structs.replace(row, rank=ranks[row.start_no])
        for row in order
        if row.start_no in ranks
    ]


def _main_order(row: Row) -> tuple[int, int]:
    return row.rank, row.start_no


class Memberships:
    """The members of a tournament's categories, read again only when a participant's details
    or the categories changed (`TournamentState.roster_seq`): a result costs nothing here."""

    __slots__ = ("_members", "_seq")

    def __init__(self) -> None:
        self._seq = -1
        self._members: dict[str, frozenset[int]] = {}

    def of(self, state: TournamentState) -> dict[str, frozenset[int]]:
        if state.roster_seq != self._seq:
            self._members = members(state.categories, state.participants)
            self._seq = state.roster_seq
        return self._members


class UnknownCategory(LookupError):
    """A category code the tournament does not define (now, or at the position read)."""

    def __init__(self, code: str, state: TournamentState) -> None:
        self.code = code
        self.defined = tuple(c.code for c in state.categories)
        super().__init__(self.said().words(i18n.DEFAULT))

    def said(self) -> Said:
        """The message in the catalogs' words (`category.unknown`)."""
        defined: str | Said = ", ".join(self.defined) or Said("category.none_defined")
        return Said("category.unknown", code=repr(self.code), defined=defined)


def document_view(
    doc: DbStandings, state: TournamentState, category: str | None, rating_change: bool
) -> None:
    """`doc` (the standings document of `state`) restricted to `category`, ranks counted
    inside it, and/or each row with its `rating_change`; UnknownCategory if not defined."""
    if category is not None:
        cat = find(state, category)
        if cat is None:
            raise UnknownCategory(category, state)
        doc.standings = category_rows(doc.standings, members((cat,), state.participants)[cat.code])
    if rating_change:
        doc.standings = with_rating_change(doc.standings, state)
