"""Security headers on every answer, query constraints in the OpenAPI document, and unknown
query parameters refused."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from livetb.web.pages.assets import Assets
from livetb.web.pages.shell import STATIC, VERSION
from tests.web.conftest import TID, Api

T = f"/api/tournaments/{TID}"


async def headers_of(api: Api, path: str) -> dict[str, str]:
    async with api.session.get(api.base + path) as resp:
        await resp.read()
        return dict(resp.headers)


def csp(headers: dict[str, str]) -> dict[str, str]:
    """The policy's directives: name -> sources."""
    policy = headers["Content-Security-Policy"]
    return {d.split(" ", 1)[0]: d.split(" ", 1)[1] for d in (p.strip() for p in policy.split(";"))}


@pytest.mark.parametrize(
    ("path", "ancestors"),
    [
        (f"/t/{TID}/arbiter", "'none'"),
        ("/new", "'none'"),
        (f"/t/{TID}", "'self'"),
        (f"/t/{TID}/player/1", "'self'"),
        (f"/t/{TID}/screen", "'self'"),
        ("/", "'self'"),
        (f"{T}/standings", "'self'"),
        ("/api/openapi.json", "'self'"),
        ("/static/style.css", "'self'"),
        ("/no/such/page", "'self'"),
        (f"/t/{TID}/overlay", None),  # framed by OBS's browser source
    ],
)
async def test_every_answer_carries_the_security_headers(
    api: Api, path: str, ancestors: str | None
) -> None:
    await api.start(players=4)
    got = await headers_of(api, path)
    directives = csp(got)
    assert directives["default-src"] == "'self'"
    assert directives.get("frame-ancestors") == ancestors
    assert "'unsafe-inline'" not in got["Content-Security-Policy"]
    assert got["X-Content-Type-Options"] == "nosniff"
    assert got["Referrer-Policy"] == "no-referrer"
    assert got["Server"] == "livetb"


async def test_an_error_answer_carries_them_too(api: Api) -> None:
    async with api.session.post(api.base + f"{T}/rounds/1/results", data=b"{") as resp:
        assert resp.status == 401
        assert resp.headers["Server"] == "livetb"
        assert resp.headers["X-Content-Type-Options"] == "nosniff"


async def test_the_feed_handshake_names_no_aiohttp_version(api: Api) -> None:
    await api.start(players=4)
    async with connect(f"{api.ws_base}/ws?tournament={TID}") as ws:
        assert ws.response is not None
        assert ws.response.headers["Server"] == "livetb"
        assert "frame-ancestors 'self'" in ws.response.headers["Content-Security-Policy"]


async def test_the_api_page_allows_only_its_own_inline_script_and_style(api: Api) -> None:
    async with api.session.get(api.base + "/api") as resp:
        page = await resp.text()
        directives = csp(dict(resp.headers))
    for tag, directive in (("script", "script-src"), ("style", "style-src")):
        (inline,) = re.findall(rf"<{tag}>(.*?)</{tag}>", page, re.S)
        digest = base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
        assert directives[directive] == f"'sha256-{digest}'"
    assert directives["default-src"] == "'none'"


async def test_the_document_states_the_query_constraints(api: Api) -> None:
    doc = await api.get("/api/openapi.json")

    def schema(path: str, name: str, method: str = "get") -> dict[str, object]:
        params = doc["paths"][path][method]["parameters"]
        return next(p["schema"] for p in params if p["name"] == name)

    big = 2**63 - 1
    assert schema("/api/berger", "players") == {"type": "integer", "minimum": 3, "maximum": 24}
    assert schema("/api/berger", "double") == {"type": "string", "enum": ["0", "1"]}
    base = "/api/tournaments/{tid}"
    for path, name, low in (
        (f"{base}/events", "limit", 1),
        (f"{base}/events", "after", 0),
        (f"{base}/audit", "round", 1),
        (f"{base}/audit", "limit", 1),
        (f"{base}/standings", "at_seq", 1),
        (f"{base}/standings", "after_round", 1),
        ("/ws", "top", 1),
        ("/ws", "since", 0),
    ):
        assert schema(path, name) == {"type": "integer", "minimum": low, "maximum": big}, name
    formats = ["trf16", "trf26", "csv", "html", "prizes"]
    assert schema(f"{base}/export", "format") == {"type": "string", "enum": formats}
    pgn = f"{base}/rounds/{{round}}/pgn"
    assert schema(pgn, "corrections", "post") == {"type": "string", "enum": ["true", "false"]}
    results = f"{base}/rounds/{{round}}/results"
    assert schema(results, "dry_run", "post") == {"type": "string", "enum": ["1"]}


