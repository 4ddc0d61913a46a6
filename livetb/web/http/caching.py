"""Validators and cache headers of a tournament's reads, so that a reconnecting viewer, a
reloaded page or a reverse proxy in front (docs/operations.md) gets `304 Not Modified`
instead of the whole document again.

- `ETag` is the seq of the projection read: `"12"` (the public one's under a broadcast delay,
  so a validator never reveals a held event), or `"12-<view>"` where the body also depends on
  something the seq does not fix. It is also the `If-Match` of a write (`livetb/web/api/writes.py`).
- `If-None-Match` naming it answers 304 before anything is encoded.
- `Cache-Control`: a public tournament read without a token may be kept by any cache for
  `SHARED_SECONDS` (`Vary: Authorization`: never served to a token holder); a read with a
  token, or of a private tournament, is `private, no-store` (it may hold the live log or full
  birth dates).

    cached = validator(request, projection)
    if (hit := not_modified(request, cached)) is not None:
        return hit
    return dressed(json_response(doc), cached)
"""

from __future__ import annotations

from typing import NamedTuple

from aiohttp import hdrs, web

from livetb.projections.standings import StandingsProjection
from livetb.web.http.auth import credentials

# A micro-cache: a proxy answers a crowd's reloads from one copy a second; a page then catches
# up over its feed with since= (docs/feed.md), so a second-old snapshot shows nothing false.
SHARED_SECONDS = 1
SHARED = f"public, max-age={SHARED_SECONDS}"
NO_STORE = "private, no-store"
# The pages' files and their service worker: kept, but asked again at every use (a 304 when
# unchanged). A browser's own guess (a tenth of the file's age) would run an old module beside
# an upgraded one for days, and a module importing what the other no longer exports stops the
# page.
REVALIDATE = "no-cache"


class Validator(NamedTuple):
    """A read's `ETag` (quoted) and whether a shared cache may keep the answer."""

    etag: str
    shared: bool


def validator(request: web.Request, projection: StandingsProjection, view: str = "") -> Validator:
    """What validates the read of `projection` by `request`; `view`: what the body depends on
    beyond the seq and the URL (empty: nothing)."""
    return tagged(request, projection.seq, projection, view)


def tagged(
    request: web.Request, seq: int, projection: StandingsProjection, view: str = ""
) -> Validator:
    """As `validator`, for a body of another seq than the projection's (a past position)."""
    created = projection.state.created
    shared = credentials(request) is None and created is not None and not created.private
    return Validator(f'"{seq}-{view}"' if view else f'"{seq}"', shared)


def not_modified(request: web.Request, cached: Validator) -> web.Response | None:
    """304 when `If-None-Match` names the current `ETag` (or is `*`); None otherwise."""
    asked = request.if_none_match
    if not asked:
        return None
    if any(tag.value == "*" or f'"{tag.value}"' == cached.etag for tag in asked):
        return dressed(web.Response(status=304), cached)
    return None


def dressed(resp: web.Response, cached: Validator) -> web.Response:
    """`resp` with the validator and the cache headers of `cached`."""
    resp.headers[hdrs.ETAG] = cached.etag
    resp.headers[hdrs.CACHE_CONTROL] = SHARED if cached.shared else NO_STORE
    resp.headers[hdrs.VARY] = hdrs.AUTHORIZATION
    return resp
