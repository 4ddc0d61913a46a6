"""The live prize list over HTTP (`livetb/projections/prizes.py`):

    GET /api/tournaments/{id}/prizes     {"status": "provisional"|"final", "awards": [...], …}

Each award: `start_no`, `name`, `list` ("main" or a category's code), `place`, `amount` (to
the currency's minor unit, "500.00"), `places` and `shared` (a share of places p..q among
`shared` participants), `label`. The table is set with `PUT /api/tournaments/{id}/prizes`
(`DefinePrizes`, `livetb/web/api/writes.py`). A public reader of a delayed tournament sees the
list of the delayed standings.
"""

from __future__ import annotations

from aiohttp import web

from livetb.projections.prizes import prize_list
from livetb.web.http.caching import dressed, not_modified, validator
from livetb.web.http.public import readable
from livetb.web.http.routing import BASE, READ_ERRORS, Endpoint, json_response, route_defs
from livetb.wire.prizes import PrizeList


async def prizes(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    projection = (await readable(request, tid)).projection
    cached = validator(request, projection)
    if (hit := not_modified(request, cached)) is not None:
        return hit
    return dressed(json_response(prize_list(projection)), cached)


ENDPOINTS = [
    Endpoint(
        method="GET",
        path=BASE + "/prizes",
        handler=prizes,
        summary="The prize list if the tournament ended now (final after the last round)",
        response=PrizeList,
        errors=READ_ERRORS,
    ),
]


def routes() -> list[web.RouteDef]:
    return route_defs(ENDPOINTS)
