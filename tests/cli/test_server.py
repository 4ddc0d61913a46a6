"""`livetb token`, `serve`, `demo` and `watch` as a user runs them."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from pytest_aiohttp import AiohttpServer

from livetb import i18n
from livetb.client.watch import watch
from livetb.tokens.sqlite import TokenStore
from livetb.tokens.store import Grant
from livetb.web import Config, create_app
from livetb.web.pages.shell import VERSION
from tests.cli.test_cli import run
from tests.web.conftest import TID, Api


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as resp:
        return json.loads(resp.read())


def test_token_create_prints_only_the_token_and_stores_its_hash(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite")
    code, out, err = run("token", "create", "--db", db, "--tournament", "t-1")
    token = out.strip()
    assert code == 0 and out == token + "\n" and token.startswith("ltb_")
    assert "no events yet" in err
    dump = "\n".join(sqlite3.connect(db).iterdump())
    assert token not in dump
    with TokenStore(db) as tokens:
        assert tokens.scope(token) == "t-1"
    assert run("token", "revoke", "--db", db, token)[0] == 0
    with TokenStore(db) as tokens:
        assert tokens.scope(token) is None
    code, _, err = run("token", "revoke", "--db", db, token)
    assert code == 2 and "no such live token" in err


def test_token_create_organiser_prints_a_token_that_creates(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite")
    code, out, err = run("token", "create", "--db", db, "--organiser", "--label", "Office")
    token = out.strip()
    assert code == 0 and out == token + "\n" and token.startswith("ltb_")
    assert "/new#token=" in err and "no events yet" not in err
    with TokenStore(db) as tokens:
        assert tokens.grant(token) == Grant("organiser", None)
        assert tokens.create_first_organiser() is None  # serve will not print another


@pytest.mark.parametrize(
    "argv",
    [
        ("--organiser", "--tournament", "t-1"),  # one kind or the other
        (),  # and one of them
    ],
)
def test_token_create_takes_exactly_one_of_organiser_and_tournament(
    tmp_path: Path, argv: tuple[str, ...]
) -> None:
    db = tmp_path / "t.sqlite"
    code, out, err = run("token", "create", "--db", str(db), *argv)
    assert code == 2 and out == ""
    assert "--organiser" in err and "--tournament" in err
    assert not db.exists()


def test_token_create_refuses_an_id_no_route_takes(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    code, out, err = run("token", "create", "--db", str(db), "--tournament", "open 2026")
    assert code == 2 and out == "" and "--tournament 'open 2026'" in err
    assert not db.exists()


def test_token_create_defaults_to_the_store_serve_uses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LIVETB_DB", raising=False)
    code, out, _ = run("token", "create", "--tournament", "t-1")
    assert code == 0
    with TokenStore(tmp_path / "livetb.sqlite") as tokens:  # serve's default, in this folder
        assert tokens.scope(out.strip()) == "t-1"
    monkeypatch.setenv("LIVETB_DB", str(tmp_path / "env.sqlite"))
    code, out, _ = run("token", "create", "--organiser")
    with TokenStore(tmp_path / "env.sqlite") as tokens:
        assert code == 0 and tokens.grant(out.strip()) == Grant("organiser", None)
    assert run("token", "revoke", out.strip())[0] == 0  # revoke defaults alike


def spawn(*argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", "from livetb.cli import run; run()", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_ready(url: str, proc: subprocess.Popen[str]) -> None:
    """Once `url` answers; a failure only if the server exits or is stuck for a minute (how
    soon it is ready is `bench/startup.py`'s to measure)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(proc.communicate())
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.02)
    raise AssertionError(f"{url} did not answer within a minute")


def stop(proc: subprocess.Popen[str]) -> tuple[str, str]:
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    return out, err


def test_serve_gets_ready_and_stops_cleanly(tmp_path: Path) -> None:
    port = free_port()
    proc = spawn("serve", "--db", str(tmp_path / "s.sqlite"), "--port", str(port))
    try:
        wait_ready(f"http://127.0.0.1:{port}/api/tournaments", proc)
    finally:
        out, _ = stop(proc)
    assert f"on http://127.0.0.1:{port}" in out


