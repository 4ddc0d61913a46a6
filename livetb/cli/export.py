"""`livetb export`: a tournament of the event store as TRF-16, TRF-2026, CSV or printable HTML."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from livetb import i18n
from livetb.cli.db import existing_store, pick_tournament
from livetb.cli.output import language
from livetb.cli.progress import Tracked, bar
from livetb.errors import UsageError
from livetb.interchange.export import export
from livetb.projections.categories import UnknownCategory


def export_command(args: argparse.Namespace, out: io.TextIOBase) -> int:
    with existing_store(args.db) as store:
        tid = pick_tournament(store, args.tournament)
        label = i18n.text(language(args), "cli.export.progress", tournament=tid, format=args.format)
        with bar(label, store.head(tid)) as advance:
            try:
                exported = export(
                    Tracked(store, advance), tid, args.format, args.category, args.rating_change
                )
            except UnknownCategory as err:
                raise UsageError.of("cli.usage.category", reason=err.said()) from None
    if args.output is None:
        out.write(exported.text)  # TRF line ends stay CRLF (TRF.md 9.1)
        return 0
    Path(args.output).write_bytes(exported.text.encode("utf-8"))
    return 0
