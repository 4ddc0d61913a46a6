"""The `livetb` command line. `main(argv)` is callable in-process and returns the exit code;
no traceback reaches the user for anything the user can cause."""

from __future__ import annotations

import argparse
import csv
import io
import os
import sys
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path

import msgspec
from rich.console import Console
from rich.table import Table

from livetb import cli_server
from livetb.engine.categories import category_text
from livetb.engine.context import Context
from livetb.engine.editions import Edition
from livetb.engine.model import Tournament
from livetb.engine.result import Number
from livetb.engine.spec import Spec, parse_list
from livetb.engine.standings import CATALOGUE, Standings, compute, draw_lots, rank
from livetb.engine.teams import Roster, build_team_event
from livetb.errors import ImportUnsupported, LivetbError
from livetb.events.importer import events_from_tournament
from livetb.events.replay import replay
from livetb.events.schema import DEFAULT_TIEBREAKS, encode
from livetb.events.store import new_tournament_id
from livetb.trf import TrfImport, load_trf

DEFAULT_SWISS = ",".join(DEFAULT_TIEBREAKS["swiss"])
DEFAULT_ROUND_ROBIN = ",".join(DEFAULT_TIEBREAKS["roundrobin"])


class UsageError(LivetbError):
    """A command-line argument that does not fit the tournament."""

    code = "usage"


class JsonRow(msgspec.Struct):
    rank: int
    start_no: int
    name: str
    values: list[str | int | None]


class JsonStandings(msgspec.Struct):
    """The `--format json` contract other tools rely on."""

    edition: str
    after_round: int
    tiebreaks: list[str]
    standings: list[JsonRow]


def format_value(v: Number | str | None) -> str | int | None:
    """Decimals as strings (never floats), whole counts and ratings as ints."""
    if v is None or isinstance(v, int | str):
        return v
    if v == v.to_integral_value() and v.as_tuple().exponent >= 0:
        return f"{v:.1f}"
    return str(v)


def to_json(st: Standings) -> JsonStandings:
    rows = [
        JsonRow(r.rank, r.start_no, r.name, [format_value(v) for v in r.values]) for r in st.rows
    ]
    return JsonStandings(st.edition, st.after_round, list(st.tiebreaks), rows)


