"""Two nodes on one store (two services with their group commits, each on its own connection):
a write is decided on what the store has committed, not on what this node last saw, so a
command valid against the log is never refused, and a write that names no sequence is never
answered with a conflict because the other node wrote first."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from livetb.app.group_commit import GroupCommit
from livetb.app.service import TournamentService
from livetb.errors import ConcurrencyConflict, LivetbError
from livetb.events.commands import (
    CloseRound,
    CorrectResult,
    CreateTournament,
    PairRound,
    RecordResult,
    RegisterParticipant,
)
from livetb.events.schema import Board, GameResult, ParticipantRegistered
from livetb.events.sqlite import SqliteStore
from livetb.events.store import Append, EventStore
from livetb.projections.standings import StandingsProjection

BOARDS = 40
RESULTS: tuple[GameResult, ...] = ("1-0", "0-1", "1/2-1/2")


@pytest.fixture(params=["sqlite", "postgres"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[EventStore, ...]]:
    if request.param == "sqlite":
        path = tmp_path / "shared.sqlite"
        opened: tuple[EventStore, ...] = (SqliteStore(path), SqliteStore(path))
    else:
        from livetb.events.postgres import PostgresStore

        url = request.getfixturevalue("pg_url")
        opened = (PostgresStore(url), PostgresStore(url))
    yield opened
    for store in opened:
        store.close()


def nodes(stores: tuple[EventStore, ...]) -> tuple[GroupCommit, GroupCommit]:
    a, b = (GroupCommit(TournamentService(s)) for s in stores)
    return a, b


async def paired(a: GroupCommit, players: int = 2 * BOARDS) -> None:
    await a.execute("t", CreateTournament(name="Two Nodes Open", rounds=2, tiebreaks=("PTS", "BH")))
    await asyncio.gather(
        *(
            a.execute("t", RegisterParticipant(start_no=n, name=f"P{n}"))
            for n in range(1, players + 1)
        )
    )
    boards = tuple(Board(k, k, BOARDS + k) for k in range(1, BOARDS + 1))
    await a.execute("t", PairRound(round=1, boards=boards))


def result(board: int) -> RecordResult:
    return RecordResult(round=1, board=board, result=RESULTS[board % 3])


def correction(board: int) -> CorrectResult:
    return CorrectResult(round=1, board=board, result=RESULTS[(board + 1) % 3], reason="typo")


async def agrees_with_the_log(node: GroupCommit) -> None:
    projection = await node.service.current("t")  # caught up with the other node's writes
    log = list(node.service.store.read("t"))
    assert projection.seq == log[-1].seq
    assert projection.standings() == StandingsProjection.rebuild(log).standings()


async def test_each_result_acknowledged_on_one_node_is_corrected_on_the_other_at_once(
    stores: tuple[EventStore, ...],
) -> None:
    a, b = nodes(stores)
    await paired(a)
    await b.execute("t", RegisterParticipant(start_no=2 * BOARDS + 1, name="Late"))

    async def record_then_correct(board: int) -> int:
        await a.execute("t", result(board))
        return await b.execute("t", correction(board))  # B holds writes of its own in flight

    heads = await asyncio.gather(*(record_then_correct(k) for k in range(1, BOARDS + 1)))
    assert len(set(heads)) == BOARDS
    await asyncio.gather(a.drain(), b.drain())
    games = (await b.service.current("t")).state.rounds[1].games
    assert {k: games[k].result for k in games} == {
        k: RESULTS[(k + 1) % 3] for k in range(1, BOARDS + 1)
    }
    await agrees_with_the_log(b)


async def test_a_close_right_after_the_last_result_on_the_other_node_is_accepted(
    stores: tuple[EventStore, ...],
) -> None:
    a, b = nodes(stores)
    await paired(a)
    await asyncio.gather(*(a.execute("t", result(k)) for k in range(1, BOARDS)))

    async def last_result_then_close() -> int:
        await a.execute("t", result(BOARDS))
        return await b.execute("t", CloseRound(round=1))

    # B is busy correcting the other boards when the close arrives.
    outcomes = await asyncio.gather(
        *(b.execute("t", correction(k)) for k in range(1, BOARDS)), last_result_then_close()
    )
    closed = [r for r in stores[0].read("t") if r.seq == outcomes[-1]]
    assert [type(r.event).__name__ for r in closed] == ["RoundClosed"]
    assert (await a.service.current("t")).state.closed == 1
    await agrees_with_the_log(a)


async def test_plain_writes_alternating_between_nodes_are_all_accepted(
    stores: tuple[EventStore, ...],
) -> None:
    a, b = nodes(stores)
    await a.execute("t", CreateTournament(name="Two Nodes Open", rounds=2, tiebreaks=("PTS",)))
    players = 120
    heads = await asyncio.gather(
        *(
            (a, b)[n % 2].execute("t", RegisterParticipant(start_no=n, name=f"P{n}"))
            for n in range(1, players + 1)
        )
    )
    assert sorted(heads) == list(range(2, players + 2))  # each once: none refused, none lost
    await asyncio.gather(a.drain(), b.drain())
    await agrees_with_the_log(a)


async def test_a_write_that_keeps_losing_races_is_decided_again_until_it_lands(
    stores: tuple[EventStore, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other node commits first, again and again (a storm on three nodes loses most races):
    a write that named no sequence is decided again each time and lands, whatever the number
    of races it lost; one that named a sequence gets its 409 at once."""
    a, b = nodes(stores)
    await a.execute("t", CreateTournament(name="Two Nodes Open", rounds=2, tiebreaks=("PTS",)))
    other, store = stores[0], stores[1]
    commit, races = store.append_group, iter(range(100, 120))  # 20 lost races

    def raced(appends: list[Append]) -> list[int | LivetbError]:
        no = next(races, None)
        if no is not None:  # the other node commits just before this one
            event = ParticipantRegistered(start_no=no, name=f"P{no}")
            other.append("t", other.head("t"), [event], actor="a")
        return commit(appends)

    monkeypatch.setattr(store, "append_group", raced)
    head = await b.execute("t", RegisterParticipant(start_no=1, name="Ann"))
    assert b.retried == 20
    assert head == 22  # the create, the other node's 20, this one
    other.append("t", head, [ParticipantRegistered(start_no=99, name="Zed")], actor="a")
    with pytest.raises(ConcurrencyConflict):  # named the head before the other node's write
        await b.execute("t", RegisterParticipant(start_no=2, name="Bob"), expected_seq=head)


