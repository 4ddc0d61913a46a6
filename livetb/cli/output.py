"""What every standings command shares: the usage error, and the table, JSON or CSV output with
the `--format json` contract of a computed table (`JsonStandings`)."""

from __future__ import annotations

import argparse
import csv
import io
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Protocol

import msgspec

from livetb import i18n
from livetb.engine.result import Number
from livetb.engine.standings import Standings, draw_lots
from livetb.engine.untied import ASCII_DASH, DASH, alone
from livetb.errors import LivetbError, Worded


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
    exponent = v.as_tuple().exponent  # a letter only for NaN and Infinity
    if v == v.to_integral_value() and isinstance(exponent, int) and exponent >= 0:
        return f"{v:.1f}"
    return str(v)


def standings_json(st: Standings) -> JsonStandings:
    rows = [
        JsonRow(r.rank, r.start_no, r.name, [format_value(v) for v in r.values]) for r in st.rows
    ]
    return JsonStandings(st.edition, st.after_round, list(st.tiebreaks), rows)


def emit(result: Standings, args: argparse.Namespace, title: str, out: io.TextIOBase) -> int:
    """Lots if asked, then the chosen format: the tail every standings command shares."""
    if args.draw_lots is not None:
        result = draw_lots(result, args.draw_lots)
    if args.format == "json":
        out.write(msgspec.json.encode(standings_json(result)).decode() + "\n")
    elif args.format == "csv":
        write_csv(result, out)
    else:
        print_table(result, title, out, language(args))
    return 0


def write_csv(st: Standings, out: io.TextIOBase) -> None:
    """A group tie-break of a participant nobody is tied with is "-" (`untied.alone`)."""
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["rank", "start_no", "name", *st.tiebreaks])
    blank = alone(st.tiebreaks, [r.values for r in st.rows])
    for r, dashed in zip(st.rows, blank, strict=True):
        cells = (
            ASCII_DASH if i in dashed else "" if v is None else format_value(v)
            for i, v in enumerate(r.values)
        )
        w.writerow([r.rank, r.start_no, r.name, *cells])


def language(args: argparse.Namespace) -> str:
    import os

    return i18n.cli_language(getattr(args, "lang", None), dict(os.environ))


def error_line(err: LivetbError, lang: str) -> str:
    """An error as every command prints it, in `lang`."""
    return i18n.text(lang, "cli.error", message=err.words(lang))


def warn(file: str, warnings: Iterable[Worded], lang: str) -> None:
    """A file's warnings on stderr, in `lang`, each after the file's name."""
    for warning in warnings:
        print(
            i18n.text(lang, "cli.warning", file=file, warning=warning.words(lang)), file=sys.stderr
        )


class TableRow(Protocol):
    """A row `print_table` draws: the engine's (numbers) or the live document's (formatted)."""

    @property
    def rank(self) -> int: ...
    @property
    def start_no(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def values(self) -> Sequence[Number | str | None]: ...


class Table(Protocol):
    """What `print_table` draws: a computed `Standings`, or the live document's rows."""

    @property
    def edition(self) -> str: ...
    @property
    def after_round(self) -> int: ...
    @property
    def tiebreaks(self) -> Sequence[str]: ...
    @property
    def rows(self) -> Sequence[TableRow]: ...


def print_table(
    st: Table,
    title: str,
    out: io.TextIOBase,
    lang: str = "en",
    extra: Sequence[tuple[str, Sequence[str | None]]] = (),
) -> None:
    """The table in a heavy-headed box, every column as wide as its widest cell: a standings
    table is read whole, never squeezed. Drawn here rather than with rich, whose layout engine
    costs more than the tie-breaks for a 150-player table. `extra`: more columns after the
    tie-breaks, each a header and a value per row (exact decimals as text, None: a dash)."""
    words = i18n.catalog(lang)
    header = (
        words["cli.rank"],
        words["cli.no"],
        words["cli.name"],
        *st.tiebreaks,
        *(name for name, _ in extra),
    )
    blank = alone(st.tiebreaks, [r.values for r in st.rows])  # DE of nobody tied: a dash
    body = [
        (
            str(r.rank),
            str(r.start_no),
            r.name,
            *(
                DASH if i in dashed else "-" if v is None else i18n.number(lang, format_value(v))
                for i, v in enumerate(r.values)
            ),
            *("-" if column[k] is None else i18n.number(lang, column[k]) for _, column in extra),
        )
        for k, (r, dashed) in enumerate(zip(st.rows, blank, strict=True))
    ]
    widths = [max(_width(row[i]) for row in [header, *body]) for i in range(len(header))]

    def line(cells: tuple[str, ...], bar: str) -> str:
        padded = (
            c + " " * (w - _width(c)) if i == 2 else " " * (w - _width(c)) + c
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )
        return bar + bar.join(f" {c} " for c in padded) + bar

    def rule(left: str, fill: str, mid: str, right: str) -> str:
        return left + mid.join(fill * (w + 2) for w in widths) + right

    top = rule("┏", "━", "┳", "┓")
    caption = i18n.text(lang, "cli.caption", title=title, round=st.after_round, edition=st.edition)
    lines = [caption.center(_width(top)).rstrip(), top, line(header, "┃")]
    lines.append(rule("┡", "━", "╇", "┩"))
    lines += [line(row, "│") for row in body]
    lines.append(rule("└", "─", "┴", "┘"))
    out.write("\n".join(lines) + "\n")


def _width(text: str) -> int:
    """Terminal columns: East Asian wide characters take two."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
