"""`livetb standings FILE`: standings with tie-breaks computed from a TRF file (individual or
team), in a table, JSON or CSV, or one participant's contributions with `--explain`. With `--db`
the standings come from an event store instead (`livetb.cli.db`)."""

from __future__ import annotations

import argparse
import io
import os

from livetb.cli.output import language, warn
from livetb.cli.parsers import DB_ENV
from livetb.cli.tables import preset, table, write
from livetb.errors import UsageError
from livetb.trf import TrfImport, load_trf
from livetb.trf.rounds import with_round_count


def standings_command(args: argparse.Namespace, out: io.TextIOBase) -> int:
    if args.file is None and args.db is None:
        args.db = os.environ.get(DB_ENV) or None  # a FILE given wins over the environment
    if (args.file is None) == (args.db is None):
        raise UsageError.of("cli.usage.file_or_db")
    if args.db is not None:
        from livetb.cli.db import standings_from_db

        return standings_from_db(args, out)
    if args.category is not None:
        raise UsageError.of("cli.usage.trf_categories")
    for flag, value in (("--tournament", args.tournament), ("--at-seq", args.at_seq)):
        if value is not None:
            raise UsageError.of("cli.usage.db_only", flag=flag)
    imported = with_round_count(load_trf(args.file), args.rounds, args.file)
    lang = language(args)
    warn(args.file, imported.warnings, lang)
    live = (args.after_round, args.explain, args.draw_lots) == (None, None, None)
    if args.rating_change:  # read off the log the file stands for, as the live server does
        if not live or args.as_final:
            raise UsageError.of("cli.usage.rating_change_live")
        return live_table(imported, args, out)
    if live and not args.as_final and imported.tournament.running_round:
        return live_table(imported, args, out)
    return table(imported.tournament, imported.team_event, args, out)


def live_table(imported: TrfImport, args: argparse.Namespace, out: io.TextIOBase) -> int:
    """A file exported mid-round, shown as the live server shows it: the rounds closed, the
    running round's finished games, the statuses and the Fore-Buchholz prediction (the
    `standings --db` document), from the events the file stands for."""
    from livetb.events.store import MemoryStore
    from livetb.interchange.importer import events_from_tournament, team_rosters
    from livetb.projections.standings import StandingsProjection

    rosters = team_rosters(imported, args.file)
    listed = preset(args, team=bool(rosters))
    events = events_from_tournament(
        imported.tournament,
        tiebreaks=[c.strip() for c in listed.split(",") if c.strip()] if listed else None,
        edition=args.edition,
        unrated_rating=args.unrated_rating,
        teams=rosters,
        announced=imported.announced_byes,
    )
    with MemoryStore() as store:
        store.append("file", 0, events, actor="import")
        projection = StandingsProjection.rebuild(store.read("file"))
    write(projection, args.format, out, language(args), rating_change=args.rating_change)
    return 0
