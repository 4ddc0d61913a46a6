"""What the event loop goes through while a large Swiss is played through the service.

    .venv/bin/python -m bench.loop --players 10000 --rounds 13
    .venv/bin/python -m bench.loop --players 10000 --rounds 13 --ref /tmp/base5ee

A generated Swiss (`bench/generate.py`) is appended to a store (SQLite on /dev/shm, the
server's default store without the disk's syncs; `--store memory`: the test double, whose
append copies the whole log) and applied by the service the way the server applies a group
commit: `await service.current(id)` after each append, on a real asyncio loop (the append and
the store read in worker threads, the apply and the settle slices on the loop). Per round:
the pairing; the first half of the results in groups of `--group`, `--gap` apart; a quiet
`--pause` (the service settles: the close is prepared and the collector's policy runs); the
second half the same way; the close `--close-after` after the last result, so within the
service's 50 ms of quiet (unsettled); a quiet `--pause`.

Measured, in a process of its own per run:
- every loop callback (a patched `asyncio.Handle._run`): its wall time and its thread CPU time
  (what the callback itself computed; the wall time adds preemption on a loaded machine), max,
  p99 and how many over 5 ms, and the slowest with what they ran;
- a 1 ms ticker task: how late each wake-up is (what any other request would have waited);
- every collection (`gc.callbacks`): generation, wall and CPU time, whether on the loop's
  thread and inside a callback;
- the pairing and the close: from the append to `current()` returning (the writer's wait:
  the store read and the apply), and the loop thread's CPU time meanwhile.

`--ref PATH` runs the same measurement on another checkout (e.g. `git worktree add
/tmp/base5ee 5ee2e75`), its own `livetb` and `bench.generate`, the runs interleaved (ref,
this, ref, this for `--repeat 2`); the comparison takes each event's best run per side. The
service's API is the same there (`livetb.service` then, `livetb.app.service` now). The
machine's load and a reference loop (`bench.projection.reference_ms`) are printed per run.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

ROOT = Path(__file__).resolve().parent.parent
TIEBREAKS = ("PTS", "BH/C1", "BH", "DE", "WIN", "BWG", "FB")
TID = "bench"
MOST_PLAYERS = 9999  # the largest start number a store accepts: "10,000 players" is 9,999
SLOW_MS = 5.0  # a loop slice over this is what the goal forbids


# --- what a run reports ----------------------------------------------------------------------


class Slow(msgspec.Struct):
    wall_ms: float
    cpu_ms: float
    what: str


class Slices(msgspec.Struct):
    """Loop callbacks: count, and by wall and by CPU time max, p99 and how many over 5 ms."""

    count: int
    wall_max: float
    wall_p99: float
    wall_over: int
    cpu_max: float
    cpu_p99: float
    cpu_over: int
    slowest: list[Slow]


class Lateness(msgspec.Struct):
    count: int
    max_ms: float
    p99_ms: float
    over: int


class Collection(msgspec.Struct):
    generation: int
    wall_ms: float
    cpu_ms: float
    on_loop: bool  # on the loop's thread (a worker thread's collection holds the lock too)
    within: str  # the loop callback it ran in ("" outside any)


class Heavy(msgspec.Struct):
    kind: str  # "pairing" or "close"
    round: int
    wall_ms: float
    cpu_ms: float  # the loop thread's


class Run(msgspec.Struct):
    side: str
    players: int
    rounds: int
    load: tuple[float, float]  # 1-minute load average before and after
    seconds: float
    slices: Slices
    ticker: Lateness
    collections: list[Collection]
    heavy: list[Heavy]


# --- the measurement, in a child process (its own livetb on sys.path) -------------------------


def percentile(xs: Sequence[float], p: float) -> float:
    if not xs:
        return 0.0
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


class Monitor:
    """Times every loop callback and every collection; a ticker measures wake-up lateness."""

    def __init__(self, keep: int = 12) -> None:
        self.keep = keep
        self.walls: list[float] = []
        self.cpus: list[float] = []
        self.slow: list[Slow] = []
        self.late: list[float] = []
        self.collections: list[Collection] = []
        self.inside = ""  # the callback running, where a task resumed
        self.stopped = False
        self.loop_thread = threading.get_ident()
        self._gc_start = (0.0, 0.0)

    def install(self) -> None:
        original: Callable[[asyncio.Handle], None] = asyncio.Handle._run
        monitor = self

        def timed(handle: asyncio.Handle) -> None:
            resumes = _label(handle)  # where a task resumes, read before it runs
            t0, c0 = time.perf_counter(), time.thread_time()
            monitor.inside = resumes
            try:
                original(handle)
            finally:
                monitor.inside = ""
                wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
                if not monitor.stopped:
                    monitor.callback(handle, resumes, wall, cpu)

        asyncio.Handle._run = timed  # type: ignore[method-assign]
        gc.callbacks.append(self.collected)

    def callback(self, handle: asyncio.Handle, resumes: str, wall: float, cpu: float) -> None:
        """One callback's times; the slowest by CPU time kept with where it ran (a task:
        where it resumed, and where it stopped)."""
        wall_ms, cpu_ms = wall * 1000, cpu * 1000
        self.walls.append(wall_ms)
        self.cpus.append(cpu_ms)
        if cpu_ms > SLOW_MS or len(self.slow) < self.keep:
            stops = _label(handle)
            what = resumes if stops == resumes else f"{resumes} ... {stops}"
            self.slow.append(Slow(wall_ms, cpu_ms, what))
            self.slow.sort(key=lambda s: -s.cpu_ms)
            del self.slow[self.keep :]

    def collected(self, phase: str, info: dict[str, int]) -> None:
        if self.stopped:
            return
        if phase == "start":
            self._gc_start = (time.perf_counter(), time.thread_time())
            return
        t0, c0 = self._gc_start
        self.collections.append(
            Collection(
                info["generation"],
                (time.perf_counter() - t0) * 1000,
                (time.thread_time() - c0) * 1000,
                threading.get_ident() == self.loop_thread,
                self.inside,
            )
        )

    async def tick(self) -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(0.001)
            self.late.append((time.perf_counter() - t0 - 0.001) * 1000)

    def slices(self) -> Slices:
        w, c = self.walls, self.cpus
        return Slices(
            len(w),
            max(w, default=0.0),
            percentile(w, 99),
            sum(x > SLOW_MS for x in w),
            max(c, default=0.0),
            percentile(c, 99),
            sum(x > SLOW_MS for x in c),
            self.slow,
        )

    def lateness(self) -> Lateness:
        late = self.late
        return Lateness(
            len(late), max(late, default=0.0), percentile(late, 99), sum(x > SLOW_MS for x in late)
        )


def _label(handle: asyncio.Handle) -> str:
    """What a callback runs: a task's innermost coroutine (where it resumes), or the
    function."""
    callback = getattr(handle, "_callback", None)
    task = getattr(callback, "__self__", None)
    if not isinstance(task, asyncio.Task):
        return str(getattr(callback, "__qualname__", callback))
    chain: list[str] = []
    coro: Any = task.get_coro()
    while coro is not None and hasattr(coro, "cr_code"):
        chain.append(coro.__qualname__.replace(".<locals>", ""))
        coro = coro.cr_await
    return " > ".join(chain[-3:])


def _rounds_of(log: Sequence[Any]) -> list[tuple[list[Any], list[Any], Any | None]]:
    """The log after the registrations, per round: what comes before its results (the
    pairing, byes, withdrawals), its results, its close."""
    rounds: list[tuple[list[Any], list[Any], Any | None]] = []
    before: list[Any] = []
    results: list[Any] = []
    for event in log:
        kind = type(event).__name__
        if kind == "ResultRecorded":
            results.append(event)
        elif kind == "RoundClosed":
            rounds.append((before, results, event))
            before, results = [], []
        else:
            before.append(event)
    if before or results:
        rounds.append((before, results, None))
    return rounds


async def play(args: argparse.Namespace, monitor: Monitor) -> list[Heavy]:
    """The tournament through the service; the pairings' and closes' times."""
    from bench.generate import swiss_events
    from livetb.events.sqlite import SqliteStore
    from livetb.events.store import MemoryStore

    try:
        from livetb.app.service import TournamentService
    except ImportError:  # the code before the application layer had its folder
        from livetb.service import TournamentService  # type: ignore[no-redef,import-not-found]

    monitor.stopped = True  # making the input is the bench's work, not the loop's
    events = swiss_events(args.players, args.rounds, tiebreaks=TIEBREAKS)
    first = next(i for i, e in enumerate(events) if type(e).__name__ not in _SETUP)
    rounds = _rounds_of(events[first:])  # split here: 12 ms on the loop, the bench's own
    # The generated log is the benchmark's input, not the server's heap (a server reads the
    # log from its store): out of the collector's sight, as in `bench.projection`.
    gc.collect()
    gc.freeze()
    monitor.stopped = False
    folder = tempfile.TemporaryDirectory(dir="/dev/shm" if Path("/dev/shm").is_dir() else None)
    store = MemoryStore() if args.store == "memory" else SqliteStore(Path(folder.name) / "t.db")
    service = TournamentService(store)
    head = store.append(TID, 0, events[:first], actor="bench")
    await service.current(TID)  # loaded in a worker thread, as a server's first read
    ticker = asyncio.ensure_future(monitor.tick())
    heavy: list[Heavy] = []

    async def write(batch: Sequence[Any]) -> tuple[float, float]:
        nonlocal head
        t0, c0 = time.perf_counter(), time.thread_time()
        head = await asyncio.to_thread(store.append, TID, head, batch, actor="bench")
        await service.current(TID)
        return (time.perf_counter() - t0) * 1000, (time.thread_time() - c0) * 1000

    async def results(batch: Sequence[Any]) -> None:
        for at in range(0, len(batch), args.group):
            await write(batch[at : at + args.group])
            await asyncio.sleep(args.gap)

    for before, played, close in rounds:
        for event in before:
            wall, cpu = await write([event])
            if type(event).__name__ == "RoundPaired":
                heavy.append(Heavy("pairing", event.round, wall, cpu))
        half = len(played) // 2
        await results(played[:half])
        await asyncio.sleep(args.pause)
        await results(played[half:])
        if close is not None:
            await asyncio.sleep(args.close_after)
            wall, cpu = await write([close])
            heavy.append(Heavy("close", close.round, wall, cpu))
            await asyncio.sleep(args.pause)
    ticker.cancel()
    monitor.stopped = True  # what follows frees the whole tournament: the bench's, not the loop's
    return heavy


_SETUP = {"TournamentCreated", "ParticipantRegistered"}


def child(args: argparse.Namespace) -> None:
    """One run, on the `livetb` first on sys.path; the report as JSON on stdout's last line."""
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    monitor = Monitor()

    async def main() -> list[Heavy]:
        monitor.loop_thread = threading.get_ident()
        monitor.install()
        return await play(args, monitor)

    heavy = asyncio.run(main())
    gc.callbacks.remove(monitor.collected)
    run = Run(
        args.side,
        args.players,
        args.rounds,
        (load0, os.getloadavg()[0]),
        time.perf_counter() - t0,
        monitor.slices(),
        monitor.lateness(),
        monitor.collections,
        heavy,
    )
    sys.stdout.write(msgspec.json.encode(run).decode() + "\n")


