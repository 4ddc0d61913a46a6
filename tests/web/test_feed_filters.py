"""Filtered feeds: `top=N` and `participants=…` carry only their rows, encoded once per filter."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from livetb.client import LocalStandings, feed_url
from livetb.web.feed.views import View
from livetb.wire.messages import decode_message
from tests.web.conftest import TID, Api, recv

T = f"/api/tournaments/{TID}"


def view_of(doc: dict[str, Any], top: int | None = None, nos: set[int] | None = None) -> Any:
    rows = doc["standings"]
    doc = dict(doc)
    if top is not None:
        doc["standings"] = rows[:top]
    else:
        assert nos is not None
        doc["standings"] = [r for r in rows if r["start_no"] in nos]
    return doc


async def follow_one(ws: ClientConnection, local: LocalStandings) -> dict[str, Any]:
    msg = await recv(ws)
    local.apply(decode_message(json.dumps(msg)))
    return msg


async def test_top_n_carries_the_first_rows_and_drops_those_that_leave(api: Api) -> None:
    head = await api.start(players=8)
    ws = await connect(feed_url(api.base, TID, top=3))
    local = LocalStandings(filtered=True)
    snapshot = await follow_one(ws, local)
    assert snapshot["seq"] == head
    assert [r["start_no"] for r in snapshot["standings"]["standings"]] == [1, 2, 3]
    drops: list[int] = []
    for board, result in [(4, "0-1"), (3, "1-0"), (1, "1/2-1/2"), (2, "0-1")]:
        await api.post(f"{T}/rounds/1/results", {"board": board, "result": result})
        delta = await follow_one(ws, local)
        assert delta["type"] == "delta" and len(delta["rows"]) <= 3
        drops += delta.get("drop", [])
        assert local.as_builtins() == view_of(await api.standings(), top=3)
    # 8 won first and pushed 3 out; then 5 and 4 won, 1 and 2 drew.
    assert 3 in drops
    assert [r.start_no for r in local.rows()] == [4, 5, 8]
    await ws.close()


async def test_participants_carries_only_the_listed_rows(api: Api) -> None:
    await api.start(players=8)
    ws = await connect(feed_url(api.base, TID, participants=[2, 5]))
    local = LocalStandings(filtered=True)
    snapshot = await follow_one(ws, local)
    assert [r["start_no"] for r in snapshot["standings"]["standings"]] == [2, 5]
    await api.post(f"{T}/rounds/1/results", {"board": 4, "result": "1-0"})  # 7 beats 8
    delta = await follow_one(ws, local)
    assert {r["start_no"] for r in delta.get("rows", [])} <= {2, 5} and "drop" not in delta
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "0-1"})  # 2 beats 1
    delta = await follow_one(ws, local)
    assert 2 in {r["start_no"] for r in delta["rows"]}
    assert local.as_builtins() == view_of(await api.standings(), nos={2, 5})
    await ws.close()


async def test_each_filter_is_encoded_once_per_delta(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    await api.start(players=8)
    calls: list[tuple[str, ...]] = []
    original = View.delta

    def counting(self: View, *args: Any) -> bytes:
        calls.append(self.filter.key)
        return original(self, *args)

    monkeypatch.setattr(View, "delta", counting)
    urls = [feed_url(api.base, TID, top=2)] * 3 + [feed_url(api.base, TID, participants=[1])] * 2
    viewers = [await connect(url) for url in urls]
    for ws in viewers:
        await recv(ws)
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"})
    frames = [await asyncio.wait_for(ws.recv(), 30) for ws in viewers]
    assert sorted(calls) == [("nos", "1"), ("top", "2")]
    assert frames[0] == frames[1] == frames[2] and frames[3] == frames[4]
    for ws in viewers:
        await ws.close()


@pytest.mark.parametrize("query", ["top=0", "participants=1,x", "top=2&participants=1"])
async def test_bad_filters_are_refused_before_the_upgrade(api: Api, query: str) -> None:
    await api.start(players=4)
    with pytest.raises(InvalidStatus) as refused:
        await connect(f"{api.ws_base}/ws?tournament={TID}&{query}")
    assert refused.value.response.status_code == 422
