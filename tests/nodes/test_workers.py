"""`livetb serve --workers N`: N processes on one port over one store; viewers on any
of them see every write; a worker that dies is replaced; SIGTERM stops them all; the
supervisor waits for a store that does not answer, at the first start as during an outage."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import aiohttp

from livetb.backends import open_tokens
from livetb.tokens.sqlite import TokenStore
from tests.conftest import PG_BASE
from tests.nodes.cluster import LIVETB, Server, Watcher, free_port, get_json
from tests.nodes.proxy import Proxy


def children(pid: int) -> set[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return {int(p) for p in found.split()}


def wait_for(
    condition: Callable[[], bool], timeout: float = 60.0, said: Callable[[], str] = str
) -> None:
    """Until `condition` holds; past `timeout`, fail with what the processes `said`."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out; what was said:\n{said()}"
        time.sleep(0.05)


def answers(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/api/tournaments", timeout=1):
            return True
    except OSError:
        return False


async def test_workers_share_a_port_replace_a_dead_one_and_stop_together(tmp_path: Path) -> None:
    db, port = str(tmp_path / "w.sqlite"), free_port()
    with TokenStore(db) as tokens:
        token = tokens.create("w")
    supervisor = subprocess.Popen(
        [*LIVETB, "serve", "--db", db, "--port", str(port), "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    node = Server(db, port)  # (a handle on the shared port, not a process of its own)
    try:
        wait_for(lambda: answers(node.base) and len(children(supervisor.pid)) == 2)
        first = children(supervisor.pid)
        for pid in first:  # the store (a URL may carry a password) is not in the process list
            assert db.encode() not in Path(f"/proc/{pid}/cmdline").read_bytes()
        t, auth = f"{node.base}/api/tournaments/w", {"Authorization": f"Bearer {token}"}
        async with aiohttp.ClientSession() as session:
            body = {"name": "Workers Open", "rounds": 3, "tiebreaks": ["PTS", "BH"]}
            async with session.put(t, json=body, headers=auth) as resp:
                assert resp.status == 201
            watchers = [Watcher(node, "w") for _ in range(8)]  # spread by the kernel
            for no in range(1, 9):
                person = {"start_no": no, "name": f"P{no}"}
                async with session.post(f"{t}/participants", json=person, headers=auth) as resp:
                    assert resp.status == 201, await resp.text()
            head = (await get_json(session, t))["seq"]
            assert head == 9
            for w in watchers:
                await w.reaches(head)
            standings = await get_json(session, f"{t}/standings")
            assert all(w.standings() == standings for w in watchers)
            for w in watchers:
                await w.close()
        victim = min(first)
        subprocess.run(["kill", "-KILL", str(victim)], check=True)
        wait_for(lambda: len(children(supervisor.pid) - first) == 1 and answers(node.base))
        assert len(children(supervisor.pid)) == 2
    finally:
        supervisor.send_signal(signal.SIGTERM)
        out, err = supervisor.communicate(timeout=30)
    assert supervisor.returncode == 0, err
    assert "with 2 workers" in out
    assert f"worker {victim} exited" in out
    assert "Traceback" not in err
    await asyncio.sleep(0)


def test_a_package_upgraded_in_place_restarts_every_worker_on_it(tmp_path: Path) -> None:
    """`pip install -U` under running workers, then a worker dies: its replacement would run
    the new version beside old ones, and a page it serves would name files they answer 404.
    Every worker restarts on the new package instead, and every file the new shell names is
    served whichever worker the kernel picks."""
    import livetb

    package = tmp_path / "site" / "livetb"
    shutil.copytree(
        Path(livetb.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__")
    )
    db, port = str(tmp_path / "w.sqlite"), free_port()
    env = os.environ | {"PYTHONPATH": str(tmp_path / "site")}
    supervisor = subprocess.Popen(
        [*LIVETB, "serve", "--db", db, "--port", str(port), "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )  # fmt: skip (`-m` reads the working directory first: not this checkout's package)
    node = Server(db, port)
    try:
        wait_for(lambda: answers(node.base) and len(children(supervisor.pid)) == 2)
        first = children(supervisor.pid)
        old = shell_version(node.base)
        common = package / "web" / "pages" / "static" / "common.js"
        common.write_text(common.read_text("utf-8") + "\n// the next release\n", "utf-8")
        subprocess.run(["kill", "-KILL", str(min(first))], check=True)

        def upgraded() -> bool:
            now = children(supervisor.pid)
            return len(now) == 2 and not now & first and answers(node.base)

        wait_for(upgraded)
        new = shell_version(node.base)
        assert new != old
        for _ in range(16):  # new connections, spread over both workers by the kernel
            url = f"{node.base}/static/{new}/common.js"
            with urllib.request.urlopen(url, timeout=GENEROUS) as resp:
                assert resp.read().endswith(b"// the next release\n")
            with urllib.request.urlopen(node.base + "/", timeout=GENEROUS) as resp:
                assert f"/static/{new}/".encode() in resp.read()
    finally:
        supervisor.send_signal(signal.SIGTERM)
        out, err = supervisor.communicate(timeout=60)
    assert supervisor.returncode == 0, err
    assert "every worker restarts on it" in out
    assert "Traceback" not in err


def shell_version(base: str) -> str:
    """The version of the files a page shell names."""
    with urllib.request.urlopen(base + "/", timeout=GENEROUS) as resp:
        found = re.search(rb"/static/([0-9a-f]{12})/", resp.read())
    assert found is not None
    return found.group(1).decode()


GENEROUS = 60.0  # seconds: only a stuck worker takes this long


def test_workers_that_cannot_start_stop_the_lot_with_their_error(tmp_path: Path) -> None:
    with socket.socket() as taken:  # a plain listener: SO_REUSEPORT cannot share it
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*LIVETB, "serve", "--db", str(tmp_path / "w.sqlite"), "--port", str(port),
             "--workers", "2"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert done.returncode == 2
    assert f"127.0.0.1:{port}: " in done.stderr  # the worker's own words
    assert "exited at start" in done.stderr
    assert "Traceback" not in done.stderr


def test_ctrl_c_at_a_terminal_stops_starting_workers_quietly(tmp_path: Path) -> None:
    """Ctrl-C goes to the terminal's whole process group. The workers, just started, are still
    importing: had it reached them, each would die of a KeyboardInterrupt with a traceback.
    The supervisor alone takes it and stops them; none is left behind."""
    supervisor = subprocess.Popen(
        [*LIVETB, "serve", "--db", str(tmp_path / "w.sqlite"), "--port", str(free_port()),
         "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    assert supervisor.stdout is not None
    while "with 2 workers" not in supervisor.stdout.readline():  # the workers are started
        assert supervisor.poll() is None
    workers = children(supervisor.pid)
    assert len(workers) == 2
    os.killpg(supervisor.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
    _, err = supervisor.communicate(timeout=60)
    assert supervisor.returncode == 0, err
    assert "Traceback" not in err
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)


def test_workers_flags_are_checked() -> None:
    for flags, words in (
        (["--workers", "0"], "--workers 0: 1 to 64"),
        (["--workers", "2", "--port", "0"], "--port 0: the workers share one fixed port"),
    ):
        done = subprocess.run([*LIVETB, "serve", *flags], capture_output=True, text=True)
        assert done.returncode == 2
        assert words in done.stderr


async def test_workers_wait_for_the_store_through_an_outage(pg_schema: str) -> None:
    """PostgreSQL goes away (every connection cut, new ones refused) and a worker dies: its
    replacement cannot start, and is started again with backoff until the store is back,
    instead of the supervisor stopping every worker."""
    proxy = Proxy(PG_BASE)
    proxy.up()
    url, port = proxy.url(pg_schema), free_port()
    with open_tokens(url) as tokens:
        token = tokens.create("w")
    supervisor = subprocess.Popen(
        [*LIVETB, "serve", "--db", url, "--port", str(port), "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    node = Server(url, port)
    said: list[str] = []  # the supervisor's and its workers' stdout, as it comes
    reader = threading.Thread(target=lambda: said.extend(supervisor.stdout or ()), daemon=True)
    reader.start()

    def told() -> str:
        return "".join(said)

    def serving() -> int:
        return sum("workers" not in line and "serving" in line for line in said)

    try:
        # Both workers listen (each says so, as it tells the supervisor): they have served.
        # Three processes start on a machine the rest of the suite loads: a generous wait.
        wait_for(lambda: serving() == 2, timeout=180, said=told)
        wait_for(lambda: answers(node.base) and len(children(supervisor.pid)) == 2, said=told)
        first = children(supervisor.pid)
        proxy.down()
        victim = min(first)
        subprocess.run(["kill", "-KILL", str(victim)], check=True)
        # The replacement exits at start (a slow machine takes its time to get there), and the
        # supervisor, instead of giving up, says it waits for the store.
        wait_for(lambda: "waiting for the store" in told(), said=told)
        assert supervisor.poll() is None, "the supervisor gave up"
        assert first - {victim} <= children(supervisor.pid)  # the other one kept serving
        proxy.up()
        created = {"name": "Workers Open", "rounds": 3, "tiebreaks": ["PTS"]}
        wait_for(lambda: put(f"{node.base}/api/tournaments/w", created, token) == 201, said=told)
        wait_for(lambda: len(children(supervisor.pid) - first) == 1, timeout=30, said=told)
        assert supervisor.poll() is None
    finally:
        supervisor.send_signal(signal.SIGTERM)
        _, err = supervisor.communicate(timeout=30)
        reader.join(timeout=30)
        proxy.down()
    out = "".join(said)
    assert supervisor.returncode == 0, err
    assert out.count("waiting for the store") == 1, out
    assert "exited at start" in out and "Traceback" not in err


def test_workers_wait_for_a_store_that_is_down_at_the_first_start(pg_schema: str) -> None:
    """PostgreSQL does not answer when `serve --workers` starts: the supervisor waits for it,
    one line said, and serves once it answers, instead of exiting."""
    proxy = Proxy(PG_BASE)  # down: nothing listens on its port yet
    url, port = proxy.url(pg_schema), free_port()
    supervisor = subprocess.Popen(
        [*LIVETB, "serve", "--db", url, "--port", str(port), "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    node = Server(url, port)
    try:
        time.sleep(4.0)  # several attempts
        assert supervisor.poll() is None, "the supervisor gave up"
        assert not answers(node.base)
        proxy.up()
        wait_for(lambda: answers(node.base) and len(children(supervisor.pid)) == 2, timeout=30)
        with open_tokens(url) as tokens:
            token = tokens.create("w")
        created = {"name": "Workers Open", "rounds": 3, "tiebreaks": ["PTS"]}
        assert put(f"{node.base}/api/tournaments/w", created, token) == 201
    finally:
        supervisor.send_signal(signal.SIGTERM)
        out, err = supervisor.communicate(timeout=30)
        proxy.down()
    assert supervisor.returncode == 0, err
    assert out.count("waiting for the store") == 1, out
    waiting = next(line for line in out.splitlines() if "waiting for the store" in line)
    assert f"127.0.0.1:{proxy.port}" in waiting and pg_schema in waiting
    assert "with 2 workers" in out and "Traceback" not in err


def put(url: str, body: object, token: str) -> int:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), method="PUT",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=5) as resp:
            return int(resp.status)
    except urllib.error.HTTPError as err:
        return err.code
    except OSError:
        return 0
