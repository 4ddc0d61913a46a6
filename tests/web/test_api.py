"""The REST API over a real loopback server: writes, reads, and every error as JSON with the
log left as it was."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

import pytest

from livetb.cli import main
from livetb.web.keys import TOKENS
from tests.web.conftest import TID, Api

T = f"/api/tournaments/{TID}"


async def test_a_result_is_recorded_corrected_and_the_round_closed(api: Api) -> None:
    head = await api.start(players=4)
    assert await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"}) == (
        201,
        {"seq": head + 1},
    )
    status, body = await api.call(
        "PUT", f"{T}/rounds/1/results", {"board": 1, "result": "0-1", "reason": "wrong sheet"}
    )
    assert (status, body) == (200, {"seq": head + 2})
    await api.post(f"{T}/rounds/1/results", {"board": 2, "result": "1/2-1/2"})
    assert (await api.post(f"{T}/rounds/1/close"))[0] == 201
    rnd = await api.get(f"{T}/rounds/1")
    assert rnd["closed"] and [g["result"] for g in rnd["games"]] == ["0-1", "1/2-1/2"]
    top = (await api.standings())["standings"][0]
    assert (top["start_no"], top["values"][0], top["statuses"][0]) == (2, "1.0", "final")


async def test_standings_have_the_cli_shape_with_statuses_and_seq(api: Api) -> None:
    head = await api.start(players=4)
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"})
    got = await api.standings()
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["standings", "--db", api.store.path, "--format", "json"]) == 0
    assert got == json.loads(out.getvalue())
    assert got["seq"] == head + 1 and got["round_in_progress"] == 1
    assert got["standings"][0]["statuses"] == ["provisional", "pending", "predicted"]


async def test_time_travel_by_seq_and_by_round(api: Api) -> None:
    head = await api.start(players=4)
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"})
    await api.post(f"{T}/rounds/1/results", {"board": 2, "result": "0-1"})
    closed = (await api.post(f"{T}/rounds/1/close"))[1]["seq"]
    await api.post(f"{T}/byes", {"start_no": 1, "round": 2})
    before = await api.get(f"{T}/standings?at_seq={head}")
    assert before["seq"] == head and {r["values"][0] for r in before["standings"]} == {"0.0"}
    after_one = await api.get(f"{T}/standings?after_round=1")
    assert after_one["seq"] == closed and after_one["after_round"] == 1
    status, body = await api.call("GET", f"{T}/standings?after_round=2", token=None)
    assert status == 422 and body["path"] == "after_round"


async def test_reads_tournament_round_and_event_pages(api: Api) -> None:
    head = await api.start(players=4)
    await api.post(f"{T}/withdrawals", {"start_no": 4, "from_round": 2})
    info = await api.get(T)
    assert (info["name"], info["paired"], info["seq"]) == ("Club", 1, head + 1)
    assert info["participants"][3]["withdrawn_from"] == 2
    first = await api.get(f"{T}/events?limit=4")
    assert [e["seq"] for e in first["events"]] == [1, 2, 3, 4] and first["next_after"] == 4
    rest = await api.get(f"{T}/events?after=4&limit=100")
    assert rest["events"][-1]["event"]["type"] == "ParticipantWithdrawn"
    assert rest["next_after"] is None
    listed = {"id": TID, "seq": head + 1, "name": "Club", "rounds": 5, "kind": "individual"}
    listed |= {"start_date": None, "paired": 1, "closed": 0}  # round 1 paired, none closed
    (found,) = (await api.get("/api/tournaments"))["tournaments"]
    assert found.pop("updated") and found == listed
    assert (await api.call("GET", "/api/tournaments/nope/standings", token=None))[0] == 404


async def test_lots_and_playoff_and_participant_update(api: Api) -> None:
    t = f"{T}"
    assert (await api.call("PUT", t, {"name": "Club", "rounds": 3}))[0] == 201
    await api.post(f"{t}/participants", {"start_no": 1, "name": "Ann"})
    await api.post(f"{t}/participants", {"start_no": 2, "name": "Bob"})
    status, _ = await api.call("PATCH", f"{t}/participants/2", {"rating": 2100})
    assert status == 200
    assert (await api.post(f"{t}/lots", {"seed": 7}))[0] == 201
    assert (await api.post(f"{t}/playoffs", {"order": [2, 1]}))[0] == 201
    rows = (await api.standings())["standings"]
    assert [r["start_no"] for r in rows] == [2, 1]


async def test_a_retried_write_with_the_same_key_appends_once(api: Api) -> None:
    head = await api.start(players=4)
    key = {"Idempotency-Key": "sheet-17"}
    body = {"board": 1, "result": "1-0"}
    first = await api.post(f"{T}/rounds/1/results", body, headers=key)
    again = await api.post(f"{T}/rounds/1/results", body, headers=key)
    assert first == again == (201, {"seq": head + 1})
    assert api.store.head(TID) == head + 1


async def test_a_key_reused_for_another_board_is_422_and_records_nothing(api: Api) -> None:
    """Board 2 sent under board 1's key is refused, not answered with board 1's seq."""
    head = await api.start(players=4)
    key = {"Idempotency-Key": "K"}
    assert await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"}, headers=key) == (
        201,
        {"seq": head + 1},
    )
    status, body = await api.post(
        f"{T}/rounds/1/results", {"board": 2, "result": "0-1"}, headers=key
    )
    assert (status, body["code"]) == (422, "idempotency_key_reused")
    assert api.store.head(TID) == head + 1
    games = (await api.get(f"{T}/rounds/1"))["games"]
    assert [g["result"] for g in games] == ["1-0", None]


async def test_expected_seq_from_if_match_or_the_body(api: Api) -> None:
    head = await api.start(players=4)
    ok = await api.post(
        f"{T}/rounds/1/results", {"board": 1, "result": "1-0"}, headers={"If-Match": f'"{head}"'}
    )
    assert ok == (201, {"seq": head + 1})
    status, body = await api.post(
        f"{T}/rounds/1/results", {"board": 2, "result": "1-0", "expected_seq": head}
    )
    assert status == 409 and body["code"] == "concurrency_conflict" and body["head"] == head + 1


@pytest.mark.parametrize(
    ("case", "status", "code"),
    [
        ("no token", 401, "not_authenticated"),
        ("bad token", 401, "not_authenticated"),
        ("revoked token", 401, "not_authenticated"),
        ("other tournament", 403, "wrong_tournament"),
        ("stale If-Match", 409, "concurrency_conflict"),
        ("board has a result", 422, "board_has_result"),
        ("unknown field", 422, "invalid_input"),
        ("wrong type", 422, "invalid_input"),
        ("bad result", 422, "invalid_input"),
        ("round out of range", 422, "invalid_input"),
        ("malformed JSON", 400, "invalid_input"),
        ("oversized body", 413, "body_too_large"),
    ],
)
async def test_rejected_writes_leave_the_log_unchanged(
    api: Api, case: str, status: int, code: str
) -> None:
    await api.start(players=4)
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"})
    head = api.store.head(TID)
    path = f"{T}/rounds/1/results"
    body: dict[str, object] | None = {"board": 2, "result": "1-0"}
    kw: dict = {}
    match case:
        case "no token":
            kw["token"] = None
        case "bad token":
            kw["token"] = "ltb_not-a-token"
        case "revoked token":
            assert api.server.app[TOKENS].revoke(api.token)
        case "other tournament":
            kw["token"] = api.server.app[TOKENS].create("t2")
        case "stale If-Match":
            kw["headers"] = {"If-Match": f'"{head - 1}"'}
        case "board has a result":
            body = {"board": 1, "result": "0-1"}
        case "unknown field":
            body = {"board": 2, "result": "1-0", "comment": "x"}
        case "wrong type":
            body = {"board": "2", "result": "1-0"}
        case "bad result":
            body = {"board": 2, "result": "2-0"}
        case "round out of range":
            path = f"{T}/rounds/100/results"
        case "malformed JSON":
            body, kw["data"] = None, b'{"board": 2,'
        case "oversized body":
            body = {"board": 2, "result": "1-0", "reason": "x" * 70_000}
    got_status, got = await api.post(path, body, **kw)
    assert (got_status, got["code"]) == (status, code), got
    assert got["message"]
    assert api.store.head(TID) == head


async def test_field_level_messages_name_the_field(api: Api) -> None:
    await api.start(players=4)
    status, body = await api.post(f"{T}/rounds/1/results", {"board": "2", "result": "1-0"})
    assert status == 422 and body["path"] == "$.board" and "`$.board`" in body["message"]
    status, body = await api.post(f"{T}/rounds/100/results", {"board": 2, "result": "1-0"})
    assert status == 422 and body["path"] == "$.round"
    status, body = await api.post(f"{T}/rounds/1/results", {"board": 9, "result": "1-0"})
    assert (status, body["code"], body["field"]) == (422, "unknown_board", "board")


async def test_a_team_match_over_http(api: Api) -> None:
    t = f"{T}"
    assert (await api.call("PUT", t, {"name": "League", "rounds": 3, "kind": "team"}))[0] == 201
    for no in range(1, 5):
        await api.post(f"{t}/participants", {"start_no": no, "name": f"P{no}"})
    assert (await api.post(f"{t}/teams", {"number": 1, "name": "A", "members": [1, 2]}))[0] == 201
    await api.post(f"{t}/teams", {"number": 2, "name": "B", "members": [3, 4]})
    status, error = await api.post(f"{t}/teams", {"number": 3, "name": "C", "members": [4]})
    assert (status, error["code"], error["field"]) == (422, "invalid_team", "members[0]")
    boards = [{"board": 1, "white": 1, "black": 3}, {"board": 2, "white": 4, "black": 2}]
    await api.post(f"{t}/rounds/1/pairings", {"boards": boards})
    await api.post(f"{t}/rounds/1/results", {"board": 1, "result": "1-0"})
    await api.post(f"{t}/rounds/1/results", {"board": 2, "result": "1/2-1/2"})
    doc = await api.standings()
    assert doc["tiebreaks"] == ["MPTS", "GPTS", "EDE", "EMGSB/C1", "BH:MP/C1"]
    rows = [(r["rank"], r["start_no"], r["name"], r["values"][:2]) for r in doc["standings"]]
    assert rows == [(1, 1, "A", ["2.0", "1.5"]), (2, 2, "B", ["0.0", "0.5"])]


HUGE = "99999999999999999999"  # > 2**64: OverflowError in the store before


@pytest.mark.parametrize(
    ("query", "name"),
    [
        (f"{T}/events?after={HUGE}", "after"),
        (f"{T}/events?limit={HUGE}", "limit"),
        (f"{T}/events?after=%C2%B2", "after"),  # '²' is str.isdigit() but not int()
        (f"{T}/events?after=-1", "after"),
        (f"{T}/standings?at_seq={HUGE}", "at_seq"),
        (f"{T}/standings?after_round={HUGE}", "after_round"),
        (f"{T}/standings?at_seq={'9' * 5000}", "at_seq"),  # beyond int()'s 4300 digits
        (f"/ws?tournament={TID}&since={HUGE}", "since"),
        (f"/ws?tournament={TID}&top=%D9%A3", "top"),  # Arabic-Indic 3: int() takes it
        (f"/ws?tournament={TID}&participants=1,%C2%B2", "participants"),
        ("/api/berger?players=%C2%B2", "players"),
        (f"/api/berger?players={'9' * 5000}", "players"),
    ],
)
async def test_numeric_parameters_are_range_checked(api: Api, query: str, name: str) -> None:
    """Every numeric query parameter is a 422 naming it, never a 500."""
    await api.start(players=4)
    status, body = await api.call("GET", query, token=None)
    assert (status, body["code"], body["path"]) == (422, "invalid_input", name), body


async def test_a_huge_if_match_is_422(api: Api) -> None:
    await api.start(players=4)
    status, body = await api.post(
        f"{T}/rounds/1/results", {"board": 1, "result": "1-0"}, headers={"If-Match": f'"{HUGE}"'}
    )
    assert (status, body["path"]) == (422, "If-Match"), body


@pytest.mark.parametrize(
    "path",
    [
        f"{T}/rounds/%D9%A3",  # Arabic-Indic 3: a route's \d took it, int() read round 3
        f"{T}/participants/%D9%A1",
        f"{T}/rounds/1234567",  # more than six digits
    ],
)
async def test_numeric_path_parameters_are_ascii_and_bounded(api: Api, path: str) -> None:
    await api.start(players=4)
    status, body = await api.call("GET", path, token=None)
    assert (status, body["code"]) == (404, "not_found"), body
