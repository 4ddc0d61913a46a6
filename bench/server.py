"""A `livetb serve` of its own for the benchmarks that measure a real server."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import aiohttp


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def wait_ready(base: str, server: subprocess.Popen[bytes] | None = None) -> None:
    """Until `base` answers, a minute at most (a loaded machine starts a server slowly), or
    until `server` exits (its stderr says why)."""
    async with aiohttp.ClientSession() as session:
        for _ in range(1200):
            if server is not None and server.poll() is not None:
                raise RuntimeError(f"server on {base} exited with status {server.returncode}")
            with contextlib.suppress(aiohttp.ClientError):
                async with session.get(f"{base}/api/tournaments"):
                    return
            await asyncio.sleep(0.05)
    raise RuntimeError(f"server on {base} did not answer within a minute")


@contextlib.contextmanager
def serving(db: Path | str, workers: int = 1) -> Iterator[tuple[str, int]]:
    """`livetb serve` over `db` (`--workers`) in its own process on a free loopback port, once
    it answers: its base URL and pid; stopped on leaving (killed if it takes a minute)."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", "from livetb.cli import run; run()", "serve",
         "--db", str(db), "--port", str(port), "--workers", str(workers)],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        asyncio.run(wait_ready(base, server))
        yield base, server.pid
    finally:
        server.terminate()
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:  # stuck on its way down: a benchmark never hangs
            server.kill()
            server.wait()
