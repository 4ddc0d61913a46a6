"""`livetb serve` holds a broadcast's audience: its soft limit of open files raised to the
hard one (a socket per viewer), and a listen queue that keeps a crowd reconnecting at once
while the event loop is busy, instead of dropping their handshakes for TCP to retry seconds
later."""

from __future__ import annotations

import os
import resource
import selectors
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.cli.test_server import free_port


def low_soft_limit() -> None:
    """In the server's process before it starts: a soft limit of 256 open files."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, hard), hard))


@contextmanager
def serving(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "livetb", "serve", "--db", str(tmp_path / "s.sqlite"),
         "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=low_soft_limit,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, "the server exited"
            assert time.monotonic() < deadline, "the server did not answer within a minute"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tournaments", timeout=1):
                    break
            except (urllib.error.URLError, OSError):
                time.sleep(0.05)
        yield proc, port
    finally:
        os.kill(proc.pid, signal.SIGCONT)
        proc.terminate()
        proc.wait(60)


def open_files(pid: int) -> tuple[int, int]:
    line = next(
        x for x in Path(f"/proc/{pid}/limits").read_text().splitlines() if "open files" in x
    )
    soft, hard = line.split()[3:5]
    return int(soft), int(hard)


def test_serve_raises_its_soft_limit_of_open_files_to_the_hard_one(tmp_path: Path) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with serving(tmp_path) as (proc, _):
        assert open_files(proc.pid) == (hard, hard)


def test_a_crowd_connecting_while_the_loop_is_stopped_waits_in_the_listen_queue(
    tmp_path: Path,
) -> None:
    # Linux holds at most net.core.somaxconn (4096 since 5.4); aiohttp's default held 128.
    crowd = min(600, int(Path("/proc/sys/net/core/somaxconn").read_text()))
    with serving(tmp_path) as (proc, port), selectors.DefaultSelector() as waiting:
        os.kill(proc.pid, signal.SIGSTOP)  # nothing accepts: only the kernel's queue holds them
        sockets: dict[int, socket.socket] = {}
        try:
            for _ in range(crowd):
                s = socket.socket()
                s.setblocking(False)
                s.connect_ex(("127.0.0.1", port))
                sockets[s.fileno()] = s
                waiting.register(s, selectors.EVENT_WRITE)
            connected = 0
            deadline = time.monotonic() + 60
            while connected < crowd and time.monotonic() < deadline:
                for key, _ in waiting.select(deadline - time.monotonic()):
                    waiting.unregister(key.fileobj)
                    error = sockets[key.fd].getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                    connected += error == 0
        finally:
            for s in sockets.values():
                s.close()
    assert connected == crowd