async def test_a_correction_is_decided_on_the_log_while_this_node_holds_the_same_seq_in_flight(
    stores: tuple[EventStore, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """B's own write is staged at the seq the other node's result then commits at: the store's
    head is a number B's writes lead to, yet not B's. The correction of that result is decided
    on the log once B's write is answered, not refused on B's staged state."""
    a, b = nodes(stores)
    await paired(a)
    head = (await b.service.current("t")).seq
    entered, gate = threading.Event(), threading.Event()
    commit = stores[1].append_group

    def held(appends: list[Append]) -> list[int | LivetbError]:
        entered.set()
        gate.wait(timeout=60)
        return commit(appends)

    monkeypatch.setattr(stores[1], "append_group", held)
    late = asyncio.ensure_future(b.execute("t", RegisterParticipant(start_no=99, name="Late")))
    assert await asyncio.to_thread(entered.wait, 60)  # staged at head + 1, its commit held
    assert await a.execute("t", result(1)) == head + 1  # the same seq, committed by A
    drain = b.drain

    async def draining(tid: str | None = None) -> None:
        gate.set()  # the correction waits for B's held write: its commit goes ahead now
        await drain(tid)

    monkeypatch.setattr(b, "drain", draining)
    try:
        assert await b.execute("t", correction(1)) == head + 2
    finally:
        gate.set()  # refused without waiting: the held commit is not left hanging
    assert await late == head + 3  # lost its race to A, decided again after the correction
    games = (await b.service.current("t")).state.rounds[1].games
    assert games[1].result == RESULTS[2 % 3]
    await agrees_with_the_log(b)
