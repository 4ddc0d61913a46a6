"""Body limits per endpoint, refused before reading, and a deadline for the body."""

from __future__ import annotations

import asyncio

from livetb.events.schema import ParticipantRegistered, TournamentCreated
from tests.web.conftest import TID, Api, ApiFactory

T = f"/api/tournaments/{TID}"


async def raw(api: Api, request: bytes, wait: float = 60.0) -> bytes:
    reader, writer = await asyncio.open_connection(api.server.host, api.server.port)
    writer.write(request)
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(4096), wait)
    finally:
        writer.close()


def post_head(api: Api, path: str, length: int) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {api.token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
    ).encode()


async def test_an_oversized_content_length_is_413_before_any_body(api: Api) -> None:
    head = await api.start(players=4)
    # No body follows: a server that waited for it would answer 408 at the body's deadline.
    answer = await raw(api, post_head(api, f"{T}/rounds/1/results", 10**12))
    assert answer.startswith(b"HTTP/1.1 413") and b"body_too_large" in answer
    assert api.store.head(TID) == head


async def test_a_body_that_never_arrives_is_408(make_api: ApiFactory) -> None:
    api = await make_api(body_timeout=0.3)
    head = await api.start(players=4)
    answer = await raw(api, post_head(api, f"{T}/rounds/1/results", 100) + b'{"board": 1,')
    assert answer.startswith(b"HTTP/1.1 408") and b"body_timeout" in answer
    assert api.store.head(TID) == head


async def test_a_round_of_4999_boards_goes_through_but_other_bodies_stay_small(api: Api) -> None:
    """9,998 players, the most TRF start numbers allow: their pairings are ~200 KB of JSON."""
    players = [ParticipantRegistered(start_no=n, name=f"P{n}") for n in range(1, 9999)]
    api.store.append(TID, 0, [TournamentCreated(name="Big", rounds=9), *players], actor="test")
    boards = [{"board": b, "white": 2 * b - 1, "black": 2 * b} for b in range(1, 5000)]
    status, body = await api.post(f"{T}/rounds/1/pairings", {"boards": boards})
    assert (status, body) == (201, {"seq": 10000})
    status, body = await api.post(
        f"{T}/rounds/1/results", {"board": 1, "result": "1-0" + " " * 70_000}
    )
    assert (status, body["code"]) == (413, "body_too_large")
