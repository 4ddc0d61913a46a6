"""The nginx micro-cache of docs/operations.md, the very block the page documents, in front of
a real `livetb serve`: a crowd's public reads are answered from its copy and revalidated with
livetb's `ETag` (a 304), a new result is shown once the second of caching is over, a token
always reads live through it, and nothing read with a token (a private tournament's reads,
the live log under a delay) is ever served from it to anyone else."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import subprocess
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from livetb.web.pages.shell import STATIC, VERSION
from tests.campaign.server import Server, free_port

DOC = Path(__file__).parents[2] / "docs" / "operations.md"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
TID, CLOSED = "cached", "closed"
PATIENCE = 60.0  # seconds: how long a change may take to show through the cache


def documented_block() -> str:
    """The nginx configuration under "A micro-cache in front"."""
    section = DOC.read_text().split("### A micro-cache in front", 1)[1]
    found = re.search(r"```nginx\n(.*?)```", section, re.S)
    assert found is not None, "docs/operations.md: no nginx block under the micro-cache"
    return found.group(1)


def configured(block: str, root: Path, port: int, upstreams: Sequence[int]) -> str:
    """The documented block made runnable here: its ports, its cache and temporary files in
    `root`, and the few lines an nginx.conf has around an `http` block."""
    servers = " ".join(f"server 127.0.0.1:{upstream};" for upstream in upstreams)
    for documented, here in [
        ("listen 80;", f"listen 127.0.0.1:{port};"),
        ("server 127.0.0.1:8080;", servers),
        ("/var/cache/nginx/livetb", str(root / "cache")),
    ]:
        assert block.count(documented) == 1, documented
        block = block.replace(documented, here)
    temp = "".join(
        f"{kind}_temp_path {root / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    user = "user root;\n" if os.geteuid() == 0 else ""  # its workers write the cache in root
    return (
        f"{user}worker_processes 1;\nerror_log {root / 'error.log'};\npid {root / 'nginx.pid'};\n"
        f"events {{}}\nhttp {{\naccess_log off;\n{temp}{block}}}\n"
    )


@dataclass
class Front:
    base: str  # nginx
    token: str
    closed_token: str


@pytest.fixture
def nginx(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (scripts/test.sh installs Debian's nginx)")
    yield tmp_path / "nginx", free_port()


@contextlib.asynccontextmanager
async def serving(nginx: tuple[Path, int], upstreams: Sequence[int]) -> AsyncIterator[str]:
    """The documented nginx in front of `upstreams`, running: its base URL."""
    root, port = nginx
    root.mkdir()
    conf = root / "nginx.conf"
    conf.write_text(configured(documented_block(), root, port, upstreams))
    proc = subprocess.Popen(
        [NGINX, "-p", str(root), "-c", str(conf), "-g", "daemon off;"],
        stderr=subprocess.PIPE,
    )
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(400):
                if proc.poll() is not None:
                    assert proc.stderr is not None
                    raise RuntimeError(f"nginx stopped: {proc.stderr.read().decode()}")
                try:
                    async with session.get(f"http://127.0.0.1:{port}/api/tournaments"):
                        break
                except aiohttp.ClientError:
                    await asyncio.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture
async def front(nginx: tuple[Path, int], tmp_path: Path) -> AsyncIterator[Front]:
    node = await Server(tmp_path / "live.sqlite").start()
    try:
        async with serving(nginx, [node.port]) as base:
            yield Front(base, node.token(TID), node.token(CLOSED))
    finally:
        node.stop()


async def call(
    session: aiohttp.ClientSession,
    method: str,
    url: str,
    body: object = None,
    token: str | None = None,
) -> tuple[int, Any, str]:
    """(status, JSON body or None, X-Cache-Status)."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    async with session.request(method, url, json=body, headers=headers) as resp:
        doc = await resp.json() if resp.content_type == "application/json" else None
        return resp.status, doc, resp.headers.get("X-Cache-Status", "")


async def create(session: aiohttp.ClientSession, api: str, token: str, private: bool) -> int:
    body = {"name": "Open", "rounds": 3, "tiebreaks": ["PTS", "BH"], "private": private}
    assert (await call(session, "PUT", api, body, token))[0] == 201
    for no, name in enumerate(["Ann", "Bob", "Cid", "Dan"], start=1):
        person = {"start_no": no, "name": name, "rating": 2000 - no}
        assert (await call(session, "POST", f"{api}/participants", person, token))[0] == 201
    boards = {"boards": [{"board": b, "white": 2 * b - 1, "black": 2 * b} for b in (1, 2)]}
    status, doc, _ = await call(session, "POST", f"{api}/rounds/1/pairings", boards, token)
    assert status == 201
    return int(doc["seq"])


async def until(session: aiohttp.ClientSession, url: str, wanted: Any) -> tuple[Any, str]:
    """GET `url` until `wanted(doc, cache_status)` holds (within PATIENCE)."""
    async with asyncio.timeout(PATIENCE):
        while True:
            status, doc, cache = await call(session, "GET", url)
            if status == 200 and wanted(doc, cache):
                return doc, cache
            await asyncio.sleep(0.1)


