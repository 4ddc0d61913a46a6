"""The standings of a stored log: the nearest snapshot plus the events after it, or a fold
from zero; and the check that a list of events folds at all, before it is written."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence

from livetb.errors import InvalidInput, LivetbError, TournamentUnreadable, UnknownTournament
from livetb.events.schema import AnyEvent, Recorded
from livetb.events.store import EventStore, MemoryStore
from livetb.projections.standings import StandingsProjection


def load(store: EventStore, tournament_id: str, at_seq: int | None = None) -> StandingsProjection:
    """Standings at `at_seq` (default: the head): the nearest snapshot at or before it plus
    the events up to it."""
    head = store.head(tournament_id)
    if head == 0:
        raise UnknownTournament(tournament_id)
    target = head if at_seq is None else min(at_seq, head)
    with unreadable(tournament_id):
        snap = store.snapshot_at(tournament_id, target)
        if snap is not None:
            projection = StandingsProjection.restore(snap[1])
            for rec in _until(store.read(tournament_id, after=snap[0]), target):
                projection.apply(rec)
            return projection
        return StandingsProjection.rebuild(_until(store.read(tournament_id), target))


def rebuild(store: EventStore, tournament_id: str) -> StandingsProjection:
    """From zero, ignoring snapshots; saves a fresh snapshot at the head."""
    with unreadable(tournament_id):
        projection = StandingsProjection.rebuild(store.read(tournament_id))
    if projection.seq == 0:
        raise UnknownTournament(tournament_id)
    store.save_snapshot(tournament_id, projection.seq, projection.snapshot())
    return projection


def readable(events: Sequence[AnyEvent]) -> StandingsProjection:
    """Fold `events` as every later reader will; raise what a reader would. A log is
    append-only, so a command checks this before writing a log no one could read."""
    store = MemoryStore()
    store.append("check", 0, events, actor="check")
    try:
        return StandingsProjection.rebuild(store.read("check"))
    except (LivetbError, MemoryError):
        raise
    except Exception as err:  # a projection bug, still no log written and no traceback
        raise InvalidInput.of("input.would_not_fold", bug=repr(err)) from err


@contextlib.contextmanager
def unreadable(tournament_id: str) -> Iterator[None]:
    """Any failure to fold a stored log is that tournament's, named by id: one damaged log
    never stops the others loading, rebuilding or being served."""
    try:
        yield
    except (TournamentUnreadable, MemoryError):
        raise
    except Exception as err:
        # a refusal the catalogs word (a tie-break code no longer known, say) stays worded
        said = err.said if isinstance(err, LivetbError) else None
        reason = said or str(err) or type(err).__name__
        raise TournamentUnreadable(tournament_id, reason) from err


def _until(records: Iterator[Recorded], seq: int) -> Iterator[Recorded]:
    for rec in records:
        if rec.seq > seq:
            return
        yield rec
