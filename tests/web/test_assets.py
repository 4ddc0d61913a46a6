"""The pages' files as a server serves them: the bytes it read at start-up, whatever an install
writes on disk afterwards; a tag every node agrees on; gzipped for whoever accepts it."""

from __future__ import annotations

import gzip
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from livetb.web.pages.assets import Assets, accepts_gzip
from livetb.web.pages.shell import KEPT_FOR_GOOD, STATIC, VERSION
from tests.web.conftest import TID, Api

IMMUTABLE = KEPT_FOR_GOOD


@pytest.fixture
async def raw() -> AsyncIterator[aiohttp.ClientSession]:
    """A client that shows the bytes as sent (no decompression, no encoding asked)."""
    async with aiohttp.ClientSession(
        auto_decompress=False, skip_auto_headers=["Accept-Encoding"]
    ) as session:
        yield session


async def served(assets: Assets) -> TestServer:
    """A server of `assets` under its version, as `shell.routes` serves the package's."""

    async def handle(request: web.Request) -> web.Response:
        return assets.answer(request, request.match_info["name"], IMMUTABLE)

    app = web.Application()
    app.router.add_get(f"/static/{assets.version}/{{name}}", handle)
    server = TestServer(app)
    await server.start_server()
    return server


async def test_an_install_under_a_running_server_never_changes_what_a_version_serves(
    tmp_path: Path, raw: aiohttp.ClientSession
) -> None:
    """`pip install -U` writes the new files under a server that still runs the old version:
    the old version's URL keeps its bytes (served from disk, it would give the new file, and
    every cache would keep that new file under the old version for good, beside old ones)."""
    shutil.copytree(STATIC, tmp_path / "static")
    old = (tmp_path / "static" / "common.js").read_bytes()
    assets = Assets(tmp_path / "static")
    server = await served(assets)
    try:
        url = f"http://{server.host}:{server.port}/static/{assets.version}"
        async with raw.get(f"{url}/common.js") as resp:
            assert resp.status == 200
            tag = resp.headers["ETag"]
            assert await resp.read() == old
        (tmp_path / "static" / "common.js").write_bytes(old + b"\nexport const later = 1;\n")
        (tmp_path / "static" / "common.js").unlink()  # even gone from disk
        async with raw.get(f"{url}/common.js") as resp:
            assert resp.status == 200
            assert resp.headers["ETag"] == tag
            assert resp.headers["Cache-Control"] == IMMUTABLE
            assert await resp.read() == old
    finally:
        await server.close()


def test_every_node_gives_a_file_the_same_tag(tmp_path: Path) -> None:
    """Two installs of the same files (other times on disk) tag each file alike, so a viewer's
    revalidation on another node behind the balancer is a 304; a changed file gets a new tag."""
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(STATIC, a)
    shutil.copytree(STATIC, b)
    os.utime(b / "style.css", (1_000_000_000, 1_000_000_000))
    first, second = Assets(a), Assets(b)
    assert first.version == second.version == VERSION
    assert first.tags == second.tags
    (b / "style.css").write_bytes(b"p { color: red }\n")
    assert Assets(b).tags["style.css"] != first.tags["style.css"]
    assert Assets(b).tags["common.js"] == first.tags["common.js"]


@pytest.mark.parametrize("name", ["standings.js", "style.css", "sw.js"])
async def test_a_phone_gets_the_files_gzipped_and_revalidates_them(
    api: Api, raw: aiohttp.ClientSession, name: str
) -> None:
    path = f"/static/{VERSION}/{name}" if name != "sw.js" else "/sw.js"
    plain = (STATIC / name).read_bytes()
    async with raw.get(api.base + path, headers={"Accept-Encoding": "gzip, deflate, br"}) as resp:
        assert resp.status == 200
        assert resp.headers["Content-Encoding"] == "gzip"
        assert resp.headers["Vary"] == "Accept-Encoding"
        body = await resp.read()
        assert gzip.decompress(body) == plain
        assert len(body) * 2 < len(plain)
        zipped_tag = resp.headers["ETag"]
    async with raw.get(api.base + path) as resp:  # no Accept-Encoding: the file as it is
        assert "Content-Encoding" not in resp.headers
        assert await resp.read() == plain
        plain_tag = resp.headers["ETag"]
    assert zipped_tag != plain_tag  # two representations, two strong tags
    for tag, encoding in ((zipped_tag, "gzip"), (plain_tag, "identity")):
        headers = {"If-None-Match": tag, "Accept-Encoding": encoding}
        async with raw.get(api.base + path, headers=headers) as resp:
            assert resp.status == 304
            assert await resp.read() == b""
            assert resp.headers["ETag"] == tag
    # The other representation's tag does not validate this one.
    headers = {"If-None-Match": plain_tag, "Accept-Encoding": "gzip"}
    async with raw.get(api.base + path, headers=headers) as resp:
        assert resp.status == 200
        assert gzip.decompress(await resp.read()) == plain


