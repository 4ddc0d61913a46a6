"""The scoring lines pairing programs write instead of, or beside, `162`: JaVaFo's `XXS`
(TRF.md 7.4) and bbpPairings' `BBW BBD BBL BBZ BBF BBU` (TRF.md 7.6). Both change points, so
they are read, not skipped: a code or number that cannot be read is an error, as for `162`
(TRF.md 10.3), and so is a system livetb's scoring cannot hold (a win with White worth more
than one with Black, a forfeit win worth less than a win) or one that disagrees with `162`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from decimal import Decimal

import msgspec

from livetb.engine.model import DEFAULT_SCORING, Code, Scoring
from livetb.errors import Said
from livetb.trf.records import _Line, _Report

# XXS codes by the `Scoring` field that holds their value, in the order TRF.md 7.4 lists them
_XXS_FIELDS = {
    "WW": "win",
    "BW": "win",
    "FW": "win",
    "FPB": "win",
    "WD": "draw",
    "BD": "draw",
    "HPB": "draw",
    "WL": "loss",
    "BL": "loss",
    "FL": "absent",
    "ZPB": "absent",
    "PAB": "pab",
}
_XXS_SHORTCUTS = {"W": ("WW", "BW", "FW", "FPB"), "D": ("WD", "BD", "HPB")}
# JaVaFo's defaults: unlike 162's P, a PAB stays 1.0 when only W changes
_XXS_DEFAULTS = {
    **dict.fromkeys(("WW", "BW", "FW", "FPB", "PAB"), Decimal("1")),
    **dict.fromkeys(("WD", "BD", "HPB"), Decimal("0.5")),
    **dict.fromkeys(("WL", "BL", "FL", "ZPB"), Decimal("0")),
}
_XXS_TOKEN = re.compile(r"([A-Za-z]+)=(-?\d+(?:[.,]\d+)?)", re.ASCII)
_XXS_EXPECTED = Said("trf.expected.xxs", codes=" ".join(("W", "D", *_XXS_FIELDS)))

# bbpPairings: win, draw, loss, zero-point bye, forfeit loss, PAB (BBW sets the PAB too)
_BB_FIELDS = {"BBW": "win", "BBD": "draw", "BBL": "loss", "BBZ": "absent", "BBF": "absent"}
_BB_FIELDS["BBU"] = "pab"
_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?", re.ASCII)


def declared_scoring(
    s162: tuple[_Line, Scoring] | None, by_tag: defaultdict[str, list[_Line]], report: _Report
) -> Scoring | None:
    """The file's scoring: `162`, else `XXS`, else the `BB?` lines; None if it has none.
    Each one present must give every result the same points as the one that wins."""
    found = [s162] if s162 is not None else []
    if by_tag["XXS"]:
        found.append((by_tag["XXS"][-1], _xxs(by_tag["XXS"], report)))
    bb = sorted((x for tag in _BB_FIELDS for x in by_tag[tag]), key=lambda x: x.number)
    if bb:
        found.append((bb[-1], _bb(bb, report)))
    if not found:
        return None
    (first_line, first), *others = found
    for line, scoring in others:
        if not _same_points(first, scoring):
            where = Said("trf.where.scoring", tag=line.tag)
            expected = Said("trf.expected.same_scoring", tag=first_line.tag, line=first_line.number)
            report.error(line.number, line.value_columns, where, _table(scoring), expected)
    return first


def _xxs(lines: list[_Line], report: _Report) -> Scoring:
    """Assignments apply left to right, top to bottom (TRF.md 7.4)."""
    values = dict(_XXS_DEFAULTS)
    for line in lines:
        for m in re.finditer(r"\S+", line.text[4:]):
            columns = (5 + m.start(), 4 + m.end())
            token = _XXS_TOKEN.fullmatch(m[0])
            code = token[1].upper() if token else ""
            if token is None or (code not in _XXS_FIELDS and code not in _XXS_SHORTCUTS):
                where = Said("trf.where.scoring", tag="XXS")
                report.error(line.number, columns, where, m[0], _XXS_EXPECTED)
                continue
            value = Decimal(token[2].replace(",", "."))
            for one in _XXS_SHORTCUTS.get(code, (code,)):
                values[one] = value
    by_field: dict[str, dict[str, Decimal]] = defaultdict(dict)
    for code, field in _XXS_FIELDS.items():
        by_field[field][code] = values[code]
    line = lines[-1]
    for codes in by_field.values():
        if len(set(codes.values())) > 1:
            found = ", ".join(f"{code}={value}" for code, value in codes.items())
            expected = Said("trf.expected.one_value", codes=", ".join(codes))
            where = Said("trf.where.scoring", tag="XXS")
            report.error(line.number, line.value_columns, where, found, expected)
    fields: dict[str, Decimal | None] = {f: next(iter(c.values())) for f, c in by_field.items()}
    if fields["pab"] == fields["win"]:
        fields["pab"] = None  # the same points as `Scoring`'s "worth a win"
    return msgspec.structs.replace(DEFAULT_SCORING, **fields)


def _bb(lines: list[_Line], report: _Report) -> Scoring:
    """Values in columns 5-8 (read as a token: producers pad them unevenly)."""
    fields: dict[str, Decimal] = {}
    at: dict[str, _Line] = {}
    for line in lines:
        where = Said("trf.where.scoring", tag=line.tag)
        if not _NUMBER.fullmatch(line.value):
            expected = Said("trf.expected.number_such_as", example="1.0")
            report.error(line.number, line.value_columns, where, line.value, expected)
            continue
        field, value = _BB_FIELDS[line.tag], Decimal(line.value.replace(",", "."))
        other = at.get(field)
        if other is not None and other.tag != line.tag and fields[field] != value:
            expected = Said(
                "trf.expected.bb_alike", tag=other.tag, value=str(fields[field]), line=other.number
            )
            report.error(line.number, line.value_columns, where, line.value, expected)
        fields[field], at[field] = value, line
    return msgspec.structs.replace(DEFAULT_SCORING, **fields)


def _same_points(a: Scoring, b: Scoring) -> bool:
    return all(a.points(code) == b.points(code) for code in Code)


def _table(s: Scoring) -> Said:
    pab = s.win if s.pab is None else s.pab
    points = {"win": s.win, "draw": s.draw, "loss": s.loss, "absent": s.absent, "pab": pab}
    return Said("trf.found.scoring", **{name: str(value) for name, value in points.items()})
