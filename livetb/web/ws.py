"""`GET /ws?tournament=ID[&since=SEQ]`: the standings feed over a websocket.

The first message is a snapshot (or, with `since=`, exactly the deltas missed after SEQ, or a
snapshot when those are gone or weigh more); then one delta per event, pings when idle.
Viewers send nothing the server needs; only this handler reads the socket (aiohttp's rule),
the subscriber's sender task writes to it.
"""

from __future__ import annotations

from aiohttp import WSCloseCode, WSMsgType, web

from livetb.errors import InvalidInput
from livetb.web.api import int_query
from livetb.web.feed import Subscriber
from livetb.web.keys import CONFIG, HUB, SERVICE


class AiohttpSocket:
    """`feed.Socket` over aiohttp's websocket: frames are already-encoded JSON text."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request) -> None:
        self.ws = ws
        self.request = request

    async def send(self, frame: bytes) -> None:
        await self.ws.send_frame(frame, WSMsgType.TEXT)

    async def close(self) -> None:
        await self.ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")

    def abort(self) -> None:
        transport = self.request.transport
        if transport is not None:
            transport.abort()


async def feed(request: web.Request) -> web.StreamResponse:
    tid = request.query.get("tournament")
    if not tid:
        raise InvalidInput("tournament: the id of the tournament to watch", path="tournament")
    since = int_query(request, "since")
    service, hub, config = request.app[SERVICE], request.app[HUB], request.app[CONFIG]
    service.catch_up(tid)  # an unknown tournament is a 404 before the upgrade
    ws = web.WebSocketResponse(
        heartbeat=config.heartbeat, compress=config.ws_compress, max_msg_size=4096
    )
    await ws.prepare(request)
    # No await from reading the projection to subscribing: nothing published in between.
    projection = service.catch_up(tid)
    sub = Subscriber(
        AiohttpSocket(ws, request),
        hub.opening(tid, projection, since),
        lambda: hub.snapshot(tid, service.catch_up(tid)),
        queue_size=config.queue_size,
        heartbeat=config.heartbeat,
        send_timeout=config.send_timeout,
    )
    hub.subscribe(tid, sub)
    try:
        async for _ in ws:  # pings, pongs and close frames are handled by aiohttp
            pass
    finally:
        hub.unsubscribe(tid, sub)
        if sub.task is not None:
            sub.task.cancel()
    return ws


async def close_feeds(app: web.Application) -> None:
    """on_shutdown: every viewer is told GOING_AWAY and reconnects with since=."""
    await app[HUB].close()


def routes() -> list[web.RouteDef]:
    return [web.get("/ws", feed)]
