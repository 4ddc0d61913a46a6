"""The card's outlooks over HTTP (`GET /api/tournaments/{id}/participants/{no}`): each option
of `outlook` and `prize_outlook` keeps `result`, `best` and `worst` and says whether they are
attained (`exact`); for the club championship of `tests/projections/test_prize_outlook.py`,
entered through the API, they are the most and the least over the outcomes of the open boards,
each closed through the API as well."""

from __future__ import annotations

import itertools
from decimal import Decimal
from typing import Any

from livetb.web.keys import TOKENS
from tests.web.conftest import TID, Api

T = f"/api/tournaments/{TID}"
PLAYED = ("1-0", "1/2-1/2", "0-1")
OPEN = [(2, 2, 7), (3, 3, 4), (4, 5, 6)]  # board, white, black


async def club(api: Api, tid: str = TID) -> str:
    """12 players, 3 rounds; the last paired, three boards open; prizes 100, 60, 40 shared.
    The tournament's token."""
    t = f"/api/tournaments/{tid}"
    token = api.token if tid == TID else api.server.app[TOKENS].create(tid)

    async def call(method: str, path: str, body: object = None) -> tuple[int, Any]:
        return await api.call(method, path, body, token=token)

    body = {"name": "Club", "rounds": 3, "tiebreaks": ["PTS", "BH"]}
    assert (await call("PUT", t, body))[0] == 201
    for no in range(1, 13):
        assert (await call("POST", f"{t}/participants", {"start_no": no, "name": f"P{no}"}))[
            0
        ] == 201
    rounds = [
        [(1, 7), (2, 8), (3, 9), (4, 10), (5, 11), (6, 12)],
        [(1, 8), (2, 9), (3, 10), (4, 11), (5, 12), (6, 7)],
        [(1, 12), (2, 7), (3, 4), (5, 6), (8, 9), (10, 11)],
    ]
    for rnd, games in enumerate(rounds, start=1):
        boards = [{"board": b, "white": w, "black": k} for b, (w, k) in enumerate(games, 1)]
        assert (await call("POST", f"{t}/rounds/{rnd}/pairings", {"boards": boards}))[0] == 201
        if rnd == 3:
            break
        for board in range(1, 7):
            result = "1-0" if board < 6 else "1/2-1/2"
            body = {"board": board, "result": result}
            assert (await call("POST", f"{t}/rounds/{rnd}/results", body))[0] == 201
        assert (await call("POST", f"{t}/rounds/{rnd}/close"))[0] == 201
    for board, result in ((1, "1-0"), (5, "1-0"), (6, "0-1")):
        body = {"board": board, "result": result}
        assert (await call("POST", f"{t}/rounds/3/results", body))[0] == 201
    prizes = {
        "rule": "shared",
        "one_prize_per_player": True,
        "currency": "EUR",
        "prizes": [
            {"list": "main", "place": p, "amount": a} for p, a in ((1, "100"), (2, "60"), (3, "40"))
        ],
    }
    assert (await call("PUT", f"{t}/prizes", prizes))[0] == 200
    return token


def own(no: int, combo: tuple[int, ...]) -> int | None:
    for (_, white, black), r in zip(OPEN, combo, strict=True):
        if no == white:
            return r
        if no == black:
            return 2 - r
    return None


async def test_every_option_is_attained_by_an_outcome_of_the_open_boards(api: Api) -> None:
    await club(api)
    cards: dict[int, Any] = {no: await api.get(f"{T}/participants/{no}") for no in range(1, 13)}
    win = cards[2]["prize_outlook"]["options"][0]
    assert {k: win[k] for k in ("result", "best", "worst", "exact")} == {
        "result": "win", "best": "80.00", "worst": "50.00", "exact": True,
    }  # fmt: skip
    assert win["best_prizes"] == [
        {"list": "main", "place": 1, "amount": "80.00", "places": [1, 2], "shared": 2}
    ]
    paid: dict[tuple[int, int | None], list[Decimal]] = {}
    ranked: dict[tuple[int, int | None], list[int]] = {}
    for k, combo in enumerate(itertools.product(range(3), repeat=len(OPEN))):
        tid = f"club-{k}"
        token = await club(api, tid)
        base = f"/api/tournaments/{tid}"
        for (board, _, _), r in zip(OPEN, combo, strict=True):
            body = {"board": board, "result": PLAYED[r]}
            assert (await api.post(f"{base}/rounds/3/results", body, token=token))[0] == 201
        assert (await api.post(f"{base}/rounds/3/close", token=token))[0] == 201
        awards = (await api.get(f"{base}/prizes"))["awards"]
        rows = (await api.get(f"{base}/standings"))["standings"]
        for no in range(1, 13):
            amount = sum((Decimal(a["amount"]) for a in awards if a["start_no"] == no), Decimal(0))
            paid.setdefault((no, own(no, combo)), []).append(amount)
        for row in rows:
            ranked.setdefault((row["start_no"], own(row["start_no"], combo)), []).append(
                row["rank"]
            )
    for no, card in cards.items():
        for i, option in enumerate(card["prize_outlook"]["options"]):
            got = paid[(no, i if len(card["prize_outlook"]["options"]) > 1 else None)]
            assert option["exact"] is True
            assert (Decimal(option["worst"]), Decimal(option["best"])) == (min(got), max(got))
        for i, option in enumerate(card["outlook"]["options"]):
            got_ranks = ranked[(no, i if len(card["outlook"]["options"]) > 1 else None)]
            assert option["exact"] is True
            assert (option["best"], option["worst"]) == (min(got_ranks), max(got_ranks))
