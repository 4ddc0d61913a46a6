"""A round event of a large field folded on the loop a piece at a time (`TournamentService`,
`StandingsProjection.stepwise`): every read meanwhile sees the standings before the event or
after it, never half; the tournament's later events wait their turn; every delta is
published once, in seq order, with the projection at its seq."""

from __future__ import annotations

import asyncio

from livetb.app.service import TournamentService
from livetb.demo.tournament import swiss_events
from livetb.events.schema import AnyEvent, RoundClosed, RoundPaired
from livetb.events.store import MemoryStore
from livetb.projections.document import to_json
from livetb.projections.standings import Delta, StandingsProjection
from livetb.projections.steps import CHUNK
from livetb.projections.stored import load
from livetb.wire.standings import DbStandings
from tests.fakes import Undelayed

PLAYERS = CHUNK + 60  # a round event of this field is folded in pieces


class Published(Undelayed):
    def __init__(self) -> None:
        self.seqs: list[int] = []
        self.documents: list[DbStandings] = []

    def publish(self, tournament_id: str, delta: Delta, projection: StandingsProjection) -> None:
        assert projection.seq == delta.seq  # published once applied, whole
        self.seqs.append(delta.seq)
        self.documents.append(to_json(projection))


def _at(events: list[AnyEvent], kind: type[RoundPaired | RoundClosed], rnd: int) -> int:
    return next(
        i
        for i, e in enumerate(events)
        if isinstance(e, RoundPaired | RoundClosed) and isinstance(e, kind) and e.round == rnd
    )


async def test_reads_during_a_close_and_a_pairing_in_pieces_see_before_or_after() -> None:
    events = swiss_events(PLAYERS, 3, seed=5)
    close = _at(events, RoundClosed, 2)
    pairing = _at(events, RoundPaired, 3)
    store = MemoryStore()
    feed = Published()
    service = TournamentService(store, feed=feed)
    service.fold_seconds = 0  # one piece per turn of the loop
    head = store.append("t", 0, events[:close], actor="test")
    projection = await service.current("t")
    before = to_json(projection)
    # The close, then the next round's pairing and first result, each read by its writer.
    head = store.append("t", head, [events[close]], actor="test")
    closing = asyncio.ensure_future(service.current("t"))
    seen: list[DbStandings] = []
    while not closing.done():
        seen.append(to_json(service.live("t")))
        await asyncio.sleep(0)
    head = store.append("t", head, events[close + 1 : pairing + 2], actor="test")
    pairing_read = asyncio.ensure_future(service.current("t"))
    await asyncio.sleep(0)
    later_read = asyncio.ensure_future(service.current("t"))  # waits for the pairing's fold
    while not (pairing_read.done() and later_read.done()):
        seen.append(to_json(service.live("t")))
        await asyncio.sleep(0)
    assert len(seen) > 10  # the folds took many turns of the loop
    assert seen[0] == before
    published = {doc.seq: doc for doc in feed.documents}
    assert all(doc == before or doc == published.get(doc.seq) for doc in seen)
    assert feed.seqs == list(range(close + 1, head + 1))  # each once, in order
    assert projection.seq == head
    assert projection.standings() == load(store, "t").standings()


async def test_many_events_read_at_once_are_applied_a_few_at_a_time_each_whole() -> None:
    """A group commit of many results: applied in turns of the loop (none with time to spare
    here), every read meanwhile at an event's boundary, every delta published in order."""
    events = swiss_events(40, 2, seed=3)
    close = _at(events, RoundClosed, 1)
    store = MemoryStore()
    feed = Published()
    service = TournamentService(store, feed=feed)
    service.fold_seconds = 0
    head = store.append("t", 0, events[: close - 20], actor="test")
    projection = await service.current("t")
    head = store.append("t", head, events[close - 20 : close], actor="test")
    reading = asyncio.ensure_future(service.current("t"))
    seen: list[DbStandings] = []
    while not reading.done():
        seen.append(to_json(service.live("t")))
        await asyncio.sleep(0)
    assert len({doc.seq for doc in seen}) > 10  # applied over many turns of the loop
    published = {doc.seq: doc for doc in feed.documents}
    assert all(doc == published[doc.seq] for doc in seen if doc.seq in published)
    assert feed.seqs == list(range(close - 19, head + 1))
    assert projection.standings() == load(store, "t").standings()
