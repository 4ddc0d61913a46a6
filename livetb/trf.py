"""TRF importer: TRF16 and TRF-2026 files into a `Tournament` (TRF.md 2-4, 6, 8, 10).

The whole file is read and checked before anything is returned: either the complete
`TrfImport` with its warnings, or one `TrfError` listing every problem (TRF.md 10.1). A file
with team records (`013`/`310`) also gives its `TeamEvent`: the matches rebuilt from the board
lines and the TRF-2026 team records (`240`, `300`, `320`, `330`, `352`, `362`), see the end.
Columns are 1-based and inclusive, as in the FIDE documents; `_cols(text, a, b)` is the slice.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import msgspec

from livetb.engine.model import (
    DEFAULT_SCORING,
    NOT_PAIRED,
    Code,
    Colour,
    Entry,
    Participant,
    Scoring,
    System,
    Tournament,
)
from livetb.engine.teams import (
    MatchScoring,
    PointType,
    Roster,
    RoundKey,
    TeamEvent,
    TeamRound,
    build_team_event,
)
from livetb.errors import TrfError, TrfIssue

__all__ = ["TeamRecord", "TrfImport", "load_trf", "parse_trf"]


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


def load_trf(path: str | Path) -> TrfImport:
    """Read a TRF file from disk; errors name the path."""
    return parse_trf(Path(path).read_bytes(), source=str(path))


def parse_trf(
    data: bytes | str, source: str = "<trf>", *, pending_round: int | None = None
) -> TrfImport:
    """Parse and check a whole TRF file; raise one `TrfError` listing every problem.

    `pending_round`: that round's games may have a blank result (a pairing program's output
    for the round to play); they read as `Code.PENDING`."""
    report = _Report(pending_round)
    text = _decode(data, report) if isinstance(data, bytes) else data.removeprefix("\ufeff")
    by_tag = _group(_split_records(text, report), report)
    if not by_tag["001"]:
        report.error(1, None, "001 records", "no 001 line", "at least one player record")
    header = _read_header(by_tag, report)
    players = _read_players(by_tag["001"], report)
    index = _index_start_numbers(players, report)
    _check_opponents(players, index, report)
    _check_rounds(header, players, report)
    width = max((len(p.blocks) for p in players), default=0)
    players = [_pad(p, width) for p in players]
    _check_reciprocity(players, index, report)
    scoring = _check_points(players, header.scoring, report)
    is_team = header.is_team or bool(by_tag["013"] or by_tag["310"])
    before = len(report.errors)
    teams = _read_teams(by_tag, index, report)
    if teams and len(report.errors) == before:
        _check_matches(players, teams, report)
    _check_pabs(players, teams, report)
    _check_byes(by_tag["240"], index, teams if is_team else None, scoring, report)
    team_setup = _team_setup(by_tag, header, players, teams, report) if teams else None
    if not teams:
        _skip_team_records(by_tag, report)
    if report.errors:
        raise TrfError(source, _in_order(report.errors))
    tournament = Tournament(
        name=header.name,
        participants=tuple(p.participant for p in players),
        rounds=header.declared_rounds or width,
        system=header.system,
        scoring=scoring,
        start_date=header.start_date,
        tiebreaks=header.tiebreaks,
        initial_colour=header.initial_colour,
    )
    return TrfImport(
        tournament=tournament,
        warnings=tuple(_in_order(report.warnings)),
        teams=teams,
        is_team=is_team,
        raw_system=header.raw_system,
        team_event=_team_event(tournament, teams, team_setup) if team_setup else None,
    )


# --- issues ------------------------------------------------------------------------------------


class _Report:
    """Issues found so far: errors reject the file, warnings travel with the result."""

    def __init__(self, pending_round: int | None = None) -> None:
        self.errors: list[TrfIssue] = []
        self.warnings: list[TrfIssue] = []
        self.pending_round = pending_round  # its games may have no result yet

    def error(
        self, line: int, columns: tuple[int, int] | None, where: str, found: str, expected: str
    ) -> None:
        self.errors.append(TrfIssue(line, columns, where, found, expected))

    def warn(
        self, line: int, columns: tuple[int, int] | None, where: str, found: str, expected: str
    ) -> None:
        self.warnings.append(TrfIssue(line, columns, where, found, expected))


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
        return data.decode("utf-16")
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = data.decode("latin-1").translate(_CP1252)
        line = len(_LINE_END.split(text[: exc.start]))
        found = f"byte 0x{data[exc.start]:02X}"
        report.warn(line, None, "file encoding", found, "UTF-8; the file was read as cp1252")
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
            expected = "blanks (tabs are not expanded in fixed-column records)"
            report.error(number, (col, col), f"{raw[:3]} record", "\t", expected)
            raw = raw.replace("\t", " ")  # keeps every later column where it was
        lines.append(_Line(number, raw, damaged))
    return lines


# every header record 012, 022, ... 222 (TRF.md 3.1, 3.2), the team headers, JaVaFo's rounds
_HEADER_TAGS = frozenset({f"{n:03}" for n in range(12, 223, 10)} | {"352", "362", "XXR"})
_RECORD_TAGS = frozenset({"001", "013", "240", "300", "310", "320", "330", "XXC"})
_SILENT_TAGS = frozenset({"801", "802"})  # informative summaries, never a source (TRF.md 6.10)
_UNSUPPORTED_TAGS = (
    frozenset({"250", "260", "299", "XXA", "XXS", "XXZ", "XXP"})
    | {f"BB{code}" for code in "WDLZFU"}  # bbpPairings' scoring lines (TRF.md 7.6)
)


def _group(lines: list[_Line], report: _Report) -> defaultdict[str, list[_Line]]:
    by_tag: defaultdict[str, list[_Line]] = defaultdict(list)
    for line in lines:
        tag = line.tag
        if tag == "XXW":
            expected = "4-digit start numbers (the XXW wide layout is not supported)"
            report.error(line.number, (1, 3), "XXW record", line.text.strip(), expected)
        elif tag in _UNSUPPORTED_TAGS:
            report.warn(line.number, (1, 3), f"{tag} record", tag, "a supported record; skipped")
        elif tag not in _HEADER_TAGS | _RECORD_TAGS | _SILENT_TAGS:
            report.warn(line.number, (1, 3), "record tag", tag, "a known record tag; skipped")
        by_tag[tag].append(line)
    return by_tag


# --- header (TRF.md 3) ------------------------------------------------------------------------


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


def _read_header(by_tag: defaultdict[str, list[_Line]], report: _Report) -> _Header:
    last = {tag: _last(by_tag[tag], report) for tag in _HEADER_TAGS}
    type_text = last["092"].value if last["092"] else ""
    type_code = last["192"].value if last["192"] else ""
    robin = "robin" in type_text.lower() or any(
        word in type_code.upper() for word in ("ROUNDROBIN", "BERGER")
    )
    return _Header(
        name=last["012"].value if last["012"] else "",
        start_date=_start_date(last["042"], report),
        raw_system=type_code or type_text,
        system="roundrobin" if robin else "swiss",
        is_team=type_text.lower().startswith("team") or "TEAM" in type_code.upper(),
        declared_rounds=_declared_rounds(last["142"], last["XXR"], report),
        initial_colour=_initial_colour(last["152"], by_tag["XXC"], report),
        scoring=_scoring(last["162"], report) if last["162"] else None,
        tiebreaks=_tiebreaks(last["202"], last["212"]),
    )


def _last(lines: list[_Line], report: _Report) -> _Line | None:
    """The last of a header tag's lines; a repeat is a warning (TRF.md 3.1)."""
    for earlier, later in itertools.pairwise(lines):
        if later.tag != "112":
            expected = f"one {later.tag} line (also on line {earlier.number}); the last one wins"
            report.warn(later.number, None, f"{later.tag} header", later.value, expected)
    return lines[-1] if lines else None


