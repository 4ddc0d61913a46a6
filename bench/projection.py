"""Issue 4 benchmark: the standings projection on a generated 2,000-player, 11-round Swiss.

    .venv/bin/python -m bench.projection [--players 2000] [--rounds 11]

Reports apply-one-result latency (p50/p99), round-close time, full replay time (rebuild from
the log) and how much faster the incremental projection is than recomputing from scratch.
Every event is applied in `--repeat` passes over the log; its time is its best pass.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

from bench.generate import as_log, swiss_events
from livetb.events.schema import ResultRecorded, RoundClosed, RoundPaired
from livetb.projections.standings import StandingsProjection

TIEBREAKS = ("PTS", "BH/C1", "BH", "DE", "WIN", "BWG", "FB")


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--scratch-samples", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3, help="passes over the log")
    args = parser.parse_args()
    log = as_log(swiss_events(args.players, args.rounds, tiebreaks=TIEBREAKS))
    # The log is the benchmark's input (a server reads it from its store, a page at a time):
    # out of the collector's sight, so that full collections walk what the projection holds.
    gc.freeze()
    # Each event's time is its best over the passes (timeit's convention: interference from
    # the rest of the machine only ever adds time).
    best = [float("inf")] * len(log)
    for _ in range(args.repeat):
        live = StandingsProjection()
        for i, rec in enumerate(log):
            t0 = time.perf_counter()
            live.apply(rec)
            best[i] = min(best[i], (time.perf_counter() - t0) * 1000)
    kinds = [type(rec.event) for rec in log]
    result_ms = [ms for ms, kind in zip(best, kinds, strict=True) if kind is ResultRecorded]
    close_ms = [ms for ms, kind in zip(best, kinds, strict=True) if kind is RoundClosed]
    pair_ms = [ms for ms, kind in zip(best, kinds, strict=True) if kind is RoundPaired]
    t0 = time.perf_counter()
    rebuilt = StandingsProjection.rebuild(log)
    replay_s = time.perf_counter() - t0
    assert rebuilt.standings() == live.standings()
    # Recompute from scratch at evenly spread result events of the last round.
    results = [i for i, rec in enumerate(log) if isinstance(rec.event, ResultRecorded)]
    picks = results[-1 :: -max(1, len(results) // (4 * args.scratch_samples))][
        : args.scratch_samples
    ]
    scratch_ms = []
    for i in picks:
        t0 = time.perf_counter()
        StandingsProjection.rebuild(log[: i + 1])
        scratch_ms.append((time.perf_counter() - t0) * 1000)
    mean_result = statistics.fmean(result_ms)
    print(
        f"generated Swiss: {args.players} players, {args.rounds} rounds, {len(log)} events; "
        f"each event's best of {args.repeat} passes"
    )
    print("| measure | value |")
    print("|---|---|")
    print(f"| apply one result, p50 | {percentile(result_ms, 50):.3f} ms |")
    print(f"| apply one result, p99 | {percentile(result_ms, 99):.3f} ms |")
    print(
        f"| round close, mean / max | {statistics.fmean(close_ms):.1f} / {max(close_ms):.1f} ms |"
    )
    print(
        f"| round pairing, mean / max | {statistics.fmean(pair_ms):.1f} / {max(pair_ms):.1f} ms |"
    )
    print(f"| full replay (rebuild from the log) | {replay_s:.2f} s |")
    print(f"| recompute from scratch after a result | {statistics.fmean(scratch_ms):.0f} ms |")
    print(f"| incremental speed-up | {statistics.fmean(scratch_ms) / mean_result:.0f}x |")


if __name__ == "__main__":
    main()
