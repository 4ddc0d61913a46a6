"""Benchmark: a result POSTed on node A, its delta at the viewers of node B.

    .venv/bin/python -m bench.nodes [--stores sqlite,postgres] [--viewers 200] [--results 60]

Two `livetb serve` processes over one store (a SQLite file, or a fresh schema of the
PostgreSQL at `--pg`, default LIVETB_PG_URL or postgresql://postgres@127.0.0.1:5432/test);
viewers on B only, POSTs on A one at a time, `--gap` seconds apart. Reports p50/p99/max of
(delta received at a viewer of B - POST sent to A), as `bench.feed` measures one node.
"""

from __future__ import annotations

import argparse
import os
import secrets
import tempfile
from pathlib import Path

from bench.feed import measure, percentile, prepare
from bench.server import serving

PG = "postgresql://postgres@127.0.0.1:5432/test"


def run(target: str, players: int, results: int, viewers: int, gap: float) -> list[float]:
    token, live = prepare(target, players, rounds=7, live_round=4)
    with serving(target) as (a, _), serving(target) as (b, _):
        lat, missing, behind = measure(a, token, live[:results], viewers, 2, gap, view_base=b)
    assert missing == 0 and behind == 0, (missing, behind)
    return [x * 1000 for x in lat]


def pg_schema(base: str) -> tuple[str, str]:
    """A fresh schema for this run: the URL naming it, and the schema."""
    schema = f"bench_{secrets.token_hex(4)}"
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options=-csearch_path%3D{schema}", schema


def drop(base: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stores", default="sqlite,postgres")
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--results", type=int, default=41)
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--gap", type=float, default=0.1, help="seconds between POSTs")
    parser.add_argument("--pg", default=os.environ.get("LIVETB_PG_URL", PG))
    args = parser.parse_args()
    print(f"{'store':>10} {'viewers':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for store in args.stores.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            schema = None
            if store == "postgres":
                target, schema = pg_schema(args.pg)
            else:
                target = str(Path(tmp) / "bench.sqlite")
            try:
                ms = run(target, args.players, args.results, args.viewers, args.gap)
            finally:
                if schema is not None:
                    drop(args.pg, schema)
        print(
            f"{store:>10} {args.viewers:>8} {percentile(ms, 50):>8.1f} "
            f"{percentile(ms, 99):>8.1f} {max(ms):>8.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
