"""Benchmark: the resident memory of a server holding one large tournament.

    .venv/bin/python -m bench.memory [--players 9999] [--rounds 13]

Stores a generated Swiss, every round played and closed, starts `livetb serve` on it, loads
the tournament (one GET of its standings, one websocket viewer) and reads the server's
resident set size (VmRSS, Linux) before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import aiohttp

from bench.feed import TID
from bench.generate import swiss_events
from bench.server import serving
from livetb.events.sqlite import SqliteStore


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def load(base: str) -> int:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{base}/api/tournaments/{TID}/standings") as resp:
            body = await resp.read()
        async with session.ws_connect(base.replace("http", "ws") + f"/ws?tournament={TID}") as ws:
            await ws.receive()  # the snapshot
        return len(body)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=9999)
    parser.add_argument("--rounds", type=int, default=13)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "memory.sqlite"
        events = swiss_events(args.players, args.rounds)
        with SqliteStore(db) as store:
            store.append(TID, 0, events, actor="bench")
        with serving(db) as (base, pid):
            idle = rss_mb(pid)
            t0 = time.perf_counter()
            size = asyncio.run(load(base))
            loaded = time.perf_counter() - t0
            held = rss_mb(pid)
    print(
        f"server RSS: {idle:.0f} MB idle, {held:.0f} MB holding {args.players} players after "
        f"round {args.rounds} ({len(events)} events; loaded in {loaded:.1f} s; "
        f"standings {size / 1e6:.1f} MB of JSON)"
    )


if __name__ == "__main__":
    main()
