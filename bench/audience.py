"""Benchmark: an audience spread over several nodes, a result's POST → its delta at every viewer.

    .venv/bin/python -m bench.audience --nodes 3 --viewers 20000
        [--store URL|sqlite] [--workers W] [--players 100] [--results 41] [--gap 0.2]
        [--viewer-procs P] [--batch 100] [--idle 6] [--settle 10]

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
(the first one untimed), and every viewer notes when each delta arrives. Before that, the
viewers connected, the nodes' CPU is read over `--idle` seconds without any event: what an
audience costs between results (its pings).

Printed: per node and overall p50/p99/max of (delta received - POST sent), `missing` (deltas a
viewer never received), `behind` (viewers sent a second snapshot instead of deltas), `dropped`
(viewers whose connection closed); the POSTs' own answer times and the three results whose
delta took longest to reach its last viewer (a slow POST is the store or the machine, a slow
fan-out the nodes or the viewers); resident memory, each node's before its viewers connect and
at the end, and the viewer processes'; and the CPU each node and viewer process used while the
results were POSTed, with the time it waited, runnable, for a core (on a shared machine a
long wait, not the code, explains a slow run). The last line is one JSON object with the same
figures. The exit status is non-zero only when the run could not be measured (a node or
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
from typing import Any

import aiohttp
import msgspec
from websockets.uri import parse_uri

from bench.feed import TID, Viewer, percentile, post_all, prepare
from bench.nodes import PG, drop, pg_schema
from bench.server import serving
from livetb.events.schema import AnyEvent

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
    """The viewers could not all connect: how many did, and the last error."""

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
    slowest: dict[int, float] = msgspec.field(default_factory=dict)  # seq → its longest latency

    def add(self, other: Tally) -> None:
        self.viewers += other.viewers
        self.latencies += other.latencies
        self.missing += other.missing
        self.behind += other.behind
        self.dropped += other.dropped
        for seq, latency in other.slowest.items():
            self.slowest[seq] = max(latency, self.slowest.get(seq, 0.0))


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


def node_pids(pid: int, workers: int) -> list[int]:
    """A node's serving processes: its own, or with `--workers` its supervisor's children
    (their own helper processes, such as the replay pool, not counted)."""
    return [pid] if workers == 1 else children(pid)


class Sched(msgspec.Struct, frozen=True):
    """Seconds processes ran on a CPU and waited, runnable, for one (the kernel's schedstat
    of each main thread): a wait that grows is the machine's cores, not the code."""

    ran: float = 0.0
    waited: float = 0.0

    def __sub__(self, before: Sched) -> Sched:
        return Sched(self.ran - before.ran, self.waited - before.waited)


def sched(pids: list[int]) -> Sched:
    ran = waited = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError):
            fields = Path(f"/proc/{pid}/schedstat").read_text().split()
            ran, waited = ran + int(fields[0]), waited + int(fields[1])
    return Sched(ran / 1e9, waited / 1e9)


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
                t.slowest[seq] = max(arrived - start, t.slowest.get(seq, 0.0))
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
    idle: float = 6.0


class Delivery(msgspec.Struct, frozen=True, kw_only=True):
    """How the deltas reached a set of viewers (a node's, or all of them)."""

    viewers: int
    p50_ms: float | None
    p99_ms: float | None
    max_ms: float | None
    missing: int
    behind: int
    dropped: int


def delivery(t: Tally) -> dict[str, Any]:
    """`Delivery`'s fields of the viewers tallied in `t`."""
    p50, p99, most = ms_figures(t.latencies)
    d = Delivery(viewers=t.viewers, p50_ms=p50, p99_ms=p99, max_ms=most,
                 missing=t.missing, behind=t.behind, dropped=t.dropped)  # fmt: skip
    return msgspec.structs.asdict(d)


class NodeFigures(Delivery, frozen=True, kw_only=True):
    node: int
    rss_mb_idle: float
    rss_mb: float
    cpu_s: float  # while the results were POSTed
    waited_s: float  # … runnable, waiting for a core


class Slow(msgspec.Struct, frozen=True):
    """One of the results whose delta took longest to reach its last viewer: whether the
    POST itself was slow (the store, the machine) or only the fan-out."""

    seq: int
    post_ms: float
    max_ms: float


class Outcome(Delivery, frozen=True, kw_only=True):
    """The last line's JSON."""

    nodes: int
    workers: int
    store: str
    results: int
    post_p50_ms: float | None
    post_max_ms: float | None
    slowest: list[Slow]
    per_node: list[NodeFigures]
    rss_mb_per_node: list[float]
    rss_mb_idle_per_node: list[float]
    server_kb_per_viewer: float | None
    server_us_per_delta: float | None  # the nodes' CPU per delta and viewer
    server_idle_us_per_viewer_s: float | None  # … per viewer and second without events
    viewer_procs: int
    rss_mb_viewer_procs: list[float]
    viewer_kb_per_viewer: float | None
    viewer_us_per_delta: float | None
    cpu_s_viewer_procs: list[float]
    waited_s_viewer_procs: list[float]
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
    try:
        if not pipe.poll(seconds):
            raise RuntimeError(f"{what}: no answer from a viewer process within {seconds:.0f} s")
        message = pipe.recv()
    except EOFError:
        raise RuntimeError(f"{what}: a viewer process exited (its traceback is above)") from None
    if isinstance(message, Failed):
        raise RuntimeError(f"{what}: {message.reason}")
    return message


