"""`GET /ws?tournament=ID[&since=SEQ][&top=N|&participants=1,5,9][&category=CODE]`: the
standings feed over a websocket (`top`/`participants`/`category`: only those rows, see
`livetb/web/feed/hub.py`).

The first message is a snapshot (or, with `since=`, exactly the deltas missed after SEQ and a
ping, or a snapshot when those are gone or weigh more); then one delta per event, pings when
idle.
A viewer may resume on another node than the one it left, which may not have reached SEQ
yet: the live projection is caught up from the store before anything is sent (`check_read`),
and a public one waits up to `RESUME_WAIT` for this node's release of SEQ
(`Delays.reach`), so what is sent starts after SEQ, never before it. Only a SEQ beyond
anything this node's store holds or releases in that time gets the older snapshot.
Under a broadcast delay a viewer without a token of the tournament follows the public
projection (`livetb/app/delay.py`): its snapshot, deltas and seqs are the delayed log's.
Viewers send nothing the server needs; only this handler reads the socket (aiohttp's rule),
the subscriber's sender task writes to it.
"""

from __future__ import annotations

import asyncio
import logging

import msgspec
from aiohttp import WSCloseCode, WSMsgType, web

from livetb.errors import InvalidInput, NotFound, Said, UnknownTournament
from livetb.projections.categories import UnknownCategory, find
from livetb.tokens.store import Tokens
from livetb.web.feed.hub import Subscriber, public_channel
from livetb.web.feed.views import Filter
from livetb.web.http.auth import check_read, credentials
from livetb.web.http.limits import int_query, is_number, rating_change_query
from livetb.web.http.public import reads_live
from livetb.web.http.routing import Endpoint, Query, route_defs
from livetb.web.keys import CONFIG, HUB, SERVICE, TOKENS
from livetb.wire.messages import DeltaMessage, PingMessage, SnapshotMessage

log = logging.getLogger(__name__)

# Seconds a resume waits for this node to release a public seq another node released first
# (its timer late on a busy loop, its clock behind by a little).
RESUME_WAIT = 5.0


class AiohttpSocket:
    """`feed.Socket` over aiohttp's websocket: frames are already-encoded JSON text."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request) -> None:
        self.ws = ws
        self.request = request
        # Written to directly only without per-message deflate (the frames are uncompressed).
        self._direct = None if ws.compress else request.transport

    async def send(self, frame: bytes) -> None:
        await self.ws.send_frame(frame, WSMsgType.TEXT)

    def send_now(self, wire: bytes) -> bool:
        # Straight to the transport, as aiohttp's writer does for an uncompressed frame (which
        # it writes whole, so frames never interleave); only into an empty buffer, so a viewer
        # that does not read ends up on the queue, whose sender waits for the buffer to drain.
        transport = self._direct
        if (
            transport is None
            or self.ws.closed
            or transport.is_closing()
            or transport.get_write_buffer_size()
        ):
            return False
        transport.write(wire)
        return True

    async def close(self) -> None:
        await self.ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")

    def abort(self) -> None:
        transport = self.request.transport
        if transport is not None:
            transport.abort()


def view_filter(request: web.Request) -> Filter | None:
    """`top=N` or `participants=1,5,9` (not both), or `category=CODE` (with or without
    `top=N`); `with=rating_change` besides any of them (alone: every row); None: every row
    as they are."""
    found = rows_filter(request)
    if not rating_change_query(request):
        return found
    return msgspec.structs.replace(found or Filter(), rated=True)


def rows_filter(request: web.Request) -> Filter | None:
    """The rows of `view_filter`."""
    top = int_query(request, "top", low=1)
    listed = request.query.get("participants")
    category = request.query.get("category")
    if category is not None:
        if listed is not None:
            said = Said("api.not_both", first="category", second="participants")
            raise InvalidInput(said, path="category")
        if not category:
            raise InvalidInput(Said("api.category_code"), path="category")
        return Filter(top=top, category=category)
    if top is not None and listed is not None:
        said = Said("api.not_both", first="top", second="participants")
        raise InvalidInput(said, path="participants")
    if top is not None:
        return Filter(top=top)
    if listed is None:
        return None
    parts = [p.strip() for p in listed.split(",")]
    if len(parts) > 500 or not all(is_number(p) and 1 <= int(p) <= 9999 for p in parts):
        raise InvalidInput(Said("api.participants", value=repr(listed)), path="participants")
    return Filter(participants=frozenset(map(int, parts)))


async def feed(request: web.Request) -> web.StreamResponse:
    tid = request.query.get("tournament")
    if not tid:
        raise InvalidInput(Said("api.feed_tournament"), path="tournament")
    since = int_query(request, "since")
    wanted = view_filter(request)
    service, hub, config = request.app[SERVICE], request.app[HUB], request.app[CONFIG]
    checked = await check_read(request, tid)  # unknown: 404, private without its token: 401/403
    category = wanted.category if wanted is not None else None
    if category is not None and find(checked.state, category) is None:
        raise NotFound(UnknownCategory(category, checked.state).said())
    private = checked.state.created is not None and checked.state.created.private
    # A token of the tournament follows it live under a broadcast delay; anybody else the
    # public channel (`livetb/app/delay.py`). Looked up only when a token is offered.
    live_reader = await reads_live(request, tid)
    public = None if live_reader else await service.public_view(tid)
    if public is not None and public.seq == 0:  # nothing public yet
        raise UnknownTournament(tid)
    if since is not None and public is not None and since > public.seq:
        await service.delays.reach(tid, since, RESUME_WAIT)  # another node released it first
    ws = web.WebSocketResponse(
        heartbeat=config.ws_heartbeat,
        compress=config.ws_compress,
        max_msg_size=4096,
        protocols=("livetb",),  # chosen when offered, with `bearer.<token>` (the pages)
    )
    await ws.prepare(request)
    if hub.closing:  # a handshake the server took on its way down (one waiting in the backlog)
        await ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")
        return ws
    if not live_reader:  # a delay turned on meanwhile: its public projection built
        await service.delays.ready(tid)
    # No await from reading the projection to subscribing: nothing published in between.
    public = None if live_reader else service.public(tid)  # (the delay may have ended)
    if public is None and not live_reader and service.delays.delayed(tid):
        await ws.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"delay being set")
        return ws  # (turned off and on again meanwhile: the viewer reconnects)
    projection = public or service.live(tid)
    channel = tid if public is None else public_channel(tid)
    view = hub.view(channel, wanted, projection)

    def snapshot() -> bytes:  # of the channel the viewer is on now (a delay moves it)
        if sub.channel == tid:
            return hub.snapshot(tid, service.live(tid), sub.view)
        seen = service.public(tid)
        if seen is None:  # never the live standings: the viewer reconnects (`Subscriber.run`)
            raise RuntimeError("the public standings are being built")
        return hub.snapshot(sub.channel, seen, sub.view)

    sub = Subscriber(
        AiohttpSocket(ws, request),
        hub.opening(channel, projection, since, view),
        snapshot,
        queue_size=config.queue_size,
        heartbeat=config.heartbeat,
        send_timeout=config.send_timeout,
        view=view,
    )
    sub.public = not live_reader
    hub.subscribe(channel, sub)
    guard = None
    if private:  # the feed lasts as long as the token that opened it
        token = (credentials(request) or "").partition(" ")[2].strip()
        guard = asyncio.ensure_future(close_when_revoked(ws, request.app[TOKENS], token, tid))
    try:
        async for _ in ws:  # pings, pongs and close frames are handled by aiohttp
            pass
    finally:
        hub.unsubscribe(sub.channel, sub)
        if sub.task is not None:
            sub.task.cancel()
        if guard is not None:
            guard.cancel()
    return ws


REVOCATION_CHECK = 0.5  # seconds: a revoked token's feeds close within this
REVOCATION_RETRY_MOST = 5.0  # seconds between checks while the store does not answer


class _Outage:
    """Whether the revocation checks are failing now: told once for every feed's checks."""

    down = False