_YMD = re.compile(r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})", re.ASCII)
_YY_MM_DD = re.compile(r"(\d{2})/(\d{2})/(\d{2})", re.ASCII)
_DAY_MONTH_YEAR = re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})", re.ASCII)


def _start_date(line: _Line | None, report: _Report) -> dt.date | None:
    if line is None or not line.value:
        return None
    date = _parse_date(line.value)
    if date is None:
        expected = "an unambiguous date such as YYYY/MM/DD; start date left unknown"
        report.warn(line.number, line.value_columns, "042 start date", line.value, expected)
    return date


def _parse_date(text: str) -> dt.date | None:
    if m := _YMD.fullmatch(text):
        return _date(int(m[1]), int(m[2]), int(m[3]))
    if m := _YY_MM_DD.fullmatch(text):
        return _date(2000 + int(m[1]), int(m[2]), int(m[3]))
    if m := _DAY_MONTH_YEAR.fullmatch(text):
        # day first in practice; accepted only if the month-first reading is no other date
        readings = {_date(int(m[3]), int(m[2]), int(m[1])), _date(int(m[3]), int(m[1]), int(m[2]))}
        readings.discard(None)
        return readings.pop() if len(readings) == 1 else None
    return None


def _date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


_DIGITS = re.compile(r"[0-9]+")
_POINTS = re.compile(r"[0-9]+(?:[.,][0-9]+)?")


def _declared_rounds(r142: _Line | None, xxr: _Line | None, report: _Report) -> int | None:
    rounds = {line.tag: _round_count(line, report) for line in (r142, xxr) if line is not None}
    first, second = rounds.get("142"), rounds.get("XXR")
    if xxr is not None and first is not None and second is not None and first != second:
        expected = f"{first}, as on the 142 line"
        report.error(xxr.number, xxr.value_columns, "XXR number of rounds", xxr.value, expected)
    return first or second


def _round_count(line: _Line, report: _Report) -> int | None:
    if _DIGITS.fullmatch(line.value) and int(line.value) > 0:
        return int(line.value)
    where = f"{line.tag} number of rounds"
    report.error(line.number, line.value_columns, where, line.value, "a positive whole number")
    return None


_XXC_COLOURS: dict[str, Colour] = {"white1": "w", "black1": "b"}


def _initial_colour(line: _Line | None, xxc: list[_Line], report: _Report) -> Colour | None:
    """152, or JaVaFo's `XXC white1`/`XXC black1` that it replaces (TRF.md 7.1)."""
    if line is not None:
        value = line.value.upper()
        if value in ("W", "B"):
            return "w" if value == "W" else "b"
        report.error(line.number, line.value_columns, "152 initial colour", line.value, "W or B")
        return None
    colours = [_XXC_COLOURS[t] for x in xxc for t in x.value.lower().split() if t in _XXC_COLOURS]
    return colours[-1] if colours else None


_SCORE_CELL = re.compile(r"T?([WDLAPX])\s*(-?\d+(?:[.,]\d+)?)", re.ASCII)
_SCORE_FIELDS = {"W": "win", "D": "draw", "L": "loss", "A": "absent", "P": "pab", "X": "unknown"}


def _scoring(line: _Line, report: _Report) -> Scoring:
    """The 162 grid, read as tokens since producers do not keep its columns (TRF.md 3.4)."""
    values: dict[str, Decimal] = {}
    pos = 4
    for m in _SCORE_CELL.finditer(line.text, pos):
        _check_gap(line, pos, m.start(), report)
        values[_SCORE_FIELDS[m[1]]] = Decimal(m[2].replace(",", "."))
        pos = m.end()
    _check_gap(line, pos, len(line.text), report)
    return msgspec.structs.replace(DEFAULT_SCORING, **values)


_GAME_CELLS = ("162 scoring", "cells of a code W D L A P X and a number, such as 'W 1.0'")


def _check_gap(
    line: _Line, start: int, end: int, report: _Report, cells: tuple[str, str] = _GAME_CELLS
) -> None:
    """Text between the score cells: anything but blanks is a code or number we cannot read."""
    gap = line.text[start:end]
    if gap.strip():
        a = start + len(gap) - len(gap.lstrip()) + 1
        b = start + len(gap.rstrip())
        where, expected = cells
        report.error(line.number, (a, b), where, gap.strip(), expected)


def _tiebreaks(t202: _Line | None, t212: _Line | None) -> tuple[str, ...]:
    """212 includes the primary score; 202 does not, so PTS goes first (TRF.md 3.6)."""
    if t212 is not None:
        return _split_list(t212.value)
    if t202 is not None:
        return ("PTS", *_split_list(t202.value))
    return ()


def _split_list(text: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in text.split(",") if item.strip())


# --- player records (TRF.md 4) ----------------------------------------------------------------


class _Player(msgspec.Struct):
    line: int
    participant: Participant  # entries: this line's own round blocks
    blocks: tuple[str, ...]  # each round block's text, for messages
    sound: bool  # no problem on the line, so it can be checked against other lines


_SEPARATORS = (4, 9, 14, 48, 53, 57, 69, 80, 85)
# the FIDE rating list's short codes, which many files use (TRF.md 4.1), and the long forms
_SHORT_TITLES = {
    "g": "GM",
    "m": "IM",
    "f": "FM",
    "c": "CM",
    "wg": "WGM",
    "wm": "WIM",
    "wf": "WFM",
    "wc": "WCM",
}
_TITLES = _SHORT_TITLES | {title.lower(): title for title in _SHORT_TITLES.values()}
_SEXES = {"m": "m", "w": "w", "f": "w", "u": "", " ": ""}


