"""Who may do what: writes need a token for their tournament (none, unknown or revoked is
401, another tournament's is 403). Reads are public, except those of a private tournament,
which need one of its tokens too (`Authorization: Bearer`, the websocket subprotocol
`bearer.<token>`, or `?access_token=` where headers cannot be set).

    await authorize(f"Bearer {token}", tokens, "t-3f9c01ab")  # -> "arbiter:1a2b3c4d"
"""

from __future__ import annotations

import asyncio

from aiohttp import hdrs, web

from livetb.errors import NotAuthenticated, UnknownTournament, WrongTournament
from livetb.projections.standings import StandingsProjection
from livetb.tokens.store import Tokens, actor, fingerprint
from livetb.web.keys import SERVICE, TOKENS


async def authorize(
    header: str | None, tokens: Tokens, tournament_id: str, *, what: str = "writes"
) -> str:
    """The actor recorded for a write to `tournament_id` by the `Authorization` header's
    bearer token; 401 or 403 otherwise. The lookup runs in a thread, off the event loop."""
    scheme, _, token = (header or "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise NotAuthenticated(f"{what} need an arbiter token: Authorization: Bearer <token>")
    scope = await asyncio.to_thread(tokens.scope, token)
    if scope is None:
        raise NotAuthenticated("unknown or revoked token")
    if scope != tournament_id:
        raise WrongTournament(tournament_id)
    return actor(fingerprint(token))


async def check_read(request: web.Request, tid: str) -> StandingsProjection:
    """The caught-up projection of `tid` (404 if unknown); a private tournament's reads need
    one of its tokens, as a bearer header, the websocket subprotocol or `?access_token=`.
    Without one it answers as an unknown tournament does (404): a caller without its token
    must not learn that a private tournament exists."""
    projection = await request.app[SERVICE].current(tid)
    created = projection.state.created
    if created is not None and created.private:
        try:
            await authorize(credentials(request), request.app[TOKENS], tid, what="reads")
        except (NotAuthenticated, WrongTournament):
            raise UnknownTournament(tid) from None
    return projection


def credentials(request: web.Request) -> str | None:
    """`Bearer <token>` from the header, the websocket subprotocol or `?access_token=`."""
    header = request.headers.get(hdrs.AUTHORIZATION) or bearer_protocol(request)
    if header is None and "access_token" in request.query:
        header = f"Bearer {request.query['access_token']}"
    return header


def bearer_protocol(request: web.Request) -> str | None:
    """A browser's websocket cannot set headers: it offers `bearer.<token>` as a subprotocol
    (next to `livetb`, which the server selects), so the token stays out of the URL."""
    offered = request.headers.get(hdrs.SEC_WEBSOCKET_PROTOCOL, "")
    for item in offered.split(","):
        if item.strip().startswith("bearer."):
            return f"Bearer {item.strip().removeprefix('bearer.')}"
    return None
