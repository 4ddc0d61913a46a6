"""A real full disk under `livetb serve`: the store on a 2 MiB tmpfs of the server's own (a
mount namespace, `unshare`), with a ballast file to free. Writes are answered 507
`storage_full` saying so, reads are served, nothing acknowledged is lost, and writes are taken
again once the ballast is deleted, without a restart."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.nodes.cluster import free_port

BALLAST = 600_000  # bytes


@pytest.fixture
def full_disk_server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path, str, str]]:
    """A server whose store lives on a small tmpfs; its process, the mount point as this
    process reaches it (`/proc/PID/root`), its base URL and its organiser token."""
    mnt, port = tmp_path / "mnt", free_port()
    mnt.mkdir()
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", f"mount -t tmpfs -o size=64k probe {mnt}"],
        capture_output=True, text=True,
    )  # fmt: skip
    if probe.returncode != 0:  # no user namespaces here: no small disk to fill
        pytest.skip(f"cannot mount a tmpfs in a user namespace: {probe.stderr.strip()}")
    script = (
        f"mount -t tmpfs -o size=2m livetb-full {mnt} && "
        f"head -c {BALLAST} /dev/zero > {mnt}/ballast && "
        f"exec {sys.executable} -m livetb serve --db {mnt}/live.sqlite --port {port}"
    )
    err = (tmp_path / "serve.log").open("w")
    proc = subprocess.Popen(
        ["unshare", "-rm", "sh", "-c", script], stdout=subprocess.PIPE, stderr=err, text=True
    )
    try:
        assert proc.stdout is not None
        found = None
        while found is None:
            line = proc.stdout.readline()
            assert line, f"serve ended: {(tmp_path / 'serve.log').read_text()}"
            found = re.search(r"/new#token=(\S+)", line)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while call("GET", f"{base}/api/tournaments")[0] != 200:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        yield proc, Path(f"/proc/{proc.pid}/root{mnt}"), base, found.group(1)
    finally:
        proc.terminate()
        proc.wait(15)
        err.close()
    log = (tmp_path / "serve.log").read_text()
    assert "Traceback" not in log, log


def test_a_full_disk_is_507_reads_go_on_and_writes_resume_once_space_is_freed(
    full_disk_server: tuple[subprocess.Popen[str], Path, str, str],
) -> None:
    _, disk, base, organiser = full_disk_server
    t = f"{base}/api/tournaments/full"
    status, created = call("PUT", t, {"name": "Full Open", "rounds": 5}, organiser)
    assert status == 201, created
    token = created["token"]
    acknowledged: dict[int, int] = {}  # start_no -> seq
    refused: tuple[int, Any] | None = None
    for no in range(1, 5000):
        person = {"start_no": no, "name": f"Player {no:04} " + "x" * 80}
        status, body = call("POST", f"{t}/participants", person, token)
        if status != 201:
            refused = status, body
            break
        acknowledged[no] = body["seq"]
    assert refused is not None, "the disk never filled"
    assert (refused[0], refused[1]["code"]) == (507, "storage_full"), refused
    assert "the disk is full" in refused[1]["message"]
    assert len(acknowledged) >= 20  # the disk filled among writes, not at the first
    late = {"start_no": 9000, "name": "Late"}
    for _ in range(3):  # refused alike while full, none half-written
        status, body = call("POST", f"{t}/participants", late, token)
        assert (status, body["code"]) == (507, "storage_full")
    status, standings = call("GET", f"{t}/standings")  # reads go on
    assert status == 200
    assert sorted(r["start_no"] for r in standings["standings"]) == sorted(acknowledged)

    (disk / "ballast").unlink()  # space freed: no restart
    status, body = call("POST", f"{t}/participants", late, token)
    assert status == 201, body
    acknowledged[9000] = body["seq"]
    logged = {
        e["event"]["start_no"]: e["seq"]
        for e in events(t)
        if e["event"]["type"] == "ParticipantRegistered"
    }
    assert logged == acknowledged  # every acknowledged write at its seq; nothing refused kept


def events(t: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    while True:
        status, page = call("GET", f"{t}/events?limit=1000&after={len(found)}")
        assert status == 200, page
        if not page["events"]:
            return found
        found += page["events"]


def call(method: str, url: str, body: object = None, token: str | None = None) -> tuple[int, Any]:
    """(status, JSON body); 0 when nothing answers."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())
    except OSError:
        return 0, None
