"""The broadcast delay over HTTP and the feed: a result is absent from every public read
(standings, card, round, events, list, export, ETags, the feed) until `public_delay` seconds
after it was recorded, then present; a token of the tournament sees it at once.

What is held is checked under an hour's delay, which nothing outlasts however slow the
machine, then the delay is lowered and the timer releases each event once it falls due: never
before its time (a lower bound a slow machine cannot break), and with a generous timeout."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import aiohttp
import pytest
from websockets.asyncio.client import connect

from livetb.client import feed_url
from livetb.projections.standings import StandingsProjection
from tests.web.conftest import TID, Api, recv

T = f"/api/tournaments/{TID}"
DELAY = 5
HOUR = 3600


async def public_get(api: Api, path: str) -> tuple[int, Any, str]:
    async with api.session.get(api.base + path) as resp:
        body = await resp.json() if resp.content_type == "application/json" else await resp.text()
        return resp.status, body, resp.headers.get("ETag", "")


def row_of(doc: dict[str, Any], no: int) -> dict[str, Any]:
    return next(r for r in doc["standings"] if r["start_no"] == no)


async def test_a_result_reaches_the_public_only_after_the_delay(api: Api) -> None:
    head = await api.start(players=8)  # PTS, BH, FB; round 1: 1-2, 3-4, 5-6, 7-8
    status, body = await api.call("PATCH", T, {"public_delay": HOUR})
    assert (status, body) == (200, {"seq": head + 1})
    arbiter = {"Authorization": f"Bearer {api.token}"}
    async with (
        connect(feed_url(api.base, TID)) as public_ws,
        connect(feed_url(api.base, TID), additional_headers=arbiter) as live_ws,
    ):
        assert (await recv(public_ws))["seq"] == head  # the delay's own event is held too
        assert (await recv(live_ws))["seq"] == head + 1
        asked = time.monotonic()  # the result's `at` is later: it is due after asked + DELAY
        status, body = await api.post(f"{T}/rounds/1/results", {"board": 2, "result": "0-1"})
        assert (status, body) == (201, {"seq": head + 2})

        # The arbiter's token: live at once, on the feed and in the reads.
        assert (await recv(live_ws))["seq"] == head + 2
        status, live = await api.call("GET", f"{T}/standings")
        assert status == 200 and live["seq"] == head + 2 and row_of(live, 4)["values"][0] == "1.0"

        # The public: nothing of it, in any read, nor in a count or an ETag.
        status, doc, etag = await public_get(api, f"{T}/standings")
        assert (status, doc["seq"], etag) == (200, head, f'"{head}"')
        assert row_of(doc, 4)["values"][0] == "0.0" and row_of(doc, 4)["rank"] == 1
        _, card, etag = await public_get(api, f"{T}/participants/4")
        assert etag == f'"{head}"' and card["tiebreaks"][0]["value"] == "0.0"
        _, info, _ = await public_get(api, f"{T}/rounds/1")
        assert info["games"][1]["result"] is None
        _, info, _ = await public_get(api, T)
        assert (info["seq"], info["public_delay"]) == (head, HOUR)
        _, listed, _ = await public_get(api, "/api/tournaments")
        assert [t["seq"] for t in listed["tournaments"] if t["id"] == TID] == [head]
        _, page, _ = await public_get(api, f"{T}/events")
        assert [e["seq"] for e in page["events"]][-1] == head and page["next_after"] is None
        _, page, _ = await public_get(api, f"{T}/events?after={head}")
        assert page == {"events": [], "next_after": None}
        _, past, etag = await public_get(api, f"{T}/standings?at_seq={head + 2}")
        assert past["seq"] == head and etag == f'"{head}"'
        _, csv_text, _ = await public_get(api, f"{T}/export?format=csv")
        assert ",4,Dan,0.0," in csv_text and ",4,Dan,1.0," not in csv_text

        # Lowered to DELAY: the public feed gets the held events one by one, each once it
        # was recorded DELAY seconds ago (the first at once if it was already).
        assert (await api.call("PATCH", T, {"public_delay": DELAY}))[0] == 200  # head + 3
        assert (await recv(live_ws))["seq"] == head + 3
        first = await recv(public_ws, timeout=DELAY + 60)
        assert first["seq"] == head + 1 and "rows" not in first
        second = await recv(public_ws, timeout=DELAY + 60)
        assert second["seq"] == head + 2 and second["games"] == [[1, 2, "0-1"]]
        assert time.monotonic() - asked >= DELAY - 0.05  # not before its time
        assert (await recv(public_ws, timeout=DELAY + 60))["seq"] == head + 3

    status, doc, etag = await public_get(api, f"{T}/standings")
    assert (doc["seq"], etag) == (head + 3, f'"{head + 3}"')
    assert row_of(doc, 4)["values"][0] == "1.0"
    _, info, _ = await public_get(api, f"{T}/rounds/1")
    assert info["games"][1]["result"] == "0-1"


async def test_turning_the_delay_off_releases_everything_and_goes_live(api: Api) -> None:
    head = await api.start(players=4)
    assert (await api.call("PATCH", T, {"public_delay": 3600}))[0] == 200
    async with connect(feed_url(api.base, TID)) as ws:
        assert (await recv(ws))["seq"] == head
        await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"})
        await api.post(f"{T}/rounds/1/results", {"board": 2, "result": "0-1"})
        assert (await api.post(f"{T}/rounds/1/close"))[0] == 201  # head + 4
        assert (await public_get(api, f"{T}/standings"))[1]["seq"] == head
        # A round whose close is held is not closed for the public's time travel.
        status, body, _ = await public_get(api, f"{T}/standings?after_round=1")
        assert status == 422 and "after_round" in str(body), body
        status, body = await api.call("GET", f"{T}/standings?after_round=1")
        assert status == 200 and body["seq"] == head + 4
        assert (await api.call("PATCH", T, {"public_delay": 0}))[0] == 200
        # Released at once, in order, then the viewer follows the live log again.
        assert [(await recv(ws))["seq"] for _ in range(5)] == [
            head + 1, head + 2, head + 3, head + 4, head + 5
        ]  # fmt: skip
        await api.post(f"{T}/withdrawals", {"start_no": 4, "from_round": 2})
        assert (await recv(ws))["seq"] == head + 6
    _, doc, etag = await public_get(api, f"{T}/standings")
    assert doc["seq"] == head + 6 and etag == f'"{head + 6}"' and doc["after_round"] == 1
    assert (await public_get(api, f"{T}/standings?after_round=1"))[1]["seq"] == head + 4
    _, info, _ = await public_get(api, T)
    assert info["public_delay"] == 0


async def test_patch_takes_only_a_delay_in_range_from_the_arbiter(api: Api) -> None:
    head = await api.start(players=2)
    for body in (
        {"public_delay": 3601},
        {"public_delay": -1},
        {"public_delay": "5"},
        {"public_delay": 1.5},
        {"public_delay": True},
        {"public_delay": 5, "name": "x"},
        {},
    ):
        status, answer = await api.call("PATCH", T, body)
        assert status == 422, (body, answer)
        assert ("public_delay" in str(answer)) or ("name" in str(answer)), answer
    assert (await api.call("PATCH", T, {"public_delay": 5}, token=None))[0] == 401
    assert (await api.call("PATCH", T, {"public_delay": 5}, token="ltb_nope"))[0] == 401
    assert (await api.standings())["seq"] == head  # nothing appended by a refusal
    assert (await api.call("PATCH", T, {"public_delay": 3600}))[0] == 200


async def test_a_delayed_tournament_loaded_from_the_log_holds_the_recent_events(
    api: Api, make_api: Any
) -> None:
    head = await api.start(players=4)
    assert (await api.call("PATCH", T, {"public_delay": 3600}))[0] == 200
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"})
    # Another node on the same store: it reads the log and releases by the stored times.
    other = await make_api()
    other.token = api.token
    async with aiohttp.ClientSession() as session:
        async with session.get(other.base + f"{T}/standings") as resp:
            got = await resp.json()
            assert "seq" in got, got
            assert got["seq"] == head and resp.headers["ETag"] == f'"{head}"', got
        headers = {"Authorization": f"Bearer {api.token}"}
        async with session.get(other.base + f"{T}/standings", headers=headers) as resp:
            assert (await resp.json())["seq"] == head + 2


async def test_a_filtered_viewer_moves_to_the_delayed_stream_and_back(api: Api) -> None:
    head = await api.start(players=8)
    async with connect(feed_url(api.base, TID) + "&top=3") as ws:
        snapshot = await recv(ws)
        assert snapshot["seq"] == head and len(snapshot["standings"]["standings"]) == 3
        assert (await api.call("PATCH", T, {"public_delay": HOUR}))[0] == 200
        await api.post(f"{T}/rounds/1/results", {"board": 4, "result": "0-1"})  # 8 leads
        with pytest.raises(TimeoutError):  # held: neither the delay's event nor the result
            await recv(ws, timeout=0.5)
        # A second's delay: each held event out once it is a second old, in order.
        assert (await api.call("PATCH", T, {"public_delay": 1}))[0] == 200  # head + 3
        assert (await recv(ws))["seq"] == head + 1
        delta = await recv(ws)
        assert delta["seq"] == head + 2 and [r["start_no"] for r in delta["rows"]] == [8]
        assert dict(delta["ranks"])[8] == 1 and delta["drop"] == [3]
        assert (await recv(ws))["seq"] == head + 3
        assert (await api.call("PATCH", T, {"public_delay": 0}))[0] == 200
        assert (await recv(ws))["seq"] == head + 4
        await api.post(f"{T}/rounds/1/results", {"board": 3, "result": "1-0"})  # live again
        delta = await recv(ws)
        assert delta["seq"] == head + 5 and [r["start_no"] for r in delta["rows"]] == [5]


async def test_public_reads_wait_while_a_delay_copies_the_standings(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Turning a delay on copies the standings in a thread (about a second at 10,000 players):
    meanwhile public reads and new viewers wait for the copy, and never see the live log.
    Here the copy waits until the test lets it go."""
    head = await api.start(players=8)
    restore = StandingsProjection.restore
    copying, go = threading.Event(), threading.Event()

    def held_up(data: bytes) -> StandingsProjection:
        copying.set()
        go.wait(60)
        return restore(data)

    async with connect(feed_url(api.base, TID)) as watching:
        assert (await recv(watching))["seq"] == head
        monkeypatch.setattr(StandingsProjection, "restore", held_up)
        assert (await api.call("PATCH", T, {"public_delay": HOUR}))[0] == 200
        await api.post(f"{T}/rounds/1/results", {"board": 2, "result": "0-1"})  # head + 2
        assert await asyncio.to_thread(copying.wait, 60)
        assert not go.is_set()  # the writes did not wait for the copy
        reading = asyncio.ensure_future(public_get(api, f"{T}/standings"))
        await asyncio.sleep(0.2)
        assert not reading.done()  # the public read waits for the copy
        go.set()
        status, doc, etag = await reading
        assert (status, doc["seq"], etag) == (200, head, f'"{head}"')
        async with connect(feed_url(api.base, TID)) as joining:
            assert (await recv(joining))["seq"] == head
        assert (await api.call("PATCH", T, {"public_delay": 0}))[0] == 200
        assert [(await recv(watching))["seq"] for _ in range(3)] == [head + 1, head + 2, head + 3]


