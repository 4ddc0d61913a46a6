"""`GET /api/tournaments` reads the logs, never a projection it does not hold: it builds none."""

from __future__ import annotations

from pathlib import Path

import pytest

from livetb.events.schema import ParticipantRegistered, TournamentCreated
from livetb.events.sqlite import SqliteStore
from livetb.events.store import EventStore, MemoryStore
from livetb.web.api.reads import public_creation
from livetb.web.keys import SERVICE, TOKENS
from tests.web.conftest import Api, ApiFactory

PRIVATE = {"t-2", "t-5"}


async def test_the_listing_loads_no_projection_and_hides_private_ones(
    api: Api, make_api: ApiFactory
) -> None:
    for n in range(1, 7):
        tid = f"t-{n}"
        token = api.server.app[TOKENS].create(tid)
        body = {"name": f"Open {n}", "rounds": 3, "private": tid in PRIVATE}
        status, _ = await api.call("PUT", f"/api/tournaments/{tid}", body, token=token)
        assert status == 201
        status, _ = await api.post(
            f"/api/tournaments/{tid}/participants", {"start_no": 1, "name": "Ann"}, token=token
        )
        assert status == 201
    fresh = await make_api()  # the same event store, nothing loaded yet
    listing = (await fresh.get("/api/tournaments"))["tournaments"]
    public = sorted({f"t-{n}" for n in range(1, 7)} - PRIVATE)
    fields = {"rounds": 3, "kind": "individual", "start_date": None, "paired": 0, "closed": 0}
    assert [{k: v for k, v in t.items() if k != "updated"} for t in listing] == [
        {"id": tid, "seq": 2, "name": f"Open {tid[2:]}", **fields} for tid in public
    ]
    assert all(t["updated"] for t in listing)  # when the head was recorded
    assert fresh.server.app[SERVICE].projections == {}


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> EventStore:
    if request.param == "memory":
        return MemoryStore()
    return SqliteStore(tmp_path / "s.sqlite")


def test_is_public_reads_the_created_event(store: EventStore) -> None:
    store.append("open", 0, [TournamentCreated(name="Open", rounds=3)], actor="a")
    store.append("closed", 0, [TournamentCreated(name="C", rounds=3, private=True)], actor="a")
    for tid in ("open", "closed"):
        head = store.head(tid)
        store.append(tid, head, [ParticipantRegistered(start_no=1, name="Ann")], actor="a")
    assert public_creation(store, "open") is not None
    assert public_creation(store, "closed") is None
    assert public_creation(store, "none") is None  # no events: nothing to list
    store.close()
