"""Files in and out of a tournament: `GET …/export?format=trf26|trf16|csv|html` (an attachment;
the tournament's read rule). Registered by `livetb/web/app.py`, documented by `openapi.py`."""

from __future__ import annotations

from aiohttp import web

from livetb.errors import InvalidInput
from livetb.export import FORMATS, export
from livetb.web.api import BASE, READ_ERRORS, Endpoint, Query, check_read
from livetb.web.keys import STORE


async def export_file(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    fmt = request.query.get("format", "trf26")
    if fmt not in FORMATS:
        raise InvalidInput(f"format={fmt!r}: expected one of {', '.join(FORMATS)}", path="format")
    check_read(request, tid)
    exported = export(request.app[STORE], tid, fmt)  # type: ignore[arg-type]
    return web.Response(
        body=exported.text.encode("utf-8"),
        content_type=exported.media_type,
        charset="utf-8",
        headers={"Content-Disposition": f'attachment; filename="{exported.filename}"'},
    )


ENDPOINTS = [
    Endpoint(
        method="GET",
        path=BASE + "/export",
        handler=export_file,
        summary="The tournament as a file: TRF-2026, TRF-16, CSV standings or a printable page",
        errors=(*READ_ERRORS, 422),
        media="text/plain",
        query=(Query("format", "trf26 (default), trf16, csv or html", "string"),),
    ),
]


def routes() -> list[web.RouteDef]:
    return [web.route(e.method, e.path, e.handler) for e in ENDPOINTS]
