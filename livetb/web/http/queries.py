"""Unknown query parameters refused: `?limt=5` is a 422 naming `limt`, not a silent default.

One check for the API (`/api/…`) and the feed (`/ws`), from the query parameters each
`Endpoint` declares (the ones the OpenAPI document lists). `access_token` is taken by every
read of a private tournament (`auth.credentials`). The pages take their own (`?lang=`,
`?top=`, `?columns=`…) and are not checked; nor is a route no `Endpoint` describes.

    check = QueryCheck(endpoints)  # then `check.middleware` in the application's list
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from aiohttp import web

from livetb.errors import InvalidInput, Said
from livetb.web.http.routing import Endpoint, Handler

ALWAYS = frozenset({"access_token"})


_PARAM = re.compile(r"\{(\w+)(?::(?:[^{}]|\{[^{}]*\})*)?\}")


def _canonical(path: str) -> str:
    """`/x/{tid:[a-z]{1,64}}` -> `/x/{tid}`, as aiohttp's `resource.canonical` has it."""
    return _PARAM.sub(lambda m: "{" + m.group(1) + "}", path)


def checked(path: str) -> bool:
    return path == "/ws" or path == "/api" or path.startswith("/api/")


class QueryCheck:
    """The parameters each (method, canonical path) declares."""

    def __init__(self, endpoints: Iterable[Endpoint]) -> None:
        self.declared: dict[tuple[str, str], frozenset[str]] = {
            (e.method, _canonical(e.path)): frozenset(q.name for q in e.query) for e in endpoints
        }

    def unknown(self, method: str, canonical: str, names: Iterable[str]) -> list[str]:
        """The names a route does not take, in the order given; none for a route unknown."""
        method = "GET" if method == "HEAD" else method
        declared = self.declared.get((method, canonical))
        if declared is None:
            return []
        return [n for n in dict.fromkeys(names) if n not in declared and n not in ALWAYS]

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        resource = request.match_info.route.resource
        if resource is not None and checked(request.path) and request.query:
            unknown = self.unknown(request.method, resource.canonical, request.query.keys())
            if unknown:
                method = "GET" if request.method == "HEAD" else request.method
                takes = sorted(self.declared[(method, resource.canonical)])
                named: str | Said = ", ".join(takes) or Said("api.takes_none")
                said = Said("api.unknown_query", name=repr(unknown[0]), takes=named)
                raise InvalidInput(said, path=unknown[0])
        return await handler(request)
