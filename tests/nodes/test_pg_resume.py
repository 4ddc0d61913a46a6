"""A thousand viewers over three nodes on one PostgreSQL schema; one node SIGKILLed while the
results come in. Its viewers resume on the other two with `since=` their last seq, and every
viewer ends having taken every delta once, in order, from its first snapshot to the head:
no gap, none twice, no step back, and no second snapshot. Each viewer's standings equal
`GET standings` on every node (the killed one started again)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.nodes.cluster import Client, Server, get_json, running
from tests.nodes.crowd import Crowd
from tests.nodes.scenario import RESULTS, boards

VIEWERS = 1000
PLAYERS = 40
ROUNDS = 3
T = "/api/tournaments/crowd"


@pytest.fixture
async def nodes(pg_url: str, tmp_path: Path) -> AsyncIterator[list[Server]]:
    async with running(pg_url, tmp_path, 3) as started:
        yield started


async def test_a_thousand_viewers_resume_on_the_other_nodes_when_one_is_killed(
    nodes: list[Server],
) -> None:
    token = nodes[0].token("crowd")
    victim = nodes[2]
    crowd = Crowd([n.base for n in nodes], "crowd")
    async with aiohttp.ClientSession() as session:
        # Each write to the next node in turn; one to the killed node goes to the next.
        writer = Client(session, nodes, token)
        written = 0

        async def write(method: str, path: str, body: object) -> None:
            nonlocal written
            status, data = await writer.send(method, T + path, body, f"k{written}")
            assert status == 201, (method, path, data)
            written += 1

        await write("PUT", "", {"name": "Crowd Open", "rounds": ROUNDS, "tiebreaks": ["PTS", "BH"]})
        for no in range(1, PLAYERS + 1):
            await write("POST", "/participants", {"start_no": no, "name": f"Player {no}"})
        await write("POST", "/rounds/1/pairings", {"boards": boards(PLAYERS, 1)})
        try:
            await crowd.gather(VIEWERS)
            for rnd in range(1, ROUNDS + 1):
                if rnd > 1:
                    await write("POST", f"/rounds/{rnd}/pairings", {"boards": boards(PLAYERS, rnd)})
                for board in range(1, PLAYERS // 2 + 1):
                    if (rnd, board) == (2, PLAYERS // 4):
                        victim.kill()  # a third of the viewers lose their node
                    result = {"board": board, "result": RESULTS[(board + rnd) % 3]}
                    await write("POST", f"/rounds/{rnd}/results", result)
                await write("POST", f"/rounds/{rnd}/close", {})
            head = written
            await crowd.reach(head)
        finally:
            crowd.close()
        await victim.start()
        expected: list[Any] = [await get_json(session, n.base + T + "/standings") for n in nodes]
    assert all(e == expected[0] for e in expected) and expected[0]["seq"] == head
    assert writer.tally.lost > 0  # the killed node was written to, and its writes went on
    assert all(v.resumes for v in crowd.viewers if v.number % 3 == 2)  # the killed node's
    assert [v.number for v in crowd.viewers if v.wrong] == []
    assert {v.snapshots for v in crowd.viewers} == {1}  # every delta, none replaced
    first = {v.number: json.loads(v.messages[0])["seq"] for v in crowd.viewers}
    assert all(len(v.messages) == head - first[v.number] + 1 for v in crowd.viewers)
    folded: dict[tuple[int, ...], object] = {}  # viewers that took the same messages fold once
    for viewer in crowd.viewers:
        key = tuple(map(id, viewer.messages))
        if key not in folded:
            folded[key] = viewer.standings()
        assert folded[key] == expected[0], f"viewer {viewer.number} differs"
