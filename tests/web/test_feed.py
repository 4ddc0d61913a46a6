"""The websocket feed with real `websockets` clients: snapshots, deltas, resumes, pings,
slow viewers and shutdown."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from livetb.client import LocalStandings, feed_url
from livetb.web.feed.socket import AiohttpSocket
from livetb.web.keys import HUB
from livetb.wire.messages import decode_message
from tests.web.conftest import TID, Api, ApiFactory, recv, recv_any

T = f"/api/tournaments/{TID}"


async def viewer(api: Api, since: int | None = None) -> ClientConnection:
    return await connect(feed_url(api.base, TID, since))


async def test_a_posted_result_reaches_three_viewers_as_the_get_would_show_it(api: Api) -> None:
    head = await api.start()
    viewers = [await viewer(api) for _ in range(3)]
    locals_ = [LocalStandings() for _ in viewers]
    for ws, local in zip(viewers, locals_, strict=True):
        snapshot = await recv(ws)
        assert (snapshot["type"], snapshot["seq"]) == ("snapshot", head)
        assert snapshot["standings"] == await api.standings()
        local.apply(decode_message(json.dumps(snapshot)))
    await api.post(f"{T}/rounds/1/results", {"board": 2, "result": "0-1"})
    fresh = await api.standings()
    for ws, local in zip(viewers, locals_, strict=True):
        delta = await recv(ws)
        assert (delta["type"], delta["seq"]) == ("delta", head + 1)
        assert {4, 3} <= {row["start_no"] for row in delta["rows"]}
        local.apply(decode_message(json.dumps(delta)))
        assert local.as_builtins() == fresh
        await ws.close()


async def test_every_event_is_a_delta_even_when_no_row_changes(api: Api) -> None:
    head = await api.start()
    ws = await viewer(api)
    await recv(ws)
    await api.post(f"{T}/withdrawals", {"start_no": 8, "from_round": 3})
    assert await recv(ws) == {
        "type": "delta",
        "seq": head + 1,
        "after_round": 0,
        "round_in_progress": 1,
    }
    await ws.close()


async def test_since_resumes_with_exactly_the_missed_deltas(make_api: ApiFactory) -> None:
    api = await make_api(heartbeat=3600.0)  # any ping below is the caught-up one
    await api.start(players=40)
    ws = await viewer(api)
    seen = (await recv(ws))["seq"]
    await ws.close()
    # Small deltas: a first result re-ranks a field of zeros, its delta nears a snapshot's size
    await api.post(f"{T}/withdrawals", {"start_no": 40, "from_round": 3})
    await api.post(f"{T}/byes", {"start_no": 39, "round": 2})
    await api.post(f"{T}/byes", {"start_no": 38, "round": 2, "points": "zero"})
    ws = await viewer(api, since=seen)
    got = [await recv_any(ws) for _ in range(4)]
    # The missed deltas, then a ping: caught up (a page says "live" from there, not before).
    assert [(m["type"], m.get("seq")) for m in got] == [
        *[("delta", seen + i) for i in (1, 2, 3)],
        ("ping", None),
    ]
    with pytest.raises(TimeoutError):
        await recv(ws, timeout=0.3)  # nothing more, nothing twice
    await ws.close()
    ws = await viewer(api, since=seen + 3)  # up to date: nothing missed, caught up at once
    assert await recv_any(ws) == {"type": "ping"}
    with pytest.raises(TimeoutError):
        await recv(ws, timeout=0.3)
    await ws.close()


async def test_since_older_than_the_ring_gets_a_fresh_snapshot(make_api: ApiFactory) -> None:
    api = await make_api(ring_size=2)
    head = await api.start()
    for board in (1, 2, 3):
        await api.post(f"{T}/rounds/1/results", {"board": board, "result": "1-0"})
    ws = await viewer(api, since=head)  # three missed, the ring holds two
    msg = await recv(ws)
    assert (msg["type"], msg["seq"]) == ("snapshot", head + 3)
    await ws.close()
    ws = await viewer(api, since=head + 99)  # from the future (another database?): snapshot
    assert (await recv(ws))["type"] == "snapshot"
    await ws.close()


async def test_since_gets_a_snapshot_when_the_deltas_weigh_more(api: Api) -> None:
    head = await api.start(players=2)
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"})
    for result in ["0-1", "1-0"] * 4:
        body = {"board": 1, "result": result, "reason": "r"}
        await api.call("PUT", f"{T}/rounds/1/results", body)
    ws = await viewer(api, since=head)  # nine deltas of 2 rows each, one snapshot of 2 rows
    msg = await recv(ws)
    assert (msg["type"], msg["seq"]) == ("snapshot", head + 9)
    await ws.close()


async def test_an_unknown_tournament_is_refused_before_the_upgrade(api: Api) -> None:
    with pytest.raises(InvalidStatus) as err:
        await connect(feed_url(api.base, "nope"))
    assert err.value.response.status_code == 404
    with pytest.raises(InvalidStatus) as err:
        await connect(f"{api.ws_base}/ws")
    assert err.value.response.status_code == 422


async def test_idle_viewers_get_pings(make_api: ApiFactory) -> None:
    api = await make_api(heartbeat=0.1)
    await api.start()
    async with connect(feed_url(api.base, TID)) as ws:
        assert json.loads(await ws.recv())["type"] == "snapshot"
        assert json.loads(await asyncio.wait_for(ws.recv(), 30)) == {"type": "ping"}


def stalled_viewer(api: Api) -> socket.socket:
    """A websocket client that completes the handshake, then never reads again."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((api.server.host, api.server.port))
    sock.sendall(
        f"GET /ws?tournament={TID} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    return sock


async def test_a_viewer_that_stops_reading_does_not_delay_the_others(
    make_api: ApiFactory,
) -> None:
    # A stalled viewer keeps its socket for an hour: a hub that waited for it would hold the
    # other viewer's deltas past recv's generous timeout.
    api = await make_api(queue_size=8, send_timeout=3600)
    await api.start(players=120)
    stalled = stalled_viewer(api)
    hub = api.server.app[HUB]
    while not list(hub.subscribers(TID)):
        await asyncio.sleep(0.01)
    # Loopback buffers hold megabytes: shrink the server's side to see the stall sooner.
    (sub,) = hub.subscribers(TID)
    viewer = sub.socket
    assert isinstance(viewer, AiohttpSocket) and viewer.request.transport is not None
    sock = viewer.request.transport.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    try:
        async with connect(feed_url(api.base, TID)) as ws:
            await recv(ws)
            # v2 deltas are small: a result and its correction per board fill the buffers.
            for board in range(1, 61):
                for method, result in (("POST", "1-0"), ("PUT", "0-1")):
                    status, body = await api.call(
                        method,
                        f"{T}/rounds/1/results",
                        {"board": board, "result": result, "reason": "swap"}
                        if method == "PUT"
                        else {"board": board, "result": result},
                    )
                    assert status in (200, 201), body
                    while (await recv(ws))["seq"] != body["seq"]:
                        pass
            # The stalled viewer is behind: frames wait in its queue or its socket's buffer
            # (v2 deltas are small: aiohttp buffers 64 KiB before its writer waits).
            behind = sub.stale or sub.resyncs or not sub.queue.empty()
            buffered = viewer.request.transport.get_write_buffer_size()
            assert len(list(hub.subscribers(TID))) == 2 and (behind or buffered > 8192)
    finally:
        stalled.close()


async def test_shutdown_tells_viewers_going_away(api: Api) -> None:
    await api.start()
    ws = await connect(feed_url(api.base, TID))
    await recv(ws)
    await api.server.close()
    with pytest.raises(ConnectionClosed) as err:
        await recv(ws)
    assert err.value.rcvd is not None and err.value.rcvd.code == 1001


def test_the_ring_keeps_recent_frames_within_its_count_and_bytes() -> None:
    from livetb.projections.standings import Delta, StandingsProjection
    from livetb.web.feed.hub import Hub

    hub = Hub(ring_size=3, ring_bytes=10**6)
    projection = StandingsProjection()
    for seq in range(1, 6):
        hub.publish(TID, Delta(seq, ()), projection)
    assert hub.missed(TID, 2, 5) is not None and hub.missed(TID, 1, 5) is None
    small = Hub(ring_size=100, ring_bytes=150)  # an empty delta's frame is about 75 bytes
    for seq in range(1, 6):
        small.publish(TID, Delta(seq, ()), projection)
    assert small.missed(TID, 3, 5) is not None and small.missed(TID, 2, 5) is None
    hub.publish(TID, Delta(9, ()), projection)  # a gap: the ring restarts
    assert hub.missed(TID, 8, 9) is not None and hub.missed(TID, 4, 9) is None