@pytest.mark.nodes
async def test_public_reads_are_served_and_revalidated_by_the_documented_nginx(
    front: Front,
) -> None:
    api = f"{front.base}/api/tournaments/{TID}"
    async with aiohttp.ClientSession() as session:
        head = await create(session, api, front.token, private=False)
        status, doc, cache = await call(session, "GET", f"{api}/standings")
        assert (status, doc["seq"], cache) == (200, head, "MISS")
        # The crowd behind it: answered from nginx's copy, then (its second over) from the
        # copy again once livetb said 304 to nginx's If-None-Match.
        await until(session, f"{api}/standings", lambda d, c: c == "HIT" and d["seq"] == head)
        await until(
            session, f"{api}/standings", lambda d, c: c == "REVALIDATED" and d["seq"] == head
        )

        game = {"board": 1, "result": "1-0"}
        status, done, _ = await call(session, "POST", f"{api}/rounds/1/results", game, front.token)
        assert status == 201
        # A token reads through the cache, never from it: the result at once.
        status, live, cache = await call(session, "GET", f"{api}/standings", token=front.token)
        assert (status, live["seq"], cache) == (200, done["seq"], "BYPASS")
        # The public gets it once its copy's second is over.
        await until(session, f"{api}/standings", lambda d, c: d["seq"] == done["seq"])

        # Under a broadcast delay a token's live read is never what the public is given.
        delay = {"public_delay": 3600}
        assert (await call(session, "PATCH", api, delay, front.token))[0] == 200
        game = {"board": 2, "result": "0-1"}
        status, held, _ = await call(session, "POST", f"{api}/rounds/1/results", game, front.token)
        assert status == 201
        for _ in range(3):
            status, live, cache = await call(session, "GET", f"{api}/standings", token=front.token)
            assert (live["seq"], cache) == (held["seq"], "BYPASS")
            status, public, _ = await call(session, "GET", f"{api}/standings")
            assert public["seq"] == done["seq"]  # the delay's own event is held too


@pytest.mark.nodes
async def test_a_private_tournament_read_with_its_token_is_never_served_to_the_public(
    front: Front,
) -> None:
    api = f"{front.base}/api/tournaments/{CLOSED}"
    async with aiohttp.ClientSession() as session:
        await create(session, api, front.closed_token, private=True)
        for path in ["", "/standings", "/rounds/1", "/participants/1"]:
            status, _, cache = await call(session, "GET", api + path, token=front.closed_token)
            assert (status, cache) == (200, "BYPASS"), path
            status, _, _ = await call(session, "GET", api + path)
            assert status == 404, path  # as an unknown tournament: no copy of the token's read


@pytest.mark.nodes
async def test_a_pages_versioned_files_are_kept_by_the_documented_nginx(front: Front) -> None:
    """A crowd's first page loads after an upgrade: each file asked of livetb once."""
    async with aiohttp.ClientSession() as session:
        for name in ("standings.js", "style.css"):
            url = f"{front.base}/static/{VERSION}/{name}"
            async with session.get(url) as resp:
                assert (resp.status, resp.headers["X-Cache-Status"]) == (200, "MISS")
                first = await resp.read()
            async with session.get(url) as resp:
                assert (resp.status, resp.headers["X-Cache-Status"]) == (200, "HIT")
                assert await resp.read() == first == (STATIC / name).read_bytes()
            # Without a version: asked again at every use, never kept.
            for _ in range(2):
                async with session.get(f"{front.base}/static/{name}") as resp:
                    assert (resp.status, resp.headers["X-Cache-Status"]) == (200, "MISS")


async def nothing_here(request: web.Request) -> web.Response:
    raise web.HTTPNotFound()


@pytest.mark.nodes
async def test_mid_upgrade_a_pages_files_come_from_the_node_that_has_their_version(
    nginx: tuple[Path, int], tmp_path: Path
) -> None:
    """Nodes upgraded one at a time: a shell from an upgraded node names files that a node
    not upgraded yet answers 404 (here one that has no files at all, first in the upstream);
    the documented nginx asks the next node, so every request gets its file."""
    app = web.Application()
    app.router.add_get("/{path:.*}", nothing_here)
    runner = web.AppRunner(app)
    await runner.setup()
    old = free_port()
    await web.TCPSite(runner, "127.0.0.1", old).start()
    node = await Server(tmp_path / "live.sqlite").start()
    try:
        async with serving(nginx, [old, node.port]) as base, aiohttp.ClientSession() as session:
            for name in ("standings.js", "common.js", "feed.js", "style.css") * 2:
                async with session.get(f"{base}/static/{VERSION}/{name}") as resp:
                    assert resp.status == 200, name
                    assert await resp.read() == (STATIC / name).read_bytes()
    finally:
        node.stop()
        await runner.cleanup()
