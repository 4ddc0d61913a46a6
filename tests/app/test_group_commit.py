"""Group commit: writes decided in arrival order, made durable together, each acknowledged only
once its group is in the log (and applied, and published)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from livetb.app.group_commit import GroupCommit
from livetb.app.service import TournamentService
from livetb.errors import (
    BoardHasResult,
    ConcurrencyConflict,
    IdempotencyKeyReused,
    LivetbError,
    StoreUnavailable,
)
from livetb.events.commands import (
    CloseRound,
    CreateTournament,
    PairRound,
    RecordResult,
    RegisterParticipant,
)
from livetb.events.schema import Board, GameResult, Recorded, ResultRecorded
from livetb.events.sqlite import SqliteStore
from livetb.events.store import Append
from livetb.projections.standings import Delta, StandingsProjection
from tests.fakes import Undelayed

PLAYERS = 16


class Published(Undelayed):
    """A feed that keeps what it is given, checking it comes in log order."""

    def __init__(self) -> None:
        self.seqs: list[int] = []

    def publish(self, tournament_id: str, delta: Delta, projection: StandingsProjection) -> None:
        assert not self.seqs or delta.seq == self.seqs[-1] + 1
        self.seqs.append(delta.seq)


class CountingStore(SqliteStore):
    """The SQLite store, counting its commits."""

    groups: list[int]

    def append_group(self, appends: Sequence[Append]) -> list[int | LivetbError]:
        self.groups.append(len(appends))
        return super().append_group(appends)


@pytest.fixture
def service(tmp_path: Path) -> TournamentService:
    store = CountingStore(tmp_path / "events.sqlite")
    store.groups = []
    service = TournamentService(store, snapshot_every=7, feed=Published())
    service.execute("t1", CreateTournament(name="Open", rounds=2, tiebreaks=("PTS", "BH", "DE")))
    for no in range(1, PLAYERS + 1):
        service.execute("t1", RegisterParticipant(start_no=no, name=f"P{no}", rating=2000 + no))
    boards = tuple(Board(b, 2 * b - 1, 2 * b) for b in range(1, PLAYERS // 2 + 1))
    service.execute("t1", PairRound(round=1, boards=boards))
    return service


def log_of(service: TournamentService) -> list[Recorded]:
    return list(service.store.read("t1"))


async def test_concurrent_results_are_committed_in_groups_and_acknowledged_durably(
    service: TournamentService,
) -> None:
    writes = GroupCommit(service)
    head = service.store.head("t1")
    results: tuple[GameResult, ...] = ("1-0", "0-1", "1/2-1/2")
    heads = await asyncio.gather(
        *(
            writes.execute("t1", RecordResult(round=1, board=b, result=results[b % 3]))
            for b in range(1, PLAYERS // 2 + 1)
        )
    )
    # In arrival order, one seq each; fewer commits than writes.
    assert heads == list(range(head + 1, head + PLAYERS // 2 + 1))
    store = service.store
    assert isinstance(store, CountingStore)
    assert sum(store.groups) == PLAYERS // 2 and len(store.groups) < PLAYERS // 2
    # Applied and published before the acknowledgement; equal to the log rebuilt.
    projection = service.projections["t1"]
    assert isinstance(service.feed, Published)
    assert projection.seq == heads[-1] == service.feed.seqs[-1]
    assert projection.standings() == StandingsProjection.rebuild(log_of(service)).standings()
    # A snapshot was taken on the way (every 7 events), saved once the writers were answered.
    await writes.drain()
    snap = store.latest_snapshot("t1")
    assert snap is not None and snap[0] > head


async def test_a_rejected_write_fails_alone_and_a_retry_in_flight_gets_the_first_head(
    service: TournamentService,
) -> None:
    writes = GroupCommit(service)
    head = service.store.head("t1")
    outcomes = await asyncio.gather(
        writes.execute("t1", RecordResult(round=1, board=1, result="1-0"), idempotency_key="a"),
        writes.execute("t1", RecordResult(round=1, board=1, result="0-1")),  # staged: has one
        writes.execute("t1", RecordResult(round=1, board=1, result="1-0"), idempotency_key="a"),
        writes.execute("t1", RecordResult(round=1, board=2, result="0-1"), expected_seq=head),
        writes.execute("t1", RecordResult(round=1, board=3, result="0-1")),
        return_exceptions=True,
    )
    assert outcomes[0] == outcomes[2] == head + 1
    assert isinstance(outcomes[1], BoardHasResult)
    assert isinstance(outcomes[3], ConcurrencyConflict)  # the first write moved the head
    assert outcomes[4] == head + 2
    assert service.store.head("t1") == head + 2


async def test_writes_that_lose_a_race_to_another_node_are_decided_again_unless_they_named_a_seq(
    service: TournamentService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another node appends between the decision and the commit: the group is refused by the
    store; the writes that named no sequence are decided again on the log (no 409 they did
    not ask for), the one that named a sequence gets its 409, a rejection stays one."""
    writes = GroupCommit(service)
    other = SqliteStore(tmp_path / "events.sqlite")
    head = other.head("t1")
    commit = service.store.append_group

    def raced(appends: list[Append]) -> list[int | LivetbError]:
        if other.head("t1") == head:  # the first group: the other node wins the race
            other.append("t1", head, [ResultRecorded(round=1, board=3, result="0-1")], actor="b")
        return commit(appends)

    monkeypatch.setattr(service.store, "append_group", raced)
    outcomes = await asyncio.gather(
        writes.execute("t1", RecordResult(round=1, board=1, result="1-0")),
        writes.execute("t1", RecordResult(round=1, board=2, result="0-1"), expected_seq=head + 1),
        writes.execute("t1", RecordResult(round=1, board=3, result="1-0")),  # board 3: taken
        writes.execute("t1", RecordResult(round=1, board=4, result="1/2-1/2")),
        return_exceptions=True,
    )
    assert {outcomes[0], outcomes[3]} == {head + 2, head + 3}  # retries wait a random while
    assert isinstance(outcomes[1], ConcurrencyConflict)
    assert isinstance(outcomes[2], BoardHasResult)  # decided again: the other node's result
    assert writes.retried >= 1  # board 1's, at least (the others may be decided after the race)
    games = service.projections["t1"].state.rounds[1].games
    assert [games[b].result for b in (1, 2, 3, 4)] == ["1-0", None, "0-1", "1/2-1/2"]
    projection = service.projections["t1"]
    assert projection.standings() == StandingsProjection.rebuild(log_of(service)).standings()
    other.close()


