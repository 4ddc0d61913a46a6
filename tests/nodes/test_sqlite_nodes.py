"""Issue 12: two nodes on one SQLite file: writes without an expected sequence are never
refused for losing a race, and every viewer of either node ends with `GET standings`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from livetb.web.auth import TokenStore
from tests.nodes.cluster import Node
from tests.nodes.scenario import play


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[list[Node]]:
    db = str(tmp_path / "shared.sqlite")
    started = [Node(db).start() for _ in range(2)]
    yield started
    for node in started:
        assert "Traceback" not in node.stop()


async def test_two_sqlite_nodes_no_unrequested_conflicts_and_viewers_agree(
    nodes: list[Node],
) -> None:
    with TokenStore(nodes[0].target) as tokens:
        token = tokens.create("cluster")
    outcome = await play(nodes, "cluster", token, players=40, rounds=3, clients=8)
    statuses: dict[int, int] = {}
    for tally in outcome.tallies:
        for status, n in tally.statuses.items():
            statuses[status] = statuses.get(status, 0) + n
    # create + 40 registrations + 3 × (pairing + 20 results + close): all acknowledged
    assert statuses == {201: 1 + 40 + 3 * 22}
    assert outcome.head == 1 + 40 + 3 * 22
