"""The v2 delta on the wire, value by value: what changed, not what shifted."""

from __future__ import annotations

from websockets.asyncio.client import connect

from livetb.client import feed_url
from tests.web.conftest import TID, Api, recv

T = f"/api/tournaments/{TID}"


async def test_a_result_sends_two_rows_one_move_and_the_board(api: Api) -> None:
    head = await api.start(players=8)  # PTS, BH, FB; round 1: 1-2, 3-4, 5-6, 7-8
    async with connect(feed_url(api.base, TID)) as ws:
        snapshot = await recv(ws)
        assert snapshot["round"]["games"][1] == {
            "board": 2, "white": 3, "black": 4, "result": None
        }  # fmt: skip
        await api.post(f"{T}/rounds/1/results", {"board": 2, "result": "0-1"})
        delta = await recv(ws)
        standings = await api.standings()
    # 4 beats 3: 4 scores 1.0 and leaves the all-zero group for the top; 3's projected BH is
    # 4's projected score (1.0 instead of a draw's 0.5), 4's is 3's (0.0). Nobody else changed
    # content: the six rows that dropped from rank 1 to rank 2 are not sent.
    assert delta == {
        "type": "delta",
        "seq": head + 1,
        "after_round": 0,
        "round_in_progress": 1,
        "rows": [
            {"start_no": 4, "cells": [[0, "1.0"], ["bh_projected", "0.0"]]},
            {"start_no": 3, "cells": [["bh_projected", "1.0"]]},
        ],
        "moves": [[4, 0]],
        "untied": [4],
        "games": [[1, 2, "0-1"]],
    }
    assert [(r["start_no"], r["rank"]) for r in standings["standings"][:3]] == [
        (4, 1), (1, 2), (2, 2)
    ]  # fmt: skip


async def test_a_close_flips_the_statuses_once_in_the_header(api: Api) -> None:
    await api.start(players=2)
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1/2-1/2"})
    async with connect(feed_url(api.base, TID)) as ws:
        snapshot = await recv(ws)
        assert snapshot["standings"]["standings"][0]["statuses"] == [
            "provisional", "pending", "predicted"
        ]  # fmt: skip
        assert (await api.post(f"{T}/rounds/1/close"))[0] == 201
        delta = await recv(ws)
    assert delta["statuses"] == ["final", "final", "final"]
    assert delta["after_round"] == 1 and delta["round_in_progress"] is None
    # BH becomes final on round 1: each one's opponent scored 0.5; FB is the prediction.
    assert sorted((r["start_no"], r["cells"]) for r in delta["rows"]) == [
        (1, [[1, "0.5"], ["fb_prediction", None]]),
        (2, [[1, "0.5"], ["fb_prediction", None]]),
    ]
