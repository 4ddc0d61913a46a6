"""`livetb serve --workers N`: N server processes on one port, over one store.

Each worker is a whole `livetb serve --reuse-port` (its own event loop, projections and
viewers); the kernel spreads connections over them (`SO_REUSEPORT`), and each follows the
others' writes through the store's change signal, so fan-out uses every core. This process
only starts them, restarts one that dies, and stops them all on Ctrl-C, SIGTERM or SIGHUP.

The store may be away (a database restarting, or not started yet): this process then waits
for it, asking it again with backoff and saying so once per outage, before starting the
workers and before starting one again that could not start. A worker says when it listens
(a byte on the pipe named by `READY_FD`); one that exits before it does could not start,
however long it took on a loaded machine: while the store answers, that is its settings (the
port taken), and before any worker has served, the lot stops with the worker's own error,
since another would fail alike. One that exits after is replaced, from the package the others
run: once the package on disk is another (upgraded in place under them), every worker restarts
on it, so that no page is served by one version and its files by another.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from livetb import i18n

READY_FD = "LIVETB_READY_FD"  # a worker's environment: the pipe it writes a byte to once listening
STOP_GRACE = 10.0  # seconds a worker has to drain its writes before it is killed
RESTART_FIRST, RESTART_MOST = 0.5, 5.0  # seconds between attempts while the store is away

# Why the store cannot be used now (its name and the driver's reason), or None when it
# answers; raises for a fault no wait would cure (a malformed URL).
Probe = Callable[[], str | None]


class WorkersFailed(Exception):
    """A worker could not start: its own error is above, on stderr."""


class _Outage:
    """Whether the store is away, said once when it goes and once when it answers again."""

    def __init__(self, probe: Probe, out: io.TextIOBase, lang: str) -> None:
        self.probe = probe
        self.out = out
        self.lang = lang
        self.since: float | None = None  # None: the store answers
        self.backoff = RESTART_FIRST

    def store_away(self) -> bool:
        reason = self.probe()
        if reason is None:
            if self.since is not None:
                print(i18n.text(self.lang, "cli.workers.store_back"), file=self.out)
                self.since, self.backoff = None, RESTART_FIRST
            return False
        if self.since is None:
            self.since = time.monotonic()
            away = i18n.text(self.lang, "cli.workers.store_away", reason=reason)
            print(away, file=self.out, flush=True)
        return True

    def next_attempt(self) -> float:
        """When to ask again: the backoff doubles up to RESTART_MOST."""
        at = time.monotonic() + self.backoff
        self.backoff = min(self.backoff * 2, RESTART_MOST)
        return at


def supervise(
    argv: Sequence[str],
    workers: int,
    out: io.TextIOBase,
    banner: str,
    env: dict[str, str],
    probe: Probe,
    lang: str,
) -> int:
    """Run `workers` copies of `python -m livetb <argv>` (with `env` added to this process's
    environment) until a signal stops this process; `probe` tells whether the store answers.
    What it says is in `lang`."""
    command = [sys.executable, "-m", "livetb", *argv]
    environment = os.environ | env
    stopping = False

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    # A terminal's Ctrl-C or hang-up reaches this process only (the workers have a process
    # group of their own): a worker still importing would die of it with a traceback, and
    # one that serves would stop before being told to.
    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    started: dict[subprocess.Popen[bytes], _Ready] = {}
    due: list[float] = []  # when to start each worker that could not start
    served = False  # a worker has listened: the port and the settings are good
    outage = _Outage(probe, out, lang)

    def start() -> None:
        ready = _Ready()
        env = environment | {READY_FD: str(ready.write_end)}
        worker = subprocess.Popen(command, env=env, pass_fds=(ready.write_end,), process_group=0)
        started[worker] = ready
        ready.started()

    package = installed()  # what the workers start from

    def start_again() -> bool:
        """A worker in place of one that exited, from the package the others run. Once the
        package on disk is another (upgraded in place under them), every worker restarts on
        it instead: a new worker beside old ones would serve pages naming files the old ones
        do not have. True when every worker was restarted."""
        nonlocal package
        now = installed()
        if now == package:
            start()
            return False
        print(i18n.text(lang, "cli.workers.upgraded"), file=out, flush=True)
        _stop_all(list(started))
        for ready in started.values():
            ready.close()
        started.clear()
        due.clear()
        package = now
        for _ in range(workers):
            start()
        return True

    try:
        wake = time.monotonic()
        while not stopping and (time.monotonic() < wake or outage.store_away()):
            if time.monotonic() >= wake:
                wake = outage.next_attempt()
            time.sleep(0.1)
        if stopping:
            return 0
        for _ in range(workers):
            start()
        print(banner, file=out, flush=True)
        while not stopping:
            time.sleep(0.2)
            now = time.monotonic()
            for proc, ready in list(started.items()):
                code = proc.poll()
                if stopping:
                    break
                listened = ready.listened()
                if code is None:
                    served = served or listened
                    continue
                del started[proc]
                ready.close()
                # Killed by a signal, or exited once it had listened: replaced. Exited before
                # listening: it could not start (its error is above), for the store or for its
                # settings.
                if code < 0 or listened:
                    replaced = i18n.text(lang, "cli.workers.replaced", pid=proc.pid, code=code)
                    print(replaced, file=out)
                    if start_again():
                        break
                    continue
                away = outage.since is not None
                failed = i18n.text(lang, "cli.workers.failed_start", pid=proc.pid, code=code)
                if not outage.store_away() and not served:  # neither would another start
                    raise WorkersFailed(failed)
                if not away:  # once per outage
                    print(i18n.text(lang, "cli.error", message=failed), file=out)
                due.append(outage.next_attempt())
            for at in [at for at in due if at <= now and not stopping]:
                due.remove(at)
                if outage.since is not None and outage.store_away():
                    due.append(outage.next_attempt())  # not a worker that would fail too
                elif start_again():
                    break
    finally:
        _stop_all(list(started))
        for ready in started.values():
            ready.close()
        for s, handler in previous.items():
            signal.signal(s, handler)
    return 0


class _Ready:
    """The pipe a worker says it listens on: its write end is the worker's, its read end
    this process's (non-blocking)."""

    def __init__(self) -> None:
        self.read_end, self.write_end = os.pipe()
        os.set_blocking(self.read_end, False)
        self.said = False

    def started(self) -> None:
        os.close(self.write_end)  # the worker holds it now

    def listened(self) -> bool:
        if not self.said:
            with contextlib.suppress(BlockingIOError):
                self.said = bool(os.read(self.read_end, 1))
        return self.said

    def close(self) -> None:
        os.close(self.read_end)


def tell_listening() -> None:
    """In a worker, once its sockets listen: a byte on the supervisor's pipe, if it gave one."""
    fd = os.environ.pop(READY_FD, None)
    if fd is not None and fd.isdigit():
        try:
            os.write(int(fd), b"1")
            os.close(int(fd))
        except OSError:
            pass  # the supervisor has gone: nobody to tell


def installed() -> str:
    """A digest of the package as it is on disk now, every file but bytecode: another one once
    it is upgraded in place (`pip install -U`, a `git pull` of an editable install)."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            digest.update(f"{path.relative_to(root)}\0{path.stat().st_size}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


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
