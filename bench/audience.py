"""Benchmark: an audience spread over several nodes, a result's POST → its delta at every viewer.

    .venv/bin/python -m bench.audience --nodes 3 --viewers 20000
        [--store URL|sqlite] [--workers W] [--players 100] [--results 41] [--gap 0.2]
        [--viewer-procs P] [--batch 100] [--settle 10]

The store is its own: by default a fresh schema of the PostgreSQL at `$LIVETB_PG_URL` (else
postgresql://postgres@127.0.0.1:5432/test), dropped afterwards, since nodes that share a store
across machines share a PostgreSQL; `--store sqlite` takes a temporary SQLite file instead (the
nodes follow its change counter), and any other `--store` (a postgresql:// URL, a SQLite path)
is used as it is and left in place. It holds a generated Swiss up to a paired round 4.

`--nodes` `livetb serve` processes run over that store (each one `livetb serve --workers W`
with `--workers`, its workers sharing its port); `--viewers` websocket viewers, the Sans-I/O
viewers of `bench.feed`, are spread evenly over the nodes and over `--viewer-procs` processes,
which connect them `--batch` at a time each, every batch waiting for its snapshots. The
results of the live round are POSTed on the first node one at a time, `--gap` seconds apart
(the first one untimed), and every viewer notes when each delta arrives.

Printed: per node and overall p50/p99/max of (delta received - POST sent), `missing` (deltas a
viewer never received), `behind` (viewers sent a second snapshot instead of deltas), `dropped`
(viewers whose connection closed), and resident memory: each node's before its viewers
connect and at the end, and the viewer processes'. The last line is one JSON object with the
same figures. The exit status is non-zero only when the run could not be measured (a node or
the store not starting, viewers not connecting within the time allowed); missing deltas and
viewers behind are results, reported.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import multiprocessing as mp
import os
import resource
import sys
import tempfile
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection
from pathlib import Path

import aiohttp
import msgspec
from websockets.uri import parse_uri

from bench.feed import TID, Viewer, percentile, post_all, prepare
from bench.nodes import PG, drop, pg_schema
from bench.server import serving

CONNECT_TRIES = 5  # attempts per viewer before the run fails
VIEWER_WAIT = 60.0  # seconds for one attempt: the TCP connect, the handshake and the snapshot
FD_SPARE = 256  # descriptors a process needs besides its sockets (store, pipes, files)


# --- messages between the benchmark and its viewer processes --------------------------------


class Share(msgspec.Struct, frozen=True):
    """The viewers one process opens on one node."""

    node: int
    url: str
    count: int


class Ready(msgspec.Struct, frozen=True):
    """Every viewer of the process has its snapshot; its resident set before and after."""

    rss_kb_idle: int
    rss_kb: int
    seconds: float


class Failed(msgspec.Struct, frozen=True):
    reason: str


class Stop(msgspec.Struct, frozen=True):
    """When each timed seq was POSTed; wait up to `settle` seconds for the last deltas."""

    sent: dict[int, float]
    settle: float


class Tally(msgspec.Struct):
    """One node's viewers in one process, or added up."""

    viewers: int = 0
    latencies: list[float] = msgspec.field(default_factory=list)
    missing: int = 0
    behind: int = 0
    dropped: int = 0

    def add(self, other: Tally) -> None:
        self.viewers += other.viewers
        self.latencies += other.latencies
        self.missing += other.missing
        self.behind += other.behind
        self.dropped += other.dropped


class Report(msgspec.Struct, frozen=True):
    tallies: dict[int, Tally]
    rss_kb: int


# --- resources --------------------------------------------------------------------------------


