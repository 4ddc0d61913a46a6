"""A tournament out of the event log, in the formats arbiters exchange (`livetb export`,
`GET /api/tournaments/{id}/export?format=…`): TRF-16 or TRF-2026 (players, every round's
pairings and results, byes, withdrawals, tie-break list, dates, teams), the live standings as
CSV, or a printable HTML standings page (with the prize list when the tournament has prizes);
`prizes`: the prize list as CSV (`livetb/interchange/prize_export.py`)."""

from __future__ import annotations

import csv
import html
import io
from typing import TYPE_CHECKING, Literal, TypeGuard, get_args

import msgspec

from livetb import i18n
from livetb.engine.teams import Roster
from livetb.engine.untied import ASCII_DASH, DASH, alone
from livetb.errors import InvalidInput, Said
from livetb.trf.writer import write_trf

if TYPE_CHECKING:  # the store and the projection load when an export runs, not with the CLI
    from livetb.events.state import TournamentState
    from livetb.events.store import EventStore
    from livetb.projections.standings import StandingsProjection
    from livetb.wire.standings import DbStandings

Format = Literal["trf16", "trf26", "csv", "html", "prizes"]
FORMATS: tuple[str, ...] = get_args(Format)


def is_format(name: str) -> TypeGuard[Format]:
    """Whether `name` is one of `FORMATS` (a `?format=` as given)."""
    return name in FORMATS


class Exported(msgspec.Struct, frozen=True):
    """The file: its text, media type and a file name to save it under."""

    text: str
    media_type: str
    filename: str


_MEDIA = {"trf16": "text/plain", "trf26": "text/plain", "csv": "text/csv", "html": "text/html"}
_SUFFIX = {"trf16": "trf", "trf26": "trf", "csv": "csv", "html": "html"}
_MEDIA["prizes"], _SUFFIX["prizes"] = "text/csv", "csv"  # the prize list


def export(
    store: EventStore,
    tournament_id: str,
    fmt: Format,
    category: str | None = None,
    rating_change: bool = False,
) -> Exported:
    """Tournament `tournament_id` at the log's head as `fmt` (raises UnknownTournament)."""
    from livetb.projections import stored

    projection = stored.load(store, tournament_id)
    return exported(projection, tournament_id, fmt, category, rating_change)


def exported(
    projection: StandingsProjection,
    tournament_id: str,
    fmt: Format,
    category: str | None = None,
    rating_change: bool = False,
) -> Exported:
    """`projection`'s tournament as `fmt` (the server's exports run it off the event loop).
    The standings (csv, html) may be `category`'s only, ranks counted inside it, and carry
    each participant's rating change (raises `UnknownCategory`; a TRF takes neither:
    InvalidInput)."""
    from livetb.interchange.prize_export import prizes_csv, prizes_html
    from livetb.projections.categories import document_view
    from livetb.projections.document import to_json
    from livetb.projections.prizes import prize_list

    if fmt in ("trf16", "trf26"):
        if category is not None or rating_change:
            raise InvalidInput(Said("input.export_views"), path="format")
        text = trf_text(projection, fmt)
    elif fmt == "prizes":
        if category is not None or rating_change:
            raise InvalidInput(Said("input.export_prizes"), path="format")
        text = prizes_csv(prize_list(projection))
    else:
        doc = to_json(projection)
        document_view(doc, projection.state, category, rating_change)
        if fmt == "csv":
            text = standings_csv(doc)
        else:
            title = _name(projection.state)
            cat = next((c for c in projection.state.categories if c.code == category), None)
            text = standings_html(doc, title if cat is None else f"{title} — {cat.name}")
            if projection.state.prizes is not None and category is None:
                text = text.replace("</body>", prizes_html(prize_list(projection)) + "</body>")
    suffix = "-trf16" if fmt == "trf16" else "" if category is None else f"-{category}"
    suffix = "-prizes" if fmt == "prizes" else suffix
    filename = f"{tournament_id}{suffix}.{_SUFFIX[fmt]}"
    return Exported(text, _MEDIA[fmt], filename)


