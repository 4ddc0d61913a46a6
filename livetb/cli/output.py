"""What every standings command shares: the usage error, and the table, JSON or CSV output."""

from __future__ import annotations

import argparse
import csv
import io

import msgspec

from livetb.engine.standings import Standings, draw_lots
from livetb.errors import LivetbError
from livetb.standings_doc import format_value, standings_json


class UsageError(LivetbError):
    """A command-line argument that does not fit the tournament."""

    code = "usage"


def emit(result: Standings, args: argparse.Namespace, title: str, out: io.TextIOBase) -> int:
    """Lots if asked, then the chosen format: the tail every standings command shares."""
    if args.draw_lots is not None:
        result = draw_lots(result, args.draw_lots)
    if args.format == "json":
        out.write(msgspec.json.encode(standings_json(result)).decode() + "\n")
    elif args.format == "csv":
        write_csv(result, out)
    else:
        print_table(result, title, out)
    return 0


def write_csv(st: Standings, out: io.TextIOBase) -> None:
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["rank", "start_no", "name", *st.tiebreaks])
    for r in st.rows:
        w.writerow(
            [r.rank, r.start_no, r.name, *("" if v is None else format_value(v) for v in r.values)]
        )


def print_table(st: Standings, title: str, out: io.TextIOBase) -> None:
    from rich.console import Console
    from rich.table import Table

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
