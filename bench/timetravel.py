"""Benchmark: how much a burst of time-travel reads delays a live delta.

    .venv/bin/python -m bench.timetravel [--players 2000] [--burst 20] [--results 15]

Runs `livetb serve` in its own process on a store holding a generated Swiss (`--players`, 9
rounds) up to a paired round 6, with one websocket viewer. Each result is first POSTed alone
(the baseline), then again while a burst of `--burst` `GET …/standings?at_seq=N` reads is in
flight (sent from another process, so that receiving their bodies does not delay the viewer's
clock), each N a different, never-asked position (no cache hit: the worst case). A delta's
latency is (its frame at the viewer - the POST sent); the delay is the burst's latency less the
baseline's. The store holds no snapshot (as after a bulk import), so every replay starts from
zero: the worst case.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import random
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

import aiohttp

from bench.feed import TID, percentile, prepare
from bench.server import serving
from livetb.events.schema import AnyEvent, ResultRecorded


async def delta_after(ws: aiohttp.ClientWebSocketResponse, seq: int) -> float:
    """When the delta with `seq` arrived."""
    while True:
        msg = await ws.receive(timeout=30)
        data = json.loads(msg.data)
        if data.get("type") == "delta" and data["seq"] >= seq:
            return time.perf_counter()


async def burst(base: str, seqs: list[int]) -> list[float]:
    """`at_seq` reads of every seq at once; the seconds each took."""
    async with aiohttp.ClientSession() as session:

        async def read(seq: int) -> float:
            start = time.perf_counter()
            url = f"{base}/api/tournaments/{TID}/standings?at_seq={seq}"
            async with session.get(url) as resp:
                assert resp.status == 200, await resp.text()
                await resp.read()
            return time.perf_counter() - start

        return await asyncio.gather(*(read(seq) for seq in seqs))


def reader(base: str, control: Connection) -> None:
    """Its own process: receiving 20 bodies of ~0.4 MB must not delay the viewer's clock."""
    while (seqs := control.recv()) is not None:
        control.send(asyncio.run(burst(base, seqs)))


async def run(
    base: str, token: str, results: list[AnyEvent], burst_size: int, head: int, control: Connection
) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    asked = random.Random(1).sample(range(1, head), burst_size * len(results))
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(f"{base.replace('http', 'ws')}/ws?tournament={TID}")
        await ws.receive(timeout=30)  # the snapshot

        async def post(event: ResultRecorded) -> float:
            url = f"{base}/api/tournaments/{TID}/rounds/{event.round}/results"
            start = time.perf_counter()
            body = {"board": event.board, "result": event.result}
            async with session.post(url, json=body, headers=headers) as resp:
                seq = (await resp.json())["seq"]
            return await delta_after(ws, seq) - start

        alone: list[float] = []
        loaded: list[float] = []
        reads: list[float] = []
        loop = asyncio.get_running_loop()
        for n, event in enumerate(results):
            assert isinstance(event, ResultRecorded)
            if n % 2 == 0:
                alone.append(await post(event))
                continue
            control.send(asked[n * burst_size : (n + 1) * burst_size])
            await asyncio.sleep(0.05)  # the replays are running
            loaded.append(await post(event))
            reads += await loop.run_in_executor(None, control.recv)
        await ws.close()
    alone_ms = sorted(x * 1000 for x in alone[1:])  # the first warms up the connection
    loaded_ms = sorted(x * 1000 for x in loaded)
    base_ms = percentile(alone_ms, 50)
    print(f"delta latency alone:         p50 {base_ms:6.1f} ms  max {max(alone_ms):6.1f} ms")
    print(
        f"delta latency during bursts: p50 {percentile(loaded_ms, 50):6.1f} ms  "
        f"p90 {percentile(loaded_ms, 90):6.1f} ms  max {max(loaded_ms):6.1f} ms  "
        f"({len(loaded_ms)} bursts of {burst_size} at_seq reads)"
    )
    print(f"delay by a burst (latency less the p50 alone): max {max(loaded_ms) - base_ms:6.1f} ms")
    print(
        f"at_seq read:                 p50 {percentile(reads, 50):6.2f} s  max {max(reads):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--burst", type=int, default=20, help="at_seq reads per burst")
    parser.add_argument("--results", type=int, default=15, help="results posted")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite"
        token, live = prepare(db, args.players, rounds=9, live_round=6)
        from livetb.events.sqlite import SqliteStore

        with SqliteStore(db) as store:
            head = store.head(TID)
        print(f"{args.players} players, log of {head} events")
        mine, theirs = mp.get_context("spawn").Pipe()
        with serving(db) as (base, _):
            burster = mp.get_context("spawn").Process(
                target=reader, args=(base, theirs), daemon=True
            )
            burster.start()
            try:
                asyncio.run(run(base, token, live[: args.results], args.burst, head, mine))
            finally:
                mine.send(None)
                burster.join(10)


if __name__ == "__main__":
    main()
