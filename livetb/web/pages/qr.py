"""`GET /t/{id}/qr.svg`: a QR code of the phone standings URL, for the venue screen.

The code holds `<scheme>://<host>/t/{id}` as the request reached this server (the address the
screen itself was opened with, so phones in the same hall reach it too), with `?lang=` when
one was asked for. It is made here with `segno` (no script on the page draws it) and holds
nothing but the address its caller already had: it is served for any well-formed id without
reading the store, so it tells no one whether a private tournament exists.
"""

from __future__ import annotations

import io

import segno
from aiohttp import web
from yarl import URL

from livetb import i18n

# The API's tournament ids (livetb/web/http/routing.py); anything else is not a page of ours.
ROUTE = "/t/{tid:[A-Za-z0-9._-]{1,64}}/qr.svg"


def standings_url(request: web.Request, tid: str) -> str:
    """The phone standings page of `tid` on the host and scheme the request came in by."""
    url = URL.build(scheme=request.scheme, authority=request.host, path=f"/t/{tid}")
    lang = request.query.get("lang", "")
    if lang in i18n.LANGUAGES:
        url = url.with_query(lang=lang)
    return str(url)


def svg(text: str) -> bytes:
    """`text` as a scalable QR SVG: black modules on white with the standard quiet zone of
    four modules (phones read it from across a hall), medium error correction."""
    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(
        out, kind="svg", xmldecl=False, omitsize=True, border=4, dark="#000", light="#fff",
        title=text,
    )  # fmt: skip
    return out.getvalue()


async def qr_svg(request: web.Request) -> web.Response:
    body = svg(standings_url(request, request.match_info["tid"]))
    resp = web.Response(body=body, content_type="image/svg+xml")
    resp.headers["Cache-Control"] = "public, max-age=3600"
    resp.headers["Vary"] = "Host"
    return resp


def routes() -> list[web.AbstractRouteDef]:
    return [web.get(ROUTE, qr_svg)]