async def test_a_page_shell_goes_gzipped_to_a_browser_that_accepts_it(
    api: Api, raw: aiohttp.ClientSession
) -> None:
    """Most of a shell is its language's whole catalog: a phone loads a third of its bytes."""
    await api.start(players=4)
    url = f"{api.base}/t/{TID}?lang=it"
    async with raw.get(url) as resp:
        plain = await resp.read()
        assert "Content-Encoding" not in resp.headers
    async with raw.get(url, headers={"Accept-Encoding": "gzip"}) as resp:
        assert resp.status == 200
        assert resp.headers["Content-Encoding"] == "gzip"
        assert resp.headers["Content-Type"] == "text/html; charset=utf-8"
        assert resp.headers["Vary"] == "Accept-Language, Accept-Encoding"
        assert resp.headers["Content-Language"] == "it"
        zipped = await resp.read()
    assert gzip.decompress(zipped) == plain
    assert b'<html lang="it"' in plain
    assert len(zipped) * 3 < len(plain)
    async with raw.get(f"{api.base}/t/nothing", headers={"Accept-Encoding": "gzip"}) as resp:
        assert resp.status == 404  # an unknown tournament's page too, with its status
        assert b"<html" in gzip.decompress(await resp.read())


async def test_each_distinct_shell_is_compressed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A crowd loading one page costs one compression; the least recently served of more
    than `KEPT` shells is let go."""
    from livetb.web.pages import assets

    compressed: list[str] = []
    real = assets._compress

    def counted(text: str) -> bytes:
        compressed.append(text)
        return real(text)

    monkeypatch.setattr(assets, "_compress", counted)
    shells = assets.Shells()
    first = await shells.gzipped("<html>a</html>")
    assert gzip.decompress(first) == b"<html>a</html>"
    assert await shells.gzipped("<html>a</html>") is first
    assert compressed == ["<html>a</html>"]
    for k in range(shells.KEPT - 1):
        await shells.gzipped(f"<html>{k}</html>")
    await shells.gzipped("<html>a</html>")  # served again: the most recent now
    await shells.gzipped("<html>one more</html>")  # one over: the least recent goes
    assert len(compressed) == shells.KEPT + 1
    await shells.gzipped("<html>a</html>")
    assert len(compressed) == shells.KEPT + 1
    await shells.gzipped("<html>0</html>")
    assert compressed[-1] == "<html>0</html>"


async def test_the_files_keep_their_types(api: Api, raw: aiohttp.ClientSession) -> None:
    for name, kind in (("common.js", "text/javascript"), ("style.css", "text/css")):
        for path in (f"/static/{VERSION}/{name}", f"/static/{name}"):
            async with raw.get(api.base + path) as resp:
                assert resp.status == 200
                assert resp.content_type == kind
    async with raw.get(api.base + "/static/nothing.js") as resp:
        assert resp.status == 404


@pytest.mark.parametrize(
    ("header", "accepted"),
    [
        ("gzip", True),
        ("gzip, deflate, br, zstd", True),
        ("br;q=1.0, gzip;q=0.8, *;q=0.1", True),
        ("GZIP", True),
        ("x-gzip", True),
        ("*", True),
        ("", False),
        ("identity", False),
        ("deflate, br", False),
        ("gzip;q=0", False),
        ("gzip;q=0.0, *", False),
        ("*;q=0", False),
        ("br, *;q=0.5", True),
        ("gzip;q=nonsense", False),
    ],
)
def test_accept_encoding_is_read_as_http_says(header: str, accepted: bool) -> None:
    assert accepts_gzip(header) is accepted
