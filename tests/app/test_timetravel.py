"""Time travel's worker processes: one killed (kill -9, the OOM killer) breaks a process pool
for good; the pool is replaced and the replay answered."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import msgspec
import pytest

from livetb.app.service import TournamentService
from livetb.app.timetravel import TimeTravel, process_pool
from livetb.events.commands import CreateTournament, RegisterParticipant
from livetb.events.sqlite import SqliteStore
from livetb.projections.document import to_json
from livetb.projections.stored import load


async def test_a_killed_worker_process_is_replaced_and_the_replay_answered(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "events.sqlite"
    store = SqliteStore(path)
    service = TournamentService(store)
    service.execute("t", CreateTournament(name="Pool Open", rounds=3, tiebreaks=("PTS", "BH")))
    for no in range(1, 7):
        service.execute("t", RegisterParticipant(start_no=no, name=f"P{no}", rating=2400 - no))
    pool = process_pool(1)
    travel = TimeTravel(store, source=str(path), executor=pool, concurrency=1)
    try:
        assert (await travel.standings("t", 3))[0] == 3  # the worker started and answered
        broken = pool.current
        for pid in list(broken._processes):  # (the pool's own processes)
            os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.2)  # the pool notices: every later submit is refused
        seq, body = await travel.standings("t", 5)
        assert seq == 5
        assert msgspec.json.decode(body) == msgspec.json.decode(
            msgspec.json.encode(to_json(load(store, "t", 5)))
        )
        assert pool.current is not broken and pool.renewed == 1
        assert (await travel.standings("t", 6))[0] == 6  # and it keeps answering
        assert [r.getMessage() for r in caplog.records if "time-travel" in r.getMessage()] == [
            "a time-travel worker process died; its pool was replaced"
        ]
    finally:
        await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
        store.close()