def trf_text(projection: StandingsProjection, fmt: Literal["trf16", "trf26"]) -> str:
    """The log's tournament as a TRF file; each participant's current place as the rank."""
    state = projection.state
    rosters = [Roster(r.number, r.name, r.members) for _, r in sorted(state.teams.items())]
    ranks = {} if rosters else {row.start_no: row.rank for row in projection.standings()}
    announced = [
        (rnd, no, code)
        for rnd, byes in state.byes.items()
        if rnd > state.paired
        for no, code in byes.items()
    ]
    return write_trf(state.tournament(), fmt, teams=rosters, ranks=ranks, announced=announced)


def _name(state: TournamentState) -> str:
    assert state.created is not None
    return state.created.name


def standings_csv(doc: DbStandings) -> str:
    """The standings as CSV; a group tie-break (DE) of a participant nobody is tied with is
    "-" (`livetb.engine.untied`), as the tables show it."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    rated = _rated(doc)  # the rating change asked for: its own column, after the tie-breaks
    w.writerow(["rank", "start_no", "name", *doc.tiebreaks, *(["rating_change"] if rated else [])])
    blank = alone(doc.tiebreaks, [r.values for r in doc.standings])
    for r, dashed in zip(doc.standings, blank, strict=True):
        cells = (
            ASCII_DASH if i in dashed else "" if v is None else v for i, v in enumerate(r.values)
        )
        change = [getattr(r, "rating_change", None) or ""] if rated else []
        w.writerow([r.rank, r.start_no, r.name, *cells, *change])
    return out.getvalue()


def _rated(doc: DbStandings) -> bool:
    """Whether the rows carry their rating change (`livetb.projections.ratings.RatedRow`)."""
    return any(hasattr(r, "rating_change") for r in doc.standings)


_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font: 11pt/1.35 system-ui, sans-serif; margin: 1.5cm; }}
h1 {{ font-size: 15pt; margin: 0 0 .2em; }}
p {{ margin: 0 0 1em; color: #444; }}
table {{ border-collapse: collapse; }}
th, td {{ padding: .15em .6em; border-bottom: 1px solid #ccc; text-align: right; }}
th {{ border-bottom: 2px solid #000; }}
td.name, th.name {{ text-align: left; }}
tr {{ break-inside: avoid; }}
@media print {{ body {{ margin: 0; }} thead {{ display: table-header-group; }} }}
</style>
</head>
<body>
<h1>{title}</h1>
<p>{subtitle}</p>
<table>
<thead><tr>{head}</tr></thead>
<tbody>
{rows}
</tbody>
</table>
</body>
</html>
"""


def standings_html(doc: DbStandings, name: str) -> str:
    """A printable standings page: one table, its header repeated on every printed page."""
    esc = html.escape
    running = (
        f"; round {doc.round_in_progress} in progress" if doc.round_in_progress is not None else ""
    )
    subtitle = f"After round {doc.after_round}{running} (C.07 edition {doc.edition})"
    head = "".join(
        f'<th scope="col"{cls}>{esc(text)}</th>'
        for text, cls in [("Rank", ""), ("No", ""), ("Name", ' class="name"')]
        + [(tb, "") for tb in doc.tiebreaks]
        + ([("Δ", "")] if _rated(doc) else [])
    )
    rated = _rated(doc)
    blank = alone(doc.tiebreaks, [r.values for r in doc.standings])
    alone_cell = f'<td title="{esc(i18n.text("en", "export.alone"))}">{DASH}</td>'
    rows = "\n".join(
        "<tr>"
        + f'<td>{r.rank}</td><td>{r.start_no}</td><td class="name">{esc(r.name)}</td>'
        + "".join(
            alone_cell if i in dashed else f"<td>{'' if v is None else esc(str(v))}</td>"
            for i, v in enumerate(r.values)
        )
        + (f"<td>{esc(getattr(r, 'rating_change', None) or '')}</td>" if rated else "")
        + "</tr>"
        for r, dashed in zip(doc.standings, blank, strict=True)
    )
    return _PAGE.format(title=esc(name), subtitle=esc(subtitle), head=head, rows=rows)
