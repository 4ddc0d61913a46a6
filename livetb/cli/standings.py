"""`livetb standings FILE`: standings with tie-breaks computed from a TRF file (individual or
team), in a table, JSON or CSV, or one participant's contributions with `--explain`. With `--db`
the standings come from an event store instead (`livetb.cli.db`)."""

from __future__ import annotations

import argparse
import io
import os
import sys
from decimal import Decimal

import msgspec

from livetb.cli.output import UsageError, emit, format_value, language
from livetb.cli.parsers import DB_ENV, SYSTEMS
from livetb.engine.categories import category_text
from livetb.engine.context import Context
from livetb.engine.editions import Edition
from livetb.engine.model import Code, Tournament
from livetb.engine.result import Number
from livetb.engine.spec import Spec, parse_list
from livetb.engine.standings import CATALOGUE, compute, rank
from livetb.engine.teams import TeamEvent
from livetb.trf import TrfImport, load_trf


def default_tiebreaks(t: Tournament) -> str:
    if t.tiebreaks:
        return ",".join(t.tiebreaks)
    from livetb.events.schema import DEFAULT_TIEBREAKS

    return ",".join(DEFAULT_TIEBREAKS[t.system])


def preset(args: argparse.Namespace, team: bool = False) -> str | None:
    """--tiebreaks, or the --system preset's list; both at once is refused."""
    if args.system is None:
        return args.tiebreaks
    if args.tiebreaks:
        raise UsageError(f"--system {args.system} is a tie-break list: give it or --tiebreaks")
    if team:
        raise UsageError(f"--system {args.system}: individual events only")
    return SYSTEMS[args.system]


def standings_command(args: argparse.Namespace, out: io.TextIOBase) -> int:
    if args.file is None and args.db is None:
        args.db = os.environ.get(DB_ENV) or None  # a FILE given wins over the environment
    if (args.file is None) == (args.db is None):
        raise UsageError("give either a TRF file or --db")
    if args.db is not None:
        from livetb.cli.db import standings_from_db

        return standings_from_db(args, out)
    for flag, value in (("--tournament", args.tournament), ("--at-seq", args.at_seq)):
        if value is not None:
            raise UsageError(f"{flag}: only with --db (a TRF file holds one tournament, no log)")
    imported = load_trf(args.file)
    for warning in imported.warnings:
        print(f"livetb: warning: {args.file}: {warning}", file=sys.stderr)
    live = (args.after_round, args.explain, args.draw_lots) == (None, None, None)
    if live and not args.as_final and _running_round(imported.tournament):
        return live_table(imported, args, out)
    return table(imported.tournament, imported.team_event, args, out)


def live_table(imported: TrfImport, args: argparse.Namespace, out: io.TextIOBase) -> int:
    """A file exported mid-round, shown as the live server shows it: the rounds closed, the
    running round's finished games, the statuses and the Fore-Buchholz prediction (the
    `standings --db` document), from the events the file stands for."""
    from livetb.cli.db import team_rosters, write
    from livetb.events.store import MemoryStore
    from livetb.interchange.importer import events_from_tournament
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
    write(projection, args.format, out, language(args))
    return 0


def _running_round(t: Tournament) -> int | None:
    """The first round with a game paired but not finished, if any."""
    rounds = [
        rnd
        for p in t.participants
        for rnd, e in enumerate(p.entries, start=1)
        if e.code is Code.PENDING
    ]
    return min(rounds, default=None)


def table(
    t: Tournament, team_event: TeamEvent | None, args: argparse.Namespace, out: io.TextIOBase
) -> int:
    """The standings of `t` (or of its teams) as every option asks: the tail shared by a TRF
    file and a tournament read back from the event log."""
    t, args = _complete_rounds(t, args)
    if team_event is not None:
        from livetb.cli.team import team_standings

        if args.unrated_rating is not None:
            raise UsageError("--unrated-rating: team tie-breaks use no ratings")
        preset(args, team=True)
        return team_standings(args, team_event, out)
    in_file = max((len(p.entries) for p in t.participants), default=0)
    upto = t.played_rounds if args.after_round is None else args.after_round
    if not 0 <= upto <= in_file:
        raise UsageError(f"--after-round {upto}: the tournament has rounds 0..{in_file}")
    specs = parse_list(preset(args) or default_tiebreaks(t))
    ctx = Context(
        t,
        upto,
        edition=Edition(args.edition) if args.edition else None,
        as_final=args.as_final,
        unrated_rating=args.unrated_rating,
    )
    if args.explain is not None:
        return explain(ctx, specs, args.explain, out)
    ctx.explain = False  # the values only: per-round explanations cost most of the time
    return emit(rank(ctx, specs), args, t.name, out)


def _complete_rounds(
    t: Tournament, args: argparse.Namespace
) -> tuple[Tournament, argparse.Namespace]:
    """A round paired but not finished (a mid-round export, or the log while a round runs) is
    the running round: the table stops before it, by default and at most."""
    running = _running_round(t)
    if running is None:
        return t, args
    n = sum(p.entry(running).code is Code.PENDING for p in t.participants) // 2
    games = f"{n} game{'s' if n != 1 else ''} without a result"
    if args.after_round is None:
        print(
            f"livetb: note: round {running} is being played ({games}); "
            f"this table is after round {running - 1}",
            file=sys.stderr,
        )
        args = argparse.Namespace(**vars(args) | {"after_round": running - 1})
    elif args.after_round >= running:
        raise UsageError(
            f"--after-round {args.after_round}: round {running} is still being played "
            f"({games}); rounds 0..{running - 1} are complete"
        )
    cut = [msgspec.structs.replace(p, entries=p.entries[: running - 1]) for p in t.participants]
    return msgspec.structs.replace(t, participants=tuple(cut)), args


def explain(ctx: Context, specs: tuple[Spec, ...], no: int, out: io.TextIOBase) -> int:
    """Per tie-break: every round's contribution, the cut rounds and why, and each round's
    unplayed-rounds category."""
    if no not in ctx.by_no:
        raise UsageError(f"--explain {no}: no participant with that start number")
    p = ctx.by_no[no]
    print(f"{no} {p.name}: after round {ctx.upto}, C.07 edition {ctx.edition}", file=out)
    for r in ctx.rounds(no):
        opp = f"vs {r.opponent}" if r.opponent else "no opponent"
        print(
            f"  round {r.rnd}: {r.code.name} {opp}, {r.points} pts — {category_text(ctx, no, r)}",
            file=out,
        )
    for spec in specs:
        if spec.code not in CATALOGUE:
            print(f"{spec.text}: decided within the tied group (see the standings)", file=out)
            continue
        v = compute(ctx, spec, no)
        shown = "undefined (null)" if v.value is None else format_value(v.value)
        print(f"{spec.text} = {shown}", file=out)
        cut = dict(v.cut)
        for part in v.parts:
            mark = f"  [{cut[part.rnd]}]" if part.rnd in cut else ""
            print(
                f"  round {part.rnd}: {format_value(_dec(part.amount))} {part.note}{mark}", file=out
            )
        for rnd, why in v.cut:
            if not any(part.rnd == rnd for part in v.parts):
                print(f"  round {rnd}: {why}", file=out)
    return 0


def _dec(v: Number) -> Number:
    return v if isinstance(v, int) else Decimal(v)
