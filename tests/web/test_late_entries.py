"""A late entry through the API: `POST /api/tournaments/{id}/participants` after round 1 is
paired takes the entrant's missed rounds, refuses a used start number or a round not paired
with a located error, and the standings follow the C.07 2024 unplayed-rounds rules."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import TID, Api

T = f"/api/tournaments/{TID}"
# The 4-round Swiss of tests/events/test_late_entries.py: Fay (6) enters once round 2 is paired.
ROUNDS: dict[int, tuple[list[tuple[int, int, str]], int | None]] = {
    1: ([(1, 2, "1-0"), (3, 4, "1/2-1/2")], 5),
    2: ([(1, 3, "1-0"), (5, 2, "1/2-1/2")], 4),
    3: ([(6, 5, "1-0"), (1, 4, "1/2-1/2"), (2, 3, "1-0")], None),
    4: ([(6, 1, "1-0"), (4, 2, "1-0"), (3, 5, "0-1")], None),
}
FAY = {"start_no": 6, "name": "Fay", "rating": 1900, "missed": {"1": "half", "2": "absent"}}


async def ok(api: Api, method: str, path: str, body: object = None) -> Any:
    status, answer = await api.call(method, path, body)
    assert status in (200, 201), answer
    return answer


async def pair(api: Api, rnd: int) -> None:
    games, pab = ROUNDS[rnd]
    boards = [{"board": b, "white": w, "black": k} for b, (w, k, _) in enumerate(games, 1)]
    await ok(api, "POST", f"{T}/rounds/{rnd}/pairings", {"boards": boards, "bye": pab})


async def play(api: Api, rnd: int) -> None:
    for board, (_, _, result) in enumerate(ROUNDS[rnd][0], 1):
        await ok(api, "POST", f"{T}/rounds/{rnd}/results", {"board": board, "result": result})
    await ok(api, "POST", f"{T}/rounds/{rnd}/close")


async def club(api: Api, rounds: int = 4) -> None:
    """Five players (the 2024 edition: a 2025 start), round 1 played, round 2 paired."""
    body = {"name": "Late", "rounds": rounds, "start_date": "2025-05-01"}
    await ok(api, "PUT", T, {**body, "tiebreaks": ["PTS", "BH", "BH/C1"]})
    for no, name in enumerate(["Ann", "Bob", "Cid", "Dan", "Eve"], start=1):
        await ok(api, "POST", f"{T}/participants", {"start_no": no, "name": name})
    await pair(api, 1)
    await play(api, 1)
    await pair(api, 2)


async def test_a_late_entrant_registers_with_its_missed_rounds_and_plays_on(api: Api) -> None:
    await club(api)
    head = api.store.head(TID)
    status, dry = await api.post(f"{T}/participants?dry_run=1", FAY)
    assert status == 200, dry
    assert [(e["type"], e.get("round"), e.get("points")) for e in dry["events"]] == [
        ("ParticipantRegistered", None, None),
        ("ByeRequested", 1, "half"),
    ]
    assert api.store.head(TID) == head  # a rehearsal writes nothing
    assert (await ok(api, "POST", f"{T}/participants", FAY))["seq"] == head + 2
    info = await api.get(T)
    assert [p["name"] for p in info["participants"]][-1] == "Fay"
    rows = {r["start_no"]: r for r in (await api.standings())["standings"]}
    assert rows[6]["values"][0] == "0.5"  # the half-point bye; round 2 is absent
    await play(api, 2)
    for rnd in (3, 4):
        await pair(api, rnd)
        await play(api, rnd)
    rows = {r["start_no"]: r for r in (await api.standings())["standings"]}
    # Hand-checked in tests/events/test_late_entries.py (2024 16.4, 16.5, 16.4.1).
    assert [rows[6]["values"], rows[5]["values"], rows[1]["values"]] == [
        ["2.5", "10.0", "7.5"],
        ["2.5", "7.0", "6.5"],
        ["2.5", "7.5", "7.0"],
    ]


async def test_a_used_start_number_is_refused_and_located(api: Api) -> None:
    await club(api)
    head = api.store.head(TID)
    status, body = await api.post(f"{T}/participants", {**FAY, "start_no": 2})
    assert (status, body["code"], body["field"], body["value"]) == (
        422,
        "duplicate_participant",
        "start_no",
        2,
    )
    assert body["message"] == "start_no 2: already registered (as 'Bob')"
    assert api.store.head(TID) == head


async def test_a_missed_round_not_paired_or_not_a_bye_is_refused(api: Api) -> None:
    await club(api)
    head = api.store.head(TID)
    status, body = await api.post(f"{T}/participants", {**FAY, "missed": {"3": "half"}})
    assert (status, body["code"], body["field"], body["value"]) == (
        422,
        "round_not_paired",
        "missed.3",
        3,
    )
    status, body = await api.post(f"{T}/participants", {**FAY, "missed": {"1": "full"}})
    assert (status, body["code"], body["path"]) == (422, "invalid_input", "$.missed[...]")
    assert api.store.head(TID) == head


async def test_after_the_last_round_is_closed_a_registration_is_refused(api: Api) -> None:
    await club(api, rounds=2)
    await play(api, 2)
    head = api.store.head(TID)
    status, body = await api.post(f"{T}/participants", FAY)
    assert (status, body["code"], body["field"]) == (422, "tournament_finished", "start_no")
    assert body["message"] == (
        "start_no 6: cannot register a participant: the last round (2) is closed"
    )
    assert api.store.head(TID) == head
