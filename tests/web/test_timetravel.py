"""`?at_seq=` and `?after_round=` replay off the event loop, at most `replays` at once, and
answer a position asked twice from the cache."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterable
from typing import Any

import msgspec
import pytest

from livetb.events.schema import Recorded
from livetb.projections.document import to_json
from livetb.projections.standings import StandingsProjection
from livetb.projections.stored import load
from livetb.web.keys import TIMETRAVEL
from tests.web.conftest import TID, Api, ApiFactory

T = f"/api/tournaments/{TID}"


class Replays:
    """Wraps StandingsProjection.rebuild: which thread folds, and how many fold at once."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.threads: list[int] = []
        self.running = self.most = 0
        self._lock = threading.Lock()
        rebuild = StandingsProjection.rebuild

        def counted(records: Iterable[Recorded]) -> StandingsProjection:
            with self._lock:
                self.threads.append(threading.get_ident())
                self.running += 1
                self.most = max(self.most, self.running)
            try:
                time.sleep(0.05)  # a long replay: the others must overlap it or wait
                return rebuild(records)
            finally:
                with self._lock:
                    self.running -= 1

        monkeypatch.setattr(StandingsProjection, "rebuild", staticmethod(counted))


async def get(api: Api, query: str) -> tuple[int, Any]:
    return await api.call("GET", f"{T}/standings?{query}", token=None)


async def played(api: Api) -> int:
    """Round 1 of 8 players played and closed; the live projection loaded. The head."""
    head = await api.start(players=8)
    for board in range(1, 5):
        await api.post(f"{T}/rounds/1/results", {"board": board, "result": "1-0"})
    await api.post(f"{T}/rounds/1/close")
    await api.standings()  # the live projection is loaded: only replays count below
    return head


async def test_replays_run_off_the_loop_two_at_a_time_and_are_cached(
    make_api: ApiFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In threads here, to see them; the server's default is processes (below)."""
    api = await make_api(replay_processes=False)
    head = await played(api)
    replays = Replays(monkeypatch)
    wanted = [*range(head - 6, head + 6), head - 1, head - 1, head - 1]  # some asked twice
    beat = asyncio.get_running_loop().time()
    answers = await asyncio.gather(*(get(api, f"at_seq={seq}") for seq in wanted))
    assert asyncio.get_running_loop().time() - beat >= 0.05 * 6  # 12 distinct, 2 at a time
    assert all(status == 200 for status, _ in answers)
    assert threading.get_ident() not in replays.threads  # never on the loop's thread
    assert replays.most == 2  # the default `replays`: bounded, and they do run in parallel
    assert len(replays.threads) == len(set(wanted))  # a position asked twice: one replay
    assert (await get(api, f"at_seq={head - 1}"))[0] == 200
    status, closed = await get(api, "after_round=1")
    assert status == 200 and closed["seq"] == head + 5
    assert len(replays.threads) == len(set(wanted))  # cached, both of them
    status, body = await get(api, "after_round=2")
    assert (status, body["path"]) == (422, "after_round")
    for seq, (_, body) in zip(wanted, answers, strict=True):  # the same as folding on the spot
        expected = to_json(load(api.store, TID, seq))
        assert body == msgspec.json.decode(msgspec.json.encode(expected)), seq


async def test_the_servers_replays_run_in_worker_processes(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    head = await played(api)
    replays = Replays(monkeypatch)  # counts folds in this process only
    wanted = range(1, head + 6)
    answers = await asyncio.gather(*(get(api, f"at_seq={seq}") for seq in wanted))
    assert replays.threads == []  # none folded in the server's process
    travel = api.server.app[TIMETRAVEL]
    assert travel.most_running == 2 and travel.running == 0
    monkeypatch.undo()
    for seq, (status, body) in zip(wanted, answers, strict=True):
        expected = to_json(load(api.store, TID, seq))
        assert status == 200 and body == msgspec.json.decode(msgspec.json.encode(expected))
