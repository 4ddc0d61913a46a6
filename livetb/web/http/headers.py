"""Security headers on every answer (pages, the API, static files, the feed's handshake),
set just before the headers are sent (`on_response_prepare`), so none escapes them:

- `Content-Security-Policy`: only the package's own scripts, styles and connections
  (`'self'`; the pages' settings are JSON in `<script type="application/json">`, which is
  data, not script). The console (`/t/{id}/arbiter`, `/new`), which keeps a token in the
  browser, may not be framed at all (`frame-ancestors 'none'`); the overlay is made to be
  framed by OBS's browser source, so it names no ancestors; every other answer only by this
  server's own pages. An answer that sets its own policy (the API page, with the hashes of
  its inline script and style) keeps it.
- `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`.
- `Server: livetb`: no aiohttp or Python version for a scanner to match.
- `Cache-Control: private, no-store` on any answer to a request with a token that says
  nothing of caching itself: what a token reads (the live log, the console's documents) is
  kept by no cache, whatever a proxy in front is told (`livetb/web/http/caching.py`); `no-cache`
  on the pages' static files and service worker: revalidated at every use, so an upgrade
  reaches every module at once.
"""

from __future__ import annotations

from aiohttp import hdrs, web, web_response

from livetb.web.http.auth import credentials
from livetb.web.http.caching import NO_STORE, REVALIDATE

SERVER = "livetb"
POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'"
)
CONSOLE = frozenset({"/t/{tid}/arbiter", "/new"})  # the token's pages: never framed
EMBEDDABLE = frozenset({"/t/{tid}/overlay"})  # OBS frames it: no frame-ancestors
STATIC = ("/static/", "/sw.js")  # the pages' files (`livetb/web/pages/shell.py`)


def policy(canonical: str | None, base: str = POLICY) -> str:
    """The CSP of the route whose canonical path is `canonical` (None: no route matched)."""
    if canonical in EMBEDDABLE:
        return base
    ancestors = "'none'" if canonical in CONSOLE else "'self'"
    return f"{base}; frame-ancestors {ancestors}"


def canonical(request: web.Request) -> str | None:
    """The matched route's path pattern; None before routing or for no route."""
    route = getattr(getattr(request, "_match_info", None), "route", None)
    resource = getattr(route, "resource", None)
    return resource.canonical if resource is not None else None


def hide_version() -> None:
    """The answers aiohttp makes itself, before any route (a malformed request's 400), take
    their `Server` from this module global: name no version there either."""
    if isinstance(getattr(web_response, "SERVER_SOFTWARE", None), str):
        setattr(web_response, "SERVER_SOFTWARE", SERVER)  # noqa: B010 (not exported)


async def secure(request: web.Request, response: web.StreamResponse) -> None:
    """`on_response_prepare`: the headers above, on whatever answer is about to be sent."""
    headers = response.headers
    if hdrs.CONTENT_SECURITY_POLICY not in headers:
        headers[hdrs.CONTENT_SECURITY_POLICY] = policy(canonical(request))
    headers[hdrs.X_CONTENT_TYPE_OPTIONS] = "nosniff"
    headers["Referrer-Policy"] = "no-referrer"
    headers[hdrs.SERVER] = SERVER
    if hdrs.CACHE_CONTROL in headers:
        return
    if credentials(request) is not None:
        headers[hdrs.CACHE_CONTROL] = NO_STORE
    elif request.path.startswith(STATIC):
        headers[hdrs.CACHE_CONTROL] = REVALIDATE
