"""The prize list in the exports: `livetb export --format prizes` and `GET …/export?format=prizes`
(CSV, one line per award), and a section of the printable HTML standings page."""

from __future__ import annotations

import csv
import html
import io
from decimal import Decimal

from livetb import i18n
from livetb.wire.prizes import PrizeList

CSV_COLUMNS = ("list", "place", "last_place", "shared", "amount", "currency", "start_no", "name",
               "label")  # fmt: skip


def prizes_csv(doc: PrizeList) -> str:
    """One line per award (a share of places: one line per participant); the header alone
    when the tournament has no prize table."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for a in doc.awards:
        w.writerow((a.list, a.places[0], a.places[1], a.shared, a.amount, doc.currency,
                    a.start_no, a.name, a.label))  # fmt: skip
    return out.getvalue()


def prizes_html(doc: PrizeList, lang: str = "en") -> str:
    """The prize list as a section of the printable page: every prize of the table by list
    and place, with who takes it (a place nobody takes says so)."""
    esc = html.escape
    say = i18n.catalog(lang)
    names = {info.code: say["prize.list.main"] if info.name is None else info.name
             for info in doc.lists}  # fmt: skip
    head = "".join(
        f'<th scope="col"{cls}>{esc(say[key])}</th>'
        for key, cls in [("prize.cli.list", ' class="name"'), ("prize.col.place", ""),
                         ("prize.col.amount", ""), ("prize.cli.no", ""),
                         ("prize.col.winner", ' class="name"')]
    )  # fmt: skip
    rows = []
    for p in doc.prizes:
        if any(a.list == p.list and a.places[0] < p.place <= a.places[1] for a in doc.awards):
            continue  # shared with an earlier place: on that place's lines
        mine = [a for a in doc.awards if a.list == p.list and a.places[0] == p.place]
        lst = esc(names.get(p.list, p.list))
        if not mine:
            rows.append(f'<tr><td class="name">{lst}</td><td>{p.place}</td>'
                        f"<td>{esc(_amount(p.amount, p.label, doc))}</td><td></td>"
                        f'<td class="name">{esc(say["prize.unawarded"])}</td></tr>')  # fmt: skip
        for a in mine:
            first, last = a.places
            place = f"{first}" if first == last else f"{first}–{last}"
            # a trophy without an amount: its label in the amount's cell, each sharer's
            trophy = bool(p.label) and Decimal(a.amount) == 0
            label = f" ({esc(a.label)})" if a.label and not trophy else ""
            rows.append(f'<tr><td class="name">{lst}</td><td>{place}</td>'
                        f"<td>{esc(_amount(a.amount, p.label, doc))}</td><td>{a.start_no}</td>"
                        f'<td class="name">{esc(a.name)}{label}</td></tr>')  # fmt: skip
    status = say[f"prize.status.{doc.status}"]
    return (
        f"<h2>{esc(say['prize.title'])}</h2>\n<p>{esc(status)}</p>\n<table>\n"
        f"<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>\n"
    )


def _amount(amount: str, label: str, doc: PrizeList) -> str:
    """An amount and its currency; a trophy without an amount is its label, never 0.00."""
    if label and Decimal(amount) == 0:
        return label
    return f"{amount} {doc.currency or ''}"
