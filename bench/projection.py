"""The standings projection on generated Swiss tournaments.

    .venv/bin/python -m bench.projection                       # 500x11, 2000x11, 10000x13
    .venv/bin/python -m bench.projection --players 2000 --rounds 11

Per field size: apply-one-result latency (p50/p99), round close and pairing (mean/max), full
replay (rebuild from the log); then the ratio of the largest field's result p99 to the
smallest's (a result's cost must not grow with the field). Every event is applied
in `--repeat` passes over the log; its time is its best pass (timeit's convention: the rest
of the machine only ever adds time). A reference loop timed before and after tells how fast
the machine was meanwhile. `--scratch-samples` adds recomputing from scratch.

Between events the projection is settled as the server settles it once a tournament is quiet
(`settle_for`: rows taken a few at a time until `SETTLE_SECONDS` have passed, each slice timed
and its maximum printed); `--no-settle` measures every event with nothing settled before it.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from dataclasses import dataclass

from bench.generate import as_log, swiss_events
from livetb.app.collector import Collector
from livetb.app.service import SETTLE_SECONDS, settle_for
from livetb.events.schema import ResultRecorded, RoundClosed, RoundPaired
from livetb.projections.standings import StandingsProjection

TIEBREAKS = ("PTS", "BH/C1", "BH", "DE", "WIN", "BWG", "FB")
SIZES = ((500, 11), (2000, 11), (10000, 13))


def reference_ms() -> float:
    """A fixed pure-Python loop's best time of three: this machine's speed drifts by up to 2x
    over minutes (a shared VM), so runs compare by it, not only by their absolute times."""
    best = float("inf")
    for _ in range(3):
        t0, total = time.perf_counter(), 0
        for i in range(1_000_000):
            total += i
        best = min(best, (time.perf_counter() - t0) * 1000)
    return best


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


@dataclass
class Measured:
    players: int
    rounds: int
    events: int
    result_ms: list[float]
    close_ms: list[float]
    pair_ms: list[float]
    replay_s: float
    scratch_ms: list[float]
    settle_ms: list[float]

    def line(self) -> str:
        c, p = self.close_ms, self.pair_ms
        return (
            f"| {self.players:,} × {self.rounds} "
            f"| {percentile(self.result_ms, 50):.2f} ms | {percentile(self.result_ms, 99):.2f} ms "
            f"| {statistics.fmean(c):.0f} / {max(c):.0f} ms "
            f"| {statistics.fmean(p):.0f} / {max(p):.0f} ms | {self.replay_s:.2f} s |"
        )


def measure(players: int, rounds: int, repeat: int, scratch_samples: int, settle: bool) -> Measured:
    log = as_log(swiss_events(players, rounds, tiebreaks=TIEBREAKS))
    # The log is the benchmark's input (a server reads it from its store, a page at a time):
    # out of the collector's sight, so that full collections walk what the projection holds.
    gc.collect()
    gc.freeze()
    best = [float("inf")] * len(log)
    settle_ms: list[float] = []
    live = StandingsProjection()
    collector = Collector()
    for _ in range(repeat):
        live = StandingsProjection()
        for i, rec in enumerate(log):
            t0 = time.perf_counter()
            live.apply(rec)
            best[i] = min(best[i], (time.perf_counter() - t0) * 1000)
            while settle and live.unsettled:
                t0 = time.perf_counter()
                settle_for(live, collector)
                settle_ms.append((time.perf_counter() - t0) * 1000)
    kinds = [type(rec.event) for rec in log]

    def of(kind: type) -> list[float]:
        return [ms for ms, k in zip(best, kinds, strict=True) if k is kind]

    t0 = time.perf_counter()
    rebuilt = StandingsProjection.rebuild(log)
    replay_s = time.perf_counter() - t0
    assert rebuilt.standings() == live.standings()
    # Recompute from scratch at evenly spread result events of the last round.
    results = [i for i, rec in enumerate(log) if isinstance(rec.event, ResultRecorded)]
    picks = results[-1 :: -max(1, len(results) // (4 * max(1, scratch_samples)))]
    scratch_ms = []
    for i in picks[:scratch_samples]:
        t0 = time.perf_counter()
        StandingsProjection.rebuild(log[: i + 1])
        scratch_ms.append((time.perf_counter() - t0) * 1000)
    del live, rebuilt, log
    gc.unfreeze()
    gc.collect()
    return Measured(
        players,
        rounds,
        len(kinds),
        of(ResultRecorded),
        of(RoundClosed),
        of(RoundPaired),
        replay_s,
        scratch_ms,
        settle_ms,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, help="one field size (default: the three)")
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--scratch-samples", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="passes over the log")
    parser.add_argument("--no-settle", action="store_true", help="nothing settled between events")
    args = parser.parse_args()
    sizes = ((args.players, args.rounds),) if args.players else SIZES
    settled = "nothing settled" if args.no_settle else "settled"
    print(
        f"tie-breaks {', '.join(TIEBREAKS)}; each event's best of {args.repeat} passes, "
        f"{settled} between events"
    )
    print()
    print(
        "| players × rounds | result p50 | result p99 | close mean / max "
        "| pairing mean / max | replay |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    done = []
    before = reference_ms()
    for players, rounds in sizes:
        m = measure(players, rounds, args.repeat, args.scratch_samples, not args.no_settle)
        done.append(m)
        print(m.line(), flush=True)
    if len(done) > 1:
        small, large = done[0], done[-1]
        ratio = percentile(large.result_ms, 99) / percentile(small.result_ms, 99)
        print()
        print(f"result p99 ratio {large.players:,} / {small.players:,}: {ratio:.2f}")
    for m in done:
        if m.settle_ms:
            print(
                f"{m.players:,}: settling, slices of {SETTLE_SECONDS * 1000:g} ms: "
                f"p99 {percentile(m.settle_ms, 99):.2f} ms, max {max(m.settle_ms):.2f} ms"
            )
    print(f"reference loop: {before:.0f} ms before, {reference_ms():.0f} ms after")
    for m in done:
        if m.scratch_ms:
            mean = statistics.fmean(m.scratch_ms)
            speedup = mean / statistics.fmean(m.result_ms)
            print(
                f"{m.players:,}: recompute from scratch {mean:.0f} ms, incremental {speedup:.0f}x"
            )


if __name__ == "__main__":
    main()