class Readings(msgspec.Struct, frozen=True):
    """What one run read, before it is summed up."""

    kind: str  # of store
    posts: dict[int, float]  # timed seq → seconds until its POST was answered
    posted: int  # POSTs, the untimed first one included
    idle_kb: list[int]  # each node's resident set before its viewers connect
    end_kb: list[int]  # … and at the end
    node_cpu: list[Sched]  # each node's, while the results were POSTed
    idle_cpu: list[Sched]  # each node's over `idle` seconds before, without events
    viewer_cpu: list[Sched]  # each viewer process's, meanwhile
    readies: list[Ready]
    reports: list[Report]


def run(o: Options) -> Outcome:
    """Measure once, as the module's docstring says."""
    per_node = math.ceil(o.viewers / o.nodes / o.workers)
    limit = raise_nofile(per_node + FD_SPARE)
    if per_node + FD_SPARE > limit:
        raise RuntimeError(
            f"a node would hold {per_node} sockets; the open-file limit is {limit}: "
            "more --nodes (or raise the hard limit)"
        )
    procs = max(o.viewer_procs, math.ceil(o.viewers / max(1, limit - FD_SPARE)))
    with own_store(o.store) as (target, kind), contextlib.ExitStack() as stack:
        token, live = prepare(target, o.players, rounds=7, live_round=4)
        nodes = [stack.enter_context(serving(target, o.workers)) for _ in range(o.nodes)]
        readings = measure(stack, o, kind, nodes, token, live[: o.results], procs)
    return outcome(o, readings)


def start_viewers(
    stack: contextlib.ExitStack, o: Options, bases: list[str], procs: int, ramp: float
) -> list[tuple[Connection, int]]:
    """The viewer processes (ended when `stack` closes): each one's pipe and pid."""
    urls = [b.replace("http", "ws") + f"/ws?tournament={TID}" for b in bases]
    ctx = mp.get_context("spawn")
    started = []
    for share in plans(urls, o.viewers, procs):
        mine, theirs = ctx.Pipe()
        wanted = sum(s.count for s in share) + FD_SPARE
        proc = ctx.Process(target=worker, args=(share, o.batch, ramp, wanted, theirs), daemon=True)
        proc.start()
        stack.callback(end_process, proc)
        assert proc.pid is not None
        started.append((mine, proc.pid))
    return started


def measure(
    stack: contextlib.ExitStack,
    o: Options,
    kind: str,
    nodes: list[tuple[str, int]],
    token: str,
    results: list[AnyEvent],
    procs: int,
) -> Readings:
    """Connect the viewers to the running `nodes`, POST `results` on the first, collect."""
    bases = [base for base, _ in nodes]
    pids = [node_pids(pid, o.workers) for _, pid in nodes]
    asyncio.run(load_standings(bases))
    idle = [sum(map(rss_kb, p)) for p in pids]
    ramp = 60 + o.viewers / 50  # seconds to connect them all: 460 s for 20,000
    viewers = start_viewers(stack, o, bases, procs, ramp)
    readies = [receive(pipe, ramp + 60, "connecting the viewers") for pipe, _ in viewers]
    quiet = [sched(p) for p in pids]
    time.sleep(o.idle)
    before = [sched(p) for p in pids], [sched([pid]) for _, pid in viewers]
    answered: dict[int, float] = {}
    posting = post_all(bases[0], token, results, o.gap, answered)
    sent = asyncio.run(asyncio.wait_for(posting, 600))
    after = [sched(p) for p in pids], [sched([pid]) for _, pid in viewers]
    for pipe, _ in viewers:
        pipe.send(Stop(sent, o.settle))
    reports = [receive(pipe, o.settle + 120, "collecting the arrivals") for pipe, _ in viewers]
    return Readings(
        kind=kind,
        posts={seq: answered[seq] - start for seq, start in sent.items()},
        posted=len(results),
        idle_kb=idle,
        end_kb=[sum(map(rss_kb, p)) for p in pids],
        node_cpu=[a - b for a, b in zip(after[0], before[0], strict=True)],
        idle_cpu=[a - b for a, b in zip(before[0], quiet, strict=True)],
        viewer_cpu=[a - b for a, b in zip(after[1], before[1], strict=True)],
        readies=[r for r in readies if isinstance(r, Ready)],
        reports=[r for r in reports if isinstance(r, Report)],
    )


def per_unit_us(cpu: list[Sched], units: float) -> float | None:
    """Microseconds of CPU per unit: a delta at one viewer (POSTs × viewers units), or one
    viewer's second (viewers × seconds)."""
    return round(sum(c.ran for c in cpu) / units * 1e6, 2) if units else None


