"""Consistency between records (TRF.md 4.4) and the 240 byes (TRF.md 6.6)."""

from __future__ import annotations

from decimal import Decimal

import msgspec

from livetb.engine.model import (
    DEFAULT_SCORING,
    NOT_PAIRED,
    Code,
    Participant,
    Scoring,
)
from livetb.trf.records import _DIGITS, TeamRecord, _cols, _Header, _Line, _number, _Player, _Report

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


# Results the two sides of one pairing may show (TRF.md 4.4.5), and `0`/`0`: a game both
# players lost over the board (an arbiter's decision; Vega prints it `0 - 0`), played and
# scored 0 each, which the FIDE reference reads too.
_PAIRS = frozenset(
    (Code(a), Code(b)) for a, b in ("10", "01", "==", "00", "WL", "LW", "DD", "+-", "-+", "--")
) | {(Code.UNKNOWN, Code.UNKNOWN), (Code.PENDING, Code.PENDING)}


def _check_reciprocity(players: list[_Player], index: dict[int, _Player], report: _Report) -> None:
    """`players` (the lines padded to the file's width) get White and Black for a game not
    played yet whose two blocks give one colour (`_same_colours`)."""
    same: list[tuple[int, int, int]] = []  # (round, White, Black) to write into the entries
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
            elif me < other.participant.start_no and _check_pair(player, other, rnd, report):
                same.append((rnd, me, other.participant.start_no))
    by_no = {p.participant.start_no: p for p in players}
    for rnd, white, black in same:
        for no, colour in ((white, "w"), (black, "b")):
            p = by_no[no]
            entries = list(p.participant.entries)
            entries[rnd - 1] = msgspec.structs.replace(entries[rnd - 1], colour=colour)
            p.participant = msgspec.structs.replace(p.participant, entries=tuple(entries))


def _check_pair(player: _Player, other: _Player, rnd: int, report: _Report) -> bool:
    """Whether the pair is a game not played yet with one colour on both sides (a warning;
    the caller gives the lower start number White)."""
    mine = player.participant.entry(rnd)
    theirs = other.participant.entry(rnd)
    same = mine.colour is not None and mine.colour == theirs.colour
    if same and mine.code is Code.PENDING and theirs.code is Code.PENDING:
        _same_colours(player, other, rnd, report)
        return True
    if same:
        _pair_error(player, other, rnd, (87, 87), "opposite colours (w and b)", report)
    if (mine.code, theirs.code) not in _PAIRS:
        expected = "results that pair up: 1/0, =/=, 0/0, W/L, D/D, +/-, -/- or X/X"
        _pair_error(player, other, rnd, (89, 89), expected, report)
    return False


def _same_colours(player: _Player, other: _Player, rnd: int, report: _Report) -> None:
    """A pairing program's list can give both players of a game not played yet one colour
    (FIDE's reference parser reads it): nothing is scored yet, so the file is read, White
    being the lower start number; a result on such a board stays an error (`_check_pair`)."""
    me, them = player.participant.start_no, other.participant.start_no
    mine, theirs = _block_text(player, rnd), _block_text(other, rnd)
    found = f"#{me} '{mine}' on line {player.line}, #{them} '{theirs}' on line {other.line}"
    expected = (
        f"opposite colours (w and b); round {rnd} is not played yet, so #{me} (the lower start "
        f"number) is read as White and #{them} as Black: colours are fixed when a result comes"
    )
    columns = (87 + 10 * rnd, 87 + 10 * rnd)
    report.warn(player.line, columns, f"001 #{me}, round {rnd}", found, expected)


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
            expected = "one pairing-allocated bye per round; each U is read as one"
            columns = (82 + 10 * rnd, 89 + 10 * rnd)
            report.warn(pabs[-1].line, columns, f"round {rnd}", found, expected)


_ALTERNATIVE_SCORING = {
    "a pairing-allocated bye worth a draw": Scoring(pab=Decimal("0.5")),
    "a pairing-allocated bye worth nothing": Scoring(pab=Decimal("0")),
    "3/1/0 scoring": Scoring(win=Decimal("3"), draw=Decimal("1")),
    "2/1/0 scoring": Scoring(win=Decimal("2"), draw=Decimal("1")),
}


def _check_points(
    players: list[_Player], declared: Scoring | None, played: int, report: _Report
) -> Scoring:
    """Columns 81-84 against the results; without 162, one common system may explain them.
    A bye entered ahead for a round after `played`, the last one paired, may be in the points
    or not: JaVaFo wants it there (TRF.md 4.4.7), other programs leave it out."""
    scoring = declared or DEFAULT_SCORING
    if _points_left_empty(players, scoring, report):
        return scoring
    wrong = _mismatches(players, scoring, played)
    if wrong and declared is None:
        fits = [
            name
            for name, alt in _ALTERNATIVE_SCORING.items()
            if not _mismatches(players, alt, played)
        ]
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


def _points_left_empty(players: list[_Player], scoring: Scoring, report: _Report) -> bool:
    """Exporters that leave columns 81-84 at 0.0 (or blank) for everyone: one warning, and the
    scores come from the results. Some players' points right and others' wrong stays an error."""
    sound = [p for p in players if p.sound]
    declared = [p.participant.declared_points for p in sound]
    if not sound or any(d not in (None, 0) for d in declared):
        return False
    if all(_total(p.participant, scoring) == 0 for p in sound):
        return False  # nothing scored yet: 0.0 is right
    found = "blank" if all(d is None for d in declared) else "0.0 or blank"
    report.warn(
        sound[0].line,
        (81, 84),
        "001 points",
        f"{found} for every player",
        "each player's points; the scores are computed from the results",
    )
    return True


def _mismatches(players: list[_Player], scoring: Scoring, played: int) -> list[_Player]:
    return [
        p
        for p in players
        if p.sound
        and p.participant.declared_points is not None
        and p.participant.declared_points != _total(p.participant, scoring)
        and p.participant.declared_points != _total(p.participant, scoring, played)
    ]


def _total(participant: Participant, scoring: Scoring, upto: int | None = None) -> Decimal:
    """The points of every round in the line, or of rounds 1..`upto`."""
    points = _points_of(scoring)
    return sum((points[e.code] for e in participant.entries[:upto]), Decimal("0"))


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
    played: int,
    report: _Report,
) -> list[tuple[int, int, Code]]:
    """A 240 bye must score what the 001 block scores; in team events its IDs are teams.
    Returns the byes announced for rounds after the last one paired, `played` (individual
    events): (round, start number, code). There a blank 001 block means "to be paired" (TRF.md
    4.8), so the 240 line is what says the round's bye; a written block must agree with it."""
    announced: list[tuple[int, int, Code]] = []
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
                player = index[no]
                if rnd > played:
                    announced.append((rnd, no, code))  # a bye for a later round (TRF.md 4.8)
                    if not _block_text(player, rnd):
                        continue
                _check_bye(line, (column, column + 3), player, rnd, code, scoring, report)
    return announced


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
    if not player.sound:
        return  # a line already reported
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
