"""The `livetb` command line. `main(argv)` is callable in-process and returns the exit code;
no traceback reaches the user for anything the user can cause.

One module per command group: `standings` (from a TRF file), `db` (import, standings --db,
rebuild, replay), `export`, `pgn` (results from PGN), `team` (team files' standings), `server`
(serve, demo, watch, token); `output` holds the table/JSON/CSV tail they share.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from livetb.cli import db, export, pgn, server, standings
from livetb.errors import LivetbError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="livetb", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    standings.add_parsers(sub)
    db.add_parsers(sub)  # import, rebuild, replay
    export.add_parsers(sub)
    pgn.add_parsers(sub)
    server.add_parsers(sub)  # serve, demo, watch, token
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    out = sys.stdout
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    try:
        if args.command == "standings":
            return standings.standings_command(args, out)
        if args.command == "import":
            return db.import_command(args, out)
        if args.command == "rebuild":
            return db.rebuild_command(args, out)
        if args.command == "replay":
            return db.replay_command(args, out)
        if args.command == "export":
            return export.export_command(args, out)
        if args.command == "pgn":
            return pgn.pgn_command(args, out)
        if args.command in server.COMMANDS:
            return server.run(args, out)
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
