"""How long one request can hold the event loop, and how late it makes a viewer's deltas.

    .venv/bin/python -m bench.stalls [--players 2000] [--clients 6] [--seconds 3] [--solo 5]
                                     [--routes card,export-trf26,...]

The server (`create_app` on the loop `livetb serve` uses) runs in a process of its own on a
temporary store holding a generated Swiss (`--players`, 11 rounds, no snapshot: the worst
case for anything that folds the log) with round 11 paired and a quarter of its results in.
A monitor task in that process sleeps 1 ms in a loop and records how late each wake-up is:
a request that holds the loop for X ms shows as a wake-up X ms late.

For each route:
- solo: `--solo` requests, one after the other, by one client; "worst" is the latest wake-up
  seen meanwhile (the worst stall one request causes), "p99" the 99th percentile;
- abuse: `--clients` anonymous clients (another process) ask the route as fast as they are
  answered for `--seconds`, while a result is POSTed every 0.1 s and one websocket viewer
  times each delta (POST sent -> frame received); the same lag figures, the deltas' p99 and
  the answers' statuses (429: refused by the per-client limits).
A baseline (no route asked) comes first: the viewer's normal delta latency.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import random
import signal
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

import aiohttp

from bench.server import free_port, wait_ready
from livetb.backends import open_store, open_tokens
from livetb.demo.tournament import swiss_events
from livetb.events.schema import ResultRecorded, RoundPaired

TID = "bench"
ROUNDS, LIVE = 11, 11
PGN_BYTES = 4 << 20


def percentile(xs: list[float], p: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def prepare(db: Path, players: int) -> tuple[str, list[ResultRecorded], int]:
    """Store the tournament up to a quarter of round 11's results; a token, the results left
    to POST and the head."""
    events = swiss_events(players, ROUNDS, seed=11)
    paired = next(i for i, e in enumerate(events) if isinstance(e, RoundPaired) and e.round == LIVE)
    live = [e for e in events[paired + 1 :] if isinstance(e, ResultRecorded) and e.round == LIVE]
    cut = len(live) // 4
    with open_store(str(db)) as store, open_tokens(str(db)) as tokens:
        head = store.append(TID, 0, events[: paired + 1] + live[:cut], actor="bench")
        return tokens.create(TID), live[cut:], head


# --- the server's process ---------------------------------------------------------------------


def serve(db: str, port: int) -> None:
    """The app on the loop `livetb serve` runs it on, with the lag monitor and its route."""
    from aiohttp import web

    from livetb.cli.server import _event_loop
    from livetb.web import Config, create_app

    lateness: list[tuple[float, float]] = []  # (when, seconds late)

    async def monitor() -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            lateness.append((now, now - start - 0.001))

    async def lag(request: web.Request) -> web.Response:
        since = float(request.match_info["since"])
        return web.json_response([late for when, late in lateness if when >= since])

    async def main() -> None:
        app = create_app(Config(db_path=db))
        app.router.add_get("/bench-lag/{since}", lag)
        runner = web.AppRunner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        task = asyncio.ensure_future(monitor())
        stop = asyncio.Event()  # SIGTERM: a clean shutdown, the worker processes with it
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        try:
            await stop.wait()
        finally:
            task.cancel()
            await runner.cleanup()

    loop = _event_loop()
    asyncio.set_event_loop(loop)
    loop.run_until_complete(main())


# --- the abusive clients' process -------------------------------------------------------------

Ask = tuple[str, str, dict[str, str], bytes | None]  # method, path, headers, body


def requests_for(route: str, players: int, head: int, token: str) -> Callable[[random.Random], Ask]:
    t = f"/api/tournaments/{TID}"
    arbiter = {"Authorization": f"Bearer {token}"}
    if route == "card":
        return lambda rng: ("GET", f"{t}/participants/{rng.randint(1, players)}", {}, None)
    if route.startswith("export-"):
        return lambda rng: ("GET", f"{t}/export?format={route[7:]}", {}, None)
    if route == "standings":
        return lambda rng: ("GET", f"{t}/standings", {}, None)
    if route == "at-seq":
        return lambda rng: ("GET", f"{t}/standings?at_seq={rng.randint(1, head)}", {}, None)
    if route == "after-round":
        return lambda rng: ("GET", f"{t}/standings?after_round={rng.randint(1, 10)}", {}, None)
    if route == "events":
        return lambda rng: ("GET", f"{t}/events?after={rng.randint(0, head)}&limit=1000", {}, None)
    if route == "audit":
        return lambda rng: ("GET", f"{t}/audit?limit=1000", arbiter, None)
    if route == "audit-player":
        return lambda rng: (
            "GET",
            f"{t}/audit?participant={rng.randint(1, players)}",
            arbiter,
            None,
        )
    if route == "pgn-4mib":
        body = b'[Event "x"]\n\n1. e4 e5 1-0\n' * (PGN_BYTES // 27)
        return lambda rng: ("POST", f"{t}/rounds/{LIVE}/pgn", arbiter, body)
    if route == "page":
        return lambda rng: ("GET", f"/t/{TID}", {}, None)
    if route == "player-page":
        return lambda rng: ("GET", f"/t/{TID}/player/{rng.randint(1, players)}", {}, None)
    raise SystemExit(f"unknown route {route!r}")


async def hammer(
    base: str, ask: Callable[[random.Random], Ask], clients: int, until: float
) -> Counter[int]:
    statuses: Counter[int] = Counter()
    async with aiohttp.ClientSession() as session:

        async def client(seed: int) -> None:
            rng = random.Random(seed)
            while time.perf_counter() < until:
                method, path, headers, body = ask(rng)
                try:
                    async with session.request(
                        method, base + path, headers=headers, data=body
                    ) as resp:
                        await resp.read()
                        statuses[resp.status] += 1
                        if resp.status == 429:  # an abuser does not wait for Retry-After
                            await asyncio.sleep(0.01)
                except aiohttp.ClientError:
                    statuses[0] += 1

        await asyncio.gather(*(client(i) for i in range(clients)))
    return statuses


def abuser(base: str, players: int, head: int, token: str, control: Connection) -> None:
    while (job := control.recv()) is not None:
        route, clients, until = job
        ask = requests_for(route, players, head, token)
        control.send(dict(asyncio.run(hammer(base, ask, clients, until))))


# --- the measuring process --------------------------------------------------------------------


class Bench:
    def __init__(self, base: str, token: str, results: list[ResultRecorded]) -> None:
        self.base = base
        self.token = token
        self.results = iter(results)

    async def lag(self, session: aiohttp.ClientSession, since: float) -> list[float]:
        async with session.get(f"{self.base}/bench-lag/{since}") as resp:
            return [x * 1000 for x in await resp.json()]

    async def deltas(self, session: aiohttp.ClientSession, seconds: float) -> list[float]:
        """POST a result every 0.1 s for `seconds`; each delta's latency at the viewer, ms."""
        headers = {"Authorization": f"Bearer {self.token}"}
        ws = await session.ws_connect(f"{self.base.replace('http', 'ws')}/ws?tournament={TID}")
        await ws.receive(timeout=60)  # the snapshot
        latencies = []
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            event = next(self.results)
            url = f"{self.base}/api/tournaments/{TID}/rounds/{event.round}/results"
            start = time.perf_counter()
            body = {"board": event.board, "result": event.result}
            async with session.post(url, json=body, headers=headers) as resp:
                seq = (await resp.json())["seq"]
            while True:
                data = json.loads((await ws.receive(timeout=60)).data)
                if data.get("type") == "delta" and data["seq"] >= seq:
                    break
            latencies.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(max(0.0, 0.1 - (time.perf_counter() - start)))
        await ws.close()
        return latencies

    async def solo(
        self, session: aiohttp.ClientSession, ask: Callable[[random.Random], Ask], n: int
    ) -> tuple[list[float], Counter[int]]:
        rng = random.Random(7)
        since = time.perf_counter()
        statuses: Counter[int] = Counter()
        for _ in range(n):
            method, path, headers, body = ask(rng)
            async with session.request(
                method, self.base + path, headers=headers, data=body
            ) as resp:
                await resp.read()
                statuses[resp.status] += 1
            await asyncio.sleep(0.05)  # the work a request leaves behind counts too
        return await self.lag(session, since), statuses


