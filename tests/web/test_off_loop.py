"""The event loop never waits for the store. Every call into the store and the token
table (and every step of a read's iterator) made on the loop's thread is recorded while a
client goes through every kind of request; none may be."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest
from pytest_aiohttp import AiohttpServer

from livetb.backends import open_store, open_tokens
from livetb.web import Config, create_app
from livetb.web import app as app_module
from tests.web.conftest import TID, Api


class OnLoop:
    """Names of the calls made on the loop's (the main) thread while armed."""

    def __init__(self) -> None:
        self.armed = False
        self.calls: list[str] = []

    def check(self, name: str) -> None:
        if self.armed and threading.current_thread() is threading.main_thread():
            self.calls.append(name)


class Guarded:
    """`inner` with every method call (and every record a read yields) checked."""

    def __init__(self, inner: Any, seen: OnLoop) -> None:
        self._inner = inner
        self._seen = seen

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            self._seen.check(name)
            result = attr(*args, **kwargs)
            return self._each(name, result) if isinstance(result, Iterator) else result

        return call

    def _each(self, name: str, items: Iterator[Any]) -> Iterator[Any]:
        for item in items:
            self._seen.check(f"{name} (iterated)")
            yield item


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> OnLoop:
    seen = OnLoop()
    monkeypatch.setattr(app_module, "open_store", lambda t: Guarded(open_store(t), seen))
    monkeypatch.setattr(app_module, "open_tokens", lambda t: Guarded(open_tokens(t), seen))
    return seen


async def test_no_request_touches_the_store_on_the_event_loop(
    aiohttp_server: AiohttpServer, config: Config, seen: OnLoop
) -> None:
    # Threads for time travel, as processes would not see the guard; the change signal on.
    config = dataclasses.replace(config, replay_processes=False, poll_interval=0.01)
    server = await aiohttp_server(create_app(config))
    async with aiohttp.ClientSession() as session:
        api = Api(server, session)  # (its token is made here, on the test's thread)
        seen.armed = True
        t = f"/api/tournaments/{TID}"
        await api.start(players=8)
        async with session.ws_connect(f"{api.ws_base}/ws?tournament={TID}") as ws:
            assert (await ws.receive_json())["type"] == "snapshot"
            for board, result in ((1, "1-0"), (2, "0-1"), (3, "1/2-1/2"), (4, "1-0")):
                body = {"board": board, "result": result}
                assert (await api.post(f"{t}/rounds/1/results", body))[0] == 201
                assert (await ws.receive_json())["type"] == "delta"
        assert (await api.post(f"{t}/rounds/1/close?dry_run=1"))[0] == 200
        assert (await api.post(f"{t}/rounds/1/close"))[0] == 201
        for path in (
            "/api/tournaments",
            t,
            f"{t}/standings",
            f"{t}/standings?at_seq=12",
            f"{t}/standings?after_round=1",
            f"{t}/rounds/1",
            f"{t}/participants/1",
            f"{t}/events?limit=5",
        ):
            await api.get(path)
        status, _ = await api.call("GET", f"{t}/audit")
        assert status == 200
        for page, status in (
            (f"{t}/export?format=trf26", 200),
            (f"/t/{TID}", 200),
            (f"/t/{TID}/player/1", 200),
            ("/t/nobody", 404),
        ):
            async with session.get(api.base + page) as resp:
                assert resp.status == status
        await asyncio.sleep(0.05)  # the change signal's catch-ups, too
        seen.armed = False
    assert seen.calls == []
