"""The route table's vocabulary: path patterns, JSON answers, and `Endpoint`, one route as
aiohttp registers it and as the OpenAPI document (`livetb/web/api/openapi.py`) describes it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

import msgspec
from aiohttp import hdrs, web

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
TID = r"{tid:[A-Za-z0-9._-]{1,64}}"
BASE = f"/api/tournaments/{TID}"
ROUND = BASE + r"/rounds/{round:[0-9]{1,6}}"  # not \d: it takes other scripts' digits too
PARTICIPANT = BASE + r"/participants/{start_no:[0-9]{1,6}}"

encode = msgspec.json.Encoder().encode


def json_response(data: object, status: int = 200, seq: int | None = None) -> web.Response:
    resp = web.Response(body=encode(data), status=status, content_type="application/json")
    if seq is not None:
        resp.headers[hdrs.ETAG] = f'"{seq}"'
    return resp


Auth = Literal["arbiter", "create", "read", "public"]
ARBITER: Final = "arbiter"
CREATE: Final = "create"  # an arbiter token made for the id, or an organiser token
READ: Final = "read"
PUBLIC: Final = "public"


class CatalogMessage(msgspec.Struct):
    """A message as a catalog key (`livetb/i18n/`) and the values it is worded with; a value
    may itself be such a message."""

    key: str
    params: dict[str, Any] = {}


class ErrorBody(msgspec.Struct, kw_only=True):
    """Every error: a machine code, a message naming the field or value (English), the same
    words as a catalog message (`said`) for a client to word in its reader's language, and
    the error's own context (`path` of a bad input, `field`/`value` of a rejected command,
    `head`, …)."""

    code: str
    message: str
    said: CatalogMessage | None = None
    path: str | None = None
    field: str | None = None
    value: Any = None


class Query(NamedTuple):
    """A query parameter a route takes, with the bounds or values its handler enforces (the
    OpenAPI document states them; any parameter a route does not declare is refused)."""

    name: str
    text: str
    type: Literal["integer", "string"] = "integer"
    required: bool = False
    minimum: int = 0  # of an integer; its maximum is `limits.MAX_INT` unless given
    maximum: int | None = None
    enum: tuple[str, ...] = ()  # the only values a string takes


@dataclass(frozen=True, kw_only=True)
class Endpoint:
    """One route: what aiohttp registers and what the OpenAPI document says about it.

    `auth`: `arbiter` needs the tournament's token, `create` that or an organiser token,
    `read` needs one only for a private tournament, `public` never. `errors` are the statuses
    it can answer besides success."""

    method: str
    path: str
    handler: Handler
    summary: str
    request: type | None = None
    response: type | None = None
    status: int = 200
    auth: Auth = READ
    errors: tuple[int, ...] = ()
    query: tuple[Query, ...] = ()
    media: str = "application/json"  # of the success response ("": none)
    trf_body: str = ""  # also takes a TRF as text/plain: what is read from it
    messages: tuple[type, ...] = ()  # a websocket's messages (documented as `x-messages`)


WRITE_ERRORS = (400, 401, 403, 404, 408, 409, 413, 422)
READ_ERRORS = (401, 403, 404)


def route_defs(endpoints: Iterable[Endpoint]) -> list[web.RouteDef]:
    """What aiohttp registers for `endpoints`."""
    return [
        web.get(e.path, e.handler) if e.method == "GET" else web.route(e.method, e.path, e.handler)
        for e in endpoints
    ]
