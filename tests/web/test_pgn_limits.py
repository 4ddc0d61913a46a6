"""`POST …/rounds/{r}/pgn` within the writes' body limits: `max_body` (64 KiB by default), a
declared length beyond it refused before reading, a deadline for the body; the PGN parsed off
the event loop."""

from __future__ import annotations

import asyncio
import threading

import pytest

from livetb.interchange import pgn
from livetb.web.config import Config
from tests.web.conftest import TID, Api, ApiFactory

PGN = f"/api/tournaments/{TID}/rounds/1/pgn"
GAME = '[White "Ann"]\n[Black "Bob"]\n[Result "1-0"]\n\n1. d4 d5 1-0\n\n'


def head(api: Api, length: int | None) -> bytes:
    sized = f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked"
    return (
        f"POST {PGN} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {api.token}\r\n"
        f"Content-Type: text/plain\r\n{sized}\r\n\r\n"
    ).encode()


async def answer(api: Api, request: bytes, wait: float = 60.0) -> bytes:
    reader, writer = await asyncio.open_connection(api.server.host, api.server.port)
    writer.write(request)
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(4096), wait)
    finally:
        writer.close()


def test_the_default_limit_is_64_kib() -> None:
    assert Config().max_body == 64 * 1024


async def test_a_declared_4_mib_pgn_is_413_before_any_body(api: Api) -> None:
    seq = await api.start(players=4)
    # The headers only: no body follows. A server that waited for it would answer 408 once
    # the body's deadline passed, not 413.
    got = await answer(api, head(api, 4 << 20))
    assert got.startswith(b"HTTP/1.1 413") and b"body_too_large" in got
    assert api.store.head(TID) == seq


async def test_a_chunked_pgn_over_the_limit_is_413(api: Api) -> None:
    seq = await api.start(players=4)
    body = (GAME * (70 * 1024 // len(GAME) + 1)).encode()
    assert len(body) > 64 * 1024
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    got = await answer(api, head(api, None) + chunked)
    assert got.startswith(b"HTTP/1.1 413") and b"body_too_large" in got
    assert api.store.head(TID) == seq


async def test_a_trickled_pgn_is_cut_at_the_deadline(make_api: ApiFactory) -> None:
    api = await make_api(body_timeout=0.5)
    seq = await api.start(players=4)
    reader, writer = await asyncio.open_connection(api.server.host, api.server.port)
    writer.write(head(api, 60_000))  # within the 64 KiB limit
    try:
        got = b""
        # One byte every 50 ms until the server answers: the whole body would take 50 minutes,
        # so only the deadline can end it (a minute of trickling fails the test).
        for _ in range(1200):
            writer.write(b" ")
            try:
                got = await asyncio.wait_for(reader.read(4096), 0.05)
            except TimeoutError:
                continue
            break
    finally:
        writer.close()
    assert got.startswith(b"HTTP/1.1 408") and b"body_timeout" in got
    assert api.store.head(TID) == seq


async def test_a_pgn_within_the_limit_is_parsed_off_the_event_loop(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    await api.start(players=4)
    threads: list[threading.Thread] = []
    read_games = pgn.read_games

    def spy(text: str) -> list[pgn.PgnGame]:
        threads.append(threading.current_thread())
        return read_games(text)

    monkeypatch.setattr(pgn, "read_games", spy)
    status, body = await api.call("POST", PGN, data=GAME.encode())
    assert status == 200, body
    assert body["recorded"] == [{"round": 1, "board": 1, "result": "1-0", "corrected": False}]
    assert threads and threads[0] is not threading.main_thread()
