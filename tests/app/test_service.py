"""The application layer: commands decided against the live projection, appended, applied."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from livetb.app.service import SETTLE_AFTER, TournamentService
from livetb.errors import BoardHasResult, ConcurrencyConflict, IdempotencyKeyReused
from livetb.events.commands import (
    CloseRound,
    CorrectResult,
    CreateTournament,
    PairRound,
    RecordResult,
    RegisterParticipant,
)
from livetb.events.schema import Board
from livetb.events.sqlite import SqliteStore
from livetb.events.store import MemoryStore, Recalled
from livetb.projections.standings import Delta, StandingsProjection
from livetb.projections.stored import load
from livetb.web.http.statuses import status_of
from tests.fakes import Undelayed


def started(service: TournamentService) -> None:
    service.execute("t1", CreateTournament(name="Club", rounds=3, tiebreaks=("PTS", "BH", "FB")))
    for no, name in enumerate(["Ann", "Bob", "Cid", "Dan"], start=1):
        service.execute("t1", RegisterParticipant(start_no=no, name=name, rating=2000 - no))
    service.execute("t1", PairRound(round=1, boards=(Board(1, 1, 2), Board(2, 3, 4))))


def test_a_result_yields_the_rows_it_changed() -> None:
    service = TournamentService(MemoryStore(), snapshot_every=5)
    started(service)
    head, deltas = service.execute("t1", RecordResult(round=1, board=1, result="1-0"))
    assert head == 7
    (delta,) = deltas
    cells = {change.start_no: dict(change.cells) for change in delta.changes}
    assert set(cells) == {1, 2}  # 3 and 4 met neither
    assert cells[1][0] == "1.0"
    # Round 1 as the last: the win counts as a draw, as the pairing already predicted.
    assert "fb_prediction" not in cells[1]
    (row,) = service.projection("t1").ranked([1])
    assert row.rank == 1 and row.values[0] == "1.0" and row.fb_prediction == "0.5"
    assert row.statuses == ("provisional", "pending", "predicted")
    assert service.store.latest_snapshot("t1") is not None  # every 5 events


def test_rejected_and_conflicting_commands_append_nothing() -> None:
    service = TournamentService(MemoryStore())
    started(service)
    service.execute("t1", RecordResult(round=1, board=1, result="1-0"))
    with pytest.raises(BoardHasResult):
        service.execute("t1", RecordResult(round=1, board=1, result="0-1"))
    with pytest.raises(ConcurrencyConflict):
        service.execute("t1", RecordResult(round=1, board=2, result="0-1"), expected_seq=3)
    assert service.store.head("t1") == 7


def test_retried_key_appends_once_and_a_correction_reaches_the_closed_round() -> None:
    service = TournamentService(MemoryStore())
    started(service)
    first = service.execute(
        "t1", RecordResult(round=1, board=2, result="1/2-1/2"), idempotency_key="k"
    )
    again = service.execute(
        "t1", RecordResult(round=1, board=2, result="1/2-1/2"), idempotency_key="k"
    )
    assert first[0] == again[0] == 7 and again[1] == []
    service.execute("t1", RecordResult(round=1, board=1, result="1-0"))
    service.execute("t1", CloseRound(round=1))
    _, (delta,) = service.execute(
        "t1", CorrectResult(round=1, board=1, result="0-1", reason="wrong slip")
    )
    cells = {change.start_no: dict(change.cells) for change in delta.changes}
    assert cells[2][0] == "1.0" and cells[1][0] == "0.0"
    assert load(service.store, "t1").standings() == service.projection("t1").standings()


class Recorder(Undelayed):
    """A `Feed` that keeps what it is given."""

    def __init__(self) -> None:
        self.seqs: list[int] = []

    def publish(self, tournament_id: str, delta: Delta, projection: StandingsProjection) -> None:
        assert projection.seq == delta.seq  # published right after applying
        self.seqs.append(delta.seq)


def test_every_applied_event_is_published_once_in_order_even_from_other_writers() -> None:
    feed = Recorder()
    store = MemoryStore()
    service = TournamentService(store, feed=feed)
    started(service)
    other = TournamentService(store)  # another process writing to the same log
    other.execute("t1", RecordResult(round=1, board=1, result="1-0"))
    service.execute("t1", RecordResult(round=1, board=2, result="0-1"))
    assert service.catch_up("t1").seq == 8
    assert feed.seqs == list(range(1, 9))


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_a_key_reused_for_another_command_is_refused_and_appends_nothing(
    store: str, tmp_path: Path
) -> None:
    """Board 2 under board 1's key was acknowledged with board 1's seq."""
    service = TournamentService(
        MemoryStore() if store == "memory" else SqliteStore(tmp_path / "s.sqlite")
    )
    started(service)
    seq, _ = service.execute(
        "t1", RecordResult(round=1, board=1, result="1-0"), idempotency_key="K"
    )
    with pytest.raises(IdempotencyKeyReused) as caught:
        service.execute("t1", RecordResult(round=1, board=2, result="0-1"), idempotency_key="K")
    assert status_of(caught.value) == 422 and caught.value.code == "idempotency_key_reused"
    assert service.store.head("t1") == seq
    assert service.projection("t1").state.rounds[1].games[2].result is None
    # The same command under the same key is still the first call's answer.
    retry = service.execute("t1", RecordResult(round=1, board=1, result="1-0"), idempotency_key="K")
    assert retry == (seq, [])


def test_the_store_checks_the_command_when_the_early_recall_misses() -> None:
    """The other path: two services on one store, the key unknown to the early recall when the
    second one decided (it was written in between); the store itself refuses it."""

    class LateStore(MemoryStore):
        def recall(self, tournament_id: str, idempotency_key: str) -> Recalled | None:
            return None  # as if the first append landed after this recall

    store = LateStore()
    service = TournamentService(store)
    started(service)
    service.execute("t1", RecordResult(round=1, board=1, result="1-0"), idempotency_key="K")
    with pytest.raises(IdempotencyKeyReused):
        service.execute("t1", RecordResult(round=1, board=2, result="0-1"), idempotency_key="K")
    assert store.head("t1") == 7


async def test_the_server_prepares_the_close_between_events() -> None:
    """The standings the round's close will publish are prepared once the tournament is quiet
    (`settle`): a load or a pairing leaves every row to take, a result the rows it changes or
    whose close values it reaches."""
    store = MemoryStore()
    writer = TournamentService(store)
    started(writer)
    service = TournamentService(store)
    projection = await service.current("t1")  # loaded while round 1 runs
    assert projection.unsettled
    await asyncio.sleep(3 * SETTLE_AFTER)
    assert not projection.unsettled
    for board, result in ((1, "1-0"), (2, "1/2-1/2")):
        writer.execute("t1", RecordResult(round=1, board=board, result=result))
        assert await service.current("t1") is projection
        assert projection.unsettled
        await asyncio.sleep(3 * SETTLE_AFTER)
        assert not projection.unsettled
    writer.execute("t1", CloseRound(round=1))
    writer.execute("t1", PairRound(round=2, boards=(Board(1, 1, 3), Board(2, 2, 4))))
    await service.current("t1")
    assert projection.unsettled
    await asyncio.sleep(3 * SETTLE_AFTER)
    assert not projection.unsettled
    assert projection.standings() == load(store, "t1").standings()
