"""The crosstable over a real server: the standings' rows in their order, each round's
opponent, colour, result and points, for games, forfeits, byes and an absence."""

from __future__ import annotations

from typing import Any

from livetb.web.pages.shell import VERSION
from tests.web.conftest import TID, Api

T = f"/api/tournaments/{TID}"


def boards(*games: tuple[int, int]) -> list[dict[str, int]]:
    return [{"board": b, "white": w, "black": k} for b, (w, k) in enumerate(games, start=1)]


async def five(api: Api) -> None:
    """5 players, 3 rounds; round 3 running with board 1 in and 4 absent.

    R1: 1-2 1-0, 3-4 ½, 5 the PAB. R2: 4 a requested half bye, 1-3 0-1, 5-2 won by forfeit.
    R3: 2-1 1-0, 3-5 running, 4 neither paired nor on a bye."""
    body = {"name": "Club", "rounds": 3, "tiebreaks": ["PTS", "BH", "WIN"]}
    assert (await api.call("PUT", T, body))[0] == 201
    for no, name in enumerate(["Ann", "Bob", "Cid", "Dan", "Eve"], start=1):
        await api.post(f"{T}/participants", {"start_no": no, "name": name, "rating": 2000 - no})
    steps: list[tuple[str, dict[str, Any]]] = [
        ("rounds/1/pairings", {"boards": boards((1, 2), (3, 4)), "bye": 5}),
        ("rounds/1/results", {"board": 1, "result": "1-0"}),
        ("rounds/1/results", {"board": 2, "result": "1/2-1/2"}),
        ("rounds/1/close", {}),
        ("byes", {"start_no": 4, "round": 2}),
        ("rounds/2/pairings", {"boards": boards((1, 3), (5, 2))}),
        ("rounds/2/results", {"board": 1, "result": "0-1"}),
        ("rounds/2/results", {"board": 2, "result": "+-"}),
        ("rounds/2/close", {}),
        ("rounds/3/pairings", {"boards": boards((2, 1), (3, 5))}),
        ("rounds/3/results", {"board": 1, "result": "1-0"}),
    ]
    for path, step in steps:
        status, resp = await api.post(f"{T}/{path}", step)
        assert status == 201, (path, resp)


def cells(row: dict[str, Any]) -> list[tuple[object, ...]]:
    return [(c["opponent"], c["colour"], c["result"], c["points"]) for c in row["rounds"]]


async def test_the_crosstable_is_the_standings_with_every_round(api: Api) -> None:
    await five(api)
    standings = await api.standings()
    table = await api.get(f"{T}/crosstable")
    assert (table["seq"], table["after_round"], table["round_in_progress"]) == (
        standings["seq"], 2, 3,
    )  # fmt: skip
    assert (table["rounds"], table["paired"], table["tiebreaks"]) == (3, 3, ["PTS", "BH", "WIN"])
    rows = table["rows"]
    assert [(r["start_no"], r["rank"], r["name"], r["values"], r["statuses"]) for r in rows] == [
        (r["start_no"], r["rank"], r["name"], r["values"], r["statuses"])
        for r in standings["standings"]
    ]
    assert all(r["points"] == r["values"][0] for r in rows)  # PTS: the rounds added up
    by_no = {r["start_no"]: r for r in rows}
    assert [c["round"] for c in by_no[1]["rounds"]] == [1, 2, 3]
    assert cells(by_no[1]) == [(2, "w", "1", "1.0"), (3, "w", "0", "0.0"), (2, "b", "0", "0.0")]
    assert cells(by_no[2]) == [(1, "b", "0", "0.0"), (5, "b", "-", "0.0"), (1, "w", "1", "1.0")]
    assert cells(by_no[4]) == [(3, "b", "=", "0.5"), (None, None, "H", "0.5"),
                               (None, None, "Z", "0.0")]  # fmt: skip
    assert cells(by_no[5]) == [(None, None, "U", "1.0"), (2, "w", "+", "1.0"),
                               (3, "b", "*", "0.0")]  # fmt: skip
    assert (by_no[5]["points"], by_no[5]["rating"]) == ("2.0", 1995)
    async with api.session.get(api.base + f"{T}/crosstable") as resp:
        assert resp.headers["ETag"] == f'"{standings["seq"]}"'


async def test_a_team_tournament_and_an_unknown_one_have_no_crosstable(api: Api) -> None:
    body = {"name": "League", "rounds": 3, "kind": "team"}
    assert (await api.call("PUT", T, body))[0] == 201
    status, answer = await api.call("GET", f"{T}/crosstable", token=None)
    assert (status, answer["code"]) == (404, "not_found")
    status, _ = await api.call("GET", "/api/tournaments/nope/crosstable", token=None)
    assert status == 404


async def test_the_crosstable_page_is_served_and_the_standings_print_is_sent_there(
    api: Api,
) -> None:
    await five(api)
    for lang, title in [("en", "Crosstable"), ("it", "Tabellone")]:
        async with api.session.get(f"{api.base}/t/{TID}/crosstable?lang={lang}") as resp:
            page = await resp.text()
        assert resp.status == 200
        assert f'<html lang="{lang}">' in page and f"<title>{title} · livetb</title>" in page
        assert f'<script type="module" src="/static/{VERSION}/crosstable.js">' in page
    path = f"/t/{TID}?print=crosstable&lang=it"
    async with api.session.get(api.base + path, allow_redirects=False) as resp:
        assert resp.status == 302
        assert resp.headers["Location"] == f"/t/{TID}/crosstable?print=crosstable&lang=it"
    async with api.session.get(f"{api.base}/t/nope/crosstable") as resp:
        assert resp.status == 404  # an unknown (or private) tournament: the page asks for a token
    for module in ["crosstable.js", "cross-table.js"]:
        async with api.session.get(f"{api.base}/static/{VERSION}/{module}") as resp:
            assert resp.status == 200