async def test_creating_a_tournament_and_closing_go_through_after_the_queue_drains(
    tmp_path: Path,
) -> None:
    service = TournamentService(SqliteStore(tmp_path / "events.sqlite"))
    writes = GroupCommit(service)
    created = CreateTournament(name="Open", rounds=1, tiebreaks=("PTS",))
    assert await writes.execute("t2", created) == 1
    await asyncio.gather(
        *(writes.execute("t2", RegisterParticipant(start_no=no, name=f"P{no}")) for no in (1, 2))
    )
    await writes.execute("t2", PairRound(round=1, boards=(Board(1, 1, 2),)))
    done = await asyncio.gather(
        writes.execute("t2", RecordResult(round=1, board=1, result="1-0")),
        writes.execute("t2", CloseRound(round=1)),
    )
    assert list(done) == [5, 6]
    await writes.drain()
    assert service.projections["t2"].state.closed == 1


async def test_a_key_is_bound_to_its_command_through_the_group_commit(
    service: TournamentService,
) -> None:
    """As `TournamentService.execute` binds it: a retry of the command gets its first head
    (in flight or recalled), another command under the same key is 422 and appends nothing."""
    writes = GroupCommit(service)
    head = service.store.head("t1")
    first = RecordResult(round=1, board=1, result="1-0")
    outcomes = await asyncio.gather(
        writes.execute("t1", first, idempotency_key="k"),
        writes.execute("t1", RecordResult(round=1, board=2, result="1-0"), idempotency_key="k"),
        return_exceptions=True,
    )
    assert outcomes[0] == head + 1
    assert isinstance(outcomes[1], IdempotencyKeyReused)
    assert await writes.execute("t1", first, idempotency_key="k") == head + 1
    with pytest.raises(IdempotencyKeyReused):
        await writes.execute(
            "t1", RecordResult(round=1, board=1, result="0-1"), idempotency_key="k"
        )
    recalled = service.store.recall("t1", "k")
    assert recalled is not None and recalled.fingerprint.startswith("command:")
    # The plain path (what the service alone does) agrees with the group commit's binding.
    assert service.execute("t1", first, idempotency_key="k") == (head + 1, [])
    assert service.store.head("t1") == head + 1


async def test_a_dry_run_decides_after_the_writes_in_flight_and_appends_nothing(
    service: TournamentService,
) -> None:
    writes = GroupCommit(service)
    store = service.store
    assert isinstance(store, CountingStore)
    head = store.head("t1")
    write = asyncio.ensure_future(
        writes.execute("t1", RecordResult(round=1, board=1, result="1-0"))
    )
    await asyncio.sleep(0)  # decided, not yet committed
    with pytest.raises(BoardHasResult):  # decided on the state the write in flight leaves
        await writes.rehearse("t1", RecordResult(round=1, board=1, result="0-1"))
    assert await write == head + 1
    groups = list(store.groups)
    events = await writes.rehearse(
        "t1", RecordResult(round=1, board=2, result="0-1"), expected_seq=head + 1
    )
    assert [type(e) for e in events] == [ResultRecorded]
    with pytest.raises(ConcurrencyConflict):
        await writes.rehearse("t1", RecordResult(round=1, board=2, result="0-1"), expected_seq=head)
    assert store.groups == groups and store.head("t1") == head + 1  # nothing appended
    assert await writes.execute("t1", RecordResult(round=1, board=2, result="0-1")) == head + 2


