"""The event store seam: one small Protocol, an in-memory store, and what every backend shares.

A store keeps, per tournament, a gap-free log of events numbered 1, 2, 3, … (`seq`). Appending
names the head the writer expects (`expected_seq`, 0 for a new tournament): a mismatch is a
`ConcurrencyConflict` and writes nothing. A batch is all or nothing. A retried idempotency key
returns the head the first call returned and appends nothing.

    store = MemoryStore()               # or SqliteStore("x.sqlite")
    seq = store.append("t-1", 0, [TournamentCreated(name="Open", rounds=9)], actor="arbiter")
    for rec in store.read("t-1"):       # Recorded(tournament_id, seq, at, actor, event)
        ...

`MemoryStore` is the test double the projection and service tests use; `SqliteStore`
(`livetb/events/sqlite.py`) is the durable default. Both pass `tests/events/test_store_contract.py`.
Events are stored as JSON bytes in both, so the memory store decodes exactly what SQLite would.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple, Protocol

import msgspec

from livetb.errors import (
    ConcurrencyConflict,
    IdempotencyKeyReused,
    InvalidInput,
    LivetbError,
    Said,
)
from livetb.events.schema import AnyEvent, Recorded, decode_event, encode

Clock = Callable[[], dt.datetime]


class Append(NamedTuple):
    """One `EventStore.append` call, as a value (for `append_group`); its fields are in the
    order of the stores' `_append` arguments, which take it as `*append`."""

    tournament_id: str
    expected_seq: int
    events: Sequence[AnyEvent]
    actor: str
    idempotency_key: str | None = None
    fingerprint: str | None = None


class EventStore(Protocol):
    """Where a tournament's events live. Implementations: MemoryStore, SqliteStore,
    PostgresStore (`livetb/events/postgres.py`); `livetb.backends.open_store` picks one."""

    def __enter__(self) -> EventStore: ...

    def __exit__(self, *exc: object) -> None: ...

    def append(
        self,
        tournament_id: str,
        expected_seq: int,
        events: Sequence[AnyEvent],
        *,
        actor: str,
        idempotency_key: str | None = None,
        fingerprint: str | None = None,
    ) -> int:
        """Append `events` after `expected_seq` in one transaction; return the new head.

        Raise `ConcurrencyConflict` if the head is not `expected_seq`. A known
        `idempotency_key` returns the head its first call returned and appends nothing
        (`IdempotencyKeyReused` if its fingerprint differs). The key is bound to
        `fingerprint`, by default the digest of `events`; the service passes its command's,
        since a retried command no longer decides to the same events."""
        ...

    def append_group(self, appends: Sequence[Append]) -> list[int | LivetbError]:
        """Each of `appends` as `append` does it (its idempotency key bound to its
        fingerprint the same way), in order, made durable together (a group commit); in each
        one's place its new head, or the error it failed with. After a failed append, the
        later ones of its tournament are not tried (they were decided on the state it would
        have left): `ConcurrencyConflict`."""
        ...

    def recall(self, tournament_id: str, idempotency_key: str) -> Recalled | None:
        """The head an earlier append with this key returned and its fingerprint, or None."""
        ...

    def read(self, tournament_id: str, after: int = 0) -> Iterator[Recorded]:
        """Events with seq > `after`, in order; an unknown tournament reads as empty."""
        ...

    def head(self, tournament_id: str) -> int:
        """The last seq (0: no such tournament)."""
        ...

    def tournaments(self) -> list[str]:
        """Ids of every tournament with at least one event, sorted."""
        ...

    def save_snapshot(self, tournament_id: str, seq: int, data: bytes) -> None:
        """Keep a projection snapshot taken at `seq` (1..head); older ones may be pruned."""
        ...

    def latest_snapshot(self, tournament_id: str) -> tuple[int, bytes] | None:
        """The snapshot with the highest seq, or None."""
        ...

    def snapshot_at(self, tournament_id: str, seq: int) -> tuple[int, bytes] | None:
        """The kept snapshot with the highest seq at or before `seq` (time travel), or None."""
        ...

    def close(self) -> None: ...


def each_append(
    appends: Sequence[Append],
    attempt: Callable[[Append], int],
    head: Callable[[str], int],
) -> list[int | LivetbError]:
    """`append_group`'s rule, for every store: each append in order (`attempt` makes one,
    all or nothing, or raises), in its place its head or its error; after a failure the later
    appends of its tournament are refused unread (`head` for their conflict's message)."""
    outcomes: list[int | LivetbError] = []
    failed: set[str] = set()
    for a in appends:
        if a.tournament_id in failed:
            tid = a.tournament_id
            outcomes.append(ConcurrencyConflict(tid, a.expected_seq, head(tid)))
            continue
        try:
            outcomes.append(attempt(a))
        except LivetbError as err:
            outcomes.append(err)
            failed.add(a.tournament_id)
    return outcomes


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def new_tournament_id() -> str:
    """A fresh id such as `t-3f9c01ab`."""
    return f"t-{secrets.token_hex(4)}"


class Encoded(msgspec.Struct, frozen=True):
    """An event ready to store: its tag and its JSON."""

    type: str
    data: bytes


def encode_batch(events: Sequence[AnyEvent]) -> list[Encoded]:
    """Encode each event and check it decodes again: a store never writes what it cannot read.

    (Structs built in Python skip their constraints; `name=""` is caught here, not at read.)"""
    batch = []
    for i, event in enumerate(events):
        data = encode(event)
        try:
            decode_event(data)
        except msgspec.ValidationError as err:
            bad = InvalidInput.from_msgspec(err)
            reason = bad.said or str(bad)  # msgspec's words, in the catalog's where it has them
            said = Said("input.event", number=i + 1, type=type(event).__name__, reason=reason)
            raise InvalidInput(said, path=bad.path) from None
        tag = type(event).__struct_config__.tag
        assert isinstance(tag, str)  # every event class names its (string) tag
        batch.append(Encoded(tag, data))
    return batch


