"""`livetb prizes --db DB --tournament ID [--format table|json|csv]`: the prize list now, as
`GET /api/tournaments/{id}/prizes` answers it (`livetb/projections/prizes.py`): provisional
while rounds remain, final after the last round is closed."""

from __future__ import annotations

import argparse
import io
from decimal import Decimal

import msgspec

from livetb import i18n
from livetb.cli.db import existing_store, pick_tournament
from livetb.cli.output import language
from livetb.interchange.prize_export import prizes_csv
from livetb.projections import stored
from livetb.projections.prizes import PrizeList, prize_list


def prizes_command(args: argparse.Namespace, out: io.TextIOBase) -> int:
    with existing_store(args.db) as store:
        tid = pick_tournament(store, args.tournament)
        projection = stored.load(store, tid, None)
    doc = prize_list(projection)
    if args.format == "json":
        out.write(msgspec.json.format(msgspec.json.encode(doc)).decode() + "\n")
    elif args.format == "csv":
        out.write(prizes_csv(doc))
    else:
        out.write(table(doc, language(args)))
    return 0


def table(doc: PrizeList, lang: str) -> str:
    """Every prize of the table by list and place, with who takes it now (a shared place: one
    line per participant); a place nobody takes says so."""
    say = i18n.catalog(lang)
    status = say[f"prize.status.{doc.status}"]
    if doc.rule is None:
        return f"{say['prize.title']} · {status}\n{say['prize.none']}\n"
    names = {info.code: say["prize.list.main"] if info.name is None else info.name
             for info in doc.lists}  # fmt: skip
    header = (say["prize.cli.list"], say["prize.col.place"], say["prize.col.amount"],
              say["prize.cli.no"], say["prize.cli.name"])  # fmt: skip
    body: list[tuple[str, ...]] = []
    for p in doc.prizes:
        mine = [a for a in doc.awards if a.list == p.list and a.places[0] == p.place]
        covered = any(a.list == p.list and a.places[0] < p.place <= a.places[1]
                      for a in doc.awards)  # fmt: skip
        if covered:
            continue  # in the share of an earlier place's line
        if not mine:
            body.append((names.get(p.list, p.list), str(p.place), _money(lang, p.amount, doc,
                         p.label), "", say["prize.unawarded"]))  # fmt: skip
        for a in mine:
            place = str(a.place) if a.places[0] == a.places[1] else f"{a.places[0]}-{a.places[1]}"
            # a trophy without an amount: its label in the amount's column, each sharer's
            trophy = bool(p.label) and Decimal(a.amount) == 0
            name = a.name + (f" ({a.label})" if a.label and not trophy else "")
            body.append((names.get(a.list, a.list), place, _money(lang, a.amount, doc, p.label),
                         str(a.start_no), name))  # fmt: skip
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]

    def line(cells: tuple[str, ...]) -> str:
        return "  ".join(
            c.ljust(w) if i in (0, 4) else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    lines = [f"{say['prize.title']} · {status}", line(header)]
    lines.append("  ".join("-" * w for w in widths))
    lines += [line(row) for row in body]
    return "\n".join(lines) + "\n"


def _money(lang: str, amount: str, doc: PrizeList, label: str = "") -> str:
    """An amount and its currency; a trophy without an amount is its label, never 0.00."""
    if label and Decimal(amount) == 0:
        return label
    return f"{i18n.number(lang, amount)} {doc.currency}"
