"""`livetb serve` in its own process, to kill, restart and measure; and a tournament's writes
as plain (method, path, body) steps any client can send."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp

from livetb.backends import open_tokens

Step = tuple[str, str, dict[str, Any] | None]  # method, path, JSON body


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One `livetb serve` on `db` (a SQLite file or a PostgreSQL URL), on `port` (default: a
    free one), with `workers` processes (`--workers`, past 1); its stderr (where a traceback
    would land) in `log` (default: beside the file)."""

    def __init__(
        self, db: Path | str, port: int | None = None, log: Path | None = None, workers: int = 1
    ) -> None:
        self.db = db
        self.workers = workers
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log or Path(db).with_suffix(".log")
        self.proc: subprocess.Popen[bytes] | None = None
        self.pids: list[int] = []

    def token(self, tournament_id: str) -> str:
        with open_tokens(str(self.db)) as tokens:
            return tokens.create(tournament_id)

    async def start(self) -> Server:
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", "from livetb.cli import run; run()", "serve",
                 "--db", str(self.db), "--port", str(self.port),
                 *(["--workers", str(self.workers)] if self.workers > 1 else [])],
                stdout=subprocess.DEVNULL, stderr=log,
            )  # fmt: skip
        self.pids.append(self.proc.pid)
        async with aiohttp.ClientSession() as session:
            for _ in range(400):
                with contextlib.suppress(aiohttp.ClientError):
                    async with session.get(f"{self.base}/api/tournaments") as resp:
                        if resp.status == 200:
                            return self
                await asyncio.sleep(0.025)
        raise RuntimeError(f"the server did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, nothing the process could still do."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def rss_mb(self) -> float:
        """The server process's resident memory now."""
        assert self.proc is not None
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        kb = next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:"))
        return int(kb) / 1024

    def tracebacks(self) -> int:
        return self.log.read_text(errors="replace").count("Traceback") if self.log.exists() else 0


@contextlib.contextmanager
def serving(db: Path) -> Iterator[Server]:
    server = Server(db)
    try:
        yield server
    finally:
        server.stop()


def tournament_steps(tid: str, players: int, rounds: int) -> list[Step]:
    """Create, register, then per round: pair (circle method, no pair twice), every result,
    close. Every step is one write with one expected event."""
    base = f"/api/tournaments/{tid}"
    steps: list[Step] = [("PUT", base, {"name": f"Crash {tid}", "rounds": rounds})]
    steps += [
        ("POST", f"{base}/participants", {"start_no": n, "name": f"Player {n}", "rating": 2500 - n})
        for n in range(1, players + 1)
    ]
    circle = list(range(1, players + 1))
    results = ["1-0", "0-1", "1/2-1/2"]
    for rnd in range(1, rounds + 1):
        half = players // 2
        pairs = list(zip(circle[:half], reversed(circle[half:]), strict=True))
        boards = [
            {"board": b, "white": w if (b + rnd) % 2 else k, "black": k if (b + rnd) % 2 else w}
            for b, (w, k) in enumerate(pairs, start=1)
        ]
        steps.append(("POST", f"{base}/rounds/{rnd}/pairings", {"boards": boards}))
        steps += [
            ("POST", f"{base}/rounds/{rnd}/results", {"board": b, "result": results[(b + rnd) % 3]})
            for b in range(1, half + 1)
        ]
        steps.append(("POST", f"{base}/rounds/{rnd}/close", None))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return steps
