"""The TRF file as records: decoded text, one `_Line` per record, grouped by tag, and the
issue report every reader and check writes to (TRF.md 2, 8, 10.1). Also the shapes the reader
returns (`TrfImport`, `TeamRecord`) and the structs the checks share (`_Header`, `_Player`).
Columns are 1-based and inclusive, as in the FIDE documents; `_cols(text, a, b)` is the slice.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict

import msgspec

from livetb.engine.model import (
    Code,
    Colour,
    Participant,
    Scoring,
    System,
    Tournament,
)
from livetb.engine.teams import (
    TeamEvent,
)
from livetb.errors import Said, TrfIssue


class TeamRecord(msgspec.Struct, frozen=True):
    """A team as a `013` or `310` line declares it."""

    number: int  # order of the 013 lines (1-based), or the 310 team number
    name: str
    members: tuple[int, ...]  # start numbers in board order
    line: int


class TrfImport(msgspec.Struct, frozen=True):
    """Everything read from one TRF file, with the deviations that were tolerated."""

    tournament: Tournament
    warnings: tuple[TrfIssue, ...]
    teams: tuple[TeamRecord, ...]  # empty for individual events
    is_team: bool
    raw_system: str  # the 192 code if present, else the 092 text
    team_event: TeamEvent | None = None  # the matches, when the file has team records
    # 240 byes for rounds after the file's last: (round, start number, H/F/Z code)
    announced_byes: tuple[tuple[int, int, Code], ...] = ()
    # The round count the file declares (142, else XXR); None: it declares none, and
    # `tournament.rounds` is only the width of its round blocks.
    declared_rounds: int | None = None


# --- issues ------------------------------------------------------------------------------------


Columns = tuple[int, int] | None  # first and last, 1-based; None: the whole line
Found = str | Said  # the file's own text, or what the reader says of it


class _Report:
    """Issues found so far: errors reject the file, warnings travel with the result. `where`
    and `expected` are catalog messages (`trf.where.*`, `trf.expected.*`); `found` is the
    file's text, or a catalog message (`trf.found.*`) when it says something about it."""

    def __init__(self, pending_round: int | None = None) -> None:
        self.errors: list[TrfIssue] = []
        self.warnings: list[TrfIssue] = []
        self.pending_round = pending_round  # its games may have no result yet
        self.running_round: int | None = None  # the file's last round, when not named

    def error(self, line: int, columns: Columns, where: Said, found: Found, expected: Said) -> None:
        self.errors.append(TrfIssue.of(line, columns, where, found, expected))

    def warn(self, line: int, columns: Columns, where: Said, found: Found, expected: Said) -> None:
        self.warnings.append(TrfIssue.of(line, columns, where, found, expected))


def _in_order(issues: list[TrfIssue]) -> list[TrfIssue]:
    return sorted(issues, key=lambda i: (i.line, i.columns or (0, 0)))


# --- bytes to lines (TRF.md 2, 8) ---------------------------------------------------------------


def _cp1252_char(byte: int) -> str:
    """cp1252, with Latin-1 for the five bytes cp1252 leaves undefined (TRF.md 8)."""
    try:
        return bytes([byte]).decode("cp1252")
    except UnicodeDecodeError:
        return chr(byte)


_CP1252 = {byte: _cp1252_char(byte) for byte in range(0x80, 0x100)}
_LINE_END = re.compile(r"\r\n|\r|\n")


def _decode(data: bytes, report: _Report) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:  # odd length or a lone surrogate: refuse in words
            found = Said("trf.found.bad_utf16", byte=exc.start)
            where, expected = Said("trf.where.encoding"), Said("trf.expected.utf16")
            report.error(1, None, where, found, expected)
            return ""
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = data.decode("latin-1").translate(_CP1252)
        line = len(_LINE_END.split(text[: exc.start]))
        found = Said("trf.found.byte", byte=f"{data[exc.start]:02X}")
        expected = Said("trf.expected.read_as_cp1252")
        report.warn(line, None, Said("trf.where.encoding"), found, expected)
        return text


class _Line(msgspec.Struct, frozen=True):
    """One physical line that holds a record."""

    number: int
    text: str
    damaged: bool = False  # held a tab in a fixed-column record (already reported)

    @property
    def tag(self) -> str:
        return self.text[:3]

    @property
    def value(self) -> str:
        """Free text from column 5."""
        return self.text[4:].strip()

    @property
    def value_columns(self) -> tuple[int, int]:
        lead = len(self.text[4:]) - len(self.text[4:].lstrip())
        return 5 + lead, max(5 + lead, len(self.text.rstrip()))


def _cols(text: str, a: int, b: int) -> str:
    return text[a - 1 : b]


def _is_fixed_column(tag: str) -> bool:
    """Records whose meaning depends on the column (TRF.md 2), so a tab would shift it."""
    return tag in ("132", "162", "172", "362", "XXA") or (tag.isdigit() and tag[2] != "2")


def _split_records(text: str, report: _Report) -> list[_Line]:
    lines = []
    for number, raw in enumerate(_LINE_END.split(text), start=1):
        if len(raw) < 3 or not raw.strip() or raw.startswith("###"):
            continue
        damaged = "\t" in raw and _is_fixed_column(raw[:3])
        if damaged:
            col = raw.index("\t") + 1
            where, expected = Said("trf.where.record", tag=raw[:3]), Said("trf.expected.no_tabs")
            report.error(number, (col, col), where, "\t", expected)
            raw = raw.replace("\t", " ")  # keeps every later column where it was
        lines.append(_Line(number, raw, damaged))
    return lines


