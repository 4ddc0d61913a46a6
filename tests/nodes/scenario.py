"""One tournament played on a cluster: registrations, pairings, results and closes from
concurrent clients spread over every node, viewers on every node; optionally one node killed
in the middle and started again. Then every viewer's copy must equal `GET standings` on
every node, and every acknowledged write must be in the log."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import aiohttp

from tests.nodes.cluster import Client, Server, Tally, Watcher, get_json

RESULTS = ("1-0", "0-1", "1/2-1/2")


@dataclass
class Outcome:
    tallies: list[Tally]
    head: int
    written: dict[str, tuple[int, int, str]]  # idempotency key -> (round, board, result)


def boards(players: int, rnd: int) -> list[dict[str, int]]:
    """Top half against bottom half, shifted each round: no rematch for rounds < players/2."""
    half = players // 2
    return [
        {"board": k, "white": k, "black": half + (k + rnd - 2) % half + 1}
        for k in range(1, half + 1)
    ]


async def play(
    nodes: list[Server],
    tid: str,
    token: str,
    *,
    players: int = 40,
    rounds: int = 3,
    clients: int = 8,
    viewers_per_node: int = 2,
    kill: int | None = None,  # index of the node to SIGKILL half-way through round 2
    seed: int = 7,
    check: Callable[[Outcome], None] | None = None,
) -> Outcome:
    rng = random.Random(seed)
    base = f"/api/tournaments/{tid}"
    async with aiohttp.ClientSession() as session:
        writers = [Client(session, nodes[i % len(nodes):] + nodes[: i % len(nodes)], token)
                   for i in range(clients)]  # fmt: skip
        keys = itertools.count()
        written: dict[str, tuple[int, int, str]] = {}

        async def spread(
            jobs: Sequence[tuple[str, str, object]], after: Callable[[int], None] | None = None
        ) -> None:
            """Every job once, the clients taking them concurrently; none may be refused.
            `after(n)` once the n-th job is acknowledged."""
            queue = list(reversed(jobs))
            done = itertools.count(1)

            async def worker(client: Client) -> None:
                while queue:
                    method, path, body = queue.pop()
                    key = f"k{next(keys)}"
                    status, data = await client.send(method, path, body, key)
                    assert status < 300, (method, path, body, status, data)
                    if path.endswith("/results"):
                        assert isinstance(body, dict)
                        rnd = int(path.split("/")[-2])
                        written[key] = (rnd, body["board"], body["result"])
                    if after is not None:
                        after(next(done))

            await asyncio.gather(*(worker(c) for c in writers))

        create = {"name": "Cluster Open", "rounds": rounds, "tiebreaks": ["PTS", "BH", "DE", "WIN"]}
        status, data = await writers[0].send("PUT", base, create, "create")
        assert status == 201, data
        watchers = [Watcher(n, tid) for n in nodes for _ in range(viewers_per_node)]
        await spread([
            ("POST", f"{base}/participants",
             {"start_no": no, "name": f"Player {no}", "rating": 2500 - no})
            for no in range(1, players + 1)
        ])  # fmt: skip
        for rnd in range(1, rounds + 1):
            pairing = {"boards": boards(players, rnd)}
            await spread([("POST", f"{base}/rounds/{rnd}/pairings", pairing)])
            results = [
                ("POST", f"{base}/rounds/{rnd}/results",
                 {"board": b["board"], "result": rng.choice(RESULTS)})
                for b in boards(players, rnd)
            ]  # fmt: skip
            if kill is not None and rnd == 2:
                victim, half = nodes[kill], len(results) // 2

                def kill_halfway(n: int, victim: Server = victim, half: int = half) -> None:
                    if n == half:
                        victim.kill()

                await spread(results, kill_halfway)
                await victim.start()  # catches up from the store on its first read
            else:
                await spread(results)
            await spread([("POST", f"{base}/rounds/{rnd}/close", {})])

        heads = [(await get_json(session, n.base + base))["seq"] for n in nodes]
        head = max(heads)
        for w in watchers:
            await w.reaches(head)
        expected = [await get_json(session, n.base + base + "/standings") for n in nodes]
        assert all(e == expected[0] for e in expected), "the nodes' standings differ"
        assert all(e["seq"] == head for e in expected)
        for w in watchers:
            assert w.standings() == expected[0], f"a viewer of {w.node.base} differs"
        for rnd in range(1, rounds + 1):
            info = await get_json(session, f"{nodes[0].base}{base}/rounds/{rnd}")
            recorded = {g["board"]: g["result"] for g in info["games"]}
            for r, board, result in written.values():
                if r == rnd:
                    assert recorded[board] == result, (rnd, board)
        for w in watchers:
            await w.close()
    outcome = Outcome([c.tally for c in writers], head, written)
    if check is not None:
        check(outcome)
    return outcome
