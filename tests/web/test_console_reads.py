"""The console's reads through a real server: Berger tables, token labels and the audit trail."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from livetb.tokens.sqlite import TokenStore
from livetb.tokens.store import actor, fingerprint
from livetb.web.keys import TOKENS
from tests.cli.test_cli import run
from tests.web.conftest import TID, Api

T = f"/api/tournaments/{TID}"


# --- Berger tables ----------------------------------------------------------------------------


async def test_berger_rounds_are_public_and_postable_as_pairings(api: Api) -> None:
    table = await api.get("/api/berger?players=4")
    assert (table["players"], table["double"]) == (4, False)
    assert table["rounds"][1] == {
        "round": 2,
        "boards": [{"board": 1, "white": 4, "black": 3}, {"board": 2, "white": 1, "black": 2}],
        "bye": None,
    }
    # a round's boards are a pairings body as they are
    await api.call("PUT", T, {"name": "RR", "rounds": 3, "system": "roundrobin"})
    for no in range(1, 5):
        await api.post(f"{T}/participants", {"start_no": no, "name": f"P{no}"})
    first = table["rounds"][0]
    status, _ = await api.post(f"{T}/rounds/1/pairings", {"boards": first["boards"]})
    assert status == 201
    games = (await api.get(f"{T}/rounds/1"))["games"]
    assert [(g["white"], g["black"]) for g in games] == [(1, 4), (2, 3)]


async def test_berger_odd_and_double(api: Api) -> None:
    table = await api.get("/api/berger?players=5&double=1")
    assert table["double"] is True and len(table["rounds"]) == 10
    assert table["rounds"][0] == {
        "round": 1,
        "boards": [{"board": 1, "white": 2, "black": 5}, {"board": 2, "white": 3, "black": 4}],
        "bye": 1,
    }
    assert table["rounds"][5]["boards"][0] == {"board": 1, "white": 5, "black": 2}


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("players=2", "players"),
        ("players=25", "players"),
        ("players=x", "players"),
        ("", "players"),
        ("players=6&double=yes", "double"),
    ],
)
async def test_berger_parameters_out_of_range_are_422_naming_them(
    api: Api, query: str, path: str
) -> None:
    status, body = await api.call("GET", f"/api/berger?{query}", token=None)
    assert (status, body["code"], body["path"]) == (422, "invalid_input", path)
    assert body["message"].startswith(path)


# --- token labels -----------------------------------------------------------------------------


def test_token_create_stores_the_label(tmp_path: Path) -> None:
    db = str(tmp_path / "live.sqlite")
    code, out, _ = run("token", "create", "--db", db, "--tournament", "t-1", "--label", "Anna")
    token = out.strip()
    assert code == 0 and token.startswith("ltb_")
    with TokenStore(db) as tokens:
        unlabelled = tokens.create("t-1")
        assert tokens.labels("t-1") == {
            actor(fingerprint(token)): "Anna",
            actor(fingerprint(unlabelled)): None,
        }
        assert tokens.labels("t-2") == {}


def test_a_token_table_from_before_labels_is_migrated_on_open(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute(
            "CREATE TABLE tokens (sha256 TEXT PRIMARY KEY NOT NULL, tournament_id TEXT NOT NULL,"
            " created_at TEXT NOT NULL, revoked_at TEXT)"
        )
        conn.execute("INSERT INTO tokens VALUES ('ab' || printf('%062d', 0), 't-1', 'x', NULL)")
    conn.close()
    with TokenStore(db) as tokens:
        labelled = tokens.create("t-1", label="Bruno")
        assert tokens.labels("t-1") == {
            "arbiter:ab000000": None,
            actor(fingerprint(labelled)): "Bruno",
        }


# --- the audit trail --------------------------------------------------------------------------


async def audit(api: Api, query: str = "", token: str | None = "default") -> tuple[int, dict]:
    return await api.call("GET", f"{T}/audit{query}", token=token)


async def played(api: Api) -> tuple[int, str]:
    """Round 1 of 8 players: board 1 recorded 1-0 by the default token, then corrected to 0-1
    by Marta's token; board 2 a draw; 5 withdrawn from round 2. Returns (head, Marta's token)."""
    await api.start(players=8)
    marta = api.server.app[TOKENS].create(TID, label="Marta")
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"})
    fix = {"board": 1, "result": "0-1", "reason": "sheet", "expected": "1-0"}
    assert (await api.call("PUT", f"{T}/rounds/1/results", fix, token=marta))[0] == 200
    await api.post(f"{T}/rounds/1/results", {"board": 2, "result": "1/2-1/2"})
    status, body = await api.post(f"{T}/withdrawals", {"start_no": 5, "from_round": 2})
    assert status == 201, body
    return body["seq"], marta


async def test_the_audit_trail_names_who_and_what_a_correction_replaced(api: Api) -> None:
    head, marta = await played(api)
    status, page = await audit(api)
    assert status == 200 and page["next_after"] is None
    entries = page["entries"]
    assert [e["seq"] for e in entries] == list(range(1, head + 1))  # oldest first
    me = actor(fingerprint(api.token))
    fix = entries[-3]
    assert fix["event"] == {"type": "ResultCorrected", "v": 1, "round": 1, "board": 1,
                            "result": "0-1", "reason": "sheet"}  # fmt: skip
    assert (fix["before"], fix["label"]) == ("1-0", "Marta")
    assert fix["actor"] == actor(fingerprint(marta)) != me and fix["at"].endswith("Z")
    recorded = entries[-4]
    assert (recorded["event"]["type"], recorded["actor"], recorded["label"]) == (
        "ResultRecorded",
        me,
        None,
    )
    assert recorded["before"] is None


async def test_the_audit_trail_filters_by_round_and_participant(api: Api) -> None:
    head, _ = await played(api)
    _, by_round = await audit(api, "?round=1")
    kinds = [(e["event"]["type"], e["event"].get("board")) for e in by_round["entries"]]
    assert kinds == [("RoundPaired", None), ("ResultRecorded", 1), ("ResultCorrected", 1),
                     ("ResultRecorded", 2)]  # fmt: skip
    _, round_two = await audit(api, "?round=2")
    assert [e["event"]["type"] for e in round_two["entries"]] == ["ParticipantWithdrawn"]
    # player 2 sat at board 1 (1-2): registration, the pairing, board 1's two results
    _, two = await audit(api, "?participant=2")
    assert [e["event"]["type"] for e in two["entries"]] == [
        "ParticipantRegistered",
        "RoundPaired",
        "ResultRecorded",
        "ResultCorrected",
    ]
    assert two["entries"][0]["event"]["start_no"] == 2
    _, five = await audit(api, "?participant=5&round=2")
    assert [(e["seq"], e["event"]["type"]) for e in five["entries"]] == [
        (head, "ParticipantWithdrawn")
    ]
    _, nobody = await audit(api, "?participant=99")
    assert nobody == {"entries": [], "next_after": None}


async def test_the_audit_trail_pages_like_the_events(api: Api) -> None:
    head, _ = await played(api)
    _, first = await audit(api, "?participant=3&limit=2")
    assert [e["event"]["type"] for e in first["entries"]] == [
        "ParticipantRegistered",
        "RoundPaired",
    ]
    assert first["next_after"] == first["entries"][-1]["seq"]
    _, rest = await audit(api, f"?participant=3&limit=2&after={first['next_after']}")
    assert [e["event"]["type"] for e in rest["entries"]] == ["ResultRecorded"]
    assert rest["next_after"] is None
    assert rest["entries"][0]["event"]["board"] == 2
    _, tail = await audit(api, f"?after={head - 1}")
    assert [e["seq"] for e in tail["entries"]] == [head] and tail["next_after"] is None


@pytest.mark.parametrize(
    ("token", "status", "code"),
    [(None, 401, "not_authenticated"), ("ltb_nope", 401, "not_authenticated")],
)
async def test_the_audit_trail_needs_the_tournaments_token(
    api: Api, token: str | None, status: int, code: str
) -> None:
    await played(api)
    got, body = await audit(api, token=token)
    assert (got, body["code"]) == (status, code)


async def test_the_audit_trail_of_another_tournament_or_none(api: Api) -> None:
    await played(api)
    other = api.server.app[TOKENS].create("t2")
    status, body = await audit(api, token=other)
    assert (status, body["code"]) == (403, "wrong_tournament")
    status, body = await api.call("GET", "/api/tournaments/t2/audit", token=other)
    assert (status, body["code"]) == (404, "unknown_tournament")


@pytest.mark.parametrize("query", ["?round=0", "?participant=x", "?limit=0", "?after=-1"])
async def test_audit_parameters_are_checked(api: Api, query: str) -> None:
    await played(api)
    name = query[1:].partition("=")[0]
    status, body = await audit(api, query)
    assert (status, body["code"], body["path"]) == (422, "invalid_input", name)
