"""An organiser token over HTTP: it creates tournaments, each answer carrying the new
tournament's arbiter token, and writes to none."""

from __future__ import annotations

from typing import Any

from livetb.tokens.store import fingerprint
from livetb.web.keys import TOKENS
from tests.web.conftest import TID, Api

CLUB = {"name": "Circolo Scacchi Rovigo, Open A", "rounds": 7, "start_date": "2026-04-18"}


def organiser(api: Api) -> str:
    return str(api.server.app[TOKENS].create_organiser(label="Club office"))


async def test_an_organiser_creates_and_is_handed_the_arbiter_token(api: Api) -> None:
    org = organiser(api)
    status, body = await api.call("PUT", "/api/tournaments/rovigo-a", CLUB, token=org)
    assert status == 201 and body["seq"] == 1
    arbiter = body["token"]
    assert arbiter.startswith("ltb_") and arbiter != org
    # The token handed back writes to the new tournament, and is stored as its hash only.
    person = {"start_no": 1, "name": "Rizzo, Marco", "rating": 1984}
    status, body = await api.post("/api/tournaments/rovigo-a/participants", person, token=arbiter)
    assert (status, body) == (201, {"seq": 2})
    audit = await api.call("GET", "/api/tournaments/rovigo-a/audit", token=arbiter)
    actors = [entry["actor"] for entry in audit[1]["entries"]]
    assert actors == [f"organiser:{fingerprint(org)[:8]}", f"arbiter:{fingerprint(arbiter)[:8]}"]
    info = await api.get("/api/tournaments/rovigo-a")
    assert info["name"] == CLUB["name"] and info["rounds"] == 7


async def test_each_creation_hands_back_its_own_token(api: Api) -> None:
    org = organiser(api)
    _, first = await api.call("PUT", "/api/tournaments/a", CLUB, token=org)
    _, second = await api.call("PUT", "/api/tournaments/b", CLUB, token=org)
    tokens = api.server.app[TOKENS]
    assert (tokens.scope(first["token"]), tokens.scope(second["token"])) == ("a", "b")


async def test_an_organiser_token_writes_to_no_existing_tournament(api: Api) -> None:
    await api.start()  # t1 by its arbiter, round 1 paired
    org = organiser(api)
    before = (await api.standings())["seq"]
    result = {"board": 1, "result": "1-0"}
    status, body = await api.post(f"/api/tournaments/{TID}/rounds/1/results", result, token=org)
    assert status == 403 and body["code"] == "wrong_tournament"
    assert "organiser token only creates tournaments" in body["message"]
    # Nor may it create over one: the id is taken, and no arbiter token is made for it.
    made = len(api.server.app[TOKENS].labels(TID))
    status, body = await api.call("PUT", f"/api/tournaments/{TID}", CLUB, token=org)
    assert status == 422 and body["code"] == "tournament_exists"
    assert len(api.server.app[TOKENS].labels(TID)) == made
    assert (await api.standings())["seq"] == before


async def test_another_tournaments_arbiter_token_cannot_create(api: Api) -> None:
    status, body = await api.call("PUT", "/api/tournaments/other", CLUB)  # t1's token
    assert status == 403 and body["code"] == "wrong_tournament"
    assert (await api.call("GET", "/api/tournaments/other", token=None))[0] == 404


async def test_an_arbiter_token_made_for_the_id_creates_without_a_token_back(api: Api) -> None:
    status, body = await api.call("PUT", f"/api/tournaments/{TID}", CLUB)
    assert (status, body) == (201, {"seq": 1})


async def test_a_dry_run_of_a_creation_makes_no_token(api: Api) -> None:
    org = organiser(api)
    status, body = await api.call("PUT", "/api/tournaments/new?dry_run=1", CLUB, token=org)
    assert status == 200 and body["dry_run"] is True and "token" not in body
    assert api.server.app[TOKENS].labels("new") == {}
    assert (await api.call("GET", "/api/tournaments/new", token=None))[0] == 404


async def test_a_revoked_organiser_token_creates_nothing(api: Api) -> None:
    org = organiser(api)
    api.server.app[TOKENS].revoke(org)
    status, body = await api.call("PUT", "/api/tournaments/new", CLUB, token=org)
    assert status == 401 and body["code"] == "not_authenticated"


async def test_the_openapi_document_names_both_ways_to_create(api: Api) -> None:
    doc: Any = await api.get("/api/openapi.json")
    create = doc["paths"]["/api/tournaments/{tid}"]["put"]
    assert create["security"] == [{"organiser": []}, {"arbiter": []}]
    answer = create["responses"]["201"]["content"]["application/json"]["schema"]["$ref"]
    created = doc["components"]["schemas"][answer.rsplit("/", 1)[1]]
    assert set(created["properties"]) == {"seq", "token"} and created["required"] == ["seq"]
    assert "organiser" in doc["components"]["securitySchemes"]