def row(name: str, lags: list[float], deltas: list[float], statuses: dict[int, int]) -> str:
    worst = max(lags, default=0.0)
    said = " ".join(f"{k}:{v}" for k, v in sorted(statuses.items()))
    dp99 = f"{percentile(deltas, 99):7.1f}" if deltas else "      -"
    return f"| {name:<22} | {worst:7.1f} | {percentile(lags, 99):6.1f} | {dp99} | {said} |"


async def run(
    args: argparse.Namespace,
    base: str,
    token: str,
    results: list[ResultRecorded],
    head: int,
    control: Connection,
) -> None:
    bench = Bench(base, token, results)
    print("| route | worst stall ms | p99 stall ms | viewer delta p99 ms | answers |")
    print("|---|---:|---:|---:|---|")
    async with aiohttp.ClientSession() as session:
        since = time.perf_counter()
        deltas = await bench.deltas(session, args.seconds)
        print(
            row("baseline (viewer only)", await bench.lag(session, since), deltas, {}), flush=True
        )
        for route in args.routes.split(","):
            ask = requests_for(route, args.players, head, token)
            lags, statuses = await bench.solo(session, ask, args.solo)
            print(row(f"{route} solo", lags, [], statuses), flush=True)
            await asyncio.sleep(0.2)
            since = time.perf_counter()
            control.send((route, args.clients, since + args.seconds + 0.3))
            deltas = await bench.deltas(session, args.seconds)
            said = await asyncio.get_running_loop().run_in_executor(None, control.recv)
            await asyncio.sleep(0.3)
            lags = await bench.lag(session, since)
            print(row(f"{route} x{args.clients}", lags, deltas, said), flush=True)
            await asyncio.sleep(0.5)  # what the abuse left running settles before the next


ROUTES = (
    "card,export-trf26,export-trf16,export-csv,export-html,standings,at-seq,after-round,"
    "events,audit,audit-player,pgn-4mib,page,player-page"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--solo", type=int, default=5)
    parser.add_argument("--routes", default=ROUTES)
    args = parser.parse_args()
    ctx = mp.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "stalls.sqlite"
        token, results, head = prepare(db, args.players)
        port = free_port()
        server = ctx.Process(target=serve, args=(str(db), port))  # not a daemon: it starts workers
        server.start()
        base = f"http://127.0.0.1:{port}"
        ours, theirs = ctx.Pipe()
        clients = ctx.Process(target=abuser, args=(base, args.players, head, token, theirs))
        clients.start()
        try:
            asyncio.run(wait_ready(base))
            print(f"{args.players} players, {ROUNDS} rounds, head {head}, {args.clients} clients")
            asyncio.run(run(args, base, token, results, head, ours))
        finally:
            ours.send(None)
            clients.join(10)
            server.terminate()
            server.join(10)


if __name__ == "__main__":
    main()
