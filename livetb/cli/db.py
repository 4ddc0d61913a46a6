"""`livetb import`, `standings --db`, `rebuild` and `replay`: the event store's commands.
Standings are read from the store at the head or at any sequence number (time travel).
`--db` is a SQLite file or a PostgreSQL URL (`livetb.backends`)."""

from __future__ import annotations

import argparse
import io
import sys

from livetb import i18n
from livetb.backends import backend, open_store
from livetb.cli.output import error_line, language, warn
from livetb.cli.progress import Advance, Tracked, bar
from livetb.cli.tables import preset, write
from livetb.engine.spec import parse_list
from livetb.engine.teams import Roster, build_team_event
from livetb.errors import TournamentUnreadable, UnknownTournament, UsageError
from livetb.events.replay import replay
from livetb.events.schema import encode
from livetb.events.state import TournamentState
from livetb.events.store import EventStore, new_tournament_id
from livetb.interchange.importer import events_from_tournament, team_rosters
from livetb.projections import stored
from livetb.trf import load_trf
from livetb.trf.rounds import with_round_count


def pick_tournament(store: EventStore, wanted: str | None) -> str:
    ids = store.tournaments()
    if wanted is not None:
        if wanted not in ids:
            raise UsageError.of(
                "cli.usage.not_in_store", tournament=wanted, tournaments=", ".join(ids)
            )
        return wanted
    if not ids:
        raise UsageError.of("cli.usage.no_tournament")
    if len(ids) != 1:
        raise UsageError.of("cli.usage.which_tournament", tournaments=", ".join(ids))
    return ids[0]


def existing_store(target: str) -> EventStore:
    """The store `target` names; a SQLite path must name an existing file (a URL's schema is
    created on open, empty)."""
    if not backend(target).exists(target):
        raise UsageError.of("cli.usage.no_store", store=target)
    return open_store(target)


# Options that ask for a table the live projection does not keep: with any of them the
# standings are computed from the log's state as from a TRF file (`livetb.cli.standings.table`),
# in the file's JSON contract, so that `--db` and FILE answer alike.
COMPUTED = (
    "tiebreaks",
    "system",
    "after_round",
    "as_final",
    "edition",
    "unrated_rating",
    "explain",
)


def standings_from_db(args: argparse.Namespace, out: io.TextIOBase) -> int:
    with existing_store(args.db) as store:
        tid = pick_tournament(store, args.tournament)
        if any(getattr(args, name) not in (None, False) for name in COMPUTED):
            if args.category is not None or args.rating_change:
                raise UsageError.of("cli.usage.live_only")
            state = fold_at(store, tid, args.at_seq)
            return computed(state, args, out)
        projection = stored.load(store, tid, args.at_seq)
    if args.draw_lots is not None:
        raise UsageError.of("cli.usage.draw_lots_live")
    write(projection, args.format, out, language(args), args.category, args.rating_change)
    return 0


def fold_at(store: EventStore, tid: str, at_seq: int | None) -> TournamentState:
    """The tournament's state after event `at_seq` (default: the head)."""
    if store.head(tid) == 0:
        raise UnknownTournament(tid)
    state = TournamentState()
    for rec in store.read(tid):
        if at_seq is not None and rec.seq > at_seq:
            break
        state.apply(rec.event)
    return state


def computed(state: TournamentState, args: argparse.Namespace, out: io.TextIOBase) -> int:
    """The log's tournament through the file's path. The log's own settings (edition, rating
    for the unrated) are the defaults; a round with a game still running is not counted."""
    from livetb.cli.tables import table

    created = state.created
    assert created is not None
    t = state.tournament()
    team_event = None
    if state.teams:
        rosters = [Roster(r.number, r.name, r.members) for _, r in sorted(state.teams.items())]
        team_event = build_team_event(t, rosters)
    options = vars(args) | {
        "edition": args.edition or created.edition,
        "unrated_rating": (
            created.unrated_rating if args.unrated_rating is None else args.unrated_rating
        ),
    }
    if team_event is not None and args.unrated_rating is None:
        options["unrated_rating"] = None  # the log's setting, which team tie-breaks never read
    return table(t, team_event, argparse.Namespace(**options), out)


