"""Campaign: schemathesis against a running server's own `/api/openapi.json`.

Every documented operation gets generated requests (paths, queries, headers, bodies), sent
with a valid arbiter token, most of them aimed at the tournament that token writes: no answer
is a 5xx, no traceback reaches the server's log, and a request answered with an error leaves
the event log exactly as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

import aiohttp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import Case
from schemathesis.core.result import Ok
from schemathesis.openapi import from_dict

from tests.campaign.budget import size
from tests.campaign.server import Server, serving, tournament_steps

TID = "fuzz"
CASES = size(ci=10, local=400)  # per operation


def events(db: Path | str) -> int:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])


async def prepared(server: Server, token: str) -> dict[str, object]:
    """A tournament with round 1 paired and half its results (the rest for the fuzzer), and
    the server's OpenAPI document."""
    headers = {"Authorization": f"Bearer {token}"}
    steps = tournament_steps(TID, 8, 2)[:15]
    async with aiohttp.ClientSession() as session:
        for method, path, body in steps:
            async with session.request(method, server.base + path, json=body, headers=headers) as r:
                assert r.status in (200, 201), await r.text()
        async with session.get(f"{server.base}/api/openapi.json") as r:
            return await r.json()  # type: ignore[no-any-return]


def test_generated_requests_never_5xx_and_errors_change_nothing(tmp_path: Path) -> None:
    with serving(tmp_path / "fuzz.sqlite") as server:
        token = server.token(TID)
        asyncio.run(server.start())
        schema = from_dict(asyncio.run(prepared(server, token)))
        tally = {"cases": 0, "errors": 0}
        operations = []
        for result in schema.get_all_operations():
            assert isinstance(result, Ok), result.err()
            operations.append(result.ok())
        for operation in operations:

            @settings(
                max_examples=CASES,
                deadline=None,
                derandomize=True,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            @given(case=operation.as_strategy(), ours=st.integers(0, 3))
            def call(case: Case, ours: int) -> None:
                if "tid" in case.path_parameters and ours:  # 3 in 4 at the token's tournament
                    case.path_parameters["tid"] = TID
                before = events(server.db)
                resp = case.call(
                    base_url=server.base, headers={"Authorization": f"Bearer {token}"}, timeout=30
                )
                tally["cases"] += 1
                assert resp.status_code < 500, (case.as_curl_command(), resp.text[:500])
                if resp.status_code >= 400:
                    tally["errors"] += 1
                    assert events(server.db) == before, (case.as_curl_command(), resp.text[:500])

            call()
        server.stop()
        tracebacks = server.tracebacks()
    print(
        f"\nAPI fuzz: {tally['cases']} generated requests over {len(operations)} "
        f"operations, {tally['errors']} answered with an error and changed nothing, 0 5xx, "
        f"{tracebacks} tracebacks"
    )
    assert tracebacks == 0