def digest(batch: Sequence[Encoded]) -> str:
    """What an idempotency key is bound to: the exact events of its first call."""
    h = hashlib.sha256()
    for item in batch:
        h.update(len(item.data).to_bytes(8, "big"))
        h.update(item.data)
    return h.hexdigest()


class Recalled(NamedTuple):
    """What an idempotency key is bound to: the head its append returned, and the request."""

    seq: int
    fingerprint: str


SNAPSHOTS_KEPT = 2  # the newest, and one to fall back on
# Older ones, one per this many events, so time travel starts near its target: at 10,000
# players a replay from zero takes seconds, and a snapshot weighs about 3 MB.
SNAPSHOT_SPACING = 5000


def pruned(seqs: Sequence[int]) -> list[int]:
    """Which snapshots to drop: all but the newest `SNAPSHOTS_KEPT`, and the first of each
    `SNAPSHOT_SPACING` events before them."""
    ordered = sorted(seqs)
    newest = ordered[-SNAPSHOTS_KEPT:]
    spaced: dict[int, int] = {}
    for seq in ordered[:-SNAPSHOTS_KEPT]:
        spaced.setdefault(seq // SNAPSHOT_SPACING, seq)
    kept = set(newest) | set(spaced.values())
    return [seq for seq in ordered if seq not in kept]


class _Row(msgspec.Struct, frozen=True):
    seq: int
    at: dt.datetime
    actor: str
    data: bytes


class MemoryStore:
    """An `EventStore` in a dict: same contract as SqliteStore, nothing durable."""

    def __init__(self, *, clock: Clock = utc_now) -> None:
        self._clock = clock
        self._logs: dict[str, list[_Row]] = {}
        self._keys: dict[tuple[str, str], Recalled] = {}
        self._snapshots: dict[str, dict[int, bytes]] = {}
        self._lock = threading.Lock()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def append(
        self,
        tournament_id: str,
        expected_seq: int,
        events: Sequence[AnyEvent],
        *,
        actor: str,
        idempotency_key: str | None = None,
        fingerprint: str | None = None,
    ) -> int:
        batch = encode_batch(events)
        fingerprint = fingerprint or digest(batch)
        with self._lock:
            if idempotency_key is not None:
                known = self._keys.get((tournament_id, idempotency_key))
                if known is not None:
                    if known.fingerprint != fingerprint:
                        raise IdempotencyKeyReused(tournament_id, idempotency_key)
                    return known.seq
            log = self._logs.get(tournament_id, [])
            if len(log) != expected_seq:
                raise ConcurrencyConflict(tournament_id, expected_seq, len(log))
            if batch:
                at = self._clock()
                start = len(log)
                self._logs[tournament_id] = log + [
                    _Row(start + i, at, actor, item.data) for i, item in enumerate(batch, 1)
                ]
            head = len(self._logs.get(tournament_id, ()))
            if idempotency_key is not None:
                self._keys[(tournament_id, idempotency_key)] = Recalled(head, fingerprint)
            return head

    def append_group(self, appends: Sequence[Append]) -> list[int | LivetbError]:
        def attempt(a: Append) -> int:  # nothing to sync: each append is atomic on its own
            return self.append(
                a.tournament_id,
                a.expected_seq,
                a.events,
                actor=a.actor,
                idempotency_key=a.idempotency_key,
                fingerprint=a.fingerprint,
            )

        return each_append(appends, attempt, self.head)

    def recall(self, tournament_id: str, idempotency_key: str) -> Recalled | None:
        return self._keys.get((tournament_id, idempotency_key))

    def read(self, tournament_id: str, after: int = 0) -> Iterator[Recorded]:
        log = self._logs.get(tournament_id, [])  # appends replace the list: a stable view
        for row in log[max(after, 0) :]:
            yield Recorded(
                tournament_id=tournament_id,
                seq=row.seq,
                at=row.at,
                actor=row.actor,
                event=decode_event(row.data),
            )

    def head(self, tournament_id: str) -> int:
        return len(self._logs.get(tournament_id, ()))

    def tournaments(self) -> list[str]:
        return sorted(tid for tid, log in self._logs.items() if log)

    def save_snapshot(self, tournament_id: str, seq: int, data: bytes) -> None:
        with self._lock:
            check_snapshot_seq(tournament_id, seq, self.head(tournament_id))
            kept = self._snapshots.setdefault(tournament_id, {})
            kept[seq] = bytes(data)
            for old in pruned(list(kept)):
                del kept[old]

    def latest_snapshot(self, tournament_id: str) -> tuple[int, bytes] | None:
        kept = self._snapshots.get(tournament_id)
        if not kept:
            return None
        seq = max(kept)
        return seq, kept[seq]

    def snapshot_at(self, tournament_id: str, seq: int) -> tuple[int, bytes] | None:
        kept = self._snapshots.get(tournament_id, {})
        at = max((s for s in kept if s <= seq), default=None)
        return None if at is None else (at, kept[at])

    def close(self) -> None:
        pass


def check_snapshot_seq(tournament_id: str, seq: int, head: int) -> None:
    if not 1 <= seq <= head:
        raise ValueError(f"tournament {tournament_id}: snapshot at seq {seq}, log has 1..{head}")
