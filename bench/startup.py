"""Benchmark: `livetb serve` from the process's start to its first answer, and its stop.

    .venv/bin/python -m bench.startup [--runs 5]

Starts `livetb serve` on a fresh SQLite store and a free loopback port `--runs` times; for
each, the seconds until `GET /api/tournaments` answers, then from SIGINT to the process's
exit. Prints the best and the median of each. (The suite only checks that the server gets
ready and stops cleanly: `tests/cli/test_server.py`.)
"""

from __future__ import annotations

import argparse
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def once(folder: Path, run: int) -> tuple[float, float]:
    """Seconds to the first answer, and from SIGINT to the exit."""
    port = free_port()
    command = [sys.executable, "-c", "from livetb.cli import run; run()", "serve"]
    command += ["--db", str(folder / f"s{run}.sqlite"), "--port", str(port)]
    url = f"http://127.0.0.1:{port}/api/tournaments"
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        while True:
            if proc.poll() is not None:
                raise SystemExit(proc.stderr.read().decode() if proc.stderr else "exited")
            try:
                with urllib.request.urlopen(url, timeout=1):
                    break
            except OSError:
                time.sleep(0.01)
        ready = time.perf_counter() - started
        asked = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        proc.wait(60)
        return ready, time.perf_counter() - asked
    finally:
        if proc.poll() is None:
            proc.kill()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        runs = [once(Path(tmp), n) for n in range(args.runs)]
    ready, stop = [r for r, _ in runs], [s for _, s in runs]
    print(
        f"`livetb serve`, {args.runs} runs: ready in {min(ready):.2f} s best, "
        f"{statistics.median(ready):.2f} s median; stopped in {min(stop):.2f} s best, "
        f"{statistics.median(stop):.2f} s median"
    )


if __name__ == "__main__":
    main()
