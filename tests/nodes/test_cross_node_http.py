"""Two `livetb serve` processes on one store (a SQLite file, then a PostgreSQL schema), a
client writing to both over HTTP without waiting between them: each result acknowledged on one
node is corrected on the other right away, and a round is closed on one node right after the
other node's last write. A write valid against the committed log is never refused (no 422
`no_result_to_correct`, no 409 without an expected sequence), and both nodes end equal."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from tests.conftest import PG_BASE, in_schema
from tests.nodes.cluster import Server, get_json, running

BOARDS = 40
T = "/api/tournaments/x"


@pytest.fixture(params=["sqlite", "postgres"])
async def two_nodes(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[list[Server]]:
    if request.param == "sqlite":
        db = str(tmp_path / "shared.sqlite")
    else:  # (pg_schema skips the case if no PostgreSQL answers)
        db = in_schema(PG_BASE, request.getfixturevalue("pg_schema"))
    async with running(db, tmp_path, 2) as nodes:
        yield nodes


async def test_corrections_and_a_close_across_two_nodes_are_all_accepted(
    two_nodes: list[Server],
) -> None:
    a, b = two_nodes
    token = a.token("x")
    auth = {"Authorization": f"Bearer {token}"}
    refused: list[tuple[str, int, object]] = []
    async with aiohttp.ClientSession(headers=auth) as session:

        async def send(node: Server, method: str, path: str, body: object) -> int:
            async with session.request(method, node.base + T + path, json=body) as resp:
                data = await resp.json()
                if resp.status >= 300:
                    refused.append((f"{method} {path} on {node.port}", resp.status, data))
                    return 0
                return int(data["seq"])

        await send(a, "PUT", "", {"name": "Across", "rounds": 3, "tiebreaks": ["PTS"]})
        for no in range(1, 2 * BOARDS + 1):
            await send((a, b)[no % 2], "POST", "/participants", {"start_no": no, "name": f"P{no}"})
        boards = [{"board": i, "white": i, "black": BOARDS + i} for i in range(1, BOARDS + 1)]
        await send(a, "POST", "/rounds/1/pairings", {"boards": boards})

        async def result_then_correction(board: int) -> int:
            first, then = (a, b) if board % 2 else (b, a)
            await send(first, "POST", "/rounds/1/results", {"board": board, "result": "1-0"})
            correction = {"board": board, "result": "0-1", "reason": "scoresheet"}
            return await send(then, "PUT", "/rounds/1/results", correction)  # the other, at once

        # All boards at once: each node has its own writes in flight while the other commits.
        await asyncio.gather(*(result_then_correction(n) for n in range(1, BOARDS)))
        last = await result_then_correction(BOARDS)  # corrected on A ...
        head = await send(b, "POST", "/rounds/1/close", {})  # ... and closed on B right after
        assert refused == []
        assert head == last + 1 == 1 + 2 * BOARDS + 1 + 2 * BOARDS + 1
        deadline = time.monotonic() + 60
        while True:  # both nodes serve the same standings, at the head
            seen = [await get_json(session, f"{n.base}{T}/standings") for n in (a, b)]
            if seen[0] == seen[1] and seen[0]["seq"] == head:
                break
            assert time.monotonic() < deadline, [s["seq"] for s in seen]
            await asyncio.sleep(0.05)
        # every correction applied: the black players (BOARDS + 1 on) lead
        assert {r["start_no"] for r in seen[0]["standings"][:BOARDS]} == set(
            range(BOARDS + 1, 2 * BOARDS + 1)
        )