def outcome(o: Options, r: Readings) -> Outcome:
    nodes: dict[int, Tally] = {n: Tally() for n in range(o.nodes)}
    for report in r.reports:
        for n, t in report.tallies.items():
            nodes[n].add(t)
    total = Tally()
    figures = []
    for n, t in nodes.items():
        total.add(t)
        cpu = r.node_cpu[n]
        figures.append(
            NodeFigures(
                **delivery(t),
                node=n,
                rss_mb_idle=mb(r.idle_kb[n]),
                rss_mb=mb(r.end_kb[n]),
                cpu_s=round(cpu.ran, 2),
                waited_s=round(cpu.waited, 2),
            )
        )
    post_p50, _, post_most = ms_figures(list(r.posts.values()))
    worst = sorted(total.slowest.items(), key=lambda kv: -kv[1])[:3]
    slowest = [Slow(seq, round(r.posts[seq] * 1000, 1), round(x * 1000, 1)) for seq, x in worst]
    grown = sum(r.end_kb) - sum(r.idle_kb)
    client = sum(x.rss_kb - x.rss_kb_idle for x in r.readies)
    deltas = r.posted * total.viewers
    return Outcome(
        **delivery(total),
        nodes=o.nodes,
        workers=o.workers,
        store=r.kind,
        results=len(r.posts),
        post_p50_ms=post_p50,
        post_max_ms=post_most,
        slowest=slowest,
        per_node=figures,
        rss_mb_per_node=[mb(x) for x in r.end_kb],
        rss_mb_idle_per_node=[mb(x) for x in r.idle_kb],
        server_kb_per_viewer=round(grown / total.viewers, 1) if total.viewers else None,
        server_us_per_delta=per_unit_us(r.node_cpu, deltas),
        server_idle_us_per_viewer_s=per_unit_us(r.idle_cpu, total.viewers * o.idle),
        viewer_procs=len(r.readies),
        rss_mb_viewer_procs=[mb(x.rss_kb) for x in r.reports],
        viewer_kb_per_viewer=round(client / total.viewers, 1) if total.viewers else None,
        viewer_us_per_delta=per_unit_us(r.viewer_cpu, deltas),
        cpu_s_viewer_procs=[round(c.ran, 2) for c in r.viewer_cpu],
        waited_s_viewer_procs=[round(c.waited, 2) for c in r.viewer_cpu],
        connect_s=round(max(x.seconds for x in r.readies), 1),
    )


def mb(kb: int) -> float:
    return round(kb / 1024, 1)


def overall(out: Outcome) -> NodeFigures:
    """The table's last row: every node's viewers, memory and CPU together."""
    nodes = out.per_node
    together = {name: getattr(out, name) for name in Delivery.__struct_fields__}
    return NodeFigures(
        **together,
        node=-1,
        rss_mb_idle=round(sum(n.rss_mb_idle for n in nodes), 1),
        rss_mb=round(sum(n.rss_mb for n in nodes), 1),
        cpu_s=round(sum(n.cpu_s for n in nodes), 2),
        waited_s=round(sum(n.waited_s for n in nodes), 2),
    )


def show(out: Outcome) -> None:
    """The table, then the JSON line."""
    print(
        f"{out.viewers} viewers on {out.nodes} node(s) × {out.workers} worker(s), "
        f"{out.store} store, {out.results} timed results; connected in {out.connect_s} s; "
        f"POST answered p50 {out.post_p50_ms} ms, max {out.post_max_ms} ms"
    )
    head = f"{'node':>6} {'viewers':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'missing':>8} "
    print(
        head
        + f"{'behind':>7} {'dropped':>8} {'RSS idle':>9} {'RSS MB':>8} {'CPU s':>6} {'wait s':>6}"
    )
    for f in [*out.per_node, overall(out)]:
        name = "all" if f.node < 0 else str(f.node)
        print(
            f"{name:>6} {f.viewers:>8} {f.p50_ms!s:>8} {f.p99_ms!s:>8} {f.max_ms!s:>8} "
            f"{f.missing:>8} {f.behind:>7} {f.dropped:>8} {f.rss_mb_idle:>9} {f.rss_mb:>8} "
            f"{f.cpu_s:>6} {f.waited_s:>6}"
        )
    for slow in out.slowest:
        print(f"seq {slow.seq}: POST answered in {slow.post_ms} ms, last delta at {slow.max_ms} ms")
    print(
        f"server: {out.server_kb_per_viewer} kB and {out.server_us_per_delta} µs of CPU per "
        f"viewer and delta, {out.server_idle_us_per_viewer_s} µs per viewer and second idle; "
        f"viewer processes {out.rss_mb_viewer_procs} MB, "
        f"{out.viewer_kb_per_viewer} kB and {out.viewer_us_per_delta} µs per viewer and delta, "
        f"CPU {out.cpu_s_viewer_procs} s, waited {out.waited_s_viewer_procs} s"
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
    parser.add_argument("--idle", type=float, default=6.0, help="seconds of idle CPU measured")
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
