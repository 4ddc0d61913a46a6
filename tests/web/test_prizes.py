"""The prize list over HTTP and the feed: PUT …/prizes (the contract's body; 422 naming the
field for an unknown list, a negative amount, a place given twice, and nothing logged),
GET …/prizes provisional then final, and the feed's `prizes` messages following every change
within 50 ms of a change."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec import json, to_builtins
from websockets.asyncio.client import connect

from livetb.client import LocalStandings, feed_url, follow
from livetb.wire.messages import PrizesMessage, SnapshotMessage
from tests.web.conftest import TID, Api, ApiFactory, recv, recv_any

T = f"/api/tournaments/{TID}"
CONTRACT: dict[str, Any] = {
    "rule": "ranking",
    "one_prize_per_player": True,
    "currency": "EUR",
    "prizes": [
        {"list": "main", "place": 1, "amount": "500"},
        {"list": "main", "place": 2, "amount": "300"},
        {"list": "U2000", "place": 1, "amount": "100"},
    ],
}


async def two_rounds(api: Api) -> None:
    """8 players rated 2390, 2380, … 2320 (`Api.start`), 2 rounds; U2000: 5-8 by rating."""
    t = f"/api/tournaments/{TID}"
    body = {"name": "Club", "rounds": 2, "tiebreaks": ["PTS", "BH"]}
    assert (await api.call("PUT", t, body))[0] == 201
    for no in range(1, 9):
        person = {"start_no": no, "name": f"P{no}", "rating": 2400 - 100 * no}
        assert (await api.post(f"{t}/participants", person))[0] == 201
    boards = [{"board": b, "white": 2 * b - 1, "black": 2 * b} for b in range(1, 5)]
    assert (await api.post(f"{t}/rounds/1/pairings", {"boards": boards}))[0] == 201
    cats = {"categories": [{"code": "U2000", "name": "Under 2000", "rating_max": 1999}]}
    assert (await api.call("PUT", f"{t}/categories", cats))[0] == 200


def awards(doc: dict[str, Any]) -> list[tuple[int, str, int, str]]:
    return [(a["start_no"], a["list"], a["place"], a["amount"]) for a in doc["awards"]]


async def test_put_prizes_then_the_live_list_provisional_then_final(api: Api) -> None:
    await two_rounds(api)
    assert (await api.get(f"{T}/prizes"))["awards"] == []  # no table yet
    status, body = await api.call("PUT", f"{T}/prizes", CONTRACT)
    assert status == 200, body
    for board in range(1, 5):
        await api.post(f"{T}/rounds/1/results", {"board": board, "result": "1-0"})
    doc = await api.get(f"{T}/prizes")
    assert doc["status"] == "provisional" and doc["currency"] == "EUR"
    # 1-0 on every board: 1, 3, 5, 7 on 1 point, BH 0 while the round runs (pending): the
    # ranking places them by start number. U2000 (5-8): 5 is its best without a prize.
    assert awards(doc) == [(1, "main", 1, "500.00"), (3, "main", 2, "300.00"),
                           (5, "U2000", 1, "100.00")]  # fmt: skip
    assert (await api.post(f"{T}/rounds/1/close"))[0] == 201
    pairs = [(3, 1), (7, 5), (2, 4), (6, 8)]
    boards = [{"board": b, "white": w, "black": k} for b, (w, k) in enumerate(pairs, 1)]
    assert (await api.post(f"{T}/rounds/2/pairings", {"boards": boards}))[0] == 201
    for board, result in [(1, "0-1"), (2, "0-1"), (3, "1-0"), (4, "0-1")]:
        await api.post(f"{T}/rounds/2/results", {"board": board, "result": result})
    assert (await api.post(f"{T}/rounds/2/close"))[0] == 201
    doc = await api.get(f"{T}/prizes")
    assert doc["status"] == "final"
    # 1 and 5 on 2 points; BH: 1 met 2 (1) and 3 (1) = 2, 5 met 6 (0) and 7 (1) = 1. U2000
    # without 5: 7 and 8 on 1 point, BH 7: 8 (1) + 5 (2) = 3, 8: 7 (1) + 6 (0) = 1.
    assert awards(doc) == [
        (1, "main", 1, "500.00"),
        (5, "main", 2, "300.00"),
        (7, "U2000", 1, "100.00"),
    ]


async def test_no_prize_is_anybodys_before_the_first_result(api: Api) -> None:
    """Registered, and round 1 paired: everybody on 0 points, the list names every prize and
    awards none (a shared table would otherwise split 1st and 2nd among all 8)."""
    t = f"/api/tournaments/{TID}"
    body = {"name": "Club", "rounds": 2, "tiebreaks": ["PTS", "BH"]}
    assert (await api.call("PUT", t, body))[0] == 201
    for no in range(1, 9):
        assert (await api.post(f"{t}/participants", {"start_no": no, "name": f"P{no}"}))[0] == 201
    shared = CONTRACT | {"rule": "shared", "prizes": CONTRACT["prizes"][:2]}  # main's two
    assert (await api.call("PUT", f"{T}/prizes", shared))[0] == 200
    doc = await api.get(f"{T}/prizes")
    assert len(doc["prizes"]) == 2 and doc["awards"] == []
    boards = [{"board": b, "white": 2 * b - 1, "black": 2 * b} for b in range(1, 5)]
    assert (await api.post(f"{t}/rounds/1/pairings", {"boards": boards}))[0] == 201
    assert (await api.get(f"{T}/prizes"))["awards"] == []
    card = await api.get(f"{t}/participants/1")
    assert card["prizes"] == []
    await api.post(f"{t}/rounds/1/results", {"board": 1, "result": "1-0"})
    assert awards(await api.get(f"{T}/prizes"))[0] == (1, "main", 1, "500.00")


async def test_bad_tables_are_refused_naming_the_field_and_nothing_is_logged(api: Api) -> None:
    await two_rounds(api)
    head = (await api.standings())["seq"]
    bad = [
        ({"list": "U1800", "place": 1, "amount": "10"}, "$.prizes[3].list"),
        ({"list": "main", "place": 3, "amount": "-5"}, "$.prizes[3].amount"),
        ({"list": "main", "place": 2, "amount": "50"}, "$.prizes[3].place"),
        ({"list": "main", "place": 3, "amount": "0.001"}, "$.prizes[3].amount"),
        ({"list": "main", "place": 5, "amount": "10"}, "$.prizes[3].place"),
        ({"list": "main", "place": 3, "amount": "400"}, "$.prizes[3].amount"),
    ]
    for extra, path in bad:
        body = CONTRACT | {"prizes": [*CONTRACT["prizes"], extra]}
        status, err = await api.call("PUT", f"{T}/prizes", body)
        assert status == 422 and err["path"] == path, (extra, err)
        assert path in err["message"]
    status, err = await api.call("PUT", f"{T}/prizes", CONTRACT | {"rule": "lottery"})
    assert status == 422 and err["path"] == "$.rule"
    status, err = await api.call("PUT", f"{T}/prizes", CONTRACT, token=None)
    assert status == 401
    assert (await api.standings())["seq"] == head


async def test_the_feed_carries_the_prize_list_when_it_changes(api: Api) -> None:
    await two_rounds(api)
    shared = CONTRACT | {"rule": "shared"}
    assert (await api.call("PUT", f"{T}/prizes", shared))[0] == 200
    async with connect(feed_url(api.base, TID)) as ws:
        snapshot = await recv(ws)
        assert snapshot["type"] == "snapshot"
        assert snapshot["prizes"] == await api.get(f"{T}/prizes")
        # Round 1 paired, no result yet: nobody has a prize (not the 8 sharing 1st and 2nd).
        assert snapshot["prizes"]["awards"] == []
        await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"})
        delta = await recv(ws)
        assert delta["type"] == "delta" and "prizes" not in delta
        # The list follows the delta within 50 ms, in a message of its own.
        message = await recv(ws)
        assert message["type"] == "prizes" and message["prizes"]["seq"] == delta["seq"]
        # 1 alone on a point; 2..8 on 0 share the 2nd place, the last one paid, 300 / 7 =
        # 42.857…: 42.85 each and 5 cents to the first five; the share names the 7 places it
        # occupies. U2000's members all have a prize now: it goes to nobody.
        assert awards(message["prizes"]) == [
            (1, "main", 1, "500.00"),
            *((no, "main", 2, "42.86") for no in (2, 3, 4, 5, 6)),
            *((no, "main", 2, "42.85") for no in (7, 8)),
        ]
        assert {tuple(a["places"]) for a in message["prizes"]["awards"][1:]} == {(2, 8)}
        assert message["prizes"] == await api.get(f"{T}/prizes")
        await api.post(f"{T}/rounds/1/results", {"board": 2, "result": "1/2-1/2"})
        assert (await recv(ws))["type"] == "delta"
        message = await recv(ws)
        assert message["type"] == "prizes"
        assert message["prizes"] == await api.get(f"{T}/prizes")


async def test_a_burst_of_results_sends_one_list_and_an_unchanged_list_none(api: Api) -> None:
    await two_rounds(api)
    assert (await api.call("PUT", f"{T}/prizes", CONTRACT))[0] == 200
    async with connect(feed_url(api.base, TID)) as ws:
        await recv(ws)  # the snapshot
        # One command (a PGN of three games), three events: their deltas, then one list
        # counting all three.
        games = "".join(
            f'[White "P{w}"]\n[Black "P{w + 1}"]\n[Result "1-0"]\n\n1. d4 d5 1-0\n\n'
            for w in (1, 3, 5)
        )
        headers = {"Content-Type": "text/plain"}
        path = f"{T}/rounds/1/pgn"
        status, body = await api.call("POST", path, data=games.encode(), headers=headers)
        assert status == 200 and len(body["recorded"]) == 3, body
        messages = [await recv(ws) for _ in range(4)]
        seq = (await api.standings())["seq"]
        kinds = [(m["type"], m.get("seq") or m["prizes"]["seq"]) for m in messages]
        assert kinds == [("delta", seq - 2), ("delta", seq - 1), ("delta", seq), ("prizes", seq)]
        assert awards(await api.get(f"{T}/prizes")) == [
            (1, "main", 1, "500.00"), (3, "main", 2, "300.00"), (5, "U2000", 1, "100.00")
        ]  # fmt: skip
        # Board 4's draw leaves 1, 3 and 5 where they were: a delta, and no list after it.
        await api.post(f"{T}/rounds/1/results", {"board": 4, "result": "1/2-1/2"})
        assert (await recv(ws))["type"] == "delta"
        with pytest.raises(TimeoutError):
            await recv(ws, timeout=0.5)


async def test_a_resumed_viewer_gets_the_missed_deltas_then_the_list(
    make_api: ApiFactory,
) -> None:
    api = await make_api(heartbeat=3600.0)  # any ping below is the caught-up one
    await two_rounds(api)
    assert (await api.call("PUT", f"{T}/prizes", CONTRACT))[0] == 200
    since = (await api.standings())["seq"]
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"})
    await api.post(f"{T}/rounds/1/results", {"board": 2, "result": "0-1"})
    async with connect(feed_url(api.base, TID, since=since)) as ws:
        assert [(await recv(ws))["seq"] for _ in range(2)] == [since + 1, since + 2]
        message = await recv(ws)
        assert message["type"] == "prizes"
        assert message["prizes"] == await api.get(f"{T}/prizes")
        assert awards(message["prizes"])[:2] == [(1, "main", 1, "500.00"), (4, "main", 2, "300.00")]
        assert await recv_any(ws) == {"type": "ping"}  # caught up


async def test_the_python_client_keeps_the_list(api: Api) -> None:
    await two_rounds(api)
    assert (await api.call("PUT", f"{T}/prizes", CONTRACT))[0] == 200
    local = LocalStandings()
    async for message in follow(api.base, TID, local):
        if isinstance(message, SnapshotMessage):
            assert local.prizes is not None
            assert awards(to_builtins(local.prizes)) == []  # no result yet: nobody's
            await api.post(f"{T}/rounds/1/results", {"board": 3, "result": "0-1"})
        elif isinstance(message, PrizesMessage):
            break
    assert local.prizes is not None and local.prizes.seq == local.seq
    assert json.decode(json.encode(local.prizes)) == await api.get(f"{T}/prizes")
    # 6 alone on a point takes the 1st; 1 leads the others by start number; U2000 (5-8):
    # 6 has a prize, 5 is next.
    assert [a[0] for a in awards(to_builtins(local.prizes))] == [6, 1, 5]
