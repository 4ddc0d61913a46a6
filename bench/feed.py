"""Benchmark: end-to-end latency from a result's POST to its delta at every viewer.

    .venv/bin/python -m bench.feed [--clients 1,1000,10000] [--players 100] [--results 40]
                                   [--workers 1] [--viewer-procs 2]

Runs `livetb serve` in its own process on a temporary store holding a generated Swiss up to a
paired middle round (`--workers` server processes on one port), connects N websocket viewers
spread over `--viewer-procs` processes, then POSTs
that round's results one at a time, `--gap` seconds apart (the first one untimed: it warms up
the connection). Reports p50/p99/max of (delta
received - POST sent) over every viewer and result, how many deltas never arrived and how many
viewers fell behind (got a second snapshot instead of some deltas).

A viewer is the `websockets` library's Sans-I/O client protocol on a plain asyncio connection:
it does the opening handshake, parses every frame, answers pings and notes when each delta's
frame is complete, without a task and a queue per connection, so that thousands of viewers
on the same machine measure the server rather than themselves. `time.perf_counter` is the
system-wide monotonic clock on Linux: the workers' and the poster's readings compare.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing as mp
import re
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import cast

import aiohttp
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.typing import BytesLike
from websockets.uri import parse_uri

from bench.server import serving
from livetb.backends import open_store, open_tokens
from livetb.demo.tournament import swiss_events
from livetb.events.schema import AnyEvent, ResultRecorded, RoundPaired

TID = "bench"
SEQ = re.compile(rb'^\{"type":"(\w+)","seq":(\d+)')


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def prepare(
    db: Path | str, players: int, rounds: int, live_round: int
) -> tuple[str, list[AnyEvent]]:
    """Store the tournament until `live_round` is paired; return a token and its results."""
    events = swiss_events(players, rounds, seed=11)
    paired = next(
        i for i, e in enumerate(events) if isinstance(e, RoundPaired) and e.round == live_round
    )
    live: list[AnyEvent] = [
        e for e in events[paired + 1 :] if isinstance(e, ResultRecorded) and e.round == live_round
    ]
    with open_store(str(db)) as store, open_tokens(str(db)) as tokens:
        store.append(TID, 0, events[: paired + 1], actor="bench")
        return tokens.create(TID), live


class Socket(asyncio.Protocol):
    """A websocket client on a plain asyncio connection (`websockets`' Sans-I/O protocol): the
    opening handshake, pongs and the closing handshake; a subclass takes the handshake's
    answer (`answered`) and each text frame with its arrival time (`text`)."""

    def __init__(self, url: str) -> None:
        self.ws = ClientProtocol(parse_uri(url), max_size=None)
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self.ws.send_request(self.ws.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                self.answered(event.status_code)
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                self.text(event.data, now)
        self._flush()  # pongs, or the closing handshake

    def answered(self, status: int) -> None:
        """The handshake's answer (101: accepted)."""

    def text(self, data: BytesLike, now: float) -> None:
        raise NotImplementedError

    def _flush(self) -> None:
        assert self.transport is not None
        for chunk in self.ws.data_to_send():
            if chunk:
                self.transport.write(chunk)
            else:
                self.transport.close()


class Viewer(Socket):
    """One websocket viewer: handshake, then the arrival time of each message's seq."""

    def __init__(self, url: str, snapshot: asyncio.Future[None]) -> None:
        super().__init__(url)
        self.arrived: dict[int, float] = {}
        self.snapshots = 0
        self.snapshot = snapshot

    def answered(self, status: int) -> None:
        if status != 101:
            self.snapshot.set_exception(RuntimeError(f"handshake: {status}"))

    def text(self, data: BytesLike, now: float) -> None:
        found = SEQ.match(data)
        if found is None:
            return  # a ping message
        kind, seq = found.group(1), int(found.group(2))
        if kind == b"snapshot":
            self.snapshots += 1
            if not self.snapshot.done():
                self.snapshot.set_result(None)
        self.arrived.setdefault(seq, now)


async def watch(url: str, count: int, control: Connection) -> None:
    """Connect `count` viewers, say "ready" once each has its snapshot, and on "stop" send
    back every viewer's arrivals and snapshot count."""
    loop = asyncio.get_running_loop()
    uri = parse_uri(url)
    viewers: list[Viewer] = []
    for start in range(0, count, 250):  # connect in batches: the listen backlog is finite
        batch = []
        for _ in range(start, min(count, start + 250)):
            viewer = Viewer(url, loop.create_future())
            viewers.append(viewer)
            batch.append(
                loop.create_connection(lambda v=viewer: v, uri.host, uri.port)  # type: ignore[misc]
            )
        await asyncio.gather(*batch)
        await asyncio.gather(*(v.snapshot for v in viewers[start:]))
    # The viewers live until the end: keep the collector from walking them again and again
    # (a full collection over thousands of connections stalls this process, not the server).
    gc.freeze()
    control.send("ready")
    await loop.run_in_executor(None, control.recv)  # "stop"
    control.send([(v.arrived, v.snapshots) for v in viewers])
    for v in viewers:
        if v.transport is not None:
            v.transport.abort()


def worker(url: str, count: int, control: Connection) -> None:
    asyncio.run(watch(url, count, control))


async def post_all(
    base: str,
    token: str,
    results: list[AnyEvent],
    gap: float,
    answered: dict[int, float] | None = None,
) -> dict[int, float]:
    """POST each result, `gap` seconds apart; the send time of each seq (and in `answered`,
    when its answer arrived)."""
    sent: dict[int, float] = {}
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession() as session:
        for n, event in enumerate(results):
            assert isinstance(event, ResultRecorded)
            url = f"{base}/api/tournaments/{TID}/rounds/{event.round}/results"
            body = {"board": event.board, "result": event.result}
            start = time.perf_counter()
            async with session.post(url, json=body, headers=headers) as resp:
                resp.raise_for_status()
                seq = (await resp.json())["seq"]
            if n:  # the first one warms up the connection and the server's code paths
                sent[seq] = start
                if answered is not None:
                    answered[seq] = time.perf_counter()
            await asyncio.sleep(gap)
    await asyncio.sleep(1.0)  # the last deltas arrive
    return sent


def measure(
    base: str,
    token: str,
    results: list[AnyEvent],
    clients: int,
    workers: int,
    gap: float,
    view_base: str | None = None,
) -> tuple[list[float], int, int]:
    """POSTs to `base`; the viewers on `view_base` (another node), or on `base` too."""
    url = (view_base or base).replace("http", "ws") + f"/ws?tournament={TID}"
    shares = [clients // workers + (i < clients % workers) for i in range(workers)]
    ctx = mp.get_context("spawn")
    pipes, procs = [], []
    for share in filter(None, shares):
        mine, theirs = ctx.Pipe()
        proc = ctx.Process(target=worker, args=(url, share, theirs), daemon=True)
        proc.start()
        pipes.append(mine)
        procs.append(proc)
    try:
        for pipe in pipes:
            if not pipe.poll(120) or pipe.recv() != "ready":
                raise RuntimeError("viewers did not connect")
        sent = asyncio.run(post_all(base, token, results, gap))
        for pipe in pipes:
            pipe.send("stop")
        viewers = [v for pipe in pipes for v in pipe.recv()]
    finally:
        for proc in procs:
            proc.join(10)
            proc.kill()
    latencies = [arrived[s] - t for arrived, _ in viewers for s, t in sent.items() if s in arrived]
    missing = sum(1 for arrived, _ in viewers for s in sent if s not in arrived)
    behind = sum(1 for _, snapshots in viewers if snapshots > 1)
    return latencies, missing, behind


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", default="1,1000", help="comma-separated viewer counts")
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--results", type=int, default=41, help="results posted per run")
    parser.add_argument("--gap", type=float, default=0.2, help="seconds between POSTs")
    parser.add_argument("--viewer-procs", type=int, default=2, help="viewer processes")
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes (livetb serve --workers)"
    )
    args = parser.parse_args()
    print(f"{'viewers':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'missing':>8} {'behind':>7}")
    for clients in (int(c) for c in args.clients.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "bench.sqlite"
            token, live = prepare(db, args.players, rounds=7, live_round=4)
            with serving(db, workers=args.workers) as (base, _):
                lat, missing, behind = measure(
                    base, token, live[: args.results], clients, args.viewer_procs, args.gap
                )
        ms = [x * 1000 for x in lat]
        print(
            f"{clients:>8} {percentile(ms, 50):>8.1f} {percentile(ms, 99):>8.1f} "
            f"{max(ms):>8.1f} {missing:>8} {behind:>7}",
            flush=True,
        )


if __name__ == "__main__":
    main()
