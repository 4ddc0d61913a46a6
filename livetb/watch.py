"""`livetb watch`: a terminal live view (rich) redrawn on every delta of the feed."""

from __future__ import annotations

import io

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.table import Table
from rich.text import Text

from livetb.client import LocalStandings, follow
from livetb.messages import DeltaMessage, SnapshotMessage
from livetb.projections.standings import Row

STATUS_STYLE = {"final": "", "provisional": "italic", "predicted": "dim italic"}


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
) -> RenderableType:
    doc = local.doc
    if doc is None:
        return Text(f"waiting for tournament {tournament}…")
    running = f", round {doc.round_in_progress} in progress" if doc.round_in_progress else ""
    table = Table(title=f"{tournament} — after round {doc.after_round}{running} — seq {doc.seq}")
    for col in ("Rank", "No", "Name", *doc.tiebreaks):
        table.add_column(col, justify="left" if col == "Name" else "right", no_wrap=True)
    for row in shown(doc.standings, top, follow_no):
        if row is None:
            table.add_row("…", "", "", *("" for _ in doc.tiebreaks))
            continue
        values = [
            Text("-" if v is None else str(v), style=STATUS_STYLE[s])
            for v, s in zip(row.values, row.statuses, strict=True)
        ]
        style = "bold reverse" if row.start_no == follow_no else ""
        style = f"{style} yellow".strip() if row.start_no in changed else style
        table.add_row(str(row.rank), str(row.start_no), row.name, *values, style=style)
    legend = Text("italic: provisional, dim: predicted, yellow: just changed", style="dim")
    return Group(table, legend)


async def watch(
    url: str,
    tournament: str,
    follow_no: int | None = None,
    top: int = 20,
    count: int | None = None,
    out: io.TextIOBase | None = None,
    token: str | None = None,
) -> LocalStandings:
    """Redraw on every snapshot and delta; stop after `count` of them (None: never).

    `token`: one of the tournament's tokens, needed if it is private."""
    local = LocalStandings()
    console = Console(file=out) if out is not None else Console()
    with Live(render(local, tournament, set()), console=console, auto_refresh=False) as live:
        seen = 0
        async for msg in follow(url, tournament, local, token=token):
            if not isinstance(msg, SnapshotMessage | DeltaMessage):
                continue
            changed = {r.start_no for r in msg.rows} if isinstance(msg, DeltaMessage) else set()
            live.update(render(local, tournament, changed, follow_no, top), refresh=True)
            seen += 1
            if count is not None and seen >= count:
                break
    return local
