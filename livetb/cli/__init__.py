"""The `livetb` command line. `main(argv)` is callable in-process and returns the exit code;
no traceback reaches the user for anything the user can cause.

One module per command group: `standings` (from a TRF file), `db` (import, standings --db,
rebuild, replay), `export`, `pgn` (results from PGN), `team` (team files' standings), `server`
(serve, demo, watch, token); `output` holds the table/JSON/CSV tail they share, `parsers`
every command's arguments and `argparsing` argparse in the reader's language. A command
imports only its own module.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from livetb import i18n
from livetb.cli.argparsing import argv_language
from livetb.cli.parsers import build_parser
from livetb.errors import LivetbError

# command -> (module, function): the module is imported only when its command runs
COMMANDS = {
    "standings": ("standings", "standings_command"),
    "import": ("db", "import_command"),
    "rebuild": ("db", "rebuild_command"),
    "replay": ("db", "replay_command"),
    "export": ("export", "export_command"),
    "prizes": ("prizes", "prizes_command"),
    "pgn": ("pgn", "pgn_command"),
    "sync": ("sync", "sync_command"),
    **dict.fromkeys(("serve", "demo", "watch", "token"), ("server", "run")),
}


def main(argv: Sequence[str] | None = None) -> int:
    out = sys.stdout
    argv = sys.argv[1:] if argv is None else list(argv)
    try:  # the parser speaks the command's language: its help and usage errors come first
        args = build_parser(argv_language(argv)).parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    try:
        module, function = COMMANDS[args.command]
        command = getattr(importlib.import_module(f"livetb.cli.{module}"), function)
        return int(command(args, out))
    except LivetbError as err:
        from livetb.cli.output import error_line

        print(error_line(err, _language(args)), file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise  # the reader left (`livetb replay … | head`): see run()
    except OSError as err:
        said = i18n.text(
            _language(args), "cli.os_error", file=err.filename or "", reason=err.strerror
        )
        print(said, file=sys.stderr)
        return 2


def _language(args: argparse.Namespace) -> str:
    """The command's language (`livetb.cli.output.language`), that module loaded only now."""
    from livetb.cli.output import language

    return language(args)


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
