"""The broadcast delay's public projection (`livetb/app/delay.py`): released by the stored
times under the delay in force, never backwards, the same whether a node followed the log or
loaded it later, and nothing at all for a tournament without a delay."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from livetb.app.delay import public_head, public_of
from livetb.app.service import TournamentService
from livetb.events.commands import (
    CorrectResult,
    CreateTournament,
    PairRound,
    RecordResult,
    RegisterParticipant,
    SetPublicDelay,
)
from livetb.events.schema import Board, GameResult
from livetb.events.store import MemoryStore
from livetb.projections.document import to_json
from livetb.projections.standings import Delta, StandingsProjection


class Clock:
    def __init__(self) -> None:
        self.now = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now

    def tick(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


class Feed:
    """What the service and the delays hand the hub."""

    def __init__(self) -> None:
        self.live: list[int] = []
        self.public: list[int] = []
        self.moves: list[tuple[str, int]] = []

    def publish(self, tournament_id: str, delta: Delta, projection: StandingsProjection) -> None:
        self.live.append(delta.seq)

    def publish_public(
        self, tournament_id: str, delta: Delta, projection: StandingsProjection
    ) -> None:
        self.public.append(delta.seq)

    def delayed(self, tournament_id: str, projection: StandingsProjection) -> None:
        self.moves.append(("delayed", projection.seq))

    def undelayed(self, tournament_id: str, projection: StandingsProjection) -> None:
        self.moves.append(("undelayed", projection.seq))


def service_with(clock: Clock, store: MemoryStore | None = None) -> tuple[TournamentService, Feed]:
    feed = Feed()
    service = TournamentService(store or MemoryStore(clock=clock), feed=feed)
    service.delays.clock = clock
    return service, feed


def started(service: TournamentService) -> int:
    service.execute("t1", CreateTournament(name="Club", rounds=3, tiebreaks=("PTS", "BH")))
    for no, name in enumerate(["Ann", "Bob", "Cid", "Dan"], start=1):
        service.execute("t1", RegisterParticipant(start_no=no, name=name, rating=2000 - no))
    head, _ = service.execute("t1", PairRound(round=1, boards=(Board(1, 1, 2), Board(2, 3, 4))))
    return head


def public_seq(service: TournamentService) -> int:
    public = service.public("t1")
    return service.live("t1").seq if public is None else public.seq


def test_results_are_released_by_their_time_and_never_taken_back() -> None:
    clock = Clock()
    service, feed = service_with(clock)
    head = started(service)
    service.execute("t1", SetPublicDelay(public_delay=60))  # head + 1
    assert feed.moves == [("delayed", head)] and public_seq(service) == head
    clock.tick(10)
    service.execute("t1", RecordResult(round=1, board=1, result="1-0"))  # head + 2, at +10
    clock.tick(30)
    service.execute("t1", RecordResult(round=1, board=2, result="0-1"))  # head + 3, at +40
    assert feed.live[-3:] == [head + 1, head + 2, head + 3] and feed.public == []
    public = service.public("t1")
    assert public is not None and public.state.rounds[1].games[1].result is None

    clock.tick(25)  # +65: the delay's own event is due, the first result not yet (+70)
    service.delays.release("t1", service.live("t1"))
    assert feed.public == [head + 1]
    clock.tick(5)  # +70
    service.delays.release("t1", service.live("t1"))
    assert feed.public == [head + 1, head + 2]
    assert public.state.rounds[1].games[1].result == "1-0"

    # Raising the delay holds back only what was not released: nothing moves backwards.
    clock.tick(1)
    service.execute("t1", SetPublicDelay(public_delay=600))  # head + 4
    assert public_seq(service) == head + 2 and feed.public == [head + 1, head + 2]
    clock.tick(100)  # +171: head + 3 (at +40) would be due under 60 s, not under 600
    service.delays.release("t1", service.live("t1"))
    assert feed.public == [head + 1, head + 2]

    # A node loading the log now releases exactly as far as this one did.
    other, _ = service_with(clock, service.store)  # type: ignore[arg-type]
    other.projection("t1")
    assert public_seq(other) == head + 2
    assert public_head(service.store, "t1", clock.now) == head + 2

    # Lowering it to 0 releases the rest at once, in order, and ends the public projection.
    service.execute("t1", SetPublicDelay(public_delay=0))  # head + 5
    assert feed.public == [head + 1, head + 2, head + 3, head + 4, head + 5]
    assert feed.moves[-1] == ("undelayed", head + 5) and service.public("t1") is None
    assert public_head(service.store, "t1", clock.now) == head + 5


def test_turning_the_delay_on_hides_nothing_already_seen() -> None:
    clock = Clock()
    service, _ = service_with(clock)
    started(service)
    head, _ = service.execute("t1", RecordResult(round=1, board=1, result="1-0"))
    clock.tick(1)
    service.execute("t1", SetPublicDelay(public_delay=3600))
    public = service.public("t1")
    assert public is not None and public.seq == head  # the result, public before the delay
    assert public.state.rounds[1].games[1].result == "1-0"
    # Loaded later from the log: the events before the delay stay public.
    clock.tick(5)
    assert public_head(service.store, "t1", clock.now) == head
    delayed = public_of(service.store, "t1", service.live("t1"), clock.now)
    assert delayed is not None and delayed.projection is not None
    assert delayed.projection.seq == head
    assert [rec.seq for rec in delayed.pending] == [head + 1]
    # An hour after the change every event is public whatever the delay.
    clock.tick(3600)
    assert public_head(service.store, "t1", clock.now) == head + 1
    # Released, the public projection is the live one, row for row (the delay stays on).
    service.execute("t1", RecordResult(round=1, board=2, result="1/2-1/2"))
    clock.tick(3601)
    service.delays.release("t1", service.live("t1"))
    assert service.public("t1") is public and public.seq == service.live("t1").seq == head + 2
    assert to_json(public) == to_json(service.live("t1"))


def test_a_tournament_without_a_delay_has_no_public_projection() -> None:
    clock = Clock()
    service, feed = service_with(clock)
    head = started(service)
    service.execute("t1", RecordResult(round=1, board=1, result="1-0"))
    service.execute("t1", SetPublicDelay(public_delay=0))  # 0 on a tournament without one
    assert service.public("t1") is None and service.delays.tables == {}
    assert feed.public == [] and feed.moves == []
    assert public_of(service.store, "t1", service.live("t1"), clock.now) is None
    assert public_head(service.store, "t1", clock.now) == head + 2


Step = tuple[str, int]
steps = st.lists(
    st.one_of(
        st.tuples(st.just("tick"), st.integers(0, 150)),
        st.tuples(st.just("delay"), st.sampled_from([0, 20, 45, 100])),
        st.tuples(st.just("result"), st.integers(1, 2)),
        st.tuples(st.just("release"), st.just(0)),
    ),
    max_size=25,
)


@settings(max_examples=150, deadline=None)
@given(steps)
def test_a_node_loading_the_log_agrees_with_one_that_followed_it(plan: list[Step]) -> None:
    """Whatever the delays set, the results and the moments the timers fire: the public head
    never moves backwards, and a node that loads the log at any moment releases exactly as
    far as the node that followed it (and builds the same public standings)."""
    clock = Clock()
    service, _ = service_with(clock)
    started(service)
    outcomes: Iterator[GameResult] = itertools.cycle(("1-0", "0-1", "1/2-1/2"))
    last = public_seq(service)
    for op, arg in plan:
        if op == "tick":
            clock.tick(arg)
        elif op == "delay":
            service.execute("t1", SetPublicDelay(public_delay=arg))
        elif op == "result":
            now = service.live("t1").state.rounds[1].games[arg].result
            result = next(r for r in outcomes if r != now)
            if now is None:
                service.execute("t1", RecordResult(round=1, board=arg, result=result))
            else:
                service.execute("t1", CorrectResult(round=1, board=arg, result=result, reason="x"))
        else:  # a timer firing now (a write releases what is due too)
            service.delays.release("t1", service.live("t1"))
        seq = public_seq(service)
        assert seq >= last
        last = seq
        if op != "release":  # the timers not fired yet: the follower may lag what is due
            continue
        assert public_head(service.store, "t1", clock.now) == seq
        loaded = public_of(service.store, "t1", service.live("t1"), clock.now)
        if loaded is None:
            assert service.public("t1") is None
        else:
            followed = service.public("t1")
            assert followed is not None and loaded.projection is not None
            assert loaded.projection.seq == seq
            assert to_json(loaded.projection) == to_json(followed)
            assert [r.seq for r in loaded.pending] == list(
                range(seq + 1, service.live("t1").seq + 1)
            )
