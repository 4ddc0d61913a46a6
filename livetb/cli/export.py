"""`livetb export`: a tournament of the event store as TRF-16, TRF-2026, CSV or printable HTML."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from livetb.cli.db import open_store, pick_tournament
from livetb.export import FORMATS, export


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    exp = sub.add_parser(
        "export", help="write a tournament of the store as TRF-16, TRF-2026, CSV or HTML"
    )
    exp.add_argument("--db", required=True, help="SQLite event store")
    exp.add_argument("--tournament", metavar="ID", help="the tournament (if several)")
    exp.add_argument(
        "--format",
        choices=FORMATS,
        default="trf26",
        help="trf26 (default), trf16, csv (the standings) or html (a printable standings page)",
    )
    exp.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")


def export_command(args: argparse.Namespace, out: io.TextIOBase) -> int:
    with open_store(args.db) as store:
        exported = export(store, pick_tournament(store, args.tournament), args.format)
    if args.output is None:
        out.write(exported.text)  # TRF line ends stay CRLF (TRF.md 9.1)
        return 0
    Path(args.output).write_bytes(exported.text.encode("utf-8"))
    return 0
