"""Categories and rating change over HTTP (`livetb/projections/categories.py`,
`livetb/projections/ratings.py`):

    GET /api/tournaments/{id}/categories                          each category and its members
    GET /api/tournaments/{id}/participants/{start_no}/rating      the participant's rating change
    GET /api/tournaments/{id}/participants/{start_no}/categories  its rank in each category
    GET /api/tournaments/{id}/standings?category=CODE&with=rating_change   (`reads.standings`)

The categories are set with `PUT /api/tournaments/{id}/categories` (`DefineCategories`,
`livetb/web/api/writes.py`), and K with `PATCH …/participants/{start_no}` `{"k": 20}`.
"""

from __future__ import annotations

import asyncio
import itertools

import msgspec
from aiohttp import web

from livetb.errors import InvalidInput, NotFound, Said
from livetb.events.schema import Category
from livetb.events.state import TournamentState
from livetb.events.store import EventStore
from livetb.projections import ratings
from livetb.projections.categories import (
    UnknownCategory,
    category_rows,
    document_view,
    find,
    members,
)
from livetb.projections.ratings import RatingChange
from livetb.projections.standings import StandingsProjection
from livetb.web.http.caching import dressed, not_modified, validator
from livetb.web.http.limits import RATING_CHANGE, rating_change_query
from livetb.web.http.public import readable
from livetb.web.http.routing import (
    BASE,
    PARTICIPANT,
    READ_ERRORS,
    Endpoint,
    Query,
    json_response,
    route_defs,
)
from livetb.web.keys import STORE
from livetb.wire.standings import DbStandings, Row

CATEGORY_QUERY = Query(
    "category", "only this category's members, ranks counted inside it (its code)", "string"
)
WITH_QUERY = Query(
    "with", "rating_change: every row also has `rating_change`", "string", enum=(RATING_CHANGE,)
)


class CategoryInfo(msgspec.Struct, omit_defaults=True):
    """A category as defined (its criteria) and its members now (`start_nos`)."""

    code: str
    name: str
    start_nos: list[int]
    rating_min: int | None = None
    rating_max: int | None = None
    unrated: bool | None = None
    born_from: str | None = None
    born_to: str | None = None
    sex: str | None = None
    federations: list[str] | None = None
    members: list[int] | None = None


class CategoryList(msgspec.Struct):
    categories: list[CategoryInfo]


class CategoryRank(msgspec.Struct):
    """A participant's place in one of its categories: the rank counted inside it, and how
    many members the category has."""

    code: str
    name: str
    rank: int
    members: int


class CategoryRanks(msgspec.Struct):
    start_no: int
    categories: list[CategoryRank]


def category_ranks(projection: StandingsProjection, no: int) -> list[CategoryRank]:
    """Participant `no`'s rank in each category it belongs to, in the categories' order."""
    state = projection.state
    found = members(state.categories, state.participants)
    order: list[Row] | None = None
    out = []
    for cat in state.categories:
        nos = found[cat.code]
        if no not in nos:
            continue
        order = projection.standings() if order is None else order
        rank = next(r.rank for r in category_rows(order, nos, ordered=True) if r.start_no == no)
        out.append(CategoryRank(cat.code, cat.name, rank, len(nos)))
    return out


def category_infos(state: TournamentState) -> list[CategoryInfo]:
    found = members(state.categories, state.participants)
    return [_info(cat, found[cat.code]) for cat in state.categories]


def _info(cat: Category, nos: frozenset[int]) -> CategoryInfo:
    return CategoryInfo(
        cat.code,
        cat.name,
        sorted(nos),
        cat.rating_min,
        cat.rating_max,
        cat.unrated,
        None if cat.born_from is None else cat.born_from.isoformat(),
        None if cat.born_to is None else cat.born_to.isoformat(),
        cat.sex,
        None if cat.federations is None else list(cat.federations),
        None if cat.members is None else list(cat.members),
    )


async def list_categories(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    projection = (await readable(request, tid)).projection  # the public one under a delay
    cached = validator(request, projection)
    if (hit := not_modified(request, cached)) is not None:
        return hit
    return dressed(json_response(CategoryList(category_infos(projection.state))), cached)


async def rating_change(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    no = int(request.match_info["start_no"])
    projection = (await readable(request, tid)).projection  # no held result shown
    if no not in projection.state.participants:
        raise NotFound.of("api.no_participant", no=no)
    cached = validator(request, projection)
    if (hit := not_modified(request, cached)) is not None:
        return hit
    return dressed(json_response(ratings.of(projection.state, no)), cached)


async def participant_categories(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    no = int(request.match_info["start_no"])
    projection = (await readable(request, tid)).projection
    if no not in projection.state.participants:
        raise NotFound.of("api.no_participant", no=no)
    cached = validator(request, projection)
    if (hit := not_modified(request, cached)) is not None:
        return hit
    return dressed(json_response(CategoryRanks(no, category_ranks(projection, no))), cached)


def view_queries(request: web.Request) -> tuple[str | None, bool]:
    """`category=` (a code, as given) and whether `with=rating_change` was asked."""
    category = request.query.get("category")
    if category is not None and not category:
        raise InvalidInput(Said("api.category_code"), path="category")
    return category, rating_change_query(request)


def view(doc: DbStandings, state: TournamentState, category: str | None, rated: bool) -> None:
    """`doc` restricted to `category` (ranks counted inside it) and/or its rows with their
    rating change, read from `state` (the tournament at the document's position)."""
    try:
        document_view(doc, state, category, rated)
    except UnknownCategory as err:
        raise NotFound(err.said()) from None


def export_views(state: TournamentState, fmt: str, category: str | None, rated: bool) -> None:
    """An export's `category=` and `with=rating_change`: the csv and html standings only (422),
    a category the tournament defines (404)."""
    if (category is not None or rated) and fmt not in ("csv", "html"):
        raise InvalidInput(Said("api.views_csv_html", format=fmt), path="format")
    if category is not None and find(state, category) is None:
        raise NotFound(UnknownCategory(category, state).said())


async def state_at(store: EventStore, tid: str, seq: int) -> TournamentState:
    """The tournament folded up to `seq` (a past position's categories and games)."""

    def fold() -> TournamentState:
        state = TournamentState()
        for rec in itertools.takewhile(lambda r: r.seq <= seq, store.read(tid)):
            state.apply(rec.event)
        return state

    return await asyncio.to_thread(fold)


async def past_view(
    request: web.Request, tid: str, seq: int, body: bytes, category: str | None, rated: bool
) -> bytes:
    """A past position's document (`body`, from time travel) as `view` makes it."""
    doc = msgspec.json.decode(body, type=DbStandings)
    view(doc, await state_at(request.app[STORE], tid, seq), category, rated)
    return msgspec.json.encode(doc)


ENDPOINTS = [
    Endpoint(
        method="GET",
        path=BASE + "/categories",
        handler=list_categories,
        summary="The tournament's categories: their criteria and members",
        response=CategoryList,
        errors=READ_ERRORS,
    ),
    Endpoint(
        method="GET",
        path=PARTICIPANT + "/rating",
        handler=rating_change,
        summary="A participant's rating change: K, each rated game, the total, the running game",
        response=RatingChange,
        errors=READ_ERRORS,
    ),
    Endpoint(
        method="GET",
        path=PARTICIPANT + "/categories",
        handler=participant_categories,
        summary="A participant's rank in each of its categories (counted inside it)",
        response=CategoryRanks,
        errors=READ_ERRORS,
    ),
]


def routes() -> list[web.RouteDef]:
    return route_defs(ENDPOINTS)
