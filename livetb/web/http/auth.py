"""Who may do what: writes need an arbiter token of their tournament (none, unknown or
revoked is 401, another tournament's or an organiser's is 403); creating a tournament also
takes an organiser token. Reads are public, except those of a private tournament, which need
one of its tokens too (`Authorization: Bearer`, the websocket subprotocol `bearer.<token>`, or
`?access_token=` where headers cannot be set).

    await authorize(f"Bearer {token}", tokens, "t-3f9c01ab")  # -> "arbiter:1a2b3c4d"
    await authorize_creation(f"Bearer {organiser}", tokens, "t-new")
    # -> Creator(actor="organiser:5e6f7a8b", organiser=True)
"""

from __future__ import annotations

import asyncio
from typing import NamedTuple

from aiohttp import hdrs, web

from livetb.errors import LivetbError, NotAuthenticated, Said, UnknownTournament, WrongTournament
from livetb.projections.standings import StandingsProjection
from livetb.tokens.store import ORGANISER, Grant, Tokens, actor, fingerprint
from livetb.web.keys import SERVICE, TOKENS


class OrganiserToken(WrongTournament):
    """An organiser token used for anything but creating a tournament (403)."""

    def __init__(self, tournament_id: str) -> None:
        self.tournament_id = tournament_id
        LivetbError.__init__(self, Said("access.organiser_token", tournament=tournament_id))


# What a missing token is refused for (`api.token_needed`), in the reader's words.
WRITES = Said("api.token_for.writes")
READS = Said("api.token_for.reads")
AUDIT = Said("api.token_for.audit")


class Creator(NamedTuple):
    """Who creates a tournament: the actor the log records, and whether it is an organiser
    (whose answer then carries the new tournament's first arbiter token)."""

    actor: str
    organiser: bool


async def _grant(header: str | None, tokens: Tokens, what: Said) -> tuple[str, Grant]:
    """The bearer token of `header` and what it allows; 401 without a live one. The lookup
    runs in a thread, off the event loop."""
    scheme, _, token = (header or "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise NotAuthenticated.of("api.token_needed", what=what)
    found = await asyncio.to_thread(tokens.grant, token)
    if found is None:
        raise NotAuthenticated.of("api.token_unknown")
    return token, found


async def authorize(
    header: str | None, tokens: Tokens, tournament_id: str, *, what: Said = WRITES
) -> str:
    """The actor recorded for a write to `tournament_id` by the `Authorization` header's
    bearer token, which must be one of its arbiter tokens; 401 or 403 otherwise."""
    token, found = await _grant(header, tokens, what)
    if found.kind == ORGANISER:
        raise OrganiserToken(tournament_id)
    if found.tournament_id != tournament_id:
        raise WrongTournament(tournament_id)
    return actor(fingerprint(token))


async def authorize_creation(header: str | None, tokens: Tokens, tournament_id: str) -> Creator:
    """Who may create `tournament_id`: an organiser token (whether the id is free is the
    command's check, `TournamentExists`), or an arbiter token made for this id beforehand
    (`livetb token create --tournament ID`); 401 or 403 otherwise."""
    token, found = await _grant(header, tokens, WRITES)
    if found.kind == ORGANISER:
        return Creator(actor(fingerprint(token), ORGANISER), organiser=True)
    if found.tournament_id != tournament_id:
        raise WrongTournament(tournament_id)
    return Creator(actor(fingerprint(token)), organiser=False)


async def check_read(request: web.Request, tid: str) -> StandingsProjection:
    """The caught-up projection of `tid` (404 if unknown); a private tournament's reads need
    one of its tokens, as a bearer header, the websocket subprotocol or `?access_token=`.
    Without one it answers as an unknown tournament does (404): a caller without its token
    must not learn that a private tournament exists."""
    projection = await request.app[SERVICE].current(tid)
    created = projection.state.created
    if created is not None and created.private:
        try:
            await authorize(credentials(request), request.app[TOKENS], tid, what=READS)
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
