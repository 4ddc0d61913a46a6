"""Two nodes on one SQLite file, one SIGKILLed half-way through a round and started
again: writes without an expected sequence are never refused for losing a race, none
acknowledged is lost, and every viewer of either node ends with `GET standings`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.nodes.cluster import Server, running
from tests.nodes.scenario import play


@pytest.fixture
async def nodes(tmp_path: Path) -> AsyncIterator[list[Server]]:
    async with running(str(tmp_path / "shared.sqlite"), tmp_path, 2) as started:
        yield started


async def test_two_sqlite_nodes_no_unrequested_conflicts_and_viewers_agree(
    nodes: list[Server],
) -> None:
    token = nodes[0].token("cluster")
    outcome = await play(nodes, "cluster", token, players=40, rounds=3, clients=8, kill=1)
    statuses: dict[int, int] = {}
    for tally in outcome.tallies:
        for status, n in tally.statuses.items():
            statuses[status] = statuses.get(status, 0) + n
    # create + 40 registrations + 3 × (pairing + 20 results + close): all acknowledged
    assert statuses == {201: 1 + 40 + 3 * 22}
    assert outcome.head == 1 + 40 + 3 * 22
    acknowledged = sorted(seq for t in outcome.tallies for _, seq in t.acknowledged)
    assert acknowledged == list(range(1, outcome.head + 1))  # each once, none lost
