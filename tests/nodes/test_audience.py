"""`python -m bench.audience`: two nodes on one PostgreSQL store, 200 viewers spread over them,
results POSTed on the first; its last line is the JSON the runs are recorded from. Checked for
what it counts (every delta at every viewer, nobody behind), never for how fast."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_audience_benchmark_counts_every_delta_at_every_viewer_of_both_nodes(
    pg_url: str,
) -> None:
    command = [sys.executable, "-m", "bench.audience", "--nodes", "2", "--viewers", "200",
               "--results", "6", "--gap", "0.05", "--idle", "1", "--store", pg_url]  # fmt: skip
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["viewers"] == 200 and report["nodes"] == 2
    assert report["results"] == 5  # the first POST is untimed
    assert (report["missing"], report["behind"], report["dropped"]) == (0, 0, 0)
    assert 0 < report["p50_ms"] <= report["p99_ms"] <= report["max_ms"]
    per_node = report["per_node"]
    assert [n["viewers"] for n in per_node] == [100, 100]
    assert all(n["missing"] == 0 and n["behind"] == 0 for n in per_node)
    assert all(n["p99_ms"] <= report["max_ms"] for n in per_node)
    assert all(mb > 0 for mb in report["rss_mb_per_node"] + report["rss_mb_viewer_procs"])
    assert report["server_us_per_delta"] > 0 and report["server_idle_us_per_viewer_s"] >= 0
