"""`livetb serve --workers N`: N server processes on one port, over one store.

Each worker is a whole `livetb serve --reuse-port` (its own event loop, projections and
viewers); the kernel spreads connections over them (`SO_REUSEPORT`), and each follows the
others' writes through the store's change signal, so fan-out uses every core. This process
only starts them, restarts one that dies, and stops them all on Ctrl-C or SIGTERM.

A worker that exits right after starting could not start. Before any worker has served, that
is the settings (the port taken, the store unreachable): the lot stops with the worker's own
error. Once one has served, the port and the settings are good and what failed is most likely
the store (a database restarting): the worker is started again with backoff, one line said
per outage, until one starts.
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
RESTART_FIRST, RESTART_MOST = 0.5, 5.0  # seconds before starting again one that could not


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
    due: list[float] = []  # when to start each worker that could not start
    served = False  # a worker has run past STARTUP: the port and the settings are good
    waiting: float | None = None  # since when workers cannot start (None: they can)
    backoff = RESTART_FIRST

    def start() -> None:
        started[subprocess.Popen(command, env=environment)] = time.monotonic()

    try:
        for _ in range(workers):
            start()
        print(banner, file=out, flush=True)
        while not stopping:
            time.sleep(0.2)
            now = time.monotonic()
            for proc, since in list(started.items()):
                code = proc.poll()
                if stopping:
                    break
                if code is None:
                    if now - since >= STARTUP:
                        served = True
                        if waiting is not None and since > waiting:  # one started again
                            print("livetb: workers start again", file=out, flush=True)
                            waiting, backoff = None, RESTART_FIRST
                    continue
                del started[proc]
                # Killed by a signal: replaced. Exited on its own right after starting: it
                # could not start (its error is above).
                if code < 0 or now - since >= STARTUP:
                    print(f"livetb: worker {proc.pid} exited ({code}); starting another", file=out)
                    start()
                elif not served:  # neither would another: the port, the settings
                    raise WorkersFailed(f"worker {proc.pid} exited at start (status {code})")
                else:
                    if waiting is None:  # once per outage
                        waiting = now
                        print(
                            f"livetb: worker {proc.pid} exited at start (status {code}): "
                            "waiting for the store, starting it again with backoff",
                            file=out,
                            flush=True,
                        )
                    due.append(now + backoff)
                    backoff = min(backoff * 2, RESTART_MOST)
            for at in [at for at in due if at <= now and not stopping]:
                due.remove(at)
                start()
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
