"""TRF reader: TRF16 and TRF-2026 files into a `Tournament` (TRF.md 2-4, 6, 8, 10).

The whole file is read and checked before anything is returned: either the complete
`TrfImport` with its warnings, or one `TrfError` listing every problem (TRF.md 10.1). A file
with team records (`013`/`310`) also gives its `TeamEvent`: the matches rebuilt from the board
lines and the TRF-2026 team records (`240`, `300`, `320`, `330`, `352`, `362`): `teams`.
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

from livetb.engine.editions import edition_for
from livetb.engine.model import (
    DEFAULT_SCORING,
    NOT_PAIRED,
    Code,
    Colour,
    Entry,
    Participant,
    Scoring,
    Tournament,
)
from livetb.engine.spec import parse_spec
from livetb.errors import Said, TiebreakSpecError, TrfError
from livetb.trf.checks import (
    _check_byes,
    _check_opponents,
    _check_pabs,
    _check_points,
    _check_reciprocity,
    _check_rounds,
    _index_start_numbers,
    _pad,
)
from livetb.trf.records import (
    _DIGITS,
    _HEADER_TAGS,
    _POINTS,
    _SCORE_CELL,
    _SCORE_FIELDS,
    TrfImport,
    _check_gap,
    _cols,
    _decode,
    _group,
    _Header,
    _in_order,
    _Line,
    _number,
    _Player,
    _Report,
    _split_records,
)
from livetb.trf.scoring import declared_scoring
from livetb.trf.teams import (
    _check_matches,
    _read_teams,
    _skip_team_records,
    _team_event,
    _team_setup,
)


def load_trf(path: str | Path) -> TrfImport:
    """Read a TRF file from disk; errors name the path."""
    return parse_trf(Path(path).read_bytes(), source=str(path))


def parse_trf(
    data: bytes | str, source: str = "<trf>", *, pending_round: int | None = None
) -> TrfImport:
    """Parse and check a whole TRF file; raise one `TrfError` listing every problem.

    A game with an opponent and a colour but a blank result (`   8 b    `) is a round paired
    and not yet played: read as `Code.PENDING` in the file's last round holding a pairing (a
    mid-round export, the running round), refused in any earlier one. `pending_round` names that
    round instead (a pairing program's output for the round to play; its points may be the
    previous round's). Byes and absences in the columns after that round (`0000 - Z` entered in
    advance) and `240` lines for those rounds are byes announced for later rounds (TRF.md 4.8):
    `announced_byes`."""
    report = _Report(pending_round)
    text = _decode(data, report) if isinstance(data, bytes) else data.removeprefix("\ufeff")
    if report.errors:  # undecodable: nothing to locate past the encoding
        raise TrfError(source, report.errors)
    by_tag = _group(_split_records(text, report), report)
    if pending_round is None:
        report.running_round = max(map(_last_paired, by_tag["001"]), default=0)
    if not by_tag["001"]:
        where, expected = Said("trf.where.records", tag="001"), Said("trf.expected.players")
        report.error(1, None, where, Said("trf.found.no_players"), expected)
    header = _read_header(by_tag, report)
    players = _read_players(by_tag["001"], report)
    index = _index_start_numbers(players, report)
    _check_opponents(players, index, report)
    _check_rounds(header, players, report)
    width = max((len(p.blocks) for p in players), default=0)
    players = [_pad(p, width) for p in players]
    _check_reciprocity(players, index, report)
    played = _played_rounds(players)
    scoring = _check_points(players, header.scoring, played, report)
    is_team = header.is_team or bool(by_tag["013"] or by_tag["310"])
    before = len(report.errors)
    teams = _read_teams(by_tag, index, report)
    if teams and len(report.errors) == before:
        _check_matches(players, teams, report)
    _check_pabs(players, teams, report)
    padded = {p.participant.start_no: p for p in players}  # every line `width` rounds long
    byes_240 = _check_byes(
        by_tag["240"], padded, teams if is_team else None, scoring, played, report
    )
    announced = set(byes_240) if is_team else set(byes_240) | _announced_blocks(players, played)
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
        declared_rounds=header.declared_rounds,
        announced_byes=tuple(sorted(announced)),
    )


# --- header (TRF.md 3) ------------------------------------------------------------------------


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
        scoring=declared_scoring(
            (last["162"], _scoring(last["162"], report)) if last["162"] else None, by_tag, report
        ),
        tiebreaks=_tiebreaks(last["202"], last["212"], report),
    )


def _last(lines: list[_Line], report: _Report) -> _Line | None:
    """The last of a header tag's lines; a repeat is a warning (TRF.md 3.1)."""
    for earlier, later in itertools.pairwise(lines):
        if later.tag != "112":
            expected = Said("trf.expected.one_header", tag=later.tag, line=earlier.number)
            where = Said("trf.where.header", tag=later.tag)
            report.warn(later.number, None, where, later.value, expected)
    return lines[-1] if lines else None


