"""A category as a command asks for it (`CategorySpec`, in `DefineCategories`) and the checks
that make a `CategoriesDefined` of a list of them: codes unique and not `main` (the prize
table's name for the whole ranking), bands in order, members registered. Who belongs to a
category is read by `livetb/projections/categories.py`."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

import msgspec

from livetb.errors import InvalidInput, Said, UnknownParticipant
from livetb.events.schema import CategoriesDefined, Category, StartNo
from livetb.events.state import TournamentState

CategoryCode = Annotated[
    str, msgspec.Meta(min_length=1, max_length=20, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
]
Federation = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z]{3}$")]
Rating = Annotated[int, msgspec.Meta(ge=0, le=4000)]


class CategorySpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A category as asked for: `CategoriesDefined`'s `Category`, unknown fields refused."""

    code: CategoryCode
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
    rating_min: Rating | None = None
    rating_max: Rating | None = None
    unrated: bool | None = None
    born_from: dt.date | None = None
    born_to: dt.date | None = None
    sex: Literal["m", "w"] | None = None
    federations: Annotated[tuple[Federation, ...], msgspec.Meta(min_length=1)] | None = None
    members: Annotated[tuple[StartNo, ...], msgspec.Meta(min_length=1)] | None = None


def categories_event(state: TournamentState, specs: tuple[CategorySpec, ...]) -> CategoriesDefined:
    """The event defining `specs`, or the rejection naming the first field at fault."""
    if state.created is not None and state.created.kind == "team" and specs:
        # A team tournament ranks teams: criteria on a player's record rank nobody.
        raise InvalidInput(Said("input.categories_teams"), path="$.categories")
    seen: set[str] = set()
    for i, cat in enumerate(specs):
        at = f"categories[{i}]"
        if cat.code.lower() == "main":
            raise InvalidInput(Said("input.category_main", at=at), path=f"$.{at}.code")
        if cat.code in seen:
            said = Said("input.category_twice", at=at, code=repr(cat.code))
            raise InvalidInput(said, path=f"$.{at}.code")
        seen.add(cat.code)
        lo, hi = cat.rating_min, cat.rating_max
        if lo is not None and hi is not None and lo > hi:
            said = Said("input.category_rating", at=at, rating_max=hi, rating_min=lo)
            raise InvalidInput(said, path=f"$.{at}.rating_max")
        if cat.born_from is not None and cat.born_to is not None and cat.born_from > cat.born_to:
            said = Said(
                "input.category_born",
                at=at,
                born_to=cat.born_to.isoformat(),
                born_from=cat.born_from.isoformat(),
            )
            raise InvalidInput(said, path=f"$.{at}.born_to")
        for j, no in enumerate(cat.members or ()):
            if no not in state.participants:
                raise UnknownParticipant(no, f"{at}.members[{j}]")
    return CategoriesDefined(categories=tuple(map(_category, specs)))


def _category(cat: CategorySpec) -> Category:
    # The two structs have the same fields: the spec's checked values carry over as they are,
    # federation codes upper-cased so that matching a participant's record ignores case.
    fields = msgspec.structs.asdict(cat)
    if cat.federations is not None:
        fields["federations"] = tuple(f.upper() for f in cat.federations)
    return Category(**fields)


def check_birth_date(text: str, field: str) -> None:
    """A full date must be a real one (the command's pattern has checked the shape)."""
    if len(text) == 10:
        try:
            dt.date(int(text[:4]), int(text[5:7]), int(text[8:10]))
        except ValueError:
            said = Said("input.no_such_date", field=field, text=repr(text))
            raise InvalidInput(said, path=f"$.{field}") from None
