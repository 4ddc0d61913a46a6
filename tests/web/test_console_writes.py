"""What the arbiter console needs of the write path, through a real server: dry runs, TRF
player lists in one append, and corrections that never silently overwrite."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import TID, Api

T = f"/api/tournaments/{TID}"


def player(
    no: int, name: str, rating: str = "", title: str = "", fed: str = "", fid: str = ""
) -> str:
    """A 001 line in TRF columns: title 11-13, name 15-47, rating 49-52, federation 54-56,
    FIDE id 58-68, birth date 70-79; then points, rank and a round block (ignored)."""
    head = f"001 {no:4d} m{title:>3} {name:<33} {rating:>4} {fed:>3} {fid:>11} 1990/01/01"
    return head.ljust(80) + " 1.0    1  0002 w 1"


PLAYERS = "\n".join(
    [
        "012 Club Open",
        "062 3",
        player(1, "Rossi, Mario", "2400", "g", "ITA", "12345678"),
        player(2, "Bianchi, Anna", "2300", "wm", "ITA"),
        player(3, "Verdi, Luca"),
        "132" + " " * 88 + "25/01/01",  # not a 001 line: ignored
    ]
).encode()


async def post_text(api: Api, path: str, data: bytes) -> tuple[int, Any]:
    return await api.post(path, data=data, headers={"Content-Type": "text/plain"})


async def created(api: Api) -> int:
    status, body = await api.call("PUT", T, {"name": "Club", "rounds": 5})
    assert status == 201, body
    return int(body["seq"])


# --- dry runs ---------------------------------------------------------------------------------


async def test_a_dry_run_answers_the_events_and_appends_nothing(api: Api) -> None:
    head = await api.start(players=4)
    path = f"{T}/rounds/1/results?dry_run=1"
    status, body = await api.post(path, {"board": 2, "result": "1/2-1/2"})
    assert status == 200
    assert body == {
        "dry_run": True,
        "events": [{"type": "ResultRecorded", "v": 1, "round": 1, "board": 2, "result": "1/2-1/2"}],
    }
    assert api.store.head(TID) == head
    # the real write afterwards is unaffected by the rehearsal
    assert await api.post(f"{T}/rounds/1/results", {"board": 2, "result": "1/2-1/2"}) == (
        201,
        {"seq": head + 1},
    )


async def test_a_dry_run_is_refused_exactly_as_the_write_would_be(api: Api) -> None:
    head = await api.start(players=4)
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"})
    status, body = await api.post(f"{T}/rounds/1/close?dry_run=1")
    assert (status, body["code"], body["boards"]) == (422, "results_missing", [2])
    status, body = await api.post(f"{T}/rounds/1/results?dry_run=1", {"board": 9, "result": "1-0"})
    assert (status, body["code"]) == (422, "unknown_board")
    stale = {"board": 2, "result": "1-0", "expected_seq": head}
    status, body = await api.post(f"{T}/rounds/1/results?dry_run=1", stale)
    assert (status, body["code"], body["head"]) == (409, "concurrency_conflict", head + 1)
    status, body = await api.post(f"{T}/rounds/1/close?dry_run=1", token="ltb_nope")
    assert (status, body["code"]) == (401, "not_authenticated")
    assert api.store.head(TID) == head + 1


async def test_a_dry_run_consumes_no_idempotency_key(api: Api) -> None:
    head = await api.start(players=4)
    key = {"Idempotency-Key": "sheet-3"}
    body = {"board": 1, "result": "1-0"}
    status, dry = await api.post(f"{T}/rounds/1/results?dry_run=1", body, headers=key)
    assert status == 200 and dry["events"][0]["type"] == "ResultRecorded"
    assert await api.post(f"{T}/rounds/1/results", body, headers=key) == (201, {"seq": head + 1})
    status, err = await api.post(
        f"{T}/rounds/1/results?dry_run=1", body, headers={"Idempotency-Key": "x" * 201}
    )
    assert (status, err["path"]) == (422, "Idempotency-Key")


@pytest.mark.parametrize("value", ["0", "true", "yes", ""])
async def test_dry_run_takes_only_1(api: Api, value: str) -> None:
    head = await api.start(players=4)
    status, body = await api.post(
        f"{T}/rounds/1/results?dry_run={value}", {"board": 1, "result": "1-0"}
    )
    assert (status, body["code"], body["path"]) == (422, "invalid_input", "dry_run")
    assert f"dry_run={value!r}" in body["message"]
    assert api.store.head(TID) == head


async def test_a_dry_run_of_a_creation_and_of_a_correction(api: Api) -> None:
    status, body = await api.call("PUT", f"{T}?dry_run=1", {"name": "Club", "rounds": 7})
    assert status == 200 and [e["type"] for e in body["events"]] == ["TournamentCreated"]
    assert body["events"][0]["rounds"] == 7 and api.store.head(TID) == 0
    head = await api.start(players=4)
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"})
    fix = {"board": 1, "result": "0-1", "reason": "sheet", "expected": "1-0"}
    status, body = await api.call("PUT", f"{T}/rounds/1/results?dry_run=1", fix)
    assert status == 200 and body["events"] == [
        {"type": "ResultCorrected", "v": 1, "round": 1, "board": 1, "result": "0-1",
         "reason": "sheet"}
    ]  # fmt: skip
    assert api.store.head(TID) == head + 1


# --- no silent overwrite ----------------------------------------------------------------------


async def test_a_correction_over_a_result_changed_meanwhile_is_409_with_the_current(
    api: Api,
) -> None:
    head = await api.start(players=4)
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"})
    # console A corrects 1-0 to a draw; console B, still seeing 1-0, tries 0-1
    first = {"board": 1, "result": "1/2-1/2", "reason": "A", "expected": "1-0"}
    assert (await api.call("PUT", f"{T}/rounds/1/results", first))[0] == 200
    second = {"board": 1, "result": "0-1", "reason": "B", "expected": "1-0"}
    status, body = await api.call("PUT", f"{T}/rounds/1/results", second)
    assert (status, body["code"], body["board"], body["current"]) == (
        409,
        "result_changed",
        1,
        "1/2-1/2",
    )
    assert body["message"] == (
        "round 1 board 1: expected the result 1-0, but it is now 1/2-1/2 (changed meanwhile)"
    )
    assert api.store.head(TID) == head + 2
    rnd = await api.get(f"{T}/rounds/1")
    assert rnd["games"][0]["result"] == "1/2-1/2"
    # without `expected`, a correction still applies (the old contract)
    blind = {"board": 1, "result": "0-1", "reason": "B"}
    assert (await api.call("PUT", f"{T}/rounds/1/results", blind))[0] == 200


async def test_recording_over_a_result_names_the_current_one(api: Api) -> None:
    await api.start(players=4)
    await api.post(f"{T}/rounds/1/results", {"board": 2, "result": "0-1"})
    status, body = await api.post(f"{T}/rounds/1/results", {"board": 2, "result": "1-0"})
    assert (status, body["code"], body["board"], body["current"]) == (
        422,
        "board_has_result",
        2,
        "0-1",
    )


async def test_closing_with_boards_missing_lists_them(api: Api) -> None:
    await api.start(players=8)
    await api.post(f"{T}/rounds/1/results", {"board": 3, "result": "0-1"})
    status, body = await api.post(f"{T}/rounds/1/close")
    assert (status, body["code"], body["boards"]) == (422, "results_missing", [1, 2, 4])


# --- a TRF player list ------------------------------------------------------------------------


async def test_a_trf_player_list_registers_everyone_in_one_append(api: Api) -> None:
    head = await created(api)
    status, body = await post_text(api, f"{T}/participants", PLAYERS)
    assert (status, body) == (201, {"seq": head + 3})
    info = await api.get(T)
    got = [
        (p["start_no"], p["name"], p["rating"], p["title"], p["federation"], p["fide_id"])
        for p in info["participants"]
    ]
    assert got == [
        (1, "Rossi, Mario", 2400, "GM", "ITA", "12345678"),
        (2, "Bianchi, Anna", 2300, "WIM", "ITA", ""),
        (3, "Verdi, Luca", None, "", "", ""),
    ]
    # one append: the three events carry the one timestamp of their write
    page = await api.get(f"{T}/events?after={head}")
    assert [e["event"]["type"] for e in page["events"]] == ["ParticipantRegistered"] * 3
    assert len({e["at"] for e in page["events"]}) == 1


async def test_a_trf_player_list_dry_run_previews_the_events(api: Api) -> None:
    head = await created(api)
    status, body = await post_text(api, f"{T}/participants?dry_run=1", PLAYERS)
    assert status == 200 and body["dry_run"] is True
    assert [(e["type"], e["start_no"], e["name"]) for e in body["events"]] == [
        ("ParticipantRegistered", 1, "Rossi, Mario"),
        ("ParticipantRegistered", 2, "Bianchi, Anna"),
        ("ParticipantRegistered", 3, "Verdi, Luca"),
    ]
    assert api.store.head(TID) == head


async def test_trf_errors_are_located_and_nothing_is_registered(api: Api) -> None:
    head = await created(api)
    broken = PLAYERS.replace(b" 2300 ", b" 23x0 ")
    status, body = await post_text(api, f"{T}/participants", broken)
    assert (status, body["code"]) == (422, "trf_invalid")
    # English, and the catalog's keys and values for a page to word it in its language
    assert body["issues"] == [
        {"line": 4, "columns": [49, 52], "where": "001 #2, rating", "found": "23x0",
         "expected": "digits or blanks",
         "where_key": "trf.where.player_rating", "where_params": {"no": 2},
         "found_key": None, "found_params": {},
         "expected_key": "trf.expected.digits", "expected_params": {}}
    ]  # fmt: skip
    assert "line 4, columns 49-52" in body["message"]
    # a missing name is reported together with the parser's own issues
    both = broken.replace(b"Verdi, Luca", b"           ")
    status, body = await post_text(api, f"{T}/participants", both)
    assert status == 422
    assert [(i["line"], i["columns"], i["where"]) for i in body["issues"]] == [
        (4, [49, 52], "001 #2, rating"),
        (5, [15, 47], "001 #3, name"),
    ]
    assert [(i["where_key"], i["expected_key"]) for i in body["issues"]][1] == (
        "trf.where.player_name",
        "trf.expected.name",
    )
    nameless = PLAYERS.replace(b"Verdi, Luca", b"           ")
    status, body = await post_text(api, f"{T}/participants", nameless)
    assert status == 422 and [i["line"] for i in body["issues"]] == [5]
    assert api.store.head(TID) == head


async def test_one_taken_start_number_refuses_the_whole_list(api: Api) -> None:
    head = await created(api)
    await api.post(f"{T}/participants", {"start_no": 3, "name": "Early"})
    status, body = await post_text(api, f"{T}/participants", PLAYERS)
    assert (status, body["code"], body["field"], body["value"]) == (
        422,
        "duplicate_participant",
        "participants[2].start_no",
        3,
    )
    assert api.store.head(TID) == head + 1
    assert [p["name"] for p in (await api.get(T))["participants"]] == ["Early"]


async def test_a_trf_player_list_after_round_1_registers_late_entrants(api: Api) -> None:
    head = await api.start(players=4)
    extra = "\n".join([player(5, "Late, Five"), player(6, "Late, Six")]).encode()
    status, body = await post_text(api, f"{T}/participants", extra)
    assert (status, body["seq"]) == (201, head + 2)  # absent in round 1: no bye recorded
    names = [p["name"] for p in (await api.get(T))["participants"]]
    assert names[-2:] == ["Late, Five", "Late, Six"]