# --- the parent: runs interleaved, tables ---------------------------------------------------


def spawn(root: Path, side: str, args: argparse.Namespace) -> Run:
    """A child run on checkout `root`: its `livetb` and `bench` first on the path, not this
    file's folder (`PYTHONSAFEPATH`)."""
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONSAFEPATH": "1"}
    argv = [sys.executable, str(Path(__file__).resolve()), "--child", "--side", side]
    for name in ("players", "rounds", "group", "gap", "pause", "close_after", "store"):
        argv += [f"--{name.replace('_', '-')}", str(getattr(args, name))]
    done = subprocess.run(argv, env=env, cwd=root, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{side} run failed:\n{done.stderr}")
    return msgspec.json.decode(done.stdout.strip().splitlines()[-1], type=Run)


def _ms(xs: Sequence[float]) -> str:
    return f"{statistics.fmean(xs):.0f} / {min(xs):.0f} / {max(xs):.0f}" if xs else "-"


def report(run: Run, reference: tuple[float, float]) -> list[str]:
    s, t = run.slices, run.ticker
    # A worker thread's collection (the store's append) holds the interpreter's lock, so the
    # loop, as long as one on the loop's thread: every one counts.
    every = run.collections
    full = [c for c in every if c.generation == 2]
    pairing = [h.wall_ms for h in run.heavy if h.kind == "pairing"]
    close = [h.wall_ms for h in run.heavy if h.kind == "close"]
    return [
        f"{run.side}: {run.players:,} × {run.rounds} in {run.seconds:.0f} s, load "
        f"{run.load[0]:.1f} → {run.load[1]:.1f}, reference loop {reference[0]:.0f} / "
        f"{reference[1]:.0f} ms",
        f"  loop callbacks {s.count:,}: wall max {s.wall_max:.1f} ms, p99 {s.wall_p99:.2f} ms, "
        f"{s.wall_over} over 5 ms; CPU max {s.cpu_max:.1f} ms, p99 {s.cpu_p99:.2f} ms, "
        f"{s.cpu_over} over 5 ms",
        f"  1 ms ticker {t.count:,} wake-ups: late max {t.max_ms:.1f} ms, p99 {t.p99_ms:.2f} ms, "
        f"{t.over} over 5 ms",
        f"  collections {len(every):,} ({sum(not c.on_loop for c in every)} in worker threads; "
        f"full {len(full)}, max {max((c.cpu_ms for c in full), default=0):.1f} ms CPU): max "
        f"{max((c.wall_ms for c in every), default=0):.1f} ms wall / "
        f"{max((c.cpu_ms for c in every), default=0):.1f} ms CPU, "
        f"{sum(c.cpu_ms > SLOW_MS for c in every)} over 5 ms CPU; "
        f"by generation {_by_generation(every)}",
        "  slowest collections (generation, CPU ms, in): "
        + "; ".join(
            f"{c.generation} {c.cpu_ms:.1f} {c.within or ('-' if c.on_loop else 'worker')}"
            for c in sorted(every, key=lambda c: -c.cpu_ms)[:4]
        ),
        f"  pairing mean / best / max {_ms(pairing)} ms, close {_ms(close)} ms",
        "  slowest callbacks by CPU (wall / CPU ms): "
        + "; ".join(f"{x.wall_ms:.1f}/{x.cpu_ms:.1f} {x.what}" for x in s.slowest[:5]),
    ]


def _by_generation(collections: Sequence[Collection]) -> str:
    parts = []
    for g in range(3):
        cs = [c.cpu_ms for c in collections if c.generation == g]
        if cs:
            parts.append(f"{g}: {len(cs)} max {max(cs):.1f} ms")
    return ", ".join(parts) or "none"


def best_per_event(runs: Sequence[Run], kind: str) -> dict[int, float]:
    best: dict[int, float] = {}
    for run in runs:
        for h in run.heavy:
            if h.kind == kind:
                best[h.round] = min(best.get(h.round, float("inf")), h.wall_ms)
    return best


def compare(ref: Sequence[Run], this: Sequence[Run]) -> list[str]:
    lines = [
        "| event | ref (mean of each round's best) | this | this / ref |",
        "|---|---:|---:|---:|",
    ]
    for kind in ("pairing", "close"):
        a, b = best_per_event(ref, kind), best_per_event(this, kind)
        common = sorted(a.keys() & b.keys())
        if common:
            ma = statistics.fmean(a[r] for r in common)
            mb = statistics.fmean(b[r] for r in common)
            lines.append(f"| {kind} | {ma:.0f} ms | {mb:.0f} ms | {mb / ma:.0%} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=13)
    parser.add_argument("--group", type=int, default=8, help="results per append")
    parser.add_argument("--gap", type=float, default=0.002, help="seconds between groups")
    parser.add_argument("--pause", type=float, default=1.0, help="quiet seconds mid-round")
    parser.add_argument("--close-after", type=float, default=0.01, help="last result → close")
    parser.add_argument(
        "--store", choices=("sqlite", "memory"), default="sqlite", help="sqlite: on /dev/shm"
    )
    parser.add_argument("--ref", type=Path, help="another checkout, measured interleaved")
    parser.add_argument("--repeat", type=int, default=1, help="runs per side")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--side", default="this", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.players > MOST_PLAYERS:
        print(f"--players {args.players}: {MOST_PLAYERS:,}, the largest start number stored")
        args.players = MOST_PLAYERS
    if args.child:
        return child(args)
    from bench.projection import reference_ms

    sides = [("ref", args.ref.resolve()), ("this", ROOT)] if args.ref else [("this", ROOT)]
    runs: dict[str, list[Run]] = {side: [] for side, _ in sides}
    for _ in range(args.repeat):
        for side, root in sides:
            before = reference_ms()
            run = spawn(root, side, args)
            runs[side].append(run)
            print("\n".join(report(run, (before, reference_ms()))), flush=True)
    if args.ref:
        print()
        print("\n".join(compare(runs["ref"], runs["this"])))


if __name__ == "__main__":
    main()
