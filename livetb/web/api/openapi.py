"""The OpenAPI 3.1 document (`GET /api/openapi.json`) and a readable page of it (`GET /api`).

Generated, never written by hand: the schemas from the msgspec Structs the routes decode and
encode (`msgspec.json.schema_components`), the operations from the route tables of
`livetb.web.api` (reads, writes, console, files), the feed's socket and this module's own.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable
from functools import cache
from http import HTTPStatus
from importlib import resources
from typing import Any

import msgspec
from aiohttp import hdrs, web

import livetb
from livetb.web.api import categories, console, crosstable, files, prizes, reads, sync, writes
from livetb.web.api.dry_run import DryRun
from livetb.web.feed import socket
from livetb.web.http.limits import MAX_INT
from livetb.web.http.routing import PUBLIC, Endpoint, ErrorBody, Query, route_defs

REF = "#/components/schemas/{name}"
_PARAM = re.compile(r"\{(\w+)(?::((?:[^{}]|\{[^{}]*\})*))?\}")


def openapi_path(path: str) -> str:
    """aiohttp's `/x/{tid:[a-z]{1,64}}` -> OpenAPI's `/x/{tid}`."""
    return _PARAM.sub(lambda m: "{" + m.group(1) + "}", path)


def _path_params(path: str) -> list[dict[str, Any]]:
    params = []
    for m in _PARAM.finditer(path):
        pattern = m.group(2)
        numeric = pattern is not None and pattern.startswith((r"\d", "[0-9]"))
        schema: dict[str, Any] = {"type": "integer", "minimum": 0}
        if not numeric:
            schema = {"type": "string"} | ({"pattern": f"^{pattern}$"} if pattern else {})
        params.append({"name": m.group(1), "in": "path", "required": True, "schema": schema})
    return params


def _query_schema(q: Query) -> dict[str, Any]:
    """What a handler accepts for `q`: an integer's bounds (`int_query` refuses the others),
    a string's values when it takes only some."""
    if q.type == "integer":
        high = MAX_INT if q.maximum is None else q.maximum
        return {"type": "integer", "minimum": q.minimum, "maximum": high}
    return {"type": "string"} | ({"enum": list(q.enum)} if q.enum else {})


def _has_required_field(struct: type) -> bool:
    return any(
        f.default is msgspec.NODEFAULT and f.default_factory is msgspec.NODEFAULT
        for f in msgspec.structs.fields(struct)
    )


def _operation(e: Endpoint, refs: dict[type, dict[str, Any]]) -> dict[str, Any]:
    op: dict[str, Any] = {
        "operationId": e.handler.__name__
        if e.handler.__name__ != "handle"
        else f"{e.method.lower()}_{e.request.__name__ if e.request else 'write'}",
        "summary": e.summary,
        "parameters": _path_params(e.path)
        + [
            {
                "name": q.name,
                "in": "query",
                "required": q.required,
                "description": q.text,
                "schema": _query_schema(q),
            }
            for q in e.query
        ],
    }
    if e.request is not None:
        content: dict[str, Any] = {"application/json": {"schema": refs[e.request]}}
        if e.trf_body:
            content["text/plain"] = {"schema": {"type": "string", "description": e.trf_body}}
        op["requestBody"] = {"required": _has_required_field(e.request), "content": content}
    elif e.trf_body:  # a TRF only (a sync)
        text = {"schema": {"type": "string", "description": e.trf_body}}
        op["requestBody"] = {"required": True, "content": {"text/plain": text}}
    ok: dict[str, Any] = {"description": HTTPStatus(e.status).phrase}
    if e.response is not None:
        ok["content"] = {e.media: {"schema": refs[e.response]}}
    elif e.media:
        kind = "object" if e.media == "application/json" else "string"
        ok["content"] = {e.media: {"schema": {"type": kind}}}
    responses: dict[str, Any] = {str(e.status): ok}
    if any(q.name == "dry_run" for q in e.query):  # a write's other success: what it would do
        dry = refs[DryRun]
        if e.status == 200 and "content" in ok:
            dry = {"oneOf": [ok["content"][e.media]["schema"], dry]}
        responses["200"] = {"description": "OK (with dry_run=1)"} | {
            "content": {"application/json": {"schema": dry}}
        }
    for status in e.errors:
        responses[str(status)] = {
            "description": HTTPStatus(status).phrase,
            "content": {"application/json": {"schema": refs[ErrorBody]}},
        }
    op["responses"] = responses
    if e.messages:  # OpenAPI has no websockets: the messages as an extension, by reference
        op["x-messages"] = {"oneOf": [refs[m] for m in e.messages]}
    if e.auth == "arbiter":
        op["security"] = [{"arbiter": []}]
    elif e.auth == "create":
        op["security"] = [{"organiser": []}, {"arbiter": []}]
    elif e.auth == "read":
        op["security"] = [{}, {"arbiter": []}]  # a token only for a private tournament
    return op


