"""`livetb.client.follow` (and `livetb watch` on it) rides out what passes — a server not up
yet, 503s while it sheds load or its store is down, 1011 and 1001 closes — and stops only on
an answer that would not change."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp
import pytest
from aiohttp import WSCloseCode, web
from pytest_aiohttp import AiohttpServer
from websockets.exceptions import InvalidStatus

from livetb.client import LocalStandings, follow
from livetb.client.watch import watch
from livetb.web import Config, create_app
from livetb.web.keys import HUB
from tests.campaign.server import free_port
from tests.web.conftest import TID, Api

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def flaky_app(tmp_path: Path, answers: list[str]) -> web.Application:
    """The server, whose next feed handshakes are answered as `answers` says: "503" (store
    unavailable), "403", "1011" (accepted, then closed as an internal error); then served."""
    app = create_app(Config(db_path=str(tmp_path / "live.sqlite"), heartbeat=5.0, poll_interval=0))

    @web.middleware
    async def flaky(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path != "/ws" or not answers:
            return await handler(request)
        answer = answers.pop(0)
        if answer == "503":
            raise web.HTTPServiceUnavailable(headers={"Retry-After": "0"})
        if answer == "403":
            raise web.HTTPForbidden()
        ws = web.WebSocketResponse(protocols=("livetb",))
        await ws.prepare(request)
        await ws.close(code=WSCloseCode.INTERNAL_ERROR, message=b"internal error")
        return ws

    app.middlewares.append(flaky)
    return app


async def until(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_follow_reconnects_through_refusals_503s_and_closes(
    aiohttp_server: AiohttpServer, tmp_path: Path
) -> None:
    port = free_port()
    local, seen = LocalStandings(), []

    async def viewer() -> None:
        async for message in follow(
            f"http://127.0.0.1:{port}", TID, local, retry=0.02, max_retry=0.1
        ):
            seen.append(type(message).__name__)

    task = asyncio.ensure_future(viewer())
    try:
        await asyncio.sleep(0.3)  # nothing listens yet: connections refused
        assert not task.done()
        answers = ["503", "503", "1011"]
        server = await aiohttp_server(flaky_app(tmp_path, answers), port=port)
        async with aiohttp.ClientSession() as session:
            api = Api(server, session)
            head = await api.start(players=4)
            await until(lambda: local.seq == head)
            assert answers == []  # both 503s and the 1011 close were ridden out
            await server.app[HUB].close()  # a restart's 1001 GOING_AWAY
            status, body = await api.post(
                f"/api/tournaments/{TID}/rounds/1/results", {"board": 1, "result": "1-0"}
            )
            assert status == 201
            await until(lambda: local.seq == body["seq"])
            expected = await api.standings()
        assert local.as_builtins() == expected
        assert not task.done()
        # A resume ends its missed deltas with a ping (caught up): the last word is the delta's.
        words = [kind for kind in seen if kind != "PingMessage"]
        assert words[0] == "SnapshotMessage" and words[-1] == "DeltaMessage"
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


@pytest.mark.parametrize(("answers", "status"), [([], 404), (["403"], 403)])
async def test_follow_stops_on_an_answer_that_would_not_change(
    aiohttp_server: AiohttpServer, tmp_path: Path, answers: list[str], status: int
) -> None:
    server = await aiohttp_server(flaky_app(tmp_path, answers))
    async with aiohttp.ClientSession() as session:
        await Api(server, session).start(players=2)
    tid = "nobody" if status == 404 else TID
    with pytest.raises(InvalidStatus) as refused:
        async for _ in follow(f"http://127.0.0.1:{server.port}", tid, retry=0.02):
            pass
    assert refused.value.response.status_code == status


async def test_watch_draws_the_standings_after_a_503(
    aiohttp_server: AiohttpServer, tmp_path: Path
) -> None:
    answers = ["503"]
    server = await aiohttp_server(flaky_app(tmp_path, answers))
    async with aiohttp.ClientSession() as session:
        await Api(server, session).start(players=4)
    out = io.StringIO()
    local = await asyncio.wait_for(
        watch(f"http://127.0.0.1:{server.port}", TID, count=1, out=out), timeout=30
    )
    assert answers == [] and local.seq == 6  # create, 4 players, the pairing
    assert "Ann" in out.getvalue()
