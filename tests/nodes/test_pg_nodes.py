"""Three nodes on one PostgreSQL store, writes spread over them from concurrent
clients, viewers on every node; one node SIGKILLed in the middle of a round and started
again: no acknowledged write lost, the others keep serving, the restarted node catches up and
every viewer's copy equals `GET standings` on every node."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.nodes.cluster import Server, running
from tests.nodes.scenario import play


@pytest.fixture
async def nodes(pg_url: str, tmp_path: Path) -> AsyncIterator[list[Server]]:
    async with running(pg_url, tmp_path, 3) as started:
        yield started


async def test_three_postgres_nodes_survive_a_killed_node_and_agree(nodes: list[Server]) -> None:
    token = nodes[0].token("cluster")
    outcome = await play(nodes, "cluster", token, players=40, rounds=3, clients=9, kill=2)
    writes = 1 + 40 + 3 * 22  # create, registrations, 3 × (pairing + 20 results + close)
    assert outcome.head == writes
    acknowledged = [a for t in outcome.tallies for a in t.acknowledged]
    assert len(acknowledged) == writes  # each write once: a retry after the kill is recalled
    assert sorted(seq for _, seq in acknowledged) == list(range(1, writes + 1))
    assert all(status == 201 for t in outcome.tallies for status in t.statuses)
    # (The kill comes at the 10th of round 2's 20 results: the other 10 are acknowledged
    # while node 2 is down, and any client it cut off retried on another node.)
    assert len(outcome.written) == 3 * 20