async def close_when_revoked(
    ws: web.WebSocketResponse, tokens: Tokens, token: str, tid: str
) -> None:
    """Close a private feed once its token is revoked (one indexed lookup per check). A
    check the store fails is made again with backoff: the feed closes once it answers."""
    wait = REVOCATION_CHECK
    while not ws.closed:
        await asyncio.sleep(wait)
        try:
            scope = await asyncio.to_thread(tokens.scope, token)
        except Exception as err:
            if not _Outage.down:
                _Outage.down = True
                reason = " ".join(str(err).split()) or type(err).__name__
                log.warning("checking feeds' tokens failed (%s); retrying", reason)
            wait = min(wait * 2, REVOCATION_RETRY_MOST)
            continue
        if _Outage.down:
            _Outage.down = False
            log.warning("checking feeds' tokens again")
        wait = REVOCATION_CHECK
        if scope != tid:
            await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"token revoked")
            return


async def close_feeds(app: web.Application) -> None:
    """on_shutdown: every viewer is told GOING_AWAY and reconnects with since=; a handshake
    the server still finishes on its way down is sent away too."""
    app[HUB].closing = True
    await app[HUB].close()


ENDPOINTS = [
    Endpoint(
        method="GET",
        path="/ws",
        handler=feed,
        summary="The standings feed (websocket, wire v2): a snapshot, then one delta per event;"
        " a private tournament's token as `Authorization: Bearer`, or from a browser as the"
        " subprotocol `bearer.<token>` offered with `livetb`",
        status=101,
        messages=(SnapshotMessage, DeltaMessage, PingMessage),
        media="",
        errors=(400, 401, 403, 404, 422),
        query=(
            Query("tournament", "the tournament to watch", "string", required=True),
            Query("since", "resume after this seq: the deltas missed, or a snapshot"),
            Query(
                "top", "only the first N rows (deltas `drop` the rows that leave them)", minimum=1
            ),
            Query("participants", "only these start numbers, e.g. 1,5,9", "string"),
            Query(
                "category",
                "only this category's standings (its code; with `top`, its first N rows)",
                "string",
            ),
            Query(
                "with",
                "rating_change: rows with their `rating_change`, deltas with the changed ones",
                "string",
            ),
            Query("access_token", "a token of a private tournament", "string"),
        ),
    )
]


def routes() -> list[web.RouteDef]:
    return route_defs(ENDPOINTS)
