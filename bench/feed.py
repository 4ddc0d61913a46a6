"""Issue 5 benchmark: end-to-end latency from a result's POST to its delta at every viewer.

    .venv/bin/python -m bench.feed [--clients 1,1000] [--players 100] [--results 40]

Runs `livetb serve` in its own process on a temporary store holding a generated Swiss up to a
paired middle round, connects N websocket viewers (the `websockets` library, one process),
then POSTs that round's results one at a time, `--gap` seconds apart. Reports p50/p99/max of
(delta received - POST sent) over every viewer and result, and how many viewers fell behind
(got a snapshot instead of some deltas).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from websockets.asyncio.client import ClientConnection, connect

from livetb.demo import swiss_events
from livetb.events.schema import AnyEvent, ResultRecorded, RoundPaired
from livetb.events.sqlite import SqliteStore
from livetb.web.auth import TokenStore

TID = "bench"
SEQ = re.compile(rb'^\{"type":"(\w+)","seq":(\d+)')


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def prepare(db: Path, players: int, rounds: int, live_round: int) -> tuple[str, list[AnyEvent]]:
    """Store the tournament until `live_round` is paired; return a token and its results."""
    events = swiss_events(players, rounds, seed=11)
    paired = next(
        i for i, e in enumerate(events) if isinstance(e, RoundPaired) and e.round == live_round
    )
    live = [e for e in events[paired + 1 :] if isinstance(e, ResultRecorded)]
    live = [e for e in live if e.round == live_round]
    with SqliteStore(db) as store, TokenStore(db) as tokens:
        store.append(TID, 0, events[: paired + 1], actor="bench")
        return tokens.create(TID), live


class Viewer:
    def __init__(self) -> None:
        self.arrived: dict[int, float] = {}
        self.snapshots = 0

    async def run(self, ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            while True:
                frame = await ws.recv(decode=False)
                now = time.perf_counter()
                found = SEQ.match(frame)
                if found is None:
                    continue
                kind, seq = found.group(1), int(found.group(2))
                self.snapshots += kind == b"snapshot"
                self.arrived.setdefault(seq, now)


async def wait_ready(base: str) -> None:
    async with aiohttp.ClientSession() as session:
        for _ in range(200):
            with contextlib.suppress(aiohttp.ClientError):
                async with session.get(f"{base}/api/tournaments"):
                    return
            await asyncio.sleep(0.05)
    raise RuntimeError("server did not start")


async def measure(base: str, token: str, results: list[AnyEvent], clients: int, gap: float):
    ws_url = base.replace("http", "ws") + f"/ws?tournament={TID}"
    sockets = []
    for i in range(0, clients, 200):  # connect in batches
        batch = [
            connect(ws_url, max_size=None, compression=None)
            for _ in range(i, min(clients, i + 200))
        ]
        sockets += await asyncio.gather(*batch)
    viewers = [Viewer() for _ in sockets]
    tasks = [asyncio.create_task(v.run(ws)) for v, ws in zip(viewers, sockets, strict=True)]
    await asyncio.sleep(0.5 + clients / 2000)  # snapshots delivered
    sent: dict[int, float] = {}
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession() as session:
        for event in results:
            assert isinstance(event, ResultRecorded)
            url = f"{base}/api/tournaments/{TID}/rounds/{event.round}/results"
            start = time.perf_counter()
            body = {"board": event.board, "result": event.result}
            async with session.post(url, json=body, headers=headers) as resp:
                seq = (await resp.json())["seq"]
            sent[seq] = start
            await asyncio.sleep(gap)
    await asyncio.sleep(1.0)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    latencies = [v.arrived[s] - t for v in viewers for s, t in sent.items() if s in v.arrived]
    missing = sum(1 for v in viewers for s in sent if s not in v.arrived)
    behind = sum(1 for v in viewers if v.snapshots > 1)
    return latencies, missing, behind


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", default="1,1000", help="comma-separated viewer counts")
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--results", type=int, default=40, help="results posted per run")
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between POSTs")
    args = parser.parse_args()
    print(f"{'viewers':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'fell behind':>12}")
    for clients in (int(c) for c in args.clients.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "bench.sqlite"
            token, live = prepare(db, args.players, rounds=7, live_round=4)
            port = free_port()
            server = subprocess.Popen(
                [sys.executable, "-c", "from livetb.cli import run; run()", "serve",
                 "--db", str(db), "--port", str(port)],
                stdout=subprocess.DEVNULL,
            )  # fmt: skip
            try:
                base = f"http://127.0.0.1:{port}"
                asyncio.run(wait_ready(base))
                lat, missing, behind = asyncio.run(
                    measure(base, token, live[: args.results], clients, args.gap)
                )
            finally:
                server.terminate()
                server.wait()
        ms = [x * 1000 for x in lat]
        note = f" ({missing} deltas replaced by snapshots)" if missing else ""
        print(
            f"{clients:>8} {percentile(ms, 50):>8.1f} {percentile(ms, 99):>8.1f} "
            f"{max(ms):>8.1f} {behind:>12}{note}"
        )


if __name__ == "__main__":
    main()