# every header record 012, 022, ... 222 (TRF.md 3.1, 3.2), the team headers, JaVaFo's rounds
_HEADER_TAGS = frozenset({f"{n:03}" for n in range(12, 223, 10)} | {"352", "362", "XXR"})
_SCORING_TAGS = frozenset({"XXS"} | {f"BB{code}" for code in "WDLZFU"})  # TRF.md 7.4, 7.6
_RECORD_TAGS = frozenset({"001", "013", "240", "300", "310", "320", "330", "XXC"} | _SCORING_TAGS)
_SILENT_TAGS = frozenset({"801", "802"})  # informative summaries, never a source (TRF.md 6.10)
# Records for pairing programs that no standings depend on: a file for JaVaFo has an XXA line
# per player, so each kind is said once, with its count, not once a line. Each kind is two
# catalog messages: one record, and several on lines first-last.
_ACCELERATION = ("trf.found.acceleration", "trf.found.acceleration_lines")
_PROHIBITED = ("trf.found.prohibited", "trf.found.prohibited_lines")
_PAIRING_ONLY = {
    "XXA": _ACCELERATION,
    "250": _ACCELERATION,
    "XXP": _PROHIBITED,
    "260": _PROHIBITED,
    "XXZ": ("trf.found.left_out", "trf.found.left_out_lines"),
}
# the records tagged with the federation 172 names (TRF.md 5)
_NATIONAL = ("trf.found.national", "trf.found.national_lines")
# they would change points: say they are not
_NOT_APPLIED = {"299": ("trf.found.point_assignments", "trf.found.point_assignments_lines")}


def _group(lines: list[_Line], report: _Report) -> defaultdict[str, list[_Line]]:
    by_tag: defaultdict[str, list[_Line]] = defaultdict(list)
    national = next((_cols(x.text, 5, 7).strip() for x in reversed(lines) if x.tag == "172"), "")
    unread: dict[str, list[_Line]] = {}  # tag -> its lines, for one warning per tag
    for line in lines:
        tag = line.tag
        if tag == "XXW":
            where, expected = Said("trf.where.record", tag=tag), Said("trf.expected.no_xxw")
            report.error(line.number, (1, 3), where, line.text.strip(), expected)
        elif tag not in _HEADER_TAGS | _RECORD_TAGS | _SILENT_TAGS:
            unread.setdefault(tag, []).append(line)
        by_tag[tag].append(line)
    for tag, found in unread.items():
        _unread(tag, found, national, report)
    return by_tag


def _unread(tag: str, lines: list[_Line], national: str, report: _Report) -> None:
    """One warning for all the lines of a tag the reader does not read, at the first one."""
    first, last, count = lines[0].number, lines[-1].number, len(lines)
    where = Said("trf.where.records", tag=tag)
    span: dict[str, str | int] = {"tag": tag, "count": count, "first": first, "last": last}
    kind = _PAIRING_ONLY.get(tag) or (_NATIONAL if tag == national else None)
    if kind is not None or tag in _NOT_APPLIED:
        one, several = kind or _NOT_APPLIED[tag]
        found = Said(several, **span) if count > 1 else Said(one, tag=tag)
        expected = Said("trf.expected.ignored" if kind else "trf.expected.not_applied")
        report.warn(first, (1, 3), where, found, expected)
    else:
        unknown = Said("trf.found.tag_lines", **span) if count > 1 else tag
        where, expected = Said("trf.where.record_tag"), Said("trf.expected.known_tag")
        report.warn(first, (1, 3), where, unknown, expected)


class _Header(msgspec.Struct, frozen=True):
    name: str
    start_date: dt.date | None
    raw_system: str
    system: System
    is_team: bool
    declared_rounds: int | None  # 142, else XXR
    initial_colour: Colour | None
    scoring: Scoring | None  # None: no 162 line
    tiebreaks: tuple[str, ...]


class _Player(msgspec.Struct):
    line: int
    participant: Participant  # entries: this line's own round blocks
    blocks: tuple[str, ...]  # each round block's text, for messages
    sound: bool  # no problem on the line, so it can be checked against other lines


# --- field readers the record readers share -------------------------------------------------


_DIGITS = re.compile(r"[0-9]+")
_POINTS = re.compile(r"[0-9]+(?:[.,][0-9]+)?")


_SCORE_CELL = re.compile(r"T?([WDLAPX])\s*(-?\d+(?:[.,]\d+)?)", re.ASCII)
_SCORE_FIELDS = {"W": "win", "D": "draw", "L": "loss", "A": "absent", "P": "pab", "X": "unknown"}


_GAME_CELLS = (Said("trf.where.scoring", tag="162"), Said("trf.expected.score_cells"))


def _check_gap(
    line: _Line, start: int, end: int, report: _Report, cells: tuple[Said, Said] = _GAME_CELLS
) -> None:
    """Text between the score cells: anything but blanks is a code or number we cannot read."""
    gap = line.text[start:end]
    if gap.strip():
        a = start + len(gap) - len(gap.lstrip()) + 1
        b = start + len(gap.rstrip())
        where, expected = cells
        report.error(line.number, (a, b), where, gap.strip(), expected)


def _number(
    number: int, text: str, columns: tuple[int, int], where: Said, report: _Report
) -> int | None:
    """An optional right-aligned number; blank gives None."""
    raw = _cols(text, *columns).strip()
    if not raw:
        return None
    if _DIGITS.fullmatch(raw):
        return int(raw)
    report.error(number, columns, where, raw, Said("trf.expected.digits"))
    return None