def default_tiebreaks(t: Tournament) -> str:
    if t.tiebreaks:
        return ",".join(t.tiebreaks)
    return DEFAULT_ROUND_ROBIN if t.system == "roundrobin" else DEFAULT_SWISS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="livetb", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    st = sub.add_parser(
        "standings", help="standings with tie-breaks from a TRF file, or from an event store"
    )
    st.add_argument("file", nargs="?", help="TRF-16 or TRF-2026 file (or use --db)")
    st.add_argument("--db", help="read the standings from this SQLite event store instead")
    st.add_argument("--tournament", help="with --db: the tournament id (if several)")
    st.add_argument("--at-seq", type=int, metavar="N", help="with --db: as of log sequence N")
    st.add_argument(
        "--tiebreaks",
        help="comma-separated list, e.g. PTS,BH/C1,BH,SB (default: "
        "the file's own list, else " + DEFAULT_SWISS + " / " + DEFAULT_ROUND_ROBIN + ")",
    )
    st.add_argument("--after-round", type=int, metavar="K", help="use rounds 1..K only")
    st.add_argument(
        "--as-final",
        action="store_true",
        help="treat round K as the last round (Fore-Buchholz prediction)",
    )
    st.add_argument(
        "--edition",
        choices=[e.value for e in Edition],
        help="unplayed-rounds rules (default: by the start date)",
    )
    st.add_argument(
        "--unrated-rating",
        type=int,
        metavar="N",
        help="rating used for unrated players in rating-based tie-breaks",
    )
    st.add_argument("--format", choices=["table", "json", "csv"], default="table")
    st.add_argument(
        "--explain",
        type=int,
        metavar="START_NO",
        help="show each tie-break's per-round contributions for one participant",
    )
    st.add_argument(
        "--draw-lots",
        type=int,
        metavar="SEED",
        help="break the ties left after the whole list by a seeded drawing of lots",
    )

    imp = sub.add_parser(
        "import",
        help="turn a TRF file into the events that would have produced it; print the new id",
    )
    imp.add_argument("file", help="TRF-16 or TRF-2026 file (individual events)")
    imp.add_argument("--db", required=True, help="SQLite event store (created if missing)")
    imp.add_argument(
        "--tiebreaks", help="comma-separated list (default: the file's own, else the system's)"
    )
    imp.add_argument("--edition", choices=[e.value for e in Edition], help="C.07 edition")
    imp.add_argument(
        "--unrated-rating", type=int, metavar="N", help="rating used for unrated players"
    )

    reb = sub.add_parser("rebuild", help="recompute standings from zero; save fresh snapshots")
    reb.add_argument("--db", required=True, help="SQLite event store")
    reb.add_argument("--tournament", help="only this tournament")
    reb.add_argument("--format", choices=["text", "json"], default="text")

    rep = sub.add_parser(
        "replay",
        help="re-append a tournament's events to a new tournament, paced like the original",
    )
    rep.add_argument("--db", required=True, help="SQLite event store")
    rep.add_argument("--tournament", required=True, metavar="ID", help="the log to replay")
    rep.add_argument(
        "--speed",
        type=float,
        default=1.0,
        metavar="N",
        help="divide the original gaps by N (equal timestamps: 1 s / N apart; 0: no waiting)",
    )
    rep.add_argument("--into", metavar="NEWID", help="id of the new tournament (default: fresh)")
    cli_server.add_parsers(sub)  # serve, demo, watch, token
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    out = sys.stdout
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    try:
        if args.command == "standings":
            return standings_command(args, out)
        if args.command == "import":
            return import_command(args, out)
        if args.command == "rebuild":
            from livetb.cli_db import rebuild_command  # the store: not for a file's standings

            return rebuild_command(args, out)
        if args.command == "replay":
            return replay_command(args, out)
        if args.command in cli_server.COMMANDS:
            return cli_server.run(args, out)
    except LivetbError as err:
        print(f"livetb: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise  # the reader left (`livetb replay … | head`): see run()
    except OSError as err:
        print(f"livetb: {err.filename or ''}: {err.strerror}", file=sys.stderr)
        return 2
    return 1


def run() -> None:
    """Console-script entry point."""
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # Nobody reads stdout any more: not an error. Point it at devnull so that the
        # interpreter's final flush does not complain either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    except KeyboardInterrupt:  # Ctrl-C during `livetb replay`: what was appended stays
        code = 130
    sys.exit(code)


def standings_command(args: argparse.Namespace, out: io.TextIOBase) -> int:
    if (args.file is None) == (args.db is None):
        raise UsageError("give either a TRF file or --db")
    if args.db is not None:
        from livetb.cli_db import standings_from_db

        return standings_from_db(args, out)
    imported = load_trf(args.file)
    for warning in imported.warnings:
        print(f"livetb: warning: {args.file}: {warning}", file=sys.stderr)
    # --- team events (issue 3): the same contract, teams as participants -----------------
    if imported.team_event is not None:
        from livetb.cli_team import team_standings  # imports this module: import on use

        return team_standings(args, imported.team_event, out)
    # --- individual events --------------------------------------------------------------------
    t = imported.tournament
    in_file = max((len(p.entries) for p in t.participants), default=0)
    upto = t.played_rounds if args.after_round is None else args.after_round
    if not 0 <= upto <= in_file:
        raise UsageError(f"--after-round {upto}: the file has rounds 0..{in_file}")
    specs = parse_list(args.tiebreaks or default_tiebreaks(t))
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


def emit(result: Standings, args: argparse.Namespace, title: str, out: io.TextIOBase) -> int:
    """Lots if asked, then the chosen format: the tail every standings command shares."""
    if args.draw_lots is not None:
        result = draw_lots(result, args.draw_lots)
    if args.format == "json":
        out.write(msgspec.json.encode(to_json(result)).decode() + "\n")
    elif args.format == "csv":
        write_csv(result, out)
    else:
        print_table(result, title, out)
    return 0


def import_command(args: argparse.Namespace, out: io.TextIOBase) -> int:
    """Print only the new tournament's id: scripts capture it."""
    imported = load_trf(args.file)
    for warning in imported.warnings:
        print(f"livetb: warning: {args.file}: {warning}", file=sys.stderr)
    rosters = team_rosters(imported, args.file)
    tiebreaks = None
    if args.tiebreaks:
        tiebreaks = [code.strip() for code in args.tiebreaks.split(",") if code.strip()]
        parse_list(tiebreaks, teams=bool(rosters))
    events = events_from_tournament(
        imported.tournament,
        tiebreaks=tiebreaks,
        edition=args.edition,
        unrated_rating=args.unrated_rating,
        teams=rosters,
    )
    from livetb.events.sqlite import SqliteStore

    with SqliteStore(args.db) as store:
        tournament_id = new_tournament_id()
        while store.head(tournament_id):
            tournament_id = new_tournament_id()
        store.append(tournament_id, 0, events, actor="import")
    print(tournament_id, file=out)
    return 0


def team_rosters(imported: TrfImport, file: str) -> tuple[Roster, ...]:
    """The teams of a team file, when its matches follow from the rosters and the board games
    alone (what the log records); the records that say more are refused by number."""
    if not imported.is_team:
        return ()
    rosters = tuple(Roster(t.number, t.name, t.members) for t in imported.teams)
    if imported.team_event != build_team_event(imported.tournament, rosters):
        raise ImportUnsupported(
            f"{file}: the team records 300/310/320/330/352/362 (line-ups, team-level rounds, "
            "board colours, match points) cannot be imported yet: only 013 teams"
        )
    return rosters


def replay_command(args: argparse.Namespace, out: io.TextIOBase) -> int:
    """One line per re-appended event: `<new id> <seq> <event as JSON>`."""
    if not Path(args.db).is_file():
        raise UsageError(f"--db {args.db}: no such event store")
    if args.speed < 0:
        raise UsageError(f"--speed {args.speed}: must be 0 (no waiting) or more")
    from livetb.events.sqlite import SqliteStore

    with SqliteStore(args.db) as store:
        target = args.into or new_tournament_id()
        for rec in replay(store, args.tournament, target, speed=args.speed):
            print(f"{rec.tournament_id} {rec.seq} {encode(rec.event).decode()}", file=out)
            out.flush()
    return 0


def write_csv(st: Standings, out: io.TextIOBase) -> None:
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["rank", "start_no", "name", *st.tiebreaks])
    for r in st.rows:
        w.writerow(
            [r.rank, r.start_no, r.name, *("" if v is None else format_value(v) for v in r.values)]
        )


def print_table(st: Standings, title: str, out: io.TextIOBase) -> None:
    header = ("Rank", "No", "Name", *st.tiebreaks)
    body = [
        (
            str(r.rank),
            str(r.start_no),
            r.name,
            *("-" if v is None else str(format_value(v)) for v in r.values),
        )
        for r in st.rows
    ]
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    table = Table(title=f"{title} — after round {st.after_round} (C.07 edition {st.edition})")
    for col in header:
        table.add_column(col, justify="left" if col == "Name" else "right", no_wrap=True)
    for row in body:
        table.add_row(*row)
    # Wide enough that no column is squeezed: a standings table must be read whole.
    Console(file=out, width=max(80, sum(widths) + 3 * len(widths) + 1)).print(table)


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
