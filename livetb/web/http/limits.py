"""Request limits: numbers in queries within range, and for bodies a size limit per endpoint,
refused before a byte is read, and a deadline.

`int_query` takes ASCII digits up to SQLite's widest integer: `?after=99999999999999999999`
was an OverflowError (500) in the store, and `int()` reads '٣' as 3 (`str.isdigit()` even
passes '²', which `int()` then refuses).

A `Content-Length: 10^12` write used to wait for its body forever, and one 64 KiB limit for
every endpoint capped a round's pairings at 1,424 boards. Now a declared length over the
endpoint's limit is 413 at once, a body that grows past it is 413 as soon as it does, and a
body not complete within `body_timeout` is 408.
"""

from __future__ import annotations

import asyncio

from aiohttp import web

from livetb.errors import InvalidInput, Said

MAX_INT = 2**63 - 1  # SQLite's widest integer: a seq, a round or a limit never exceeds it


def is_number(text: str) -> bool:
    """ASCII digits only, at most 19 of them."""
    return text.isascii() and text.isdigit() and len(text) <= 19


def int_query(request: web.Request, name: str, low: int = 0, high: int = MAX_INT) -> int | None:
    text = request.query.get(name)
    if text is None:
        return None
    if not is_number(text) or not low <= int(text) <= high:
        said = Said("api.integer_range", name=name, value=repr(text[:40]), low=low, high=high)
        raise InvalidInput(said, path=name)
    return int(text)


RATING_CHANGE = "rating_change"


def rating_change_query(request: web.Request) -> bool:
    """Whether `with=rating_change` was asked (any other `with=` is refused)."""
    wanted = request.query.get("with")
    if wanted is not None and wanted != RATING_CHANGE:
        said = Said("api.with", value=repr(wanted), expected=RATING_CHANGE)
        raise InvalidInput(said, path="with")
    return wanted is not None


async def read_body(request: web.Request, limit: int, timeout: float) -> bytes:
    """The whole body, at most `limit` bytes, within `timeout` seconds."""
    declared = request.content_length
    if declared is not None and declared > limit:
        raise web.HTTPRequestEntityTooLarge(max_size=limit, actual_size=declared)
    chunks: list[bytes] = []
    size = 0

    async def read() -> None:
        nonlocal size
        while chunk := await request.content.readany():
            size += len(chunk)
            if size > limit:  # chunked, or a length that lied
                raise web.HTTPRequestEntityTooLarge(max_size=limit, actual_size=size)
            chunks.append(chunk)

    try:
        async with asyncio.timeout(timeout):
            await read()
    except TimeoutError:
        raise web.HTTPRequestTimeout(
            text=f"the body did not arrive within {timeout:g} s ({size} bytes read)"
        ) from None
    return b"".join(chunks)