def test_serve_prints_the_organiser_token_on_a_stores_first_start_only(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite")
    runs = []
    for _ in range(2):
        port = free_port()
        proc = spawn("serve", "--db", db, "--port", str(port))
        try:
            wait_ready(f"http://127.0.0.1:{port}/api/tournaments", proc)
        finally:
            out, _ = stop(proc)
        runs.append((port, out))
    (port, first), (_, second) = runs
    page = f"http://127.0.0.1:{port}/new#token="
    assert first.count(page) == 1 and "organiser token" in first
    token = first.split(page)[1].split()[0]
    with TokenStore(db) as tokens:
        assert tokens.grant(token) == Grant("organiser", None)
    assert "#token=" not in second and "organiser token" not in second
    assert "ltb_" not in second


def test_demo_prints_a_url_and_a_token_and_the_standings_move(tmp_path: Path) -> None:
    port = free_port()
    proc = spawn("demo", "--db", str(tmp_path / "d.sqlite"), "--port", str(port))
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(f"{base}/api/tournaments", proc)
        first = get(f"{base}/api/tournaments/demo/standings")["seq"]
        deadline = time.monotonic() + 60  # one result a second
        while get(f"{base}/api/tournaments/demo/standings")["seq"] == first:
            assert time.monotonic() < deadline, "the demo's standings did not move"
            time.sleep(0.1)
        page = urllib.request.urlopen(f"{base}/t/demo", timeout=30).read().decode()
        assert f'<script type="module" src="/static/{VERSION}/standings.js">' in page
    finally:
        out, _ = stop(proc)
    for page in ["/t/demo", "/t/demo/player/1", "/t/demo/overlay?top=10", "/t/demo/screen"]:
        assert f"{base}{page}\n" in out
    console = out.split("arbiter console:")[1].split()[0]
    assert console.startswith(f"{base}/t/demo/arbiter#token=ltb_")
    with TokenStore(tmp_path / "d.sqlite") as tokens:
        assert tokens.scope(console.split("#token=")[1]) == "demo"


async def test_watch_draws_the_table_and_highlights_the_followed(api: Api) -> None:
    await api.start()
    out = io.StringIO()
    local = await watch(api.base, TID, follow_no=3, top=5, count=1, out=out)
    assert local.seq == (await api.standings())["seq"]
    text = out.getvalue()
    assert "after round 0" in text and f"seq {local.seq}" in text and "Cid" in text


async def test_watch_of_an_unknown_tournament_is_a_usage_error(api: Api) -> None:
    argv = ("watch", api.base, "--tournament", "nope", "--count", "1")
    code, _, err = await asyncio.to_thread(run, *argv)  # main runs its own event loop
    assert code == 2 and "tournament nope does not exist, or is private" in err and "(404)" in err


def test_the_demo_takes_another_port_when_8080_is_busy() -> None:
    from livetb.cli.server import _free_port

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        assert _free_port("127.0.0.1", taken) != taken


def test_the_server_runs_on_uvloop_where_it_is_installed() -> None:
    import uvloop

    from livetb.cli.server import _event_loop

    loop = _event_loop()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()


def test_the_demo_starts_a_new_tournament_when_one_ends(tmp_path: Path) -> None:
    port = free_port()
    argv = ["--players", "4", "--rounds", "1", "--interval", "0.05"]
    proc = spawn("demo", "--db", str(tmp_path / "d.sqlite"), "--port", str(port), *argv)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(f"{base}/api/tournaments", proc)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            listed = [t["id"] for t in get(f"{base}/api/tournaments")["tournaments"]]
            if "demo-3" in listed:
                break
            time.sleep(0.1)
        assert {"demo", "demo-2", "demo-3"} <= set(listed)
        assert get(f"{base}/api/tournaments/demo-2/standings")["after_round"] == 1
    finally:
        out, _ = stop(proc)
    assert f"a new tournament, demo-2\n  standings:        {base}/t/demo-2\n" in out


def test_the_demo_names_are_unique_in_a_large_field() -> None:
    from livetb.demo.tournament import swiss_events, with_names
    from livetb.events.schema import ParticipantRegistered

    events = with_names(swiss_events(800, 1, seed=3), seed=3)
    names = [e.name for e in events if isinstance(e, ParticipantRegistered)]
    assert len(names) == 800 and len(set(names)) == 800


def test_serve_gives_clients_a_deadline_for_their_headers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Slowloris sockets stayed open 75 s (aiohttp's default keep-alive)."""
    from aiohttp import web

    from livetb.web import Config

    given: dict[str, Any] = {}

    class Runner(web.AppRunner):
        def __init__(self, app: web.Application, **kw: Any) -> None:
            given.update(kw)
            super().__init__(app, **kw)
            os.kill(os.getpid(), signal.SIGTERM)  # stops it once it listens

    monkeypatch.setattr(web, "AppRunner", Runner)
    assert run("serve", "--db", str(tmp_path / "s.sqlite"), "--port", "0")[0] == 0
    assert given["keepalive_timeout"] == Config().header_timeout == 15.0


async def test_a_client_that_never_finishes_its_headers_is_closed(
    aiohttp_server: AiohttpServer, config: Config
) -> None:
    """What that setting does in aiohttp: counted from the connection's start, whatever
    trickles in meanwhile. A header every 0.1 s until the server hangs up: were the deadline
    reset by each one, it would never hang up, and the minute's wait would fail."""
    server = await aiohttp_server(create_app(config), keepalive_timeout=0.5)
    reader, writer = await asyncio.open_connection(server.host, server.port)
    writer.write(b"GET /api/tournaments HTTP/1.1\r\nHost: x\r\n")

    async def drip() -> None:
        while not writer.is_closing():
            writer.write(b"X-Slow: 1\r\n")  # dripping headers do not keep it open
            await asyncio.sleep(0.1)

    dripping = asyncio.ensure_future(drip())
    try:
        assert await asyncio.wait_for(reader.read(), 60) == b""
    finally:
        dripping.cancel()
        writer.close()


async def test_watch_draws_in_italian(api: Api) -> None:
    await api.start()
    await api.post(f"/api/tournaments/{TID}/rounds/1/results", {"board": 1, "result": "1/2-1/2"})
    out = io.StringIO()
    await watch(api.base, TID, top=3, count=1, out=out, lang="it")
    text = " ".join(out.getvalue().split())  # the title wraps on a narrow console
    assert "dopo il turno 0, turno 1 in corso" in text and "Nome" in text
    assert "0,5" in text and "corsivo: provvisorio" in text


# A server whose start-up is stopped by SIGTERM (a supervisor stopping its workers at once):
# the signal comes in the app's start-up, after the process's stop signals are taken.
STOPPED_AT_START = """
import argparse, asyncio, os, signal, sys
from aiohttp import web
from livetb.cli.server import _run_app
from livetb.web import Config
from livetb.web.keys import CONFIG

async def startup(app):
    os.kill(os.getpid(), signal.SIGTERM)
    await asyncio.sleep(0.01)  # the signal is taken meanwhile

async def cleanup(app):
    print("cleaned up")

app = web.Application()
app[CONFIG] = Config()
app.on_startup.append(startup)
app.on_cleanup.append(cleanup)
print("exit", _run_app(app, argparse.Namespace(host="127.0.0.1", port=0), sys.stdout, "listening"))
"""


def test_a_stop_signal_during_start_up_ends_the_server_quietly_and_cleaned_up() -> None:
    """The app's clean-up (the store's last commit and close) runs even then: aiohttp's
    `run_app` skipped it for a stop during start-up."""
    done = subprocess.run(
        [sys.executable, "-c", STOPPED_AT_START], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert [line for line in done.stdout.splitlines() if line != "listening"] == [
        "cleaned up",
        "exit 0",
    ]


# A server whose clean-up hangs (a store that no longer answers its last commit).
HANGS_ON_STOP = """
import argparse, asyncio, sys
from aiohttp import web
from livetb.cli.server import _run_app
from livetb.web import Config
from livetb.web.keys import CONFIG

async def cleanup(app):
    print("cleaning up", flush=True)
    await asyncio.sleep(3600)

app = web.Application()
app[CONFIG] = Config()
app.on_cleanup.append(cleanup)
args = argparse.Namespace(host="127.0.0.1", port=0, lang=sys.argv[1])
_run_app(app, args, sys.stdout, "listening")
print("never here", flush=True)
"""


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_second_ctrl_c_stops_a_server_whose_stop_hangs_at_once(lang: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", HANGS_ON_STOP, lang],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline() == "listening\n"
        proc.send_signal(signal.SIGINT)
        assert proc.stdout.readline() == "cleaning up\n"  # the graceful stop, hanging
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)  # the clean-up sleeps for an hour
        assert proc.returncode == 130
        assert err.splitlines() == [
            i18n.text(lang, "cli.serve.stopping"),
            i18n.text(lang, "cli.serve.stopped_at_once"),
        ]
        assert out == ""
    finally:
        proc.kill()
        proc.wait()
