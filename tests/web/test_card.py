"""The participant card over a real server, on a small tournament built through the API."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import TID, Api

T = f"/api/tournaments/{TID}"


async def small(api: Api) -> None:
    """4 players, 3 rounds; round 3 running with one result in.

    R1: 1-2 1-0, 3-4 ½. R2: 4 takes a half bye, 1-3 ½, 2 the PAB. R3: 2-1 0-1, 3-4 running."""
    body = {"name": "Club", "rounds": 3, "tiebreaks": ["PTS", "BH/C1", "DE", "WIN"]}
    assert (await api.call("PUT", T, body))[0] == 201
    for no, name in enumerate(["Ann", "Bob", "Cid", "Dan"], start=1):
        await api.post(f"{T}/participants", {"start_no": no, "name": name, "rating": 2000 - no})

    def boards(*games: tuple[int, int, int]) -> list[dict[str, int]]:
        return [{"board": b, "white": w, "black": k} for b, w, k in games]

    steps: list[tuple[str, dict[str, Any]]] = [
        ("rounds/1/pairings", {"boards": boards((1, 1, 2), (2, 3, 4))}),
        ("rounds/1/results", {"board": 1, "result": "1-0"}),
        ("rounds/1/results", {"board": 2, "result": "1/2-1/2"}),
        ("rounds/1/close", {}),
        ("byes", {"start_no": 4, "round": 2}),
        ("rounds/2/pairings", {"boards": boards((1, 1, 3)), "bye": 2}),
        ("rounds/2/results", {"board": 1, "result": "1/2-1/2"}),
        ("rounds/2/close", {}),
        ("rounds/3/pairings", {"boards": boards((1, 2, 1), (2, 3, 4))}),
        ("rounds/3/results", {"board": 1, "result": "0-1"}),
    ]
    for path, step in steps:
        status, resp = await api.post(f"{T}/{path}", step)
        assert status == 201, (path, resp)


async def test_the_card_explains_every_tiebreak_and_matches_the_standings(api: Api) -> None:
    await small(api)
    standings = await api.standings()
    card = await api.get(f"{T}/participants/4")
    row = next(r for r in standings["standings"] if r["start_no"] == 4)
    assert (card["name"], card["rank"], card["seq"]) == ("Dan", row["rank"], standings["seq"])
    assert (card["after_round"], card["round_in_progress"]) == (2, 3)
    strip = [(r["round"], r["opponent"], r["colour"], r["result"], r["points"], r["category"])
             for r in card["results"]]  # fmt: skip
    assert strip == [(1, 3, "b", "=", "0.5", None), (2, None, None, "H", "0.5", 2),
                     (3, 3, "b", "*", "0.0", None)]  # fmt: skip
    assert card["results"][1]["category_text"].startswith("unplayed, 2024 16.2.2")
    assert [t["name"] for t in card["tiebreaks"]] == standings["tiebreaks"]
    assert [t["value"] for t in card["tiebreaks"]] == row["values"]
    assert [t["status"] for t in card["tiebreaks"]] == row["statuses"]
    pts, bh, de, win = card["tiebreaks"]
    assert (pts["value"], pts["status"], pts["rounds"]) == ("1.0", "provisional", 3)
    # BH/C1 on rounds 1..2 (type C: the closed rounds): Cid's 1.0 after round 2, and the half
    # bye counted with Dan's own 1.0 but cut first, being voluntarily unplayed.
    assert (bh["value"], bh["status"], bh["rounds"]) == ("1.0", "pending", 2)
    # Each part's source and each cut's reason are data, put into words by the page.
    bye = {"kind": "own_unplayed", "outcome": "half_bye"}
    assert [(p["round"], p["amount"], p["source"], p["cut"]) for p in bh["parts"]] == [
        (1, "1.0", {"kind": "opponent", "no": 3}, None), (2, "1.0", bye, "voluntary")]  # fmt: skip
    assert bh["cut"] == [{"round": 2, "reason": "voluntary"}]
    assert (card["fb_prediction"], card["bh_projected"]) == (row["fb_prediction"], "4.5")
    assert card["separated_from"] == {
        "above": {"start_no": 3, "name": "Cid", "rank": 3, "tiebreak": "BH/C1", "value": "1.0",
                  "neighbour_value": "1.5", "by": "tiebreak"},
        "below": None,
    }  # fmt: skip
    assert de["parts"] == [] and de["group"] and not bh["group"]
    assert win["value"] == 0
    assert [(p["round"], p["amount"], p["cut"]) for p in pts["parts"]] == [
        (1, "0.5", None), (2, "0.5", None), (3, "0.0", None)]  # fmt: skip


async def test_separated_from_names_the_first_differing_tiebreak(api: Api) -> None:
    await small(api)
    doc = await api.standings()
    rows = doc["standings"]
    top, second = rows[0], rows[1]
    i = next(k for k, v in enumerate(top["values"]) if v != second["values"][k])
    card = await api.get(f"{T}/participants/{top['start_no']}")
    assert card["separated_from"]["above"] is None
    below = card["separated_from"]["below"]
    assert (below["start_no"], below["by"], below["tiebreak"]) == (
        second["start_no"], "tiebreak", doc["tiebreaks"][i])  # fmt: skip
    assert (below["value"], below["neighbour_value"]) == (top["values"][i], second["values"][i])
    last = await api.get(f"{T}/participants/{rows[-1]['start_no']}")
    assert last["separated_from"]["below"] is None
    assert last["separated_from"]["above"]["start_no"] == rows[-2]["start_no"]


async def test_equal_participants_are_still_tied(api: Api) -> None:
    await api.start(players=4)
    card = await api.get(f"{T}/participants/1")
    below = card["separated_from"]["below"]
    assert below == {"start_no": 2, "name": "Bob", "rank": 1, "tiebreak": None, "value": None,
                     "neighbour_value": None, "by": None}  # fmt: skip


async def test_an_unknown_participant_is_404(api: Api) -> None:
    await api.start(players=4)
    status, body = await api.call("GET", f"{T}/participants/9", token=None)
    assert status == 404 and body["code"] == "not_found"