_YMD = re.compile(r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})", re.ASCII)
_YY_MM_DD = re.compile(r"(\d{2})/(\d{2})/(\d{2})", re.ASCII)
_DAY_MONTH_YEAR = re.compile(r"(\d{1,2})([/.-])(\d{1,2})[/.-](\d{4})", re.ASCII)
_MONTHS = {
    m: i
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
_MONTH_DAY_YEAR = re.compile(r"([a-z]{3})[a-z]*\.? (\d{1,2}),? (\d{4})")  # May 29, 2020
_DAY_MONTH_NAME = re.compile(r"(\d{1,2})\.? ([a-z]{3})[a-z]*\.? (\d{4})")  # 29 May 2020
_SPACED = re.compile(r"\s*([/.,-])\s*")


def _start_date(line: _Line | None, report: _Report) -> dt.date | None:
    if line is None or not line.value:
        return None
    date, ambiguous = _parse_date(line.value)
    where = Said("trf.where.start_date")
    if date is None:
        expected = Said("trf.expected.date")
        report.warn(line.number, line.value_columns, where, line.value, expected)
    elif ambiguous is not None and edition_for(ambiguous) is not edition_for(date):
        expected = Said(
            "trf.expected.unambiguous_date",
            date=date.isoformat(),
            edition=edition_for(date).value,
            other=ambiguous.isoformat(),
        )
        report.warn(line.number, line.value_columns, where, line.value, expected)
    return date


def _parse_date(text: str) -> tuple[dt.date | None, dt.date | None]:
    """The date and, for DD/MM/YYYY that also reads as MM/DD/YYYY, the other reading.

    Exporters write YYYY/MM/DD (TRF-2026), YYYY-MM-DD, YY/MM/DD, DD.MM.YYYY (also with blanks,
    `28. 07. 2005`), DD/MM/YYYY and English month names (`May 29, 2020`, `29 May 2020`).
    Dots are always day first; slashes are read day first as in practice."""
    text = _SPACED.sub(lambda m: m[1] + (" " if m[1] == "," else ""), text.strip().lower())
    if m := _YMD.fullmatch(text):
        return _date(int(m[1]), int(m[2]), int(m[3])), None
    if m := _YY_MM_DD.fullmatch(text):
        return _date(2000 + int(m[1]), int(m[2]), int(m[3])), None
    if m := _DAY_MONTH_YEAR.fullmatch(text):
        day_first = _date(int(m[4]), int(m[3]), int(m[1]))
        month_first = _date(int(m[4]), int(m[1]), int(m[3])) if m[2] != "." else None
        if day_first is None:
            return month_first, None
        return day_first, month_first if month_first != day_first else None
    for pattern, day, month in ((_MONTH_DAY_YEAR, 2, 1), (_DAY_MONTH_NAME, 1, 2)):
        if (m := pattern.fullmatch(text)) and m[month] in _MONTHS:
            return _date(int(m[3]), _MONTHS[m[month]], int(m[day])), None
    return None, None


def _date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _declared_rounds(r142: _Line | None, xxr: _Line | None, report: _Report) -> int | None:
    rounds = {line.tag: _round_count(line, report) for line in (r142, xxr) if line is not None}
    first, second = rounds.get("142"), rounds.get("XXR")
    if xxr is not None and first is not None and second is not None and first != second:
        where = Said("trf.where.rounds", tag="XXR")
        expected = Said("trf.expected.as_142", rounds=first)
        report.error(xxr.number, xxr.value_columns, where, xxr.value, expected)
    return first or second


def _round_count(line: _Line, report: _Report) -> int | None:
    if _DIGITS.fullmatch(line.value) and int(line.value) > 0:
        return int(line.value)
    where, expected = Said("trf.where.rounds", tag=line.tag), Said("trf.expected.positive")
    report.error(line.number, line.value_columns, where, line.value, expected)
    return None


_XXC_COLOURS: dict[str, Colour] = {"white1": "w", "black1": "b"}


def _initial_colour(line: _Line | None, xxc: list[_Line], report: _Report) -> Colour | None:
    """152, or JaVaFo's `XXC white1`/`XXC black1` that it replaces (TRF.md 7.1)."""
    if line is not None:
        value = line.value.upper()
        if value in ("W", "B"):
            return "w" if value == "W" else "b"
        where, expected = Said("trf.where.initial_colour"), Said("trf.expected.w_or_b")
        report.error(line.number, line.value_columns, where, line.value, expected)
        return None
    colours = [_XXC_COLOURS[t] for x in xxc for t in x.value.lower().split() if t in _XXC_COLOURS]
    return colours[-1] if colours else None


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


def _tiebreaks(t202: _Line | None, t212: _Line | None, report: _Report) -> tuple[str, ...]:
    """212 includes the primary score; 202 does not, so PTS goes first (TRF.md 3.6). A code
    that is not a tie-break livetb computes is an error located at its line and columns
    (whether a team code fits the event is decided where the list is used)."""
    line = t212 if t212 is not None else t202
    if line is None:
        return ()
    items: list[str] = []
    for m in re.finditer(r"[^,]+", line.text[4:]):
        item = m[0].strip()
        if not item:
            continue
        first = 5 + m.start() + len(m[0]) - len(m[0].lstrip())  # 1-based, after the tag
        try:
            parse_spec(item, teams=True)
        except TiebreakSpecError as err:
            where = Said("trf.where.tiebreaks", tag=line.tag)
            expected = Said("trf.expected.tiebreak", reason=err.said or str(err))
            report.error(line.number, (first, first + len(item) - 1), where, item, expected)
        items.append(item)
    return tuple(items) if line is t212 else ("PTS", *items)


# --- player records (TRF.md 4) ----------------------------------------------------------------


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


def _block_count(line: _Line) -> int:
    return max(0, -(-(len(line.text.rstrip()) - 89) // 10))  # ceil: a half block is a block


def _last_paired(line: _Line) -> int:
    """The line's last round naming an opponent or a `U` (TRF.md 4.8): the file's last such
    round is the one a game without a result may be in. Read before the blocks are, from the
    raw columns; a block that is not well-formed is reported when it is read."""
    text = line.text.rstrip()
    for rnd in range(_block_count(line), 0, -1):
        first = 80 + 10 * rnd
        block = text[first + 1 : first + 9].ljust(8)  # columns 82+10r to 89+10r
        if block[:4].strip(" 0") or block[7].upper() == "U":
            return rnd
    return 0


def _played_rounds(players: list[_Player]) -> int:
    """The last round with a pairing or a pairing-allocated bye (`Tournament.played_rounds`)."""
    return max(
        (
            rnd
            for p in players
            for rnd, e in enumerate(p.participant.entries, start=1)
            if e.opponent is not None or e.code is Code.PAB
        ),
        default=0,
    )


def _announced_blocks(players: list[_Player], played: int) -> set[tuple[int, int, Code]]:
    """Byes and absences written in the columns after the last round paired (TRF.md 4.8:
    pairing programs enter them in advance): (round, start number, H/F/Z). A blank block there
    means "to be paired", so only a written one counts."""
    return {
        (rnd, p.participant.start_no, e.code)
        for p in players
        for rnd, e in enumerate(p.participant.entries, start=1)
        if rnd > played
        and rnd <= len(p.blocks)
        and p.blocks[rnd - 1]
        and e.code in (Code.HALF_BYE, Code.FULL_BYE, Code.ZERO_BYE)
    }


def _read_player(line: _Line, report: _Report) -> _Player | None:
    text = line.text.rstrip()
    blocks = _block_count(line)
    text = text.ljust(89 + 10 * blocks)
    start_no = _start_number(line.number, text, report)
    if start_no is None:
        return None
    where = Said("trf.where.player", no=start_no)
    separator = next((c for c in _SEPARATORS if text[c - 1] != " "), None)
    if separator is not None:
        found = text[separator - 1]
        expected = Said("trf.expected.separator")
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
    where = Said("trf.where.start_rank")
    expected = Said("trf.expected.number_range", low=1, high=9999)
    report.error(number, (5, 8), where, raw, expected)
    return None


def _participant(
    number: int, text: str, start_no: int, blocks: int, report: _Report
) -> Participant:
    points = _cols(text, 81, 84).strip()
    if points and not _POINTS.fullmatch(points):
        where = Said("trf.where.player_points", no=start_no)
        expected = Said("trf.expected.number_such_as", example="11.5")
        report.error(number, (81, 84), where, points, expected)
        points = ""
    rating = Said("trf.where.player_rating", no=start_no)
    rank = Said("trf.where.player_rank", no=start_no)
    return Participant(
        start_no=start_no,
        name=_cols(text, 15, 47).strip(),
        rating=_number(number, text, (49, 52), rating, report) or None,
        title=_title(number, text, start_no, report),
        federation=_cols(text, 54, 56).strip(),
        fide_id=_fide_id(number, text, start_no, report),
        sex=_sex(number, text, start_no, report),
        birth_date=_cols(text, 70, 79).strip(),
        entries=tuple(_block(number, text, r, start_no, report) for r in range(1, blocks + 1)),
        declared_points=Decimal(points.replace(",", ".")) if points else None,
        declared_rank=_number(number, text, (86, 89), rank, report),
    )


def _fide_id(number: int, text: str, start_no: int, report: _Report) -> str:
    where = Said("trf.where.player_fide_id", no=start_no)
    valid = _number(number, text, (58, 68), where, report) is not None
    return _cols(text, 58, 68).strip() if valid else ""


def _title(number: int, text: str, start_no: int, report: _Report) -> str:
    raw = _cols(text, 11, 13).strip()
    if raw and raw.lower() not in _TITLES:
        where, expected = Said("trf.where.player_title", no=start_no), Said("trf.expected.title")
        report.warn(number, (11, 13), where, raw, expected)
        return raw
    return _TITLES.get(raw.lower(), "")


def _sex(number: int, text: str, start_no: int, report: _Report) -> str:
    raw = text[9]
    if raw.lower() not in _SEXES:
        where, expected = Said("trf.where.player_sex", no=start_no), Said("trf.expected.sex")
        report.warn(number, (10, 10), where, raw, expected)
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


# A well-formed game or bye block, matched whole (columns 80+10r to 89+10r): most blocks of
# most files, read without the checks, one column at a time, that the others need.
_GAME_BLOCK = re.compile(r"  ( {0,3}[1-9][0-9]{0,3}) ([wb]) ([10=WDL+-])")
_BYE_BLOCK = re.compile(r"  0000 - ([HFUZ])")


def _block(number: int, text: str, rnd: int, start_no: int, report: _Report) -> Entry:
    """Round `rnd`'s block: columns 80+10r to 89+10r (TRF.md 4.2)."""
    first = 80 + 10 * rnd
    game = _GAME_BLOCK.fullmatch(text, first - 1, first + 9)
    if game is not None:
        listed = int(game[1])
        if listed != start_no:
            return Entry(_RESULTS[game[3]], listed, _COLOURS[game[2]])
    elif (bye := _BYE_BLOCK.fullmatch(text, first - 1, first + 9)) is not None:
        return Entry(_RESULTS[bye[1]])
    at = {"no": start_no, "round": rnd}
    separator = next((c for c in (first, first + 1, first + 6, first + 8) if text[c - 1] != " "), 0)
    if separator:
        found, expected = text[separator - 1], Said("trf.expected.separator")
        where = Said("trf.where.player_round_block", **at)
        report.error(number, (separator, separator), where, found, expected)
        return NOT_PAIRED
    errors = len(report.errors)
    opponent_at = Said("trf.where.player_round_opponent", **at)
    opponent = _number(number, text, (first + 2, first + 5), opponent_at, report) or None
    colour_at = Said("trf.where.player_round_colour", **at)
    colour = _colour(number, text[first + 6], first + 7, colour_at, report)
    result_at = Said("trf.where.player_round_result", **at)
    if opponent is not None and text[first + 8] == " " and len(report.errors) == errors:
        if colour is not None and rnd in (report.pending_round, report.running_round):
            return Entry(Code.PENDING, opponent, colour)  # a pairing not played yet
        _unplayed_pairing(number, text, rnd, colour, result_at, report)
        return NOT_PAIRED
    code = _result(number, text[first + 8], first + 9, result_at, report)
    if code is None or len(report.errors) > errors:
        return NOT_PAIRED
    where = Said("trf.where.player_round", **at)
    block = _Block(number, (first + 2, first + 9), where, _cols(text, first + 2, first + 9).strip())
    if opponent is None:
        return _bye_entry(block, code, colour, report)
    if opponent == start_no:
        expected = Said("trf.expected.own_opponent")
        report.error(number, (first + 2, first + 5), opponent_at, str(opponent), expected)
    return _game_entry(block, code, colour, opponent, report)


def _unplayed_pairing(
    number: int, text: str, rnd: int, colour: Colour | None, where: Said, report: _Report
) -> None:
    """An opponent with no result: say what the block reads as and where it would be read."""
    first = 80 + 10 * rnd
    block = _cols(text, first + 2, first + 9).strip()
    if colour is None:
        found = Said("trf.found.no_colour_no_result", block=block)
        expected = Said("trf.expected.colour_and_result")
    else:
        running = report.pending_round or report.running_round or 0
        found = Said("trf.found.no_result", block=block, round=rnd)
        expected = Said("trf.expected.result_running", round=running)
    report.error(number, (first + 2, first + 9), where, found, expected)


class _Block(msgspec.Struct, frozen=True):
    """A round block, located, for messages about the whole block."""

    line: int
    columns: tuple[int, int]
    where: Said
    text: str

    def error(self, report: _Report, expected: Said) -> None:
        report.error(self.line, self.columns, self.where, self.text, expected)

    def warn(self, report: _Report, expected: Said) -> None:
        report.warn(self.line, self.columns, self.where, self.text, expected)


_COLOURS: dict[str, Colour | None] = {"w": "w", "W": "w", "b": "b", "B": "b", "-": None, " ": None}


def _colour(number: int, raw: str, column: int, where: Said, report: _Report) -> Colour | None:
    if raw not in _COLOURS:
        report.error(number, (column, column), where, raw, Said("trf.expected.colour"))
    return _COLOURS.get(raw)


def _result(number: int, raw: str, column: int, where: Said, report: _Report) -> Code | None:
    if raw.upper() in ("X", "?"):
        report.warn(number, (column, column), where, raw, Said("trf.expected.known_result"))
        return Code.UNKNOWN
    code = _RESULTS.get(raw.upper())
    if code is None:
        report.error(number, (column, column), where, raw, Said("trf.expected.result"))
    return code


def _bye_entry(block: _Block, code: Code, colour: Colour | None, report: _Report) -> Entry:
    if code in _LEGACY_BYES:
        block.warn(report, Said("trf.expected.legacy_bye", code=_LEGACY_BYES[code].value))
        code = _LEGACY_BYES[code]
    elif code not in _BYES:
        block.error(report, Said("trf.expected.opponent_for_result"))
    if colour is not None:
        block.error(report, Said("trf.expected.no_colour_for_bye"))
    return Entry(code)


def _game_entry(
    block: _Block, code: Code, colour: Colour | None, opponent: int, report: _Report
) -> Entry:
    if code in _BYES:
        block.error(report, Said("trf.expected.no_opponent_for_bye"))
    elif colour is None and code in (Code.FORFEIT_WIN, Code.FORFEIT_LOSS):
        block.warn(report, Said("trf.expected.forfeit_colour"))
    elif colour is None:
        block.error(report, Said("trf.expected.game_colour"))
    return Entry(code, opponent, colour)