def rebuild_command(args: argparse.Namespace, out: io.TextIOBase) -> int:
    """Recompute every tournament (or one) from zero and save fresh snapshots. An unreadable
    one is reported by id on stderr and the others still rebuilt; then exit 2."""
    failed = 0
    lang = language(args)
    with existing_store(args.db) as store:
        ids = [pick_tournament(store, args.tournament)] if args.tournament else store.tournaments()
        for tid in ids:
            label = i18n.text(lang, "cli.rebuild.progress", tournament=tid)
            try:
                with bar(label, store.head(tid)) as advance:
                    projection = stored.rebuild(Tracked(store, advance), tid)
            except TournamentUnreadable as err:
                print(error_line(err, lang), file=sys.stderr)
                failed += 1
                continue
            done = i18n.text(lang, "cli.rebuild.done", tournament=tid, events=projection.seq)
            print(done, file=out)
            if args.format == "json":
                write(projection, "json", out)
    if failed:
        said = i18n.text(lang, "cli.rebuild.failed", failed=failed, total=len(ids))
        print(said, file=sys.stderr)
    return 2 if failed else 0


def import_command(args: argparse.Namespace, out: io.TextIOBase) -> int:
    """Print only the new tournament's id: scripts capture it."""
    lang = language(args)
    with bar(i18n.text(lang, "cli.import.reading", file=args.file), 3) as advance:
        return _import(args, out, advance, lang)


def _import(args: argparse.Namespace, out: io.TextIOBase, advance: Advance, lang: str) -> int:
    imported = with_round_count(load_trf(args.file), args.rounds, args.file)
    advance(description=i18n.text(lang, "cli.import.converting"))
    warn(args.file, imported.warnings, lang)
    rosters = team_rosters(imported, args.file)
    tiebreaks = None
    listed = preset(args, team=bool(rosters))
    if listed:
        tiebreaks = [code.strip() for code in listed.split(",") if code.strip()]
        parse_list(tiebreaks, teams=bool(rosters))
    events = events_from_tournament(
        imported.tournament,
        tiebreaks=tiebreaks,
        edition=args.edition,
        unrated_rating=args.unrated_rating,
        teams=rosters,
        announced=imported.announced_byes,
    )
    stored.readable(events)  # as strict as every later reader: the log is append-only
    advance(description=i18n.text(lang, "cli.import.storing", count=len(events)))
    with open_store(args.db) as store:
        tournament_id = new_tournament_id()
        while store.head(tournament_id):
            tournament_id = new_tournament_id()
        store.append(tournament_id, 0, events, actor="import")
    advance()
    print(tournament_id, file=out)
    return 0


def replay_command(args: argparse.Namespace, out: io.TextIOBase) -> int:
    """One line per re-appended event, `<new id> <seq> <event as JSON>`, when paced (or with
    --echo); with --speed 0 only the new id and the count (--echo prints the events too)."""
    if args.speed < 0:
        raise UsageError.of("cli.usage.speed", speed=args.speed)
    echo = args.speed > 0 if args.echo is None else args.echo
    lang = language(args)
    with existing_store(args.db) as store:
        target = args.into or new_tournament_id()
        count = 0
        label = i18n.text(lang, "cli.replay.progress", tournament=args.tournament, target=target)
        with bar(label, store.head(args.tournament)) as advance:
            for rec in replay(store, args.tournament, target, speed=args.speed):
                count += 1
                advance()
                if echo:
                    print(f"{rec.tournament_id} {rec.seq} {encode(rec.event).decode()}", file=out)
                    out.flush()
    if not echo:
        done = i18n.text(
            lang, "cli.replay.done", target=target, count=count, tournament=args.tournament
        )
        print(done, file=out)
    return 0
