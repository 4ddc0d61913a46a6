"""`?dry_run=1` on every write (`livetb/web/api/writes.py`): the command is decided against the
live state as a real write would be (same rejections), nothing is appended, and the answer is
the events it would add."""

from __future__ import annotations

import msgspec
from aiohttp import web

from livetb.errors import InvalidInput, Said
from livetb.events.schema import AnyEvent


class DryRun(msgspec.Struct, kw_only=True):
    """A write's answer under `?dry_run=1`: what it would append, nothing appended."""

    dry_run: bool = True
    events: list[AnyEvent]


def flag(request: web.Request, name: str) -> bool:
    """`?NAME=1` asks for it; any other value is a mistake worth a 422, not a write."""
    text = request.query.get(name)
    if text is None:
        return False
    if text != "1":
        raise InvalidInput(Said("api.flag_1", name=name, value=repr(text)), path=name)
    return True


def dry_run(request: web.Request) -> bool:
    """`?dry_run=1` asks for a dry run."""
    return flag(request, "dry_run")
