"""`livetb serve --workers N`: N server processes on one port, over one store.

Each worker is a whole `livetb serve --reuse-port` (its own event loop, projections and
viewers); the kernel spreads connections over them (`SO_REUSEPORT`), and each follows the
others' writes through the store's change signal, so fan-out uses every core. This process
only starts them, restarts one that dies, and stops them all on Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

STARTUP = 5.0  # seconds: a worker that exits sooner by itself could not start (port, store)
STOP_GRACE = 10.0  # seconds a worker has to drain its writes before it is killed


class WorkersFailed(Exception):
    """A worker could not start: its own error is above, on stderr."""


def supervise(
    argv: Sequence[str], workers: int, out: io.TextIOBase, banner: str, env: dict[str, str]
) -> int:
    """Run `workers` copies of `python -m livetb <argv>` (with `env` added to this process's
    environment) until a signal stops this process."""
    command = [sys.executable, "-m", "livetb", *argv]
    environment = os.environ | env
    stopping = False

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    started: dict[subprocess.Popen[bytes], float] = {}
    try:
        for _ in range(workers):
            started[subprocess.Popen(command, env=environment)] = time.monotonic()
        print(banner, file=out, flush=True)
        while not stopping:
            time.sleep(0.2)
            for proc, since in list(started.items()):
                code = proc.poll()
                if code is None or stopping:
                    continue
                del started[proc]
                # Killed by a signal: replaced. Exited on its own right after starting: it
                # could not start (its error is above), and neither would another.
                if code >= 0 and time.monotonic() - since < STARTUP:
                    raise WorkersFailed(f"worker {proc.pid} exited at start (status {code})")
                print(f"livetb: worker {proc.pid} exited ({code}); starting another", file=out)
                started[subprocess.Popen(command, env=environment)] = time.monotonic()
    finally:
        _stop_all(list(started))
        for s, handler in previous.items():
            signal.signal(s, handler)
    return 0


def _stop_all(procs: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM (aiohttp's graceful stop: the decided writes are committed), then SIGKILL."""
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE
    for proc in procs:
        try:
            proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