def document(endpoints: Iterable[Endpoint]) -> dict[str, Any]:
    """The OpenAPI 3.1 document of `endpoints`."""
    endpoints = list(endpoints)
    types: list[type] = [ErrorBody, DryRun]
    for e in endpoints:
        for t in (e.request, e.response, *e.messages):
            if t is not None and t not in types:
                types.append(t)
    schemas, components = msgspec.json.schema_components(types, ref_template=REF)
    refs = dict(zip(types, schemas, strict=True))
    paths: dict[str, dict[str, Any]] = {}
    for e in endpoints:
        paths.setdefault(openapi_path(e.path), {})[e.method.lower()] = _operation(e, refs)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "livetb",
            "version": getattr(livetb, "__version__", "0"),
            "description": (
                "Live chess standings with exact FIDE tie-breaks. Writes need an arbiter "
                "bearer token of their tournament (an organiser token may create one); reads "
                "are public unless the tournament is private. Errors are JSON: "
                "{code, message, ...}."
            ),
        },
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "arbiter": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "`livetb token create --tournament ID`, or the `token` "
                    "of an organiser's creation of the tournament",
                },
                "organiser": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "printed by `livetb serve` on a store's first start, or "
                    "`livetb token create --organiser`: creates tournaments (PUT), and each "
                    "creation answers with the new tournament's arbiter token",
                },
            },
        },
    }


@cache
def document_bytes() -> bytes:
    return msgspec.json.encode(document(all_endpoints()))


async def openapi_json(request: web.Request) -> web.Response:
    return web.Response(body=document_bytes(), content_type="application/json")


@cache
def api_page_and_policy() -> tuple[bytes, str]:
    """The page, self-contained, and a CSP that lets only its own inline script and style
    run (by their SHA-256) and fetch only from this server."""
    page = resources.files("livetb.web.pages").joinpath("static/api.html").read_bytes()
    text = page.decode("utf-8")

    def source(tag: str) -> str:
        (inline,) = re.findall(rf"<{tag}>(.*?)</{tag}>", text, re.S)
        digest = base64.b64encode(hashlib.sha256(inline.encode("utf-8")).digest()).decode()
        return f"'sha256-{digest}'"

    policy = (
        f"default-src 'none'; script-src {source('script')}; style-src {source('style')}; "
        "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'self'"
    )
    return page, policy


async def api_page(request: web.Request) -> web.Response:
    page, policy = api_page_and_policy()
    resp = web.Response(body=page, content_type="text/html", charset="utf-8")
    resp.headers[hdrs.CONTENT_SECURITY_POLICY] = policy
    return resp


ENDPOINTS = [
    Endpoint(
        method="GET",
        path="/api/openapi.json",
        handler=openapi_json,
        summary="This API as an OpenAPI 3.1 document",
        auth=PUBLIC,
    ),
    Endpoint(
        method="GET",
        path="/api",
        handler=api_page,
        summary="This API as a readable page",
        auth=PUBLIC,
        media="text/html",
    ),
]


def all_endpoints() -> list[Endpoint]:
    return (
        reads.ENDPOINTS
        + writes.endpoints()
        + sync.ENDPOINTS
        + console.ENDPOINTS
        + files.ENDPOINTS
        + socket.ENDPOINTS
        + categories.ENDPOINTS
        + prizes.ENDPOINTS
        + crosstable.ENDPOINTS
        + ENDPOINTS
    )


def routes() -> list[web.RouteDef]:
    return route_defs(ENDPOINTS)