async def test_a_write_waits_behind_one_that_returned_early_until_the_one_before_is_decided(
    service: TournamentService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slow to stage (its read takes a while), B a retry answered at once from the store, C
    after B: C is still decided after A (arrival order), not beside it."""
    writes = GroupCommit(service)
    retry = RecordResult(round=1, board=2, result="1-0")
    head = await writes.execute("t1", retry, idempotency_key="b")
    await writes.drain()
    current, calls = service.current_or_new, []

    async def slow_first(tid: str) -> StandingsProjection:
        calls.append(tid)
        if len(calls) == 1:
            await asyncio.sleep(0.05)
        return await current(tid)

    monkeypatch.setattr(service, "current_or_new", slow_first)
    a = asyncio.ensure_future(writes.execute("t1", RecordResult(round=1, board=1, result="1-0")))
    await asyncio.sleep(0)
    assert await writes.execute("t1", retry, idempotency_key="b") == head  # B, at once
    c = asyncio.ensure_future(writes.execute("t1", RecordResult(round=1, board=1, result="0-1")))
    assert await a == head + 1
    with pytest.raises(BoardHasResult):
        await c


async def test_a_group_not_read_back_after_its_commit_is_applied_once_the_store_answers(
    service: TournamentService, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The connection drops between the commit and the read that applies it: the writer is
    acknowledged (its write is in the log), and its viewers get it once the store answers
    again, without another event, after one log line."""
    writes = GroupCommit(service)
    await service.current("t1")
    read, commit, failures = service.store.read, service.store.append_group, [-1]

    def committed(appends: list[Append]) -> list[int | LivetbError]:
        failures[0] = 0  # the reads fail from now on, three times
        return commit(appends)

    def failing(tid: str, after: int = 0) -> Iterator[Recorded]:
        if 0 <= failures[0] < 3:
            failures[0] += 1
            raise StoreUnavailable("events.sqlite", "disk I/O error")
        return read(tid, after)

    monkeypatch.setattr(service.store, "append_group", committed)
    monkeypatch.setattr(service.store, "read", failing)
    head = await writes.execute("t1", RecordResult(round=1, board=1, result="1-0"))
    assert service.store.head("t1") == head
    feed = service.feed
    assert isinstance(feed, Published)
    for _ in range(200):
        if feed.seqs[-1] == head:
            break
        await asyncio.sleep(0.01)
    assert feed.seqs[-1] == head and failures[0] == 3
    assert [r.getMessage() for r in caplog.records if r.name == "livetb.app.group_commit"] == [
        "applying tournament t1 after a group commit: events.sqlite: disk I/O error; retrying"
    ]


async def test_writes_decided_behind_a_failed_commit_are_answered_while_the_store_is_away(
    service: TournamentService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store goes away during a commit: the writes decided on the state it would have left
    are answered too (503: the store is unavailable), never left waiting."""
    writes = GroupCommit(service)
    store = service.store
    head = store.head("t1")
    commit, head_of = store.append_group, store.head

    def away(*_: object) -> Any:
        raise StoreUnavailable("events.sqlite", "disk I/O error")

    def slow_then_away(appends: list[Append]) -> list[int | LivetbError]:
        time.sleep(0.05)  # the next writes are decided meanwhile, on this group's state
        away()
        return []

    monkeypatch.setattr(store, "append_group", slow_then_away)
    monkeypatch.setattr(store, "head", away)
    first = asyncio.ensure_future(
        writes.execute("t1", RecordResult(round=1, board=1, result="1-0"))
    )
    await asyncio.sleep(0.01)
    behind = [writes.execute("t1", RecordResult(round=1, board=b, result="0-1")) for b in (2, 3, 4)]
    outcomes = await asyncio.wait_for(
        asyncio.gather(first, *behind, return_exceptions=True), timeout=60
    )
    assert all(isinstance(o, StoreUnavailable) for o in outcomes), outcomes
    monkeypatch.setattr(store, "append_group", commit)
    monkeypatch.setattr(store, "head", head_of)
    assert head_of("t1") == head  # nothing written
    assert await writes.execute("t1", RecordResult(round=1, board=2, result="0-1")) == head + 1