async def test_two_nodes_release_a_held_result_by_its_stored_time(make_api: Any) -> None:
    """Two nodes on one store: the one that took the write and the one that follows it both
    release the result to their public viewers by its stored time, neither before it is due."""
    a = await make_api(poll_interval=0.01)
    b = await make_api(poll_interval=0.01)
    head = await a.start(players=8)
    assert (await a.call("PATCH", T, {"public_delay": HOUR}))[0] == 200
    async with connect(feed_url(a.base, TID)) as on_a, connect(feed_url(b.base, TID)) as on_b:
        assert (await recv(on_a))["seq"] == (await recv(on_b))["seq"] == head
        asked = time.monotonic()
        await a.post(f"{T}/rounds/1/results", {"board": 2, "result": "0-1"})  # head + 2
        deadline = time.monotonic() + 30
        while True:  # the other node follows the write at once, for a token
            status, live = await b.call("GET", f"{T}/standings")
            if live["seq"] == head + 2:
                break
            assert time.monotonic() < deadline, live["seq"]
            await asyncio.sleep(0.02)
        assert status == 200 and live["seq"] == head + 2
        assert (await public_get(b, f"{T}/standings"))[1]["seq"] == head
        assert (await a.call("PATCH", T, {"public_delay": 2}))[0] == 200  # head + 3
        for name, ws in (("a", on_a), ("b", on_b)):
            seqs = [(await recv(ws))["seq"] for _ in range(3)]
            assert seqs == [head + 1, head + 2, head + 3], name
            assert time.monotonic() - asked >= 2 - 0.05  # the result not before its time
