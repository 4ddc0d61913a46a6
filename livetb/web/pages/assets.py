"""The pages' files (`static/`), read once when the server starts and served from memory.

A process serves the bytes it read, under the version they make together (`Assets.version`),
for as long as it runs. An install that overwrites the files under a running server (`pip
install -U`, a `git pull` of an editable install) therefore never puts a new file under an old
version's URL, which every cache would keep for good beside the old version's other files;
the new files are served by the processes started after it, under their own version.

Each file's `ETag` is a digest of its content, so every node behind a balancer gives the same
one and a revalidation on another node is still a 304 (aiohttp's own static files' tags are
made of the file's mtime, which differs between two installs of the same files). Text files
are also kept gzipped, for a phone on a poor connection: a third of the bytes, compressed once.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import mimetypes
from collections.abc import Mapping
from pathlib import Path

from aiohttp import hdrs, web

_TEXT = frozenset({".js", ".css", ".html", ".json", ".svg", ".txt"})
_LEVEL = 9  # each file and shell compressed once: the smallest


class Assets:
    """The files of one directory as read once, each with its tag, gzipped where text."""

    def __init__(self, directory: Path) -> None:
        paths = sorted(p for p in directory.iterdir() if p.is_file())
        self.bodies: Mapping[str, bytes] = {p.name: p.read_bytes() for p in paths}
        self.version = version_of(self.bodies)
        self.tags: Mapping[str, str] = {name: _tag(body) for name, body in self.bodies.items()}
        self._zipped = {
            name: _gzip(body) for name, body in self.bodies.items() if Path(name).suffix in _TEXT
        }
        self._types = {name: _type_of(name) for name in self.bodies}

    def answer(
        self, request: web.Request, name: str, cache_control: str | None = None
    ) -> web.Response:
        """File `name` as `request` accepts it (gzipped when it may be), a 304 when the
        request already holds it; a 404 for a name that is not one of the files. Without a
        `cache_control`, the one every static answer gets (`livetb/web/http/headers.py`)."""
        body = self.bodies.get(name)
        if body is None:
            raise web.HTTPNotFound()
        tag = self.tags[name]
        zipped = self._zipped.get(name)
        headers = {hdrs.CACHE_CONTROL: cache_control} if cache_control else {}
        if zipped is not None:
            headers[hdrs.VARY] = hdrs.ACCEPT_ENCODING
            if accepts_gzip(request.headers.get(hdrs.ACCEPT_ENCODING, "")):
                # Another representation: another tag (a strong tag names one exact body).
                body, tag = zipped, f"{tag}.gz"
                headers[hdrs.CONTENT_ENCODING] = "gzip"
        headers[hdrs.ETAG] = f'"{tag}"'
        if any(held.value in (tag, "*") for held in request.if_none_match or ()):
            headers.pop(hdrs.CONTENT_ENCODING, None)
            return web.Response(status=304, headers=headers)
        return web.Response(body=body, headers=headers, content_type=self._types[name])


class Shells:
    """Page shells gzipped, each distinct one compressed once (most of a shell is its
    language's catalog, the same for every viewer of a page), in a worker thread: a shell
    takes a few milliseconds to compress, more than a slice of the event loop. The last
    `KEPT` shells are kept (pages x languages x the tournaments being watched)."""

    KEPT = 64

    def __init__(self) -> None:
        self._zipped: dict[str, bytes] = {}

    async def gzipped(self, text: str) -> bytes:
        zipped = self._zipped.pop(text, None)
        if zipped is None:
            zipped = await asyncio.to_thread(_compress, text)
            if len(self._zipped) >= self.KEPT:
                del self._zipped[next(iter(self._zipped))]  # the least recently served
        self._zipped[text] = zipped
        return zipped


def _compress(text: str) -> bytes:
    return _gzip(text.encode("utf-8"))


def _gzip(body: bytes) -> bytes:
    return gzip.compress(body, _LEVEL, mtime=0)  # no time in it: the same bytes every start


def version_of(bodies: Mapping[str, bytes]) -> str:
    """A digest of the files, names and contents: a new one with any change (12 hex digits:
    sw.js recognises a versioned path by them)."""
    digest = hashlib.sha256()
    for name in sorted(bodies):
        body = bodies[name]
        digest.update(f"{name}\0{len(body)}\0".encode())
        digest.update(body)
    return digest.hexdigest()[:12]


def accepts_gzip(header: str) -> bool:
    """Whether an `Accept-Encoding` value accepts gzip: named, or `*`, with a q above 0
    (RFC 9110 12.5.3); an explicit `gzip;q=0` refuses it whatever `*` says."""
    star = False
    for item in header.split(","):
        coding, _, params = item.partition(";")
        coding = coding.strip().lower()
        if coding not in ("gzip", "x-gzip", "*"):
            continue
        weight = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if coding == "*":
            star = weight > 0
        else:
            return weight > 0
    return star


def _tag(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:20]


def _type_of(name: str) -> str:
    # RFC 9239's type for scripts, whatever the platform's table says.
    if name.endswith(".js"):
        return "text/javascript"
    return mimetypes.guess_type(name)[0] or "application/octet-stream"