def raise_nofile(wanted: int) -> int:
    """Raise this process's open-file limit to the hard limit, or to `wanted` past it where
    that is allowed (root); the soft limit now, which its children inherit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and wanted > hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
            return wanted
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def rss_kb(pid: int) -> int:
    """The resident set of process `pid` (0 once it is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    line = next((x for x in status.splitlines() if x.startswith("VmRSS:")), "VmRSS: 0 kB")
    return int(line.split()[1])


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                if int(stat.rpartition(")")[2].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


def node_rss_kb(pid: int, workers: int) -> int:
    """A node's resident set: its process's, or with `--workers` its workers' (the children
    of its supervisor; their own helper processes, such as the replay pool, not counted)."""
    if workers == 1:
        return rss_kb(pid)
    return sum(rss_kb(child) for child in children(pid))


# --- the viewers' side --------------------------------------------------------------------------


class Watcher(Viewer):
    """A `bench.feed` viewer that knows its node and notices its connection closing."""

    def __init__(self, node: int, url: str, snapshot: asyncio.Future[None]) -> None:
        super().__init__(url, snapshot)
        self.node = node
        self.closed = False

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.snapshot.done():
            self.snapshot.set_exception(ConnectionError(f"closed before its snapshot: {exc}"))


async def connect(node: int, url: str) -> Watcher:
    """One viewer with its snapshot, tried again after a refusal, a reset or a long wait
    (a listen backlog overflowing while thousands connect)."""
    last: BaseException | None = None
    for attempt in range(CONNECT_TRIES):
        try:
            return await open_viewer(node, url)
        except (OSError, RuntimeError, TimeoutError) as err:
            last = err
            await asyncio.sleep(0.5 * 2**attempt)
    raise RuntimeError(f"a viewer of {url} did not connect in {CONNECT_TRIES} tries: {last!r}")


async def open_viewer(node: int, url: str) -> Watcher:
    """One attempt: the TCP connection, the handshake and the snapshot, or its error."""
    loop = asyncio.get_running_loop()
    uri = parse_uri(url)
    viewer = Watcher(node, url, loop.create_future())
    try:
        async with asyncio.timeout(VIEWER_WAIT):
            await loop.create_connection(lambda: viewer, uri.host, uri.port)
            await viewer.snapshot
    except BaseException:
        if viewer.transport is not None:
            viewer.transport.abort()
        raise
    return viewer


def interleave(shares: list[Share]) -> list[tuple[int, str]]:
    """(node, url) of each viewer to open, taking the nodes in turn."""
    queues = [[(s.node, s.url)] * s.count for s in shares]
    longest = max((len(q) for q in queues), default=0)
    return [q[i] for i in range(longest) for q in queues if i < len(q)]


def tally(viewers: list[Watcher], sent: dict[int, float]) -> dict[int, Tally]:
    """Each node's latencies, missing deltas, viewers behind and dropped."""
    tallies: dict[int, Tally] = {}
    for v in viewers:
        t = tallies.setdefault(v.node, Tally())
        t.viewers += 1
        t.behind += v.snapshots > 1
        t.dropped += v.closed
        for seq, start in sent.items():
            arrived = v.arrived.get(seq)
            if arrived is None:
                t.missing += 1
            else:
                t.latencies.append(arrived - start)
    return tallies


async def settle(viewers: list[Watcher], seqs: set[int], most: float) -> None:
    """Wait until every open viewer has every seq, or `most` seconds."""
    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        if all(v.closed or seqs <= v.arrived.keys() for v in viewers):
            return
        await asyncio.sleep(0.05)


async def watch(shares: list[Share], batch: int, within: float, control: Connection) -> None:
    """Open the viewers `batch` at a time, say Ready (or Failed, if they are not all there
    within `within` seconds), and on Stop send the Report."""
    loop = asyncio.get_running_loop()
    idle = rss_kb(os.getpid())
    start = time.perf_counter()
    plan = interleave(shares)
    viewers: list[Watcher] = []
    try:
        async with asyncio.timeout(within):
            for at in range(0, len(plan), batch):
                viewers += await asyncio.gather(*(connect(n, u) for n, u in plan[at : at + batch]))
    except (RuntimeError, TimeoutError) as err:
        why = str(err) or f"not all within {within:.0f} s"
        control.send(Failed(f"{len(viewers)} of {len(plan)} viewers connected: {why}"))
        return
    # The viewers live until the end: keep the collector from walking them again and again.
    gc.freeze()
    control.send(Ready(idle, rss_kb(os.getpid()), time.perf_counter() - start))
    stop = await loop.run_in_executor(None, control.recv)
    assert isinstance(stop, Stop)
    await settle(viewers, set(stop.sent), stop.settle)
    control.send(Report(tally(viewers, stop.sent), rss_kb(os.getpid())))
    for v in viewers:
        if v.transport is not None:
            v.transport.abort()


def worker(
    shares: list[Share], batch: int, within: float, wanted_fds: int, control: Connection
) -> None:
    """A viewer process, on uvloop where it is installed (as the server): the viewers cost
    the shared cores less."""
    raise_nofile(wanted_fds)
    try:
        import uvloop
    except ImportError:
        asyncio.run(watch(shares, batch, within, control))
    else:
        uvloop.run(watch(shares, batch, within, control))


def spread(total: int, parts: int) -> list[int]:
    """`total` split into `parts` counts differing by one at most."""
    return [total // parts + (i < total % parts) for i in range(parts)]


def plans(urls: list[str], viewers: int, procs: int) -> list[list[Share]]:
    """Each process's shares: every node's viewers spread over the processes."""
    out: list[list[Share]] = [[] for _ in range(procs)]
    for node, (url, count) in enumerate(zip(urls, spread(viewers, len(urls)), strict=True)):
        for p, share in enumerate(spread(count, procs)):
            if share:
                out[p].append(Share(node, url, share))
    return [p for p in out if p]


# --- the run --------------------------------------------------------------------------------


class Options(msgspec.Struct, frozen=True, kw_only=True):
    nodes: int
    viewers: int
    store: str | None = None
    workers: int = 1
    players: int = 100
    results: int = 41
    gap: float = 0.2
    viewer_procs: int = 2
    batch: int = 100
    settle: float = 10.0


class NodeFigures(msgspec.Struct, frozen=True):
    node: int
    viewers: int
    p50_ms: float | None
    p99_ms: float | None
    max_ms: float | None
    missing: int
    behind: int
    dropped: int
    rss_mb_idle: float
    rss_mb: float


class Outcome(msgspec.Struct, frozen=True):
    """The last line's JSON."""

    viewers: int
    nodes: int
    workers: int
    store: str
    results: int
    p50_ms: float | None
    p99_ms: float | None
    max_ms: float | None
    missing: int
    behind: int
    dropped: int
    per_node: list[NodeFigures]
    rss_mb_per_node: list[float]
    rss_mb_idle_per_node: list[float]
    server_kb_per_viewer: float | None
    viewer_procs: int
    rss_mb_viewer_procs: list[float]
    viewer_kb_per_viewer: float | None
    connect_s: float


def ms_figures(latencies: list[float]) -> tuple[float | None, float | None, float | None]:
    """p50, p99 and max in milliseconds (None without any latency)."""
    if not latencies:
        return None, None, None
    ms = [x * 1000 for x in latencies]
    return round(percentile(ms, 50), 1), round(percentile(ms, 99), 1), round(max(ms), 1)


@contextlib.contextmanager
def own_store(store: str | None) -> Iterator[tuple[str, str]]:
    """The store's target and its kind: a fresh PostgreSQL schema (dropped on leaving), a
    temporary SQLite file, or `store` as it is."""
    if store is not None and store != "sqlite":
        yield store, "postgresql" if store.startswith("postgres") else "sqlite"
        return
    with tempfile.TemporaryDirectory(prefix="livetb-audience-") as tmp:
        if store == "sqlite":
            yield str(Path(tmp) / "audience.sqlite"), "sqlite"
            return
        base = os.environ.get("LIVETB_PG_URL", PG)
        target, schema = pg_schema(base)
        try:
            yield target, "postgresql"
        finally:
            drop(base, schema)


async def load_standings(bases: list[str]) -> None:
    """Every node reads the tournament once, so its idle memory holds the projection."""
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        for base in bases:
            async with session.get(f"{base}/api/tournaments/{TID}/standings") as resp:
                resp.raise_for_status()


def end_process(proc: mp.process.BaseProcess) -> None:
    """A viewer process's end: it leaves by itself after its report, else it is killed."""
    proc.join(10)
    proc.kill()
    proc.join()


def receive(pipe: Connection, seconds: float, what: str) -> object:
    if not pipe.poll(seconds):
        raise RuntimeError(f"{what}: no answer from a viewer process within {seconds:.0f} s")
    message = pipe.recv()
    if isinstance(message, Failed):
        raise RuntimeError(f"{what}: {message.reason}")
    return message


def run(o: Options) -> Outcome:
    """Measure once, as the module's docstring says."""
    per_node = math.ceil(o.viewers / o.nodes / o.workers)
    limit = raise_nofile(per_node + FD_SPARE)
    procs = max(o.viewer_procs, math.ceil(o.viewers / max(1, limit - FD_SPARE)))
    if per_node + FD_SPARE > limit:
        raise RuntimeError(
            f"a node would hold {per_node} sockets; the open-file limit is {limit}: "
            "more --nodes (or raise the hard limit)"
        )
    with own_store(o.store) as (target, kind):
        token, live = prepare(target, o.players, rounds=7, live_round=4)
        with contextlib.ExitStack() as stack:
            nodes = [stack.enter_context(serving(target, o.workers)) for _ in range(o.nodes)]
            bases = [base for base, _ in nodes]
            asyncio.run(load_standings(bases))
            idle = [node_rss_kb(pid, o.workers) for _, pid in nodes]
            urls = [b.replace("http", "ws") + f"/ws?tournament={TID}" for b in bases]
            shares = plans(urls, o.viewers, procs)
            ctx = mp.get_context("spawn")
            ramp = 60 + o.viewers / 50  # seconds to connect them all: 460 s for 20,000
            pipes = []
            for share in shares:
                mine, theirs = ctx.Pipe()
                wanted = sum(s.count for s in share) + FD_SPARE
                args = (share, o.batch, ramp, wanted, theirs)
                proc = ctx.Process(target=worker, args=args, daemon=True)
                proc.start()
                stack.callback(end_process, proc)
                pipes.append(mine)
            readies = [receive(p, ramp + 60, "connecting the viewers") for p in pipes]
            results = live[: o.results]
            sent = asyncio.run(asyncio.wait_for(post_all(bases[0], token, results, o.gap), 600))
            for pipe in pipes:
                pipe.send(Stop(sent, o.settle))
            reports = [receive(p, o.settle + 120, "collecting the arrivals") for p in pipes]
            end = [node_rss_kb(pid, o.workers) for _, pid in nodes]
    assert all(isinstance(r, Ready) for r in readies) and all(
        isinstance(r, Report) for r in reports
    )
    return outcome(o, kind, len(sent), idle, end, readies, reports)  # type: ignore[arg-type]


def outcome(
    o: Options,
    kind: str,
    timed: int,
    idle: list[int],
    end: list[int],
    readies: list[Ready],
    reports: list[Report],
) -> Outcome:
    nodes: dict[int, Tally] = {n: Tally() for n in range(o.nodes)}
    for report in reports:
        for n, t in report.tallies.items():
            nodes[n].add(t)
    total = Tally()
    figures = []
    for n, t in nodes.items():
        total.add(t)
        p50, p99, most = ms_figures(t.latencies)
        figures.append(
            NodeFigures(n, t.viewers, p50, p99, most, t.missing, t.behind, t.dropped,
                        mb(idle[n]), mb(end[n]))
        )  # fmt: skip
    p50, p99, most = ms_figures(total.latencies)
    grown = sum(end) - sum(idle)
    client = sum(r.rss_kb - r.rss_kb_idle for r in readies)
    return Outcome(
        viewers=total.viewers,
        nodes=o.nodes,
        workers=o.workers,
        store=kind,
        results=timed,
        p50_ms=p50,
        p99_ms=p99,
        max_ms=most,
        missing=total.missing,
        behind=total.behind,
        dropped=total.dropped,
        per_node=figures,
        rss_mb_per_node=[mb(x) for x in end],
        rss_mb_idle_per_node=[mb(x) for x in idle],
        server_kb_per_viewer=round(grown / total.viewers, 1) if total.viewers else None,
        viewer_procs=len(readies),
        rss_mb_viewer_procs=[mb(r.rss_kb) for r in reports],
        viewer_kb_per_viewer=round(client / total.viewers, 1) if total.viewers else None,
        connect_s=round(max(r.seconds for r in readies), 1),
    )


def mb(kb: int) -> float:
    return round(kb / 1024, 1)


def show(out: Outcome) -> None:
    """The table, then the JSON line."""
    print(
        f"{out.viewers} viewers on {out.nodes} node(s) × {out.workers} worker(s), "
        f"{out.store} store, {out.results} timed results; connected in {out.connect_s} s"
    )
    head = f"{'node':>6} {'viewers':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} "
    print(head + f"{'missing':>8} {'behind':>7} {'dropped':>8} {'RSS idle':>9} {'RSS MB':>8}")
    rows = [*out.per_node, NodeFigures(-1, out.viewers, out.p50_ms, out.p99_ms, out.max_ms,
            out.missing, out.behind, out.dropped, sum(out.rss_mb_idle_per_node),
            sum(out.rss_mb_per_node))]  # fmt: skip
    for f in rows:
        name = "all" if f.node < 0 else str(f.node)
        print(
            f"{name:>6} {f.viewers:>8} {f.p50_ms!s:>8} {f.p99_ms!s:>8} {f.max_ms!s:>8} "
            f"{f.missing:>8} {f.behind:>7} {f.dropped:>8} {f.rss_mb_idle:>9} {f.rss_mb:>8}"
        )
    print(
        f"server: {out.server_kb_per_viewer} kB per viewer; viewer processes "
        f"{out.rss_mb_viewer_procs} MB, {out.viewer_kb_per_viewer} kB per viewer"
    )
    print(json.dumps(msgspec.to_builtins(out)), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.audience")
    parser.add_argument("--nodes", type=int, default=3)
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--store", help="postgresql://… or a SQLite path (kept), or 'sqlite'")
    parser.add_argument("--workers", type=int, default=1, help="livetb serve --workers per node")
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--results", type=int, default=41, help="results posted (first untimed)")
    parser.add_argument("--gap", type=float, default=0.2, help="seconds between POSTs")
    parser.add_argument("--viewer-procs", type=int, default=2, help="viewer processes (at least)")
    parser.add_argument("--batch", type=int, default=100, help="connections at once per process")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds for the last deltas")
    args = parser.parse_args(argv)
    if args.nodes < 1 or args.viewers < 1 or args.workers < 1 or args.results < 2:
        parser.error("--nodes, --viewers and --workers 1 or more, --results 2 or more")
    options = Options(**{k: v for k, v in vars(args).items()})
    try:
        show(run(options))
    except RuntimeError as err:
        print(f"bench.audience: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
