"""Private tournaments: every read, the feed included, needs one of the tournament's tokens."""

from __future__ import annotations

import asyncio

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from livetb.client import feed_url
from livetb.web.feed import socket
from livetb.web.keys import TOKENS
from tests.web.conftest import TID, Api

T = f"/api/tournaments/{TID}"
READS = [T, f"{T}/standings", f"{T}/rounds/1", f"{T}/events", f"{T}/participants/1"]


async def private(api: Api) -> str:
    body = {"name": "Closed", "rounds": 3, "private": True}
    assert (await api.call("PUT", T, body))[0] == 201
    for no, name in [(1, "Ann"), (2, "Bob")]:
        await api.post(f"{T}/participants", {"start_no": no, "name": name})
    boards = [{"board": 1, "white": 1, "black": 2}]
    assert (await api.post(f"{T}/rounds/1/pairings", {"boards": boards}))[0] == 201
    return api.server.app[TOKENS].create("other")


async def test_reads_need_a_token_of_the_tournament(api: Api) -> None:
    other = await private(api)
    for path in READS:
        # Without its token a private tournament answers as an unknown one: 404, same body.
        unknown = await api.call("GET", path.replace(TID, "nope"), token=None)
        status, body = await api.call("GET", path, token=None)
        assert (status, body["code"]) == (404, "unknown_tournament"), path
        assert (unknown[0], unknown[1]["code"]) == (404, "unknown_tournament")
        assert body["message"] == unknown[1]["message"].replace("nope", TID)
        for wrong in (other, "ltb_not-a-token"):
            status, body = await api.call("GET", path, token=wrong)
            assert (status, body["code"]) == (404, "unknown_tournament"), path
        status, body = await api.call("GET", path)
        assert status == 200, (path, body)
    status, _ = await api.call("GET", f"{T}/standings?access_token={api.token}", token=None)
    assert status == 200
    info = (await api.call("GET", T))[1]
    assert info["private"] is True
    assert (await api.get("/api/tournaments"))["tournaments"] == []


async def test_the_feed_of_a_private_tournament_needs_a_token(api: Api) -> None:
    other = await private(api)
    url = feed_url(api.base, TID)
    with pytest.raises(InvalidStatus) as refused:
        await connect(url)
    assert refused.value.response.status_code == 404
    with pytest.raises(InvalidStatus) as refused:
        await connect(url, additional_headers={"Authorization": f"Bearer {other}"})
    assert refused.value.response.status_code == 404
    async with connect(url, additional_headers={"Authorization": f"Bearer {api.token}"}) as ws:
        assert '"snapshot"' in await ws.recv()
    async with connect(f"{url}&access_token={api.token}") as ws:
        assert '"snapshot"' in await ws.recv()


async def test_public_tournaments_stay_public(api: Api) -> None:
    await api.start(players=4)
    for path in READS:
        assert (await api.call("GET", path, token=None))[0] == 200, path
    assert [t["id"] for t in (await api.get("/api/tournaments"))["tournaments"]] == [TID]


async def test_a_revoked_token_closes_its_feeds(api: Api) -> None:
    """An open /ws kept streaming after its token was revoked. Its feeds look the token up
    every REVOCATION_CHECK seconds: within a second of the revocation on an idle server."""
    assert socket.REVOCATION_CHECK <= 1.0
    await private(api)
    url = feed_url(api.base, TID)
    async with connect(url, additional_headers={"Authorization": f"Bearer {api.token}"}) as ws:
        assert '"snapshot"' in await ws.recv()
        assert api.server.app[TOKENS].revoke(api.token)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(ws.recv(), 60)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
