"""One unreadable log is that tournament's problem only: the server serves the others."""

from __future__ import annotations

import websockets

from livetb.events.schema import TournamentCreated
from livetb.events.sqlite import SqliteStore
from livetb.web import Config
from tests.web.conftest import TID, Api, ApiFactory, recv


async def test_the_server_serves_the_rest_and_names_the_broken_one(
    api: Api, make_api: ApiFactory, config: Config
) -> None:
    await api.start(players=4)
    with SqliteStore(config.db_path) as store:  # written before import checked tie-breaks
        created = TournamentCreated(name="Poisoned", rounds=3, tiebreaks=("PTS", "NOPE"))
        store.append("t-poisoned", 0, [created], actor="import")
    fresh = await make_api()  # a restart on that store
    status, body = await fresh.call("GET", "/api/tournaments/t-poisoned/standings", token=None)
    assert (status, body["code"], body["tournament_id"]) == (
        500,
        "tournament_unreadable",
        "t-poisoned",
    )
    assert "unknown tie-break 'NOPE'" in body["message"]
    assert [r["start_no"] for r in (await fresh.standings())["standings"]] == [1, 2, 3, 4]
    listing = (await fresh.get("/api/tournaments"))["tournaments"]
    assert {t["id"] for t in listing} == {TID, "t-poisoned"}
    async with websockets.connect(f"{fresh.ws_base}/ws?tournament={TID}") as ws:
        assert (await recv(ws))["type"] == "snapshot"
        status, _ = await fresh.post(
            f"/api/tournaments/{TID}/rounds/1/results", {"board": 1, "result": "1-0"}
        )
        assert status == 201
        assert (await recv(ws))["type"] == "delta"


async def test_the_list_shows_every_tournament_when_one_log_cannot_be_read_whole(
    api: Api, make_api: ApiFactory, config: Config
) -> None:
    """A log with an event no reader knows (written by hand, or by a newer livetb): the list
    still shows it, and the others with their rounds."""
    import sqlite3

    await api.start(players=4)
    with SqliteStore(config.db_path) as store:
        store.append("t-odd", 0, [TournamentCreated(name="Odd", rounds=3)], actor="import")
    with sqlite3.connect(config.db_path) as db:
        db.execute(
            "INSERT INTO events (tournament_id, seq, at, actor, type, data) "
            "VALUES (?, 2, ?, ?, ?, ?)",
            ("t-odd", "2026-01-01T00:00:00+00:00", "hand", "Unheard", '{"type": "Unheard"}'),
        )
    fresh = await make_api()
    listing = {t["id"]: t for t in (await fresh.get("/api/tournaments"))["tournaments"]}
    assert set(listing) == {TID, "t-odd"}
    assert listing[TID]["paired"] == 1 and listing["t-odd"]["paired"] == 0
