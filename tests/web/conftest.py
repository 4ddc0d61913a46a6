"""A real server on a loopback port (aiohttp's TestServer) and small HTTP helpers."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer
from pytest_aiohttp import AiohttpServer
from websockets.asyncio.client import ClientConnection

from livetb.web import Config, create_app
from livetb.web.keys import STORE, TOKENS

TID = "t1"
NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]


class Api:
    """An arbiter's HTTP client for one server: `await api.post(path, json)` -> (status, body)."""

    def __init__(self, server: TestServer, session: aiohttp.ClientSession) -> None:
        self.server = server
        self.session = session
        self.base = f"http://{server.host}:{server.port}"
        self.ws_base = f"ws://{server.host}:{server.port}"
        self.token = server.app[TOKENS].create(TID)

    @property
    def store(self) -> Any:
        return self.server.app[STORE]

    async def call(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        token: str | None = "default",
        headers: dict[str, str] | None = None,
        data: bytes | None = None,
    ) -> tuple[int, Any]:
        sent = dict(headers or {})
        if token is not None:
            sent["Authorization"] = f"Bearer {self.token if token == 'default' else token}"
        async with self.session.request(
            method, self.base + path, json=body, data=data, headers=sent
        ) as resp:
            return resp.status, await resp.json()

    async def post(self, path: str, body: object = None, **kw: Any) -> tuple[int, Any]:
        return await self.call("POST", path, body, **kw)

    async def get(self, path: str) -> Any:
        status, body = await self.call("GET", path, token=None)
        assert status == 200, body
        return body

    async def standings(self, tid: str = TID) -> Any:
        return await self.get(f"/api/tournaments/{tid}/standings")

    async def start(
        self, players: int = 8, tiebreaks: tuple[str, ...] = ("PTS", "BH", "FB")
    ) -> int:
        """Create `t1`, register `players`, pair round 1 (1-2, 3-4, …)."""
        t = f"/api/tournaments/{TID}"
        body = {"name": "Club", "rounds": 5, "tiebreaks": list(tiebreaks)}
        assert (await self.call("PUT", t, body))[0] == 201
        for no in range(1, players + 1):
            name = NAMES[no - 1] if no <= len(NAMES) else f"Player {no}"
            status, resp = await self.post(
                f"{t}/participants", {"start_no": no, "name": name, "rating": 2400 - 10 * no}
            )
            assert status == 201, resp
        boards = [
            {"board": b, "white": 2 * b - 1, "black": 2 * b} for b in range(1, players // 2 + 1)
        ]
        status, resp = await self.post(f"{t}/rounds/1/pairings", {"boards": boards})
        assert status == 201, resp
        return int(resp["seq"])


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return Config(db_path=str(tmp_path / "live.sqlite"), heartbeat=5.0, poll_interval=0)


@pytest.fixture
async def server(aiohttp_server: AiohttpServer, config: Config) -> TestServer:
    return await aiohttp_server(create_app(config))


@pytest.fixture
async def api(server: TestServer) -> AsyncIterator[Api]:
    async with aiohttp.ClientSession() as session:
        yield Api(server, session)


ApiFactory = Callable[..., Awaitable[Api]]


@pytest.fixture
async def make_api(aiohttp_server: AiohttpServer, config: Config) -> AsyncIterator[ApiFactory]:
    """`await make_api(ring_size=2)`: another server, with some settings changed."""
    async with aiohttp.ClientSession() as session:

        async def make(**changes: Any) -> Api:
            server = await aiohttp_server(create_app(dataclasses.replace(config, **changes)))
            return Api(server, session)

        yield make


async def recv_any(ws: ClientConnection, timeout: float = 30.0) -> dict[str, Any]:
    """The next feed message, a ping included."""
    msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
    return msg


async def recv(ws: ClientConnection, timeout: float = 30.0) -> dict[str, Any]:
    """The next feed message that is not a ping."""
    while (msg := await recv_any(ws, timeout))["type"] == "ping":
        pass
    return msg
