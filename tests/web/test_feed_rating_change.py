"""`/ws?…&with=rating_change`: the snapshot's rows carry `rating_change`, each delta the values
it changed (a result: its two players when both are rated; a K set: that player's), so that
snapshot + deltas == GET `?with=rating_change` after every event; a feed without it carries
none; alone, every row; with `top=N`, that view's rows."""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from livetb.client import LocalStandings, feed_url
from livetb.wire.messages import decode_message
from tests.web.conftest import TID, Api, recv
from tests.web.test_categories import T, start


def rated_url(api: Api, top: int | None = None) -> str:
    return feed_url(api.base, TID, top=top) + "&with=rating_change"


class Follower:
    """A viewer's rows (LocalStandings) and rating changes, kept from the feed alone."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.local = LocalStandings(filtered=True)
        self.change: dict[int, str | None] = {}

    async def next(self) -> dict[str, Any]:
        msg = await recv(self.ws)
        self.local.apply(decode_message(json.dumps(msg)))
        if msg["type"] == "snapshot":
            rows = msg["standings"]["standings"]
            self.change = {r["start_no"]: r["rating_change"] for r in rows}
        else:
            for no in msg.get("drop", []):
                self.change.pop(no, None)
            self.change.update({no: value for no, value in msg.get("rating_change", [])})
        return msg

    def rows(self) -> list[tuple[int, int, str | None]]:
        return [(r.start_no, r.rank, self.change[r.start_no]) for r in self.local.rows()]


async def expected(api: Api, top: int | None = None) -> list[tuple[int, int, str | None]]:
    doc = await api.get(f"{T}/standings?with=rating_change")
    rows = doc["standings"][:top] if top is not None else doc["standings"]
    return [(r["start_no"], r["rank"], r["rating_change"]) for r in rows]


async def test_snapshot_and_deltas_equal_the_standings_with_rating_change(api: Api) -> None:
    await start(api)
    every = Follower(await connect(rated_url(api)))
    first = Follower(await connect(rated_url(api, top=2)))
    plain = await connect(feed_url(api.base, TID))
    for viewer in (every, first):
        await viewer.next()
    assert every.rows() == await expected(api)
    assert first.rows() == await expected(api, top=2)
    assert "rating_change" not in (await recv(plain))["standings"]["standings"][0]
    events: list[tuple[str, str, dict[str, Any]]] = [
        ("POST", f"{T}/rounds/1/results", {"board": 1, "result": "0-1"}),  # both rated
        ("POST", f"{T}/rounds/1/results", {"board": 2, "result": "1-0"}),  # 4 is unrated
        ("PATCH", f"{T}/participants/2", {"k": 20}),  # one player's total
        ("POST", f"{T}/rounds/1/results", {"board": 3, "result": "1/2-1/2"}),
        ("PATCH", f"{T}/participants/6", {"k": 10}),
    ]
    carried: list[list[int]] = []
    for method, path, body in events:
        status, answer = await api.call(method, path, body)
        assert status in (200, 201), answer
        delta = await every.next()
        await first.next()
        plain_delta = await recv(plain)
        assert "rating_change" not in plain_delta  # nobody else pays for it
        carried.append([no for no, _ in delta.get("rating_change", [])])
        assert every.rows() == await expected(api)
        assert first.rows() == await expected(api, top=2)
    # Only the totals an event changed: a result between rated players, its two; against
    # an unrated one, none; a K, its player's.
    assert carried == [[1, 2], [], [2], [5, 6], [6]]
    for ws in (every.ws, first.ws, plain):
        await ws.close()


async def test_with_anything_else_is_refused(api: Api) -> None:
    await start(api)
    status, body = await api.call("GET", f"/ws?tournament={TID}&with=everything", token=None)
    assert status == 422, body


async def test_an_unknown_with_is_refused_by_the_feed_and_the_get(api: Api) -> None:
    await start(api)
    with pytest.raises(InvalidStatus) as err:
        await connect(feed_url(api.base, TID) + "&with=ratings")
    assert err.value.response.status_code == 422
    status, body = await api.call("GET", f"{T}/standings?with=ratings", token=None)
    assert (status, body["path"]) == (422, "with")
    assert body["message"] == "with='ratings': expected with=rating_change"
