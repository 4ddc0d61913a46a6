"""Bytes per feed delta (wire v2) on the projection bench's generated Swiss.

    .venv/bin/python -m bench.delta_bytes [--players 2000] [--rounds 11]

Applies the log event by event and encodes each delta as the full feed sends it
(`livetb.web.feed.messages.delta_message`); prints mean / p99 / max bytes for results, closes and
pairings separately.
"""

from __future__ import annotations

import argparse
import statistics

from bench.generate import as_log, swiss_events
from bench.projection import TIEBREAKS, percentile
from livetb.events.schema import ResultRecorded, RoundClosed, RoundPaired
from livetb.projections.standings import StandingsProjection
from livetb.web.feed.messages import delta_message
from livetb.wire.messages import encode


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=11)
    args = parser.parse_args()
    log = as_log(swiss_events(args.players, args.rounds, tiebreaks=TIEBREAKS))
    live = StandingsProjection()
    sizes: dict[type, list[int]] = {ResultRecorded: [], RoundClosed: [], RoundPaired: []}
    for rec in log:
        delta = live.apply(rec)
        kind = type(rec.event)
        if kind in sizes:
            sizes[kind].append(len(encode(delta_message(delta, live))))
    print(f"bytes per delta, {args.players} players x {args.rounds} rounds, {TIEBREAKS}")
    print(f"{'event':<10} {'count':>6} {'mean':>9} {'p99':>9} {'max':>9}")
    for kind, xs in sizes.items():
        name = kind.__name__.removesuffix("Recorded")
        name = {"RoundClosed": "close", "RoundPaired": "pairing"}.get(name, name.lower())
        print(
            f"{name:<10} {len(xs):>6} {statistics.fmean(xs):>9,.0f} "
            f"{percentile(xs, 99):>9,} {max(xs):>9,}"
        )


if __name__ == "__main__":
    main()