def _read_players(lines: list[_Line], report: _Report) -> list[_Player]:
    players = (_read_player(line, report) for line in lines)
    return [p for p in players if p is not None]


def _read_player(line: _Line, report: _Report) -> _Player | None:
    text = line.text.rstrip()
    blocks = max(0, -(-(len(text) - 89) // 10))  # ceil: a half block is still a block
    text = text.ljust(89 + 10 * blocks)
    start_no = _start_number(line.number, text, report)
    if start_no is None:
        return None
    where = f"001 #{start_no}"
    separator = next((c for c in _SEPARATORS if text[c - 1] != " "), None)
    if separator is not None:
        found = text[separator - 1]
        expected = "a blank separator (the line is misaligned)"
        report.error(line.number, (separator, separator), where, found, expected)
    # once a line is misaligned or damaged, its field errors would only repeat that
    quiet = line.damaged or separator is not None
    fields = _Report() if quiet else report
    participant = _participant(line.number, text, start_no, blocks, fields)
    sound = not quiet and not fields.errors
    block_texts = tuple(_cols(text, 82 + 10 * r, 89 + 10 * r).strip() for r in range(1, blocks + 1))
    return _Player(line.number, participant, block_texts, sound)


def _start_number(number: int, text: str, report: _Report) -> int | None:
    raw = _cols(text, 5, 8)
    if _DIGITS.fullmatch(raw.strip()) and int(raw) > 0:
        return int(raw)
    report.error(number, (5, 8), "001 starting rank", raw, "a number from 1 to 9999")
    return None


def _participant(
    number: int, text: str, start_no: int, blocks: int, report: _Report
) -> Participant:
    where = f"001 #{start_no}"
    points = _cols(text, 81, 84).strip()
    if points and not _POINTS.fullmatch(points):
        report.error(number, (81, 84), f"{where}, points", points, "a number such as 11.5")
        points = ""
    return Participant(
        start_no=start_no,
        name=_cols(text, 15, 47).strip(),
        rating=_number(number, text, (49, 52), f"{where}, rating", report) or None,
        title=_title(number, text, where, report),
        federation=_cols(text, 54, 56).strip(),
        fide_id=_fide_id(number, text, where, report),
        sex=_sex(number, text, where, report),
        birth_date=_cols(text, 70, 79).strip(),
        entries=tuple(_block(number, text, r, start_no, report) for r in range(1, blocks + 1)),
        declared_points=Decimal(points.replace(",", ".")) if points else None,
        declared_rank=_number(number, text, (86, 89), f"{where}, rank", report),
    )


def _number(
    number: int, text: str, columns: tuple[int, int], where: str, report: _Report
) -> int | None:
    """An optional right-aligned number; blank gives None."""
    raw = _cols(text, *columns).strip()
    if not raw:
        return None
    if _DIGITS.fullmatch(raw):
        return int(raw)
    report.error(number, columns, where, raw, "digits or blanks")
    return None


def _fide_id(number: int, text: str, where: str, report: _Report) -> str:
    valid = _number(number, text, (58, 68), f"{where}, FIDE ID", report) is not None
    return _cols(text, 58, 68).strip() if valid else ""


def _title(number: int, text: str, where: str, report: _Report) -> str:
    raw = _cols(text, 11, 13).strip()
    if raw and raw.lower() not in _TITLES:
        report.warn(number, (11, 13), f"{where}, title", raw, "a FIDE title such as GM or g")
        return raw
    return _TITLES.get(raw.lower(), "")


def _sex(number: int, text: str, where: str, report: _Report) -> str:
    raw = text[9]
    if raw.lower() not in _SEXES:
        report.warn(number, (10, 10), f"{where}, sex", raw, "m, w (or f) or blank")
        return ""
    return _SEXES[raw.lower()]


_BYES = frozenset({Code.HALF_BYE, Code.FULL_BYE, Code.PAB, Code.ZERO_BYE})
_RESULTS = {c.value: c for c in Code if c not in (Code.PENDING, Code.UNKNOWN)}
_RESULTS[" "] = Code.ZERO_BYE
# TRF06-era byes written as game results with no opponent (TRF.md 4.7)
_LEGACY_BYES = {
    Code.FORFEIT_WIN: Code.PAB,
    Code.DRAW: Code.HALF_BYE,
    Code.FORFEIT_LOSS: Code.ZERO_BYE,
}
_RESULT_LIST = "one of 1 = 0 W D L + - H F U Z or blank"


# A well-formed game or bye block, matched whole (columns 80+10r to 89+10r): most blocks of
# most files, read without the checks, one column at a time, that the others need.
_GAME_BLOCK = re.compile(r"  ( {0,3}[1-9][0-9]{0,3}) ([wb]) ([10=WDL+-])")
_BYE_BLOCK = re.compile(r"  0000 - ([HFUZ])")


def _block(number: int, text: str, rnd: int, start_no: int, report: _Report) -> Entry:
    """Round `rnd`'s block: columns 80+10r to 89+10r (TRF.md 4.2)."""
    first = 80 + 10 * rnd
    game = _GAME_BLOCK.fullmatch(text, first - 1, first + 9)
    if game is not None:
        opponent = int(game[1])
        if opponent != start_no:
            return Entry(_RESULTS[game[3]], opponent, _COLOURS[game[2]])
    elif (bye := _BYE_BLOCK.fullmatch(text, first - 1, first + 9)) is not None:
        return Entry(_RESULTS[bye[1]])
    where = f"001 #{start_no}, round {rnd}"
    separator = next((c for c in (first, first + 1, first + 6, first + 8) if text[c - 1] != " "), 0)
    if separator:
        found, expected = text[separator - 1], "a blank separator (the line is misaligned)"
        report.error(number, (separator, separator), f"{where} block", found, expected)
        return NOT_PAIRED
    errors = len(report.errors)
    opponent = _number(number, text, (first + 2, first + 5), f"{where} opponent", report) or None
    colour = _colour(number, text[first + 6], first + 7, f"{where} colour", report)
    pending = rnd == report.pending_round and opponent is not None and colour is not None
    if pending and text[first + 8] == " " and len(report.errors) == errors:
        return Entry(Code.PENDING, opponent, colour)  # a pairing not played yet
    code = _result(number, text[first + 8], first + 9, f"{where} result", report)
    if code is None or len(report.errors) > errors:
        return NOT_PAIRED
    block = _Block(number, (first + 2, first + 9), where, _cols(text, first + 2, first + 9).strip())
    if opponent is None:
        return _bye_entry(block, code, colour, report)
    if opponent == start_no:
        expected = "another player's starting rank (not the player's own)"
        report.error(number, (first + 2, first + 5), f"{where} opponent", str(opponent), expected)
    return _game_entry(block, code, colour, opponent, report)


class _Block(msgspec.Struct, frozen=True):
    """A round block, located, for messages about the whole block."""

    line: int
    columns: tuple[int, int]
    where: str
    text: str

    def error(self, report: _Report, expected: str) -> None:
        report.error(self.line, self.columns, self.where, self.text, expected)

    def warn(self, report: _Report, expected: str) -> None:
        report.warn(self.line, self.columns, self.where, self.text, expected)


_COLOURS: dict[str, Colour | None] = {"w": "w", "W": "w", "b": "b", "B": "b", "-": None, " ": None}


def _colour(number: int, raw: str, column: int, where: str, report: _Report) -> Colour | None:
    if raw not in _COLOURS:
        report.error(number, (column, column), where, raw, "w, b, - or blank")
    return _COLOURS.get(raw)


def _result(number: int, raw: str, column: int, where: str, report: _Report) -> Code | None:
    if raw.upper() in ("X", "?"):
        report.warn(number, (column, column), where, raw, "a known result; read as unknown (X)")
        return Code.UNKNOWN
    code = _RESULTS.get(raw.upper())
    if code is None:
        report.error(number, (column, column), where, raw, _RESULT_LIST)
    return code


def _bye_entry(block: _Block, code: Code, colour: Colour | None, report: _Report) -> Entry:
    if code in _LEGACY_BYES:
        block.warn(report, f"'0000 - {_LEGACY_BYES[code].value}'; read as that (legacy form)")
        code = _LEGACY_BYES[code]
    elif code not in _BYES:
        block.error(report, "an opponent for a game result")
    if colour is not None:
        block.error(report, "colour '-' or blank when there is no opponent")
    return Entry(code)


def _game_entry(
    block: _Block, code: Code, colour: Colour | None, opponent: int, report: _Report
) -> Entry:
    if code in _BYES:
        block.error(report, "opponent 0000 or blank for a bye code")
    elif colour is None and code in (Code.FORFEIT_WIN, Code.FORFEIT_LOSS):
        block.warn(report, "a colour w or b; scheduled colour unknown")
    elif colour is None:
        block.error(report, "a colour w or b for a game")
    return Entry(code, opponent, colour)


# --- consistency between records (TRF.md 4.4) ------------------------------------------------


def _index_start_numbers(players: list[_Player], report: _Report) -> dict[int, _Player]:
    index: dict[int, _Player] = {}
    for player in players:
        no = player.participant.start_no
        if no in index:
            first = index[no]
            expected = f"a unique starting rank (line {first.line} has {no} too)"
            report.error(player.line, (5, 8), f"001 #{no}", str(no), expected)
            first.sound = player.sound = False
        else:
            index[no] = player
    missing = sorted(set(range(1, max(index, default=0) + 1)) - set(index))
    if missing:
        after = next(p for p in players if p.participant.start_no > missing[0])
        found = "missing " + ", ".join(map(str, missing))
        report.warn(after.line, (5, 8), "001 numbering", found, "starting ranks without gaps")
    return index


_IN_FILE = "the starting rank of a player in the file"


def _check_opponents(players: list[_Player], index: dict[int, _Player], report: _Report) -> None:
    for player in players:
        for rnd, entry in enumerate(player.participant.entries, start=1):
            if entry.opponent is not None and entry.opponent not in index:
                where = f"001 #{player.participant.start_no}, round {rnd} opponent"
                columns = (82 + 10 * rnd, 85 + 10 * rnd)
                report.error(player.line, columns, where, str(entry.opponent), _IN_FILE)


def _check_rounds(header: _Header, players: list[_Player], report: _Report) -> None:
    """No player may have a round block beyond the declared number of rounds (TRF.md 4.4.8)."""
    declared = header.declared_rounds
    if declared is None:
        return
    for player in players:
        extra = [r for r, b in enumerate(player.blocks, start=1) if r > declared and b]
        if extra:
            rnd = extra[0]
            where = f"001 #{player.participant.start_no}, round {rnd}"
            expected = f"no round beyond the {declared} declared (142/XXR)"
            report.error(
                player.line, (82 + 10 * rnd, 89 + 10 * rnd), where, player.blocks[rnd - 1], expected
            )


def _pad(player: _Player, width: int) -> _Player:
    """Give every participant one entry per round present; missing blocks are unpaired."""
    entries = player.participant.entries
    padded = entries + (NOT_PAIRED,) * (width - len(entries))
    participant = msgspec.structs.replace(player.participant, entries=padded)
    return _Player(player.line, participant, player.blocks, player.sound)


# results the two sides of one pairing may show (TRF.md 4.4.5)
_PAIRS = frozenset(
    (Code(a), Code(b)) for a, b in ("10", "01", "==", "WL", "LW", "DD", "+-", "-+", "--")
) | {(Code.UNKNOWN, Code.UNKNOWN), (Code.PENDING, Code.PENDING)}


def _check_reciprocity(players: list[_Player], index: dict[int, _Player], report: _Report) -> None:
    for player in players:
        me = player.participant.start_no
        for rnd, entry in enumerate(player.participant.entries, start=1):
            other = index.get(entry.opponent) if entry.opponent is not None else None
            if not (player.sound and other is not None and other.sound):
                continue
            back = other.participant.entry(rnd)
            if back.opponent != me:
                expected = f"#{entry.opponent}'s round {rnd} block to name #{me}"
                _pair_error(player, other, rnd, (82, 85), expected, report)
            elif me < other.participant.start_no:  # report each pairing once
                _check_pair(player, other, rnd, report)


def _check_pair(player: _Player, other: _Player, rnd: int, report: _Report) -> None:
    mine = player.participant.entry(rnd)
    theirs = other.participant.entry(rnd)
    if mine.colour is not None and mine.colour == theirs.colour:
        _pair_error(player, other, rnd, (87, 87), "opposite colours (w and b)", report)
    if (mine.code, theirs.code) not in _PAIRS:
        expected = "results that pair up: 1/0, =/=, W/L, D/D, +/-, -/- or X/X"
        _pair_error(player, other, rnd, (89, 89), expected, report)


def _pair_error(
    player: _Player,
    other: _Player,
    rnd: int,
    offsets: tuple[int, int],
    expected: str,
    report: _Report,
) -> None:
    """An error naming both lines and the round; `offsets` are round 0's columns."""
    me, them = player.participant.start_no, other.participant.start_no
    mine, theirs = _block_text(player, rnd), _block_text(other, rnd)
    found = f"#{me} '{mine}' on line {player.line}, #{them} '{theirs}' on line {other.line}"
    columns = (offsets[0] + 10 * rnd, offsets[1] + 10 * rnd)
    report.error(player.line, columns, f"001 #{me}, round {rnd}", found, expected)


def _block_text(player: _Player, rnd: int) -> str:
    return player.blocks[rnd - 1] if rnd <= len(player.blocks) else ""


def _check_pabs(players: list[_Player], teams: tuple[TeamRecord, ...], report: _Report) -> None:
    """More than one pairing-allocated bye in a round: merged sections do it (TRF.md 4.4.6).

    In team events a team's PAB shows as a `U` for each of its players: count teams.
    """
    team_of = {no: team.number for team in teams for no in team.members}
    width = len(players[0].participant.entries) if players else 0
    by_round: dict[int, list[_Player]] = {}  # one pass over every block, not one per round
    for p in players:
        for rnd, e in enumerate(p.participant.entries[:width], start=1):
            if e.code is Code.PAB:
                by_round.setdefault(rnd, []).append(p)
    for rnd in sorted(by_round):
        pabs = by_round[rnd]
        # a player outside every team counts alone (negative: never a team number)
        holders = {team_of.get(p.participant.start_no, -p.participant.start_no) for p in pabs}
        if len(holders) > 1:
            found = "U for " + ", ".join(f"#{p.participant.start_no}" for p in pabs)
            expected = "one pairing-allocated bye per round"
            columns = (82 + 10 * rnd, 89 + 10 * rnd)
            report.warn(pabs[-1].line, columns, f"round {rnd}", found, expected)


_ALTERNATIVE_SCORING = {
    "a pairing-allocated bye worth a draw": Scoring(pab=Decimal("0.5")),
    "a pairing-allocated bye worth nothing": Scoring(pab=Decimal("0")),
    "3/1/0 scoring": Scoring(win=Decimal("3"), draw=Decimal("1")),
    "2/1/0 scoring": Scoring(win=Decimal("2"), draw=Decimal("1")),
}


def _check_points(players: list[_Player], declared: Scoring | None, report: _Report) -> Scoring:
    """Columns 81-84 against the results; without 162, one common system may explain them."""
    scoring = declared or DEFAULT_SCORING
    wrong = _mismatches(players, scoring)
    if wrong and declared is None:
        fits = [name for name, alt in _ALTERNATIVE_SCORING.items() if not _mismatches(players, alt)]
        if len(fits) == 1:
            expected = "points under the default 1/½/0 scoring; a 162 line if another is meant"
            found = f"points that fit {fits[0]}"
            report.warn(wrong[0].line, (81, 84), "scoring (no 162 line)", found, expected)
            return _ALTERNATIVE_SCORING[fits[0]]
    # A pairing program's file (`pending_round`) may give the points before the round: only the
    # pairings are read from it, so a mismatch is a warning there.
    flag = report.error if report.pending_round is None else report.warn
    for player in wrong:
        p = player.participant
        expected = f"{_total(p, scoring)}, the sum of the results under the scoring system"
        flag(player.line, (81, 84), f"001 #{p.start_no}, points", str(p.declared_points), expected)
    return scoring


def _mismatches(players: list[_Player], scoring: Scoring) -> list[_Player]:
    return [
        p
        for p in players
        if p.sound
        and p.participant.declared_points is not None
        and p.participant.declared_points != _total(p.participant, scoring)
    ]


def _total(participant: Participant, scoring: Scoring) -> Decimal:
    points = _points_of(scoring)
    return sum((points[e.code] for e in participant.entries), Decimal("0"))


_POINTS_OF: dict[Scoring, dict[Code, Decimal]] = {}


def _points_of(scoring: Scoring) -> dict[Code, Decimal]:
    """`scoring.points` as a table: read once per code, not once per round of every player."""
    table = _POINTS_OF.get(scoring)
    if table is None:
        table = _POINTS_OF[scoring] = {code: scoring.points(code) for code in Code}
    return table


# --- 240 byes (TRF.md 6.6) --------------------------------------------------------------------


def _check_byes(
    lines: list[_Line],
    index: dict[int, _Player],
    teams: tuple[TeamRecord, ...] | None,
    scoring: Scoring,
    report: _Report,
) -> None:
    """A 240 bye must score what the 001 block scores; in team events its IDs are teams."""
    known = index.keys() if teams is None else {t.number for t in teams}
    unknown = _IN_FILE if teams is None else "a team number from the team records"
    for line in lines:
        if line.damaged:
            continue
        kind = line.text[4:5].upper()
        code = {"F": Code.FULL_BYE, "H": Code.HALF_BYE, "Z": Code.ZERO_BYE}.get(kind)
        rnd = _number(line.number, line.text, (7, 9), "240 round", report)
        if code is None:
            report.error(line.number, (5, 5), "240 bye type", kind, "F, H or Z")
        for column, no in _id_cells(line, 11, 4, "240 bye", report):
            if no not in known:
                report.error(line.number, (column, column + 3), "240 bye", str(no), unknown)
            elif teams is None and code is not None and rnd:
                _check_bye(line, (column, column + 3), index[no], rnd, code, scoring, report)


def _check_bye(
    line: _Line,
    columns: tuple[int, int],
    player: _Player,
    rnd: int,
    code: Code,
    scoring: Scoring,
    report: _Report,
) -> None:
    entries = player.participant.entries
    if rnd > len(entries) or not player.sound:
        return  # a bye announced for a later round (TRF.md 4.8), or a line already reported
    entry = entries[rnd - 1]
    if entry.opponent is None and scoring.points(entry.code) == scoring.points(code):
        return
    found = f"{code.value} for #{player.participant.start_no} in round {rnd}"
    expected = (
        f"the 001 block on line {player.line}, '{_block_text(player, rnd)}': bye score disagrees"
    )
    report.error(line.number, columns, "240 bye", found, expected)


def _id_cells(
    line: _Line, first: int, width: int, where: str, report: _Report
) -> list[tuple[int, int]]:
    """Numbers in cells of `width` columns, one blank apart, from column `first`: (column, id)."""
    cells = []
    text = line.text.rstrip()
    for column in range(first, len(text) + 1, width + 1):
        separator = _cols(text, column + width, column + width)
        if separator.strip():
            expected = "a blank between numbers (the line is misaligned)"
            report.error(line.number, (column + width, column + width), where, separator, expected)
        raw = _cols(text, column, column + width - 1).strip()
        if not raw or (_DIGITS.fullmatch(raw) and int(raw) == 0):
            continue  # an empty slot
        if _DIGITS.fullmatch(raw):
            cells.append((column, int(raw)))
        else:
            report.error(line.number, (column, column + width - 1), where, raw, "a number")
    return cells


# --- team records (TRF.md 6.1, 6.2) -----------------------------------------------------------


def _read_teams(
    by_tag: defaultdict[str, list[_Line]], index: dict[int, _Player], report: _Report
) -> tuple[TeamRecord, ...]:
    """310 lines if any (TRF-2026 readers then skip 013), else 013 lines in order."""
    if by_tag["310"]:
        if by_tag["013"]:
            expected = "one kind of team record; the 310 lines are used"
            report.warn(by_tag["013"][0].number, (1, 3), "013 team", "013 and 310", expected)
        teams = [_team_310(line, report) for line in by_tag["310"] if not line.damaged]
    else:
        teams = [
            _team_013(n, line, report)
            for n, line in enumerate(by_tag["013"], start=1)
            if not line.damaged
        ]
    found = [t for t in teams if t is not None]
    _check_members(found, "310" if by_tag["310"] else "013", index, report)
    return tuple(t for t, _ in found)


_TeamCells = tuple[TeamRecord, list[tuple[int, int]]]  # the team and its (column, member) cells


def _team_013(number: int, line: _Line, report: _Report) -> _TeamCells:
    cells = _id_cells(line, 37, 4, f"013 team {number}, member", report)
    name = _cols(line.text, 5, 36).strip()
    return TeamRecord(number, name, tuple(no for _, no in cells), line.number), cells


def _team_310(line: _Line, report: _Report) -> _TeamCells | None:
    raw = _cols(line.text, 5, 7).strip()
    if not (_DIGITS.fullmatch(raw) and int(raw) > 0):
        report.error(line.number, (5, 7), "310 team number", raw, "a number from 1 to 999")
        return None
    cells = _id_cells(line, 74, 4, f"310 team {raw}, member", report)
    name = _cols(line.text, 9, 40).strip()
    return TeamRecord(int(raw), name, tuple(no for _, no in cells), line.number), cells


def _check_members(
    teams: list[_TeamCells], tag: str, index: dict[int, _Player], report: _Report
) -> None:
    """Members must be players in the file, each in one team; team numbers are unique."""
    owner: dict[int, TeamRecord] = {}
    numbers: dict[int, TeamRecord] = {}
    for team, cells in teams:
        if team.number in numbers:
            expected = f"a unique team number (line {numbers[team.number].line} has it too)"
            report.error(team.line, (5, 7), f"{tag} team number", str(team.number), expected)
        numbers.setdefault(team.number, team)
        for column, no in cells:
            where = f"{tag} team {team.number}, member"
            if no not in index:
                report.error(team.line, (column, column + 3), where, str(no), _IN_FILE)
            elif no in owner:
                first = owner[no]
                expected = (
                    f"each player in one team (#{no} is in team {first.number} "
                    f"'{first.name}' on line {first.line})"
                )
                report.error(team.line, (column, column + 3), where, str(no), expected)
            else:
                owner[no] = team


# --- team matches (TRF.md 6.11; C.07 2023 Art. 10) ---------------------------------------------
# A team's games of one round must form one match: every board against the same team, no game
# between team-mates or with a player outside the teams, no individual bye while the team plays
# a match, and a team without a match shows one kind of bye.

_TEAM_BYES = frozenset({Code.PAB, Code.FULL_BYE, Code.HALF_BYE})


def _check_matches(players: list[_Player], teams: tuple[TeamRecord, ...], report: _Report) -> None:
    team_of = {no: team for team in teams for no in team.members}
    by_no = {p.participant.start_no: p for p in players}
    width = max((len(p.participant.entries) for p in players), default=0)
    for player in players:
        if player.participant.start_no not in team_of and player.sound:
            _check_teamless(player, report)
    for rnd in range(1, width + 1):
        for team in teams:
            members = [by_no[no] for no in team.members if by_no[no].sound]
            _check_team_round(rnd, team, members, team_of, report)


def _check_teamless(player: _Player, report: _Report) -> None:
    for rnd, entry in enumerate(player.participant.entries, start=1):
        if entry.opponent is not None or entry.code in _TEAM_BYES:
            where = f"001 #{player.participant.start_no}, round {rnd}"
            expected = "no pairing: the player is in no team record"
            columns = (82 + 10 * rnd, 89 + 10 * rnd)
            report.error(player.line, columns, where, _block_text(player, rnd), expected)
            return


def _check_team_round(
    rnd: int,
    team: TeamRecord,
    members: list[_Player],
    team_of: dict[int, TeamRecord],
    report: _Report,
) -> None:
    """Round `rnd` of `team`: one opposing team on every board, or one kind of bye."""
    first: tuple[_Player, TeamRecord] | None = None  # the first board's player and opponent
    bye: _Player | None = None
    for player in members:
        entry = player.participant.entry(rnd)
        where = f"001 #{player.participant.start_no}, round {rnd}"
        opponent_columns = (82 + 10 * rnd, 85 + 10 * rnd)
        if entry.opponent is None:
            if entry.code in _TEAM_BYES:
                bye = bye or player
                _check_same_bye(rnd, team, bye, player, report)
            continue
        other = team_of.get(entry.opponent)
        found = f"#{entry.opponent}"
        if other is None:
            expected = "a player of another team (the opponent is in no team record)"
            report.error(player.line, opponent_columns, f"{where} opponent", found, expected)
        elif other.number == team.number:
            if player.participant.start_no < entry.opponent:  # report the game once
                expected = f"a player of another team, not a team-mate in team {team.number}"
                report.error(player.line, opponent_columns, f"{where} opponent", found, expected)
        elif first is None:
            first = (player, other)
        elif other.number != first[1].number:
            board1, met = first
            expected = (
                f"a player of team {met.number} '{met.name}', whom team {team.number} meets "
                f"in round {rnd} (#{board1.participant.start_no} on line {board1.line})"
            )
            found += f" of team {other.number} '{other.name}'"
            report.error(player.line, opponent_columns, f"{where} opponent", found, expected)
    if first is not None and bye is not None:
        board1, met = first
        expected = (
            f"no bye: team {team.number} meets team {met.number} in round {rnd} "
            f"(#{board1.participant.start_no} on line {board1.line})"
        )
        columns = (82 + 10 * rnd, 89 + 10 * rnd)
        where = f"001 #{bye.participant.start_no}, round {rnd}"
        report.error(bye.line, columns, where, _block_text(bye, rnd), expected)


def _check_same_bye(
    rnd: int, team: TeamRecord, first: _Player, player: _Player, report: _Report
) -> None:
    mine, theirs = player.participant.entry(rnd).code, first.participant.entry(rnd).code
    if mine is not theirs:
        expected = (
            f"the team's bye, '{theirs.value}' as #{first.participant.start_no} on line "
            f"{first.line} (team {team.number} has one bye per round)"
        )
        where = f"001 #{player.participant.start_no}, round {rnd}"
        columns = (82 + 10 * rnd, 89 + 10 * rnd)
        report.error(player.line, columns, where, _block_text(player, rnd), expected)


class _TeamSetup(msgspec.Struct, frozen=True):
    match_scoring: MatchScoring
    colours: str  # 352: the first-named team's colours on boards 1..n
    boards: int | None
    primary: PointType
    team_rounds: dict[RoundKey, TeamRound]  # 240, 320, 330: rounds stated at team level
    lineups: dict[RoundKey, tuple[int, ...]]  # 300: boards out of roster order


def _team_setup(
    by_tag: defaultdict[str, list[_Line]],
    header: _Header,
    players: list[_Player],
    teams: tuple[TeamRecord, ...],
    report: _Report,
) -> _TeamSetup:
    """352 board colours, 362 match points, the primary score from the 192 code, and the
    TRF-2026 team records 240, 300, 320 and 330."""
    colours, boards = "WB", None
    if by_tag["352"]:
        line = by_tag["352"][-1]
        if re.fullmatch(r"[WBwb]+", line.value):
            colours, boards = line.value.upper(), len(line.value)
        else:
            expected = "W and B, one per board (e.g. WBWB)"
            report.error(line.number, line.value_columns, "352 board colours", line.value, expected)
    scoring = _match_scoring(by_tag["362"][-1], report) if by_tag["362"] else MatchScoring()
    records = _TeamRecords(players, teams, report)
    for line in sorted((*by_tag["240"], *by_tag["300"], *by_tag["320"], *by_tag["330"]), key=_at):
        if line.tag == "240":
            records.bye_240(line)
        elif line.tag == "300":
            records.lineup_300(line)
        elif line.tag == "320":
            scoring = records.pab_320(line, scoring)
        else:
            records.forfeit_330(line)
    return _TeamSetup(
        scoring, colours, boards, _primary(header.raw_system), records.rounds, records.lineups
    )


def _at(line: _Line) -> int:
    return line.number


def _skip_team_records(by_tag: defaultdict[str, list[_Line]], report: _Report) -> None:
    for tag in ("300", "320", "330"):
        for line in by_tag[tag]:
            expected = "team records (013 or 310) for a team record; skipped"
            report.warn(line.number, (1, 3), f"{tag} record", tag, expected)


_FORFEIT_330 = {
    **dict.fromkeys(("+-", "10", "WL", "WZ"), (Code.FORFEIT_WIN, Code.FORFEIT_LOSS)),
    **dict.fromkeys(("-+", "01", "LW", "ZW"), (Code.FORFEIT_LOSS, Code.FORFEIT_WIN)),
    **dict.fromkeys(("--", "00", "LL", "ZZ"), (Code.FORFEIT_LOSS, Code.FORFEIT_LOSS)),
}
_BYES_240 = {"F": Code.FULL_BYE, "H": Code.HALF_BYE, "Z": Code.ZERO_BYE}


class _TeamRecords:
    """TRF-2026 team-level records (TRF.md 6.3-6.6), checked against the board lines: a team
    round they state must be one its players show no game in (for 330: or a match whose boards
    were all forfeited with that result), and a 300 line-up must seat exactly the players who
    played. Rounds beyond the file's are announced for later and skipped."""

    def __init__(
        self, players: list[_Player], teams: tuple[TeamRecord, ...], report: _Report
    ) -> None:
        self.report = report
        self.by_no = {p.participant.start_no: p for p in players}
        self.teams = {t.number: t for t in teams}
        self.width = max((len(p.participant.entries) for p in players), default=0)
        self.rounds: dict[RoundKey, TeamRound] = {}
        self.lineups: dict[RoundKey, tuple[int, ...]] = {}

    def _team(self, line: _Line, columns: tuple[int, int], where: str) -> TeamRecord | None:
        raw = _cols(line.text, *columns).strip()
        team = self.teams.get(int(raw)) if _DIGITS.fullmatch(raw) else None
        if team is None:
            expected = "a team number from the team records"
            self.report.error(line.number, columns, where, raw, expected)
        return team

    def _round(self, line: _Line, columns: tuple[int, int], where: str) -> int | None:
        raw = _cols(line.text, *columns).strip()
        if not (_DIGITS.fullmatch(raw) and int(raw) > 0):
            self.report.error(line.number, columns, where, raw, "a round number")
            return None
        return int(raw) if int(raw) <= self.width else None

    def _games(self, team: TeamRecord, rnd: int) -> list[tuple[_Player, Entry]]:
        """The team's players with a game in round `rnd`, and their round."""
        out = []
        for no in team.members:
            player = self.by_no.get(no)
            if player is not None and player.participant.entry(rnd).opponent is not None:
                out.append((player, player.participant.entry(rnd)))
        return out

    def _state(self, line: _Line, where: str, team: TeamRecord, rnd: int, code: Code) -> None:
        """A bye stated at team level: the team's players show no game, nor another bye."""
        found = f"{code.value} for team {team.number} in round {rnd}"
        games = self._games(team, rnd)
        if games:
            player = games[0][0]
            no = player.participant.start_no
            expected = f"a round team {team.number} did not play (#{no} plays, line {player.line})"
            self.report.error(line.number, None, where, found, expected)
            return
        for no in team.members:
            player = self.by_no.get(no)
            shown = player.participant.entry(rnd).code if player is not None else code
            if player is not None and shown in _TEAM_BYES and shown is not code:
                expected = f"the bye #{no} shows, '{shown.value}' on line {player.line}"
                self.report.error(line.number, None, where, found, expected)
                return
        self._put(line, where, (rnd, team.number), TeamRound(code))

    def _put(self, line: _Line, where: str, key: RoundKey, stated: TeamRound) -> None:
        if key in self.rounds:
            found = f"team {key[1]}, round {key[0]}"
            expected = "one team-level record per team and round (another one states it)"
            self.report.error(line.number, None, where, found, expected)
        self.rounds[key] = stated

    def bye_240(self, line: _Line) -> None:
        """240 in a team event: F, H or Z byes of whole teams (its own checks: _check_byes)."""
        code = _BYES_240.get(line.text[4:5].upper())
        raw = _cols(line.text, 7, 9).strip()
        if line.damaged or code is None or not _DIGITS.fullmatch(raw):
            return
        rnd = int(raw)
        quiet = _Report()  # the cells' problems are reported by _check_byes
        for _column, no in _id_cells(line, 11, 4, "240 bye", quiet):
            if no in self.teams and 0 < rnd <= self.width:
                self._state(line, "240 bye", self.teams[no], rnd, code)

    def pab_320(self, line: _Line, scoring: MatchScoring) -> MatchScoring:
        """320: what a team PAB is worth, then the team that got one in each round."""
        if line.damaged:
            return scoring
        values = {}
        for field, columns, where in (
            ("pab", (5, 8), "320 PAB match points"),
            ("pab_games", (10, 13), "320 PAB game points"),
        ):
            raw = _cols(line.text, *columns).strip()
            if _POINTS.fullmatch(raw):
                values[field] = Decimal(raw.replace(",", "."))
            elif raw:
                self.report.error(line.number, columns, where, raw, "a number such as 1.0")
        for column, no in _id_cells(line, 15, 3, "320 team", self.report):
            rnd = (column - 15) // 4 + 1
            where = f"320 round {rnd}"
            if no not in self.teams:
                expected = "a team number from the team records"
                self.report.error(line.number, (column, column + 2), where, str(no), expected)
            elif rnd <= self.width:
                self._state(line, where, self.teams[no], rnd, Code.PAB)
        return msgspec.structs.replace(scoring, **values)

    def forfeit_330(self, line: _Line) -> None:
        """330: a forfeited match; where no board line shows it, both sides are stated."""
        if line.damaged:
            return
        kind = _cols(line.text, 5, 6).strip().upper()
        codes = _FORFEIT_330.get(kind)
        if codes is None:
            self.report.error(line.number, (5, 6), "330 type", kind, "+-, -+ or --")
        rnd = self._round(line, (8, 10), "330 round")
        white = self._team(line, (12, 14), "330 white team")
        black = self._team(line, (16, 18), "330 black team")
        if codes is None or rnd is None or white is None or black is None:
            return
        if white.number == black.number:
            expected = "two different teams"
            self.report.error(line.number, (12, 18), "330 teams", str(white.number), expected)
            return
        games = self._games(white, rnd)
        if not games and not self._games(black, rnd):
            where = f"330 round {rnd}"
            self._put(line, where, (rnd, white.number), TeamRound(codes[0], black.number, "w"))
            self._put(line, where, (rnd, black.number), TeamRound(codes[1], white.number, "b"))
            return
        wanted = Code.FORFEIT_WIN if codes[0] is Code.FORFEIT_WIN else Code.FORFEIT_LOSS
        for player, entry in games or [(None, None)]:
            if entry is None or entry.opponent not in black.members or entry.code is not wanted:
                where = f"330 round {rnd}"
                found = f"{kind} for teams {white.number}-{black.number}"
                shown = (
                    f"#{player.participant.start_no} '{_block_text(player, rnd)}' on line "
                    f"{player.line}"
                    if player is not None
                    else f"team {white.number} with no game"
                )
                expected = f"the result the board lines show ({shown})"
                self.report.error(line.number, (5, 6), where, found, expected)
                return

    def lineup_300(self, line: _Line) -> None:
        """300: who sat on which board (0000: an empty board) in one match of one team."""
        if line.damaged:
            return
        rnd = self._round(line, (5, 7), "300 round")
        team = self._team(line, (9, 11), "300 team")
        other = self._team(line, (13, 15), "300 opposing team")
        if rnd is None or team is None or other is None:
            return
        seated: list[int] = []
        for column, no in _id_cells(line, 17, 4, f"300 team {team.number}, board", self.report):
            seated.extend([0] * ((column - 17) // 5 - len(seated)))  # empty boards before it
            if no not in team.members:
                expected = f"a player of team {team.number} '{team.name}'"
                self.report.error(line.number, (column, column + 3), "300 board", str(no), expected)
            seated.append(no)
        games = self._games(team, rnd)
        played = {p.participant.start_no for p, _ in games}
        opponents = {e.opponent for _, e in games}
        where = f"300 round {rnd}, team {team.number}"
        if set(seated) - {0} != played or not opponents <= set(other.members):
            found = ", ".join(f"#{no}" for no in seated if no) or "nobody"
            expected = f"the players of team {team.number} who met team {other.number}: " + (
                ", ".join(f"#{no}" for no in sorted(played)) or "none"
            )
            self.report.error(line.number, None, where, found, expected)
            return
        opposite = self.lineups.get((rnd, other.number), ())
        for player, entry in games:
            mine = seated.index(player.participant.start_no) + 1
            theirs = opposite.index(entry.opponent) + 1 if entry.opponent in opposite else mine
            if theirs != mine:
                found = f"#{player.participant.start_no} on board {mine}"
                expected = (
                    f"board {theirs}, where team {other.number}'s 300 line seats the opponent"
                )
                self.report.error(line.number, None, where, found, expected)
                return
        self.lineups[rnd, team.number] = tuple(seated)


_MATCH_FIELDS = {"W": "win", "D": "draw", "L": "loss", "A": "absent", "P": "pab"}
_MATCH_CELLS = ("362 match scoring", "cells of a code TW TD TL (or TA TP) and a number: 'TW 2.0'")


def _match_scoring(line: _Line, report: _Report) -> MatchScoring:
    """362 `TW 2.0   TD 1.0   TL 0.0`, read as tokens like 162 (TRF.md 3.4)."""
    values: dict[str, Decimal] = {}
    pos = 4
    for m in _SCORE_CELL.finditer(line.text, pos):
        _check_gap(line, pos, m.start(), report, _MATCH_CELLS)
        if m[1] in _MATCH_FIELDS:
            values[_MATCH_FIELDS[m[1]]] = Decimal(m[2].replace(",", "."))
        else:
            where, expected = _MATCH_CELLS
            report.error(line.number, (m.start() + 1, m.end()), where, m[0], expected)
        pos = m.end()
    _check_gap(line, pos, len(line.text), report, _MATCH_CELLS)
    return MatchScoring(**values)  # type: ignore[arg-type]


def _primary(code: str) -> PointType:
    """The primary score from the 192 code's suffix: `_GP` or `_GP_MP` (TRF.md 3.5)."""
    scores = [part for part in code.upper().split("_") if part in ("MP", "GP")]
    return "GP" if scores[:1] == ["GP"] else "MP"


def _team_event(
    tournament: Tournament, teams: tuple[TeamRecord, ...], setup: _TeamSetup
) -> TeamEvent:
    return build_team_event(
        tournament,
        (Roster(t.number, t.name, t.members) for t in teams),
        match_scoring=setup.match_scoring,
        boards=setup.boards,
        colours=setup.colours,
        primary=setup.primary,
        team_rounds=setup.team_rounds,
        lineups=setup.lineups,
    )
