"""`GET /api/tournaments` tells where each tournament is, as of the head it shows: its start
date, the last round paired and closed (not started / round k / finished on the home page)
and when that head was recorded; the same whether a projection is held or the log is read,
and under a broadcast delay only what is public."""

from __future__ import annotations

import datetime as dt
from typing import Any

from tests.web.conftest import TID, Api, ApiFactory

T = f"/api/tournaments/{TID}"
HOUR = 3600


def listed(listing: dict[str, Any]) -> dict[str, Any]:
    (found,) = [t for t in listing["tournaments"] if t["id"] == TID]
    return {k: found[k] for k in ("seq", "start_date", "paired", "closed")}


async def test_the_list_follows_the_rounds_and_says_when(api: Api, make_api: ApiFactory) -> None:
    body = {"name": "Club", "rounds": 2, "start_date": "2025-05-03"}
    assert (await api.call("PUT", T, body))[0] == 201
    for no, name in enumerate(["Ann", "Bob"], start=1):
        assert (await api.post(f"{T}/participants", {"start_no": no, "name": name}))[0] == 201
    before = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
    steps: list[tuple[str, object | None, dict[str, Any]]] = [
        ("", None, {"seq": 3, "paired": 0, "closed": 0}),
        ("/rounds/1/pairings", {"boards": [{"board": 1, "white": 1, "black": 2}]},
         {"seq": 4, "paired": 1, "closed": 0}),
        ("/rounds/1/results", {"board": 1, "result": "1-0"}, {"seq": 5, "paired": 1, "closed": 0}),
        ("/rounds/1/close", {}, {"seq": 6, "paired": 1, "closed": 1}),
        ("/rounds/2/pairings", {"boards": [{"board": 1, "white": 2, "black": 1}]},
         {"seq": 7, "paired": 2, "closed": 1}),
        ("/rounds/2/results", {"board": 1, "result": "1/2-1/2"},
         {"seq": 8, "paired": 2, "closed": 1}),
        ("/rounds/2/close", {}, {"seq": 9, "paired": 2, "closed": 2}),
    ]  # fmt: skip
    for path, write, expected in steps:
        if path:
            status, answer = await api.post(T + path, write)
            assert status == 201, answer
        want = {**expected, "start_date": "2025-05-03"}
        held = await api.get("/api/tournaments")  # the writes' projection is held here
        assert listed(held) == want
        fresh = await (await make_api()).get("/api/tournaments")  # the log read: none held
        assert listed(fresh) == want
        for listing in (held, fresh):
            (t,) = listing["tournaments"]
            updated = dt.datetime.fromisoformat(t["updated"])
            assert before <= updated <= dt.datetime.now(dt.UTC)


async def test_under_a_delay_the_list_shows_the_public_rounds(api: Api) -> None:
    head = await api.start(players=4)  # round 1 paired
    assert (await api.call("PATCH", T, {"public_delay": HOUR}))[0] == 200
    for board in (1, 2):
        status, _ = await api.post(f"{T}/rounds/1/results", {"board": board, "result": "1-0"})
        assert status == 201
    assert (await api.post(f"{T}/rounds/1/close", {}))[0] == 201
    public = listed(await api.get("/api/tournaments"))
    assert public == {"seq": head, "start_date": None, "paired": 1, "closed": 0}
