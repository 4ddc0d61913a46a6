"""The OpenAPI document covers every route under /api and is structurally sound."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import TestServer

from livetb.web.api.openapi import openapi_path
from tests.web.conftest import Api


def refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [r for v in node.values() for r in refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in refs(v)]
    return []


def resolve(doc: dict[str, Any], ref: str) -> Any:
    assert ref.startswith("#/"), ref
    node: Any = doc
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


async def test_every_api_route_is_documented(api: Api, server: TestServer) -> None:
    doc = await api.get("/api/openapi.json")
    registered = {
        (route.method.lower(), route.resource.canonical)
        for route in server.app.router.routes()
        if route.resource is not None
        and route.resource.canonical.startswith("/api")
        and route.method != "HEAD"
    }
    documented = {(m, p) for p, ops in doc["paths"].items() for m in ops}
    assert len(registered) >= 18
    assert registered <= documented
    assert ("get", "/ws") in documented


async def test_the_document_is_openapi_3_1_and_every_ref_resolves(api: Api) -> None:
    doc = await api.get("/api/openapi.json")
    assert doc["openapi"] == "3.1.0"
    assert doc["info"]["title"] and doc["info"]["version"]
    found = refs(doc)
    assert "#/components/schemas/RecordResultBody" in found
    for ref in found:
        assert isinstance(resolve(doc, ref), dict), ref
    for path, ops in doc["paths"].items():
        assert path.startswith("/") and ":" not in path
        names = {seg[1:-1] for seg in path.split("/") if seg.startswith("{")}
        for method, op in ops.items():
            assert method in {"get", "put", "post", "patch", "delete"}
            assert op["responses"] and op["summary"]
            in_path = {p["name"] for p in op["parameters"] if p["in"] == "path"}
            assert in_path == names, (path, method)
            for scheme in op.get("security", []):
                assert set(scheme) <= set(doc["components"]["securitySchemes"])
    result = doc["paths"]["/api/tournaments/{tid}/rounds/{round}/results"]["post"]
    assert result["security"] == [{"arbiter": []}]
    assert {"201", "401", "403", "409", "422"} <= set(result["responses"])
    body = resolve(doc, result["requestBody"]["content"]["application/json"]["schema"]["$ref"])
    assert set(body["required"]) == {"board", "result"}
    pairing = doc["paths"]["/api/tournaments/{tid}/rounds/{round}/pairings"]["post"]
    assert "text/plain" in pairing["requestBody"]["content"]


async def test_the_api_page_is_self_contained_html(api: Api) -> None:
    async with api.session.get(api.base + "/api") as resp:
        assert resp.status == 200 and resp.content_type == "text/html"
        page = await resp.text()
    assert "/api/openapi.json" in page and "http" not in page.replace("http-equiv", "")


def test_aiohttp_patterns_become_openapi_templates() -> None:
    assert openapi_path(r"/a/{tid:[A-Za-z0-9._-]{1,64}}/r/{round:\d{1,6}}") == "/a/{tid}/r/{round}"


async def test_the_feed_messages_are_documented(api: Api) -> None:
    doc = await api.get("/api/openapi.json")
    feed = doc["paths"]["/ws"]["get"]
    kinds = [resolve(doc, r["$ref"]) for r in feed["x-messages"]["oneOf"]]
    assert [k["properties"]["type"]["enum"] for k in kinds] == [["snapshot"], ["delta"], ["ping"]]
    delta = kinds[1]["properties"]
    assert {"rows", "moves", "order", "tied", "untied", "statuses", "round", "games"} <= set(delta)
