"""One contract, every backend: the memory store (the test double), SQLite and PostgreSQL
behave alike."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import msgspec
import pytest

from livetb.errors import ConcurrencyConflict, IdempotencyKeyReused, InvalidInput
from livetb.events.postgres import PostgresStore
from livetb.events.schema import (
    AnyEvent,
    Board,
    ParticipantRegistered,
    ParticipantUpdated,
    ResultRecorded,
    RoundPaired,
    ScoringSpec,
    TournamentCreated,
)
from livetb.events.sqlite import SqliteStore
from livetb.events.store import Append, EventStore, MemoryStore, digest, encode_batch, pruned
from livetb.web.http.statuses import status_of

START = dt.datetime(2025, 5, 1, 9, 0, tzinfo=dt.UTC)


class Clock:
    """One minute later at every call."""

    def __init__(self) -> None:
        self.ticks = itertools.count()

    def __call__(self) -> dt.datetime:
        return START + dt.timedelta(minutes=next(self.ticks))


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    s: EventStore
    if request.param == "memory":
        s = MemoryStore(clock=Clock())
    elif request.param == "sqlite":
        s = SqliteStore(tmp_path / "events.sqlite", clock=Clock())
    else:  # in a schema of its own (tests/conftest.py), dropped after
        s = PostgresStore(request.getfixturevalue("pg_url"), clock=Clock())
    yield s
    s.close()


CREATED = TournamentCreated(
    name="Spring Open",
    rounds=7,
    scoring=ScoringSpec(win=Decimal("3"), draw=Decimal("1")),
    start_date=dt.date(2025, 5, 1),
)


def registered(no: int) -> ParticipantRegistered:
    return ParticipantRegistered(start_no=no, name=f"Player {no}", rating=2000 + no)


def test_an_empty_store(store: EventStore) -> None:
    assert store.head("t-1") == 0
    assert list(store.read("t-1")) == []
    assert store.tournaments() == []
    assert store.latest_snapshot("t-1") is None


def test_append_then_read(store: EventStore) -> None:
    assert store.append("t-1", 0, [CREATED, registered(1)], actor="arbiter") == 2
    assert store.append("t-1", 2, [registered(2)], actor="deputy") == 3
    records = list(store.read("t-1"))
    assert [r.seq for r in records] == [1, 2, 3]
    assert [r.event for r in records] == [CREATED, registered(1), registered(2)]
    assert {r.tournament_id for r in records} == {"t-1"}
    assert [r.actor for r in records] == ["arbiter", "arbiter", "deputy"]
    # one timestamp per batch (one transaction)
    assert [r.at for r in records] == [START, START, START + dt.timedelta(minutes=1)]
    assert [r.seq for r in store.read("t-1", after=2)] == [3]
    assert list(store.read("t-1", after=3)) == []
    assert store.head("t-1") == 3


def test_events_round_trip_exactly(store: EventStore) -> None:
    """Decimals, dates, UNSET fields and nested boards come back as they went in."""
    events: list[AnyEvent] = [
        CREATED,
        registered(1),
        registered(2),
        ParticipantUpdated(start_no=2, rating=None),
        RoundPaired(round=1, boards=(Board(1, 2, 1),)),
        ResultRecorded(round=1, board=1, result="1/2-1/2"),
    ]
    store.append("t-1", 0, events, actor="a")
    back = [r.event for r in store.read("t-1")]
    assert back == events
    created, updated = back[0], back[3]
    assert isinstance(created, TournamentCreated) and created.scoring.win == Decimal("3")
    assert isinstance(updated, ParticipantUpdated)
    assert updated.name is msgspec.UNSET and updated.rating is None


def test_tournaments_are_separate_logs(store: EventStore) -> None:
    store.append("t-b", 0, [CREATED], actor="a")
    store.append("t-a", 0, [CREATED, registered(1)], actor="a")
    assert store.tournaments() == ["t-a", "t-b"]
    assert (store.head("t-a"), store.head("t-b")) == (2, 1)
    assert [r.seq for r in store.read("t-b")] == [1]


@pytest.mark.parametrize("expected", [0, 1, 3])
def test_stale_expected_seq_is_a_conflict_and_writes_nothing(
    store: EventStore, expected: int
) -> None:
    store.append("t-1", 0, [CREATED, registered(1)], actor="a")
    with pytest.raises(ConcurrencyConflict) as caught:
        store.append("t-1", expected, [registered(2), registered(3), registered(4)], actor="b")
    assert (caught.value.expected, caught.value.head) == (expected, 2)
    assert store.head("t-1") == 2
    assert [r.event for r in store.read("t-1")] == [CREATED, registered(1)]


def test_a_new_tournament_starts_at_zero(store: EventStore) -> None:
    with pytest.raises(ConcurrencyConflict):
        store.append("t-1", 1, [CREATED], actor="a")
    assert store.tournaments() == []


def test_an_idempotent_retry_returns_the_first_seq_and_appends_once(store: EventStore) -> None:
    store.append("t-1", 0, [CREATED], actor="a")
    first = store.append("t-1", 1, [registered(1)], actor="a", idempotency_key="req-1")
    store.append("t-1", 2, [registered(2)], actor="a")
    # the retry carries the expected_seq of its first attempt, now stale: still the same answer
    again = store.append("t-1", 1, [registered(1)], actor="a", idempotency_key="req-1")
    assert first == again == 2
    assert store.head("t-1") == 3
    assert [r.event for r in store.read("t-1")].count(registered(1)) == 1
    assert store.recall("t-1", "req-1") == (2, digest(encode_batch([registered(1)])))
    assert store.recall("t-1", "req-2") is None
    assert store.recall("t-2", "req-1") is None  # keys belong to one tournament


def test_a_key_reused_for_other_events_is_refused(store: EventStore) -> None:
    store.append("t-1", 0, [CREATED], actor="a", idempotency_key="k")
    with pytest.raises(IdempotencyKeyReused) as caught:
        store.append("t-1", 1, [registered(1)], actor="a", idempotency_key="k")
    assert status_of(caught.value) == 422
    assert store.head("t-1") == 1


def test_a_key_is_bound_to_the_fingerprint_given(store: EventStore) -> None:
    """The service binds a key to its command: other events under the same fingerprint are the
    same request retried, the same events under another fingerprint are not."""
    store.append("t-1", 0, [CREATED], actor="a", idempotency_key="k", fingerprint="command:1")
    assert store.append("t-1", 1, [registered(1)], actor="a", idempotency_key="k",
                        fingerprint="command:1") == 1  # fmt: skip
    with pytest.raises(IdempotencyKeyReused):
        store.append("t-1", 0, [CREATED], actor="a", idempotency_key="k", fingerprint="command:2")
    assert store.head("t-1") == 1


def test_a_conflicting_keyed_append_does_not_burn_its_key(store: EventStore) -> None:
    store.append("t-1", 0, [CREATED], actor="a")
    with pytest.raises(ConcurrencyConflict):
        store.append("t-1", 0, [registered(1)], actor="a", idempotency_key="k")
    assert store.recall("t-1", "k") is None
    assert store.append("t-1", 1, [registered(1)], actor="a", idempotency_key="k") == 2


def test_a_group_appends_in_order_and_a_failing_append_writes_nothing_alone(
    store: EventStore,
) -> None:
    """A group commit: each append as on its own, one after the other; the one that fails
    (a stale seq, a reused key) is left out with the later ones of its tournament (decided on
    the state it would have left), the others are kept."""
    store.append("t-1", 0, [CREATED], actor="a", idempotency_key="k0")
    store.append("t-3", 0, [CREATED], actor="a", idempotency_key="k0")
    outcomes = store.append_group(
        [
            Append("t-1", 1, [registered(1)], "a", "k1"),
            Append("t-1", 2, [registered(2), registered(3)], "a", "k2"),
            Append("t-1", 2, [registered(1)], "a", "k1"),  # a retry: its first head
            Append("t-3", 1, [registered(1)], "a", "k0"),  # k0 was used for other events
            Append("t-2", 0, [CREATED], "c"),
            Append("t-3", 1, [registered(2)], "a"),  # after a failure of its tournament
            Append("t-1", 3, [registered(9)], "b"),  # stale: the second one moved the head
            Append("t-1", 4, [registered(4)], "b"),  # after a failure of its tournament
        ]
    )
    assert outcomes[:3] == [2, 4, 2] and outcomes[4] == 1
    assert isinstance(outcomes[3], IdempotencyKeyReused)
    assert all(isinstance(o, ConcurrencyConflict) for o in outcomes[5:])
    assert [r.event for r in store.read("t-1")] == [
        CREATED,
        registered(1),
        registered(2),
        registered(3),
    ]
    assert store.recall("t-1", "k2") == (4, digest(encode_batch([registered(2), registered(3)])))
    assert store.head("t-2") == 1 and store.head("t-3") == 1


def test_a_group_binds_each_key_to_the_fingerprint_given(store: EventStore) -> None:
    """As `append` does: the service's command fingerprint, not the events' digest."""
    store.append("t-1", 0, [CREATED], actor="a")
    outcomes = store.append_group(
        [
            Append("t-1", 1, [registered(1)], "a", "k1", "command:1"),
            Append("t-1", 2, [registered(7)], "a", "k1", "command:1"),  # the same request
            Append("t-2", 0, [CREATED], "a", "k1", "command:2"),  # keys are per tournament
        ]
    )
    assert outcomes == [2, 2, 1]
    assert store.recall("t-1", "k1") == (2, "command:1")
    assert store.recall("t-2", "k1") == (1, "command:2")
    (refused,) = store.append_group([Append("t-1", 2, [registered(1)], "a", "k1", "command:3")])
    assert isinstance(refused, IdempotencyKeyReused)
    assert store.head("t-1") == 2
    assert store.append("t-1", 2, [registered(9)], actor="a", idempotency_key="k1",
                        fingerprint="command:1") == 2  # fmt: skip


def test_an_event_that_would_not_read_back_is_refused(store: EventStore) -> None:
    """Constraints are not checked when a Struct is built in Python; the store checks them."""
    store.append("t-1", 0, [CREATED], actor="a")
    bad = ParticipantRegistered(start_no=2, name="")
    with pytest.raises(InvalidInput) as caught:
        store.append("t-1", 1, [registered(1), bad], actor="a")
    assert caught.value.path == "$.name"
    assert "event 2 (ParticipantRegistered)" in str(caught.value)
    assert store.head("t-1") == 1


def test_an_empty_batch_appends_nothing(store: EventStore) -> None:
    store.append("t-1", 0, [CREATED], actor="a")
    assert store.append("t-1", 1, [], actor="a") == 1
    with pytest.raises(ConcurrencyConflict):
        store.append("t-1", 0, [], actor="a")
    assert store.head("t-1") == 1


def test_snapshots(store: EventStore) -> None:
    store.append("t-1", 0, [CREATED, registered(1), registered(2)], actor="a")
    store.save_snapshot("t-1", 1, b"one")
    store.save_snapshot("t-1", 3, b"three")
    store.save_snapshot("t-1", 2, b"two")
    assert store.latest_snapshot("t-1") == (3, b"three")
    store.save_snapshot("t-1", 3, b"three, again")
    assert store.latest_snapshot("t-1") == (3, b"three, again")
    assert store.latest_snapshot("t-2") is None
    with pytest.raises(ValueError, match=r"snapshot at seq 4, log has 1\.\.3"):
        store.save_snapshot("t-1", 4, b"future")
    with pytest.raises(ValueError):
        store.save_snapshot("t-2", 1, b"no log")


def test_time_travel_finds_the_nearest_snapshot_at_or_before(store: EventStore) -> None:
    store.append("t-1", 0, [CREATED, *(registered(n) for n in range(1, 12))], actor="a")
    for seq in (2, 5, 9, 12):
        store.save_snapshot("t-1", seq, f"at {seq}".encode())
    assert store.snapshot_at("t-1", 1) is None
    assert store.snapshot_at("t-1", 6) == (2, b"at 2")  # 5 was thinned: 2 is in its spacing
    assert store.snapshot_at("t-1", 10) == (9, b"at 9")
    assert store.snapshot_at("t-1", 12) == (12, b"at 12")
    assert store.snapshot_at("t-2", 12) is None


def test_old_snapshots_are_thinned_to_one_per_spacing() -> None:
    """The newest two, and before them the first of each SNAPSHOT_SPACING events."""
    seqs = [500 * k for k in range(1, 25)]  # 500 .. 12,000
    kept = sorted(set(seqs) - set(pruned(seqs)))
    assert kept == [500, 5000, 10000, 11500, 12000]