async def test_an_unknown_query_parameter_is_refused_naming_it(api: Api) -> None:
    await api.start(players=4)
    status, body = await api.call("GET", f"{T}/events?limt=5", token=None)
    assert (status, body["code"], body["path"]) == (422, "invalid_input", "limt")
    assert "unknown query parameter 'limt'" in body["message"]
    assert "after, limit" in body["message"]
    head = api.store.head(TID)
    status, body = await api.post(f"{T}/rounds/1/results?dryrun=1", {"board": 1, "result": "1-0"})
    assert (status, body["path"]) == (422, "dryrun")
    assert api.store.head(TID) == head  # refused before the write
    status, body = await api.call("GET", "/api/openapi.json?x=1", token=None)
    assert (status, body["path"]) == (422, "x")


async def test_declared_and_token_parameters_and_the_pages_own_still_work(api: Api) -> None:
    await api.start(players=4)
    assert (await api.call("GET", f"{T}/events?after=1&limit=2", token=None))[0] == 200
    status, _ = await api.call("GET", f"{T}/standings?access_token={api.token}", token=None)
    assert status == 200
    for page in (f"/t/{TID}?lang=it&columns=BH", f"/t/{TID}/overlay?top=10&lang=en", "/?lang=it"):
        async with api.session.get(api.base + page) as resp:
            assert resp.status == 200, page


async def test_the_feed_refuses_an_unknown_parameter(api: Api) -> None:
    await api.start(players=4)
    async with api.session.get(api.base + f"/ws?tournament={TID}&topp=3") as resp:
        assert resp.status == 422
        assert (await resp.json())["path"] == "topp"


@pytest.mark.parametrize("path", ["/static/common.js", "/static/style.css", "/sw.js"])
async def test_the_unversioned_files_are_asked_again_at_every_use(api: Api, path: str) -> None:
    """No browser guesses a lifetime for them (a page kept from before an upgrade, an embedded
    `<standings-table>`): no old module runs beside a new one. Asked again, an unchanged file
    is a 304 with no body."""
    async with api.session.get(api.base + path) as resp:
        assert resp.status == 200
        assert resp.headers["Cache-Control"] == "no-cache"
        etag = resp.headers["ETag"]
    async with api.session.get(api.base + path, headers={"If-None-Match": etag}) as resp:
        assert resp.status == 304
        assert await resp.read() == b""


async def test_a_page_names_its_files_by_version_and_they_are_kept_for_good(api: Api) -> None:
    """A returning viewer asks for none of the page's files again; every file a page loads is
    of its shell's version, since the modules import each other by relative URLs."""
    await api.start(players=4)
    async with api.session.get(f"{api.base}/t/{TID}") as resp:
        page = await resp.text()
    assert f'<script type="module" src="/static/{VERSION}/standings.js">' in page
    assert f'<link rel="stylesheet" href="/static/{VERSION}/style.css">' in page
    for name in ("standings.js", "common.js", "style.css"):
        async with api.session.get(f"{api.base}/static/{VERSION}/{name}") as resp:
            assert resp.status == 200
            assert resp.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            assert await resp.read() == (STATIC / name).read_bytes()
    # Another version is not here, and its 404 is not kept; nor is a name outside the files.
    for path in ("/static/0123456789ab/common.js", f"/static/{VERSION}/../shell.py"):
        async with api.session.get(api.base + path) as resp:
            assert resp.status == 404
            assert "immutable" not in resp.headers.get("Cache-Control", "")


def test_the_version_follows_every_file(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("export const a = 1;\n")
    (tmp_path / "b.css").write_text("p { color: red }\n")
    first = Assets(tmp_path).version
    assert first == Assets(tmp_path).version and len(first) == 12
    (tmp_path / "b.css").write_text("p { color: blue }\n")
    second = Assets(tmp_path).version
    assert second != first
    (tmp_path / "c.js").write_text("")
    assert Assets(tmp_path).version != second


def test_the_modules_import_each_other_by_relative_urls() -> None:
    """An absolute `/static/…` import would leave the shell's version: the mix the versioned
    URLs exist to prevent."""
    absolute = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["']/""")
    for path in sorted(STATIC.glob("*.js")):
        assert not absolute.search(path.read_text("utf-8")), path.name
