"""The crosstable over HTTP (`livetb/projections/crosstable.py`):

    GET /api/tournaments/{id}/crosstable     {"tiebreaks": [...], "rows": [...], …}

Each row: `rank`, `start_no`, `name`, `rating`, `title`, `federation`, `points`, the standings'
`values` and `statuses`, and `rounds` (`round`, `opponent`, `colour`, `result` as a TRF code,
`points`). It grows with the field, so it is computed off the loop and kept per log position,
like a card. A public reader of a delayed tournament sees the crosstable of the delayed
standings; a team tournament has none (404).
"""

from __future__ import annotations

from collections.abc import Hashable

import msgspec
from aiohttp import web

from livetb.errors import NotFound
from livetb.projections import crosstable
from livetb.projections.standings import StandingsProjection
from livetb.web.http.caching import dressed, not_modified, validator
from livetb.web.http.public import readable
from livetb.web.http.routing import BASE, READ_ERRORS, Endpoint, route_defs
from livetb.web.http.throttle import limited
from livetb.web.keys import OFFLOAD


async def crosstable_read(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    projection = (await readable(request, tid)).projection
    created = projection.state.created
    if created is not None and created.kind == "team":  # found here, not in the worker
        raise NotFound.of("api.team_crosstable")
    cached = validator(request, projection)
    if (hit := not_modified(request, cached)) is not None:
        return hit
    async with limited(request):
        _, body = await request.app[OFFLOAD].run(crosstable_json, tid, projection.seq, None)
    return dressed(web.Response(body=body, content_type="application/json"), cached)


def crosstable_json(projection: StandingsProjection, what: Hashable) -> bytes:
    """In the offload worker: the crosstable at the projection's seq, encoded."""
    return msgspec.json.encode(crosstable.build(projection))


ENDPOINTS = [
    Endpoint(
        method="GET",
        path=BASE + "/crosstable",
        handler=crosstable_read,
        summary="The crosstable: each participant's rounds (opponent, colour, result), "
        "points and tie-breaks, in standings order",
        response=crosstable.Crosstable,
        errors=(*READ_ERRORS, 429),
    ),
]


def routes() -> list[web.RouteDef]:
    return route_defs(ENDPOINTS)
