"""Benchmark: a storm of results, POSTed by many clients at once to a large field.

    .venv/bin/python -m bench.storm [--players 9999] [--results 5000] [--clients 16]
                                    [--viewers 2] [--round 7]

Runs `livetb serve` in its own process on a temporary store holding a generated Swiss up to
`--round` paired, connects `--viewers` websocket viewers (`bench/feed.py`'s, in one worker
process), warms the server up (it loads the tournament), then `--clients` clients POST the
round's results as fast as the server acknowledges them, each with an Idempotency-Key: once
the round's results run out (9,999 players play 4,999 games), corrections of the first boards
follow. Reports results/s (acknowledged: durable, applied and published) and the p50/p99/max
of each POST's latency, and whether every viewer got every delta.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import tempfile
import time
from pathlib import Path

import aiohttp

from bench.feed import TID, percentile, prepare, worker
from bench.server import serving
from livetb.events.schema import AnyEvent, ResultRecorded

FLIP = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0", "+-": "-+", "-+": "+-", "--": "1-0"}


def writes(results: list[AnyEvent], count: int) -> list[tuple[str, str, dict[str, object]]]:
    """(method, path, body) of `count` writes: the results, then corrections of the first."""
    out: list[tuple[str, str, dict[str, object]]] = []
    games = [e for e in results if isinstance(e, ResultRecorded)]
    for n in range(count):
        e = games[n % len(games)]
        path = f"/api/tournaments/{TID}/rounds/{e.round}/results"
        if n < len(games):
            out.append(("POST", path, {"board": e.board, "result": e.result}))
        else:
            flipped = FLIP[e.result] if (n // len(games)) % 2 else e.result
            out.append(("PUT", path, {"board": e.board, "result": flipped, "reason": "storm"}))
    return out


async def storm(
    base: str, token: str, todo: list[tuple[str, str, dict[str, object]]], clients: int
) -> tuple[float, list[float]]:
    """Every write sent by `clients` concurrent clients; wall time and each POST's latency."""
    headers = {"Authorization": f"Bearer {token}"}
    latencies: list[float] = []
    queue = list(enumerate(todo))
    queue.reverse()

    async def client(session: aiohttp.ClientSession) -> None:
        while queue:
            n, (method, path, body) = queue.pop()
            start = time.perf_counter()
            async with session.request(
                method, base + path, json=body, headers={**headers, "Idempotency-Key": f"s{n}"}
            ) as resp:
                await resp.read()
                if resp.status >= 300:
                    raise RuntimeError(f"{method} {path} {body}: {resp.status} {await resp.text()}")
            latencies.append(time.perf_counter() - start)

    connector = aiohttp.TCPConnector(limit=clients)
    async with aiohttp.ClientSession(connector=connector) as session:
        async with session.get(f"{base}/api/tournaments/{TID}/standings") as resp:
            await resp.read()  # the server loads the tournament: not part of the storm
        t0 = time.perf_counter()
        await asyncio.gather(*(client(session) for _ in range(clients)))
        return time.perf_counter() - t0, latencies


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=9999)
    parser.add_argument("--rounds", type=int, default=13)
    parser.add_argument("--round", type=int, default=7, help="the round being played")
    parser.add_argument("--results", type=int, default=5000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--viewers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "storm.sqlite"
        token, live = prepare(db, args.players, args.rounds, args.round)
        todo = writes(live, args.results)
        viewers = None
        with serving(db) as (base, _):
            try:
                url = base.replace("http", "ws") + f"/ws?tournament={TID}"
                mine, theirs = mp.get_context("spawn").Pipe()
                if args.viewers:
                    viewers = mp.get_context("spawn").Process(
                        target=worker, args=(url, args.viewers, theirs), daemon=True
                    )
                    viewers.start()
                    if not mine.poll(300) or mine.recv() != "ready":
                        raise RuntimeError("viewers did not connect")
                wall, latencies = asyncio.run(storm(base, token, todo, args.clients))
                time.sleep(1.0)  # the last deltas arrive
                seen: list[tuple[dict[int, float], int]] = []
                if viewers is not None:
                    mine.send("stop")
                    seen = mine.recv()
            finally:
                if viewers is not None:
                    viewers.join(10)
                    viewers.kill()
    ms = [x * 1000 for x in latencies]
    first = min(min(a) for a, _ in seen) if seen else 0
    heads = max(max(a) for a, _ in seen) if seen else 0
    print(
        f"storm: {len(todo)} writes by {args.clients} clients, {args.players} players "
        f"(round {args.round} of {args.rounds}), {args.viewers} viewers"
    )
    print("| results/s | POST p50 | POST p99 | POST max |")
    print("|---:|---:|---:|---:|")
    print(
        f"| {len(todo) / wall:.0f} | {percentile(ms, 50):.1f} ms | {percentile(ms, 99):.1f} ms "
        f"| {max(ms):.1f} ms |"
    )
    for n, (arrived, snapshots) in enumerate(seen, 1):
        got = sum(1 for seq in arrived if first < seq <= heads)
        print(f"viewer {n}: {got} deltas after its snapshot, {snapshots} snapshot(s)")


if __name__ == "__main__":
    main()
