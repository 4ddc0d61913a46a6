"""`livetb standings --db`, `livetb rebuild`: standings read from the event store, at the head
or at any sequence number (time travel)."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import msgspec

from livetb import service
from livetb.engine.editions import edition_for
from livetb.errors import LivetbError, TournamentUnreadable
from livetb.events.sqlite import SqliteStore
from livetb.events.store import EventStore
from livetb.projections.standings import Row, StandingsProjection


class StoreUsageError(LivetbError):
    """A --db / --tournament argument that names nothing."""

    code = "usage"


class DbStandings(msgspec.Struct):
    """The CLI's JSON contract plus the log position and each value's status."""

    seq: int
    edition: str
    after_round: int
    round_in_progress: int | None
    tiebreaks: list[str]
    standings: list[Row]


def pick_tournament(store: EventStore, wanted: str | None) -> str:
    ids = store.tournaments()
    if wanted is not None:
        if wanted not in ids:
            raise StoreUsageError(f"--tournament {wanted}: not in this store ({', '.join(ids)})")
        return wanted
    if len(ids) != 1:
        listed = ", ".join(ids) or "none"
        raise StoreUsageError(f"name one with --tournament; the store holds: {listed}")
    return ids[0]


def open_store(path: str) -> SqliteStore:
    if not Path(path).is_file():
        raise StoreUsageError(f"--db {path}: no such event store")
    return SqliteStore(path)


def to_json(p: StandingsProjection) -> DbStandings:
    state = p.state
    created = state.created
    assert created is not None
    edition = state.edition or edition_for(created.start_date)
    running = state.paired if state.paired > state.closed else None
    return DbStandings(
        p.seq, edition.value, state.closed, running, [s.text for s in p.specs], p.standings()
    )


def standings_from_db(args: argparse.Namespace, out: io.TextIOBase) -> int:
    with open_store(args.db) as store:
        tid = pick_tournament(store, args.tournament)
        projection = service.load(store, tid, args.at_seq)
    write(projection, args.format, out)
    return 0


def rebuild_command(args: argparse.Namespace, out: io.TextIOBase) -> int:
    """Recompute every tournament (or one) from zero and save fresh snapshots. An unreadable
    one is reported by id on stderr and the others still rebuilt; then exit 2."""
    failed = 0
    with open_store(args.db) as store:
        ids = [pick_tournament(store, args.tournament)] if args.tournament else store.tournaments()
        for tid in ids:
            try:
                projection = service.rebuild(store, tid)
            except TournamentUnreadable as err:
                print(f"livetb: {err}", file=sys.stderr)
                failed += 1
                continue
            print(f"{tid}: rebuilt {projection.seq} events", file=out)
            if args.format == "json":
                write(projection, "json", out)
    if failed:
        print(f"livetb: {failed} of {len(ids)} tournament(s) could not be rebuilt", file=sys.stderr)
    return 2 if failed else 0


def write(projection: StandingsProjection, fmt: str, out: io.TextIOBase) -> None:
    data = to_json(projection)
    if fmt == "json":
        out.write(msgspec.json.encode(data).decode() + "\n")
        return
    from livetb.cli import print_table  # the CLI module imports this one
    from livetb.engine.standings import Row as EngineRow
    from livetb.engine.standings import Standings

    rows = tuple(EngineRow(r.rank, r.start_no, r.name, r.values) for r in data.standings)  # type: ignore[arg-type]
    title = f"{projection.state.created.name} — log seq {data.seq}"  # type: ignore[union-attr]
    print_table(Standings(data.edition, data.after_round, tuple(data.tiebreaks), rows), title, out)
