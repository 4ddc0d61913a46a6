"""`livetb watch`: a terminal live view (rich) redrawn on every delta of the feed; piped or
written to a file, one table per update instead, each written as it comes."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from typing import IO, cast

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.table import Table
from rich.text import Text

from livetb import i18n
from livetb.client import LocalStandings, follow
from livetb.wire.messages import DeltaMessage, SnapshotMessage
from livetb.wire.standings import Row

STATUS_STYLE = {
    "final": "",
    "provisional": "italic",
    "pending": "underline",
    "predicted": "dim italic",
}


def shown(rows: list[Row], top: int, follow_no: int | None) -> list[Row | None]:
    """The first `top` rows, then (None as a gap) the followed participant and neighbours."""
    head: list[Row | None] = list(rows[:top])
    if follow_no is None:
        return head
    at = next((i for i, r in enumerate(rows) if r.start_no == follow_no), None)
    if at is None or at < top:
        return head
    lo = max(top, at - 2)
    return [*head, *([None] if lo > top else []), *rows[lo : at + 3]]


def render(
    local: LocalStandings,
    tournament: str,
    changed: set[int],
    follow_no: int | None = None,
    top: int = 20,
    lang: str = "en",
) -> RenderableType:
    doc = local.doc
    if doc is None:
        return Text(i18n.text(lang, "cli.waiting", tournament=tournament))
    running = doc.round_in_progress
    during = i18n.text(lang, "cli.watch_running", round=running) if running else ""
    title = i18n.text(
        lang, "cli.watch_title", tournament=tournament, round=doc.after_round, running=during,
        seq=doc.seq,
    )  # fmt: skip
    table = Table(title=title)
    words = i18n.catalog(lang)
    for i, col in enumerate((words["cli.rank"], words["cli.no"], words["cli.name"])):
        table.add_column(col, justify="left" if i == 2 else "right", no_wrap=True)
    for col in doc.tiebreaks:
        table.add_column(col, justify="right", no_wrap=True)
    for row in shown(doc.standings, top, follow_no):
        if row is None:
            table.add_row("…", "", "", *("" for _ in doc.tiebreaks))
            continue
        values = [
            Text("-" if v is None else i18n.number(lang, v), style=STATUS_STYLE[s])
            for v, s in zip(row.values, row.statuses, strict=True)
        ]
        style = "bold reverse" if row.start_no == follow_no else ""
        style = f"{style} yellow".strip() if row.start_no in changed else style
        table.add_row(str(row.rank), str(row.start_no), row.name, *values, style=style)
    legend = Text(words["cli.legend"], style="dim")
    return Group(table, legend)


async def watch(
    url: str,
    tournament: str,
    follow_no: int | None = None,
    top: int = 20,
    count: int | None = None,
    out: io.TextIOBase | None = None,
    token: str | None = None,
    lang: str = "en",
    category: str | None = None,
) -> LocalStandings:
    """Redraw on every snapshot and delta; stop after `count` of them (None: never). Not in a
    terminal (a pipe, a file), each update's table is written after the last one, at once:
    a live view there would write only when it stops.

    `token`: one of the tournament's tokens, needed if it is private; `lang`: the catalog;
    `category`: only that category's standings, ranks counted inside it."""
    local = LocalStandings()
    # The text streams given (sys.stdout, StringIO) are IO[str]; typeshed's TextIOBase is not.
    console = Console(file=cast(IO[str], out)) if out is not None else Console()
    if not console.is_terminal:
        async for changed in updates(url, tournament, local, count, token, category):
            console.print(render(local, tournament, changed, follow_no, top, lang))  # flushed
        return local
    first = render(local, tournament, set(), lang=lang)
    with Live(first, console=console, auto_refresh=False) as live:
        async for changed in updates(url, tournament, local, count, token, category):
            live.update(render(local, tournament, changed, follow_no, top, lang), refresh=True)
    return local


async def updates(
    url: str,
    tournament: str,
    local: LocalStandings,
    count: int | None,
    token: str | None,
    category: str | None,
) -> AsyncIterator[set[int]]:
    """The start numbers each snapshot or delta changed, once `local` has it; `count` of
    them (None: for as long as the feed runs)."""
    seen = 0
    async for msg in follow(url, tournament, local, token=token, category=category):
        if not isinstance(msg, SnapshotMessage | DeltaMessage):
            continue
        yield {r.start_no for r in msg.rows} if isinstance(msg, DeltaMessage) else set()
        seen += 1
        if count is not None and seen >= count:
            return
