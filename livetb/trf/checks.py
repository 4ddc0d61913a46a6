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
from livetb.errors import Said
from livetb.trf.records import _DIGITS, TeamRecord, _cols, _Header, _Line, _number, _Player, _Report

# --- consistency between records (TRF.md 4.4) ------------------------------------------------


def _index_start_numbers(players: list[_Player], report: _Report) -> dict[int, _Player]:
    index: dict[int, _Player] = {}
    for player in players:
        no = player.participant.start_no
        if no in index:
            first = index[no]
            expected = Said("trf.expected.unique_start_rank", line=first.line, no=no)
            report.error(player.line, (5, 8), Said("trf.where.player", no=no), str(no), expected)
            first.sound = player.sound = False
        else:
            index[no] = player
    missing = sorted(set(range(1, max(index, default=0) + 1)) - set(index))
    if missing:
        after = next(p for p in players if p.participant.start_no > missing[0])
        found = Said("trf.found.missing", numbers=", ".join(map(str, missing)))
        where, expected = Said("trf.where.numbering"), Said("trf.expected.no_gaps")
        report.warn(after.line, (5, 8), where, found, expected)
    return index


_IN_FILE = Said("trf.expected.in_file")


def _check_opponents(players: list[_Player], index: dict[int, _Player], report: _Report) -> None:
    for player in players:
        for rnd, entry in enumerate(player.participant.entries, start=1):
            if entry.opponent is not None and entry.opponent not in index:
                no = player.participant.start_no
                where = Said("trf.where.player_round_opponent", no=no, round=rnd)
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
            where = Said("trf.where.player_round", no=player.participant.start_no, round=rnd)
            expected = Said("trf.expected.within_rounds", rounds=declared)
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
                them = other.participant.start_no
                expected = Said("trf.expected.reciprocal", opponent=them, round=rnd, no=me)
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
        expected = Said("trf.expected.opposite_colours")
        _pair_error(player, other, rnd, (87, 87), expected, report)
    if (mine.code, theirs.code) not in _PAIRS:
        expected = Said("trf.expected.paired_results")
        _pair_error(player, other, rnd, (89, 89), expected, report)
    return False


def _same_colours(player: _Player, other: _Player, rnd: int, report: _Report) -> None:
    """A pairing program's list can give both players of a game not played yet one colour
    (FIDE's reference parser reads it): nothing is scored yet, so the file is read, White
    being the lower start number; a result on such a board stays an error (`_check_pair`)."""
    me, them = player.participant.start_no, other.participant.start_no
    found = _pair_found(player, other, rnd)
    expected = Said("trf.expected.same_colours", round=rnd, white=me, black=them)
    columns = (87 + 10 * rnd, 87 + 10 * rnd)
    report.warn(
        player.line, columns, Said("trf.where.player_round", no=me, round=rnd), found, expected
    )


def _pair_error(
    player: _Player,
    other: _Player,
    rnd: int,
    offsets: tuple[int, int],
    expected: Said,
    report: _Report,
) -> None:
    """An error naming both lines and the round; `offsets` are round 0's columns."""
    where = Said("trf.where.player_round", no=player.participant.start_no, round=rnd)
    columns = (offsets[0] + 10 * rnd, offsets[1] + 10 * rnd)
    report.error(player.line, columns, where, _pair_found(player, other, rnd), expected)


def _pair_found(player: _Player, other: _Player, rnd: int) -> Said:
    """Both blocks of a pairing, each with its line."""
    return Said(
        "trf.found.pair",
        no=player.participant.start_no,
        block=_block_text(player, rnd),
        line=player.line,
        other=other.participant.start_no,
        other_block=_block_text(other, rnd),
        other_line=other.line,
    )


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
            listed = ", ".join(f"#{p.participant.start_no}" for p in pabs)
            found = Said("trf.found.pabs", players=listed)
            expected = Said("trf.expected.one_pab")
            columns = (82 + 10 * rnd, 89 + 10 * rnd)
            report.warn(pabs[-1].line, columns, Said("trf.where.round", round=rnd), found, expected)


# each with the catalog's "points that fit …" for it
_ALTERNATIVE_SCORING = {
    "trf.found.fits_pab_draw": Scoring(pab=Decimal("0.5")),
    "trf.found.fits_pab_zero": Scoring(pab=Decimal("0")),
    "trf.found.fits_310": Scoring(win=Decimal("3"), draw=Decimal("1")),
    "trf.found.fits_210": Scoring(win=Decimal("2"), draw=Decimal("1")),
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
            expected = Said("trf.expected.default_scoring")
            where = Said("trf.where.scoring_undeclared")
            report.warn(wrong[0].line, (81, 84), where, Said(fits[0]), expected)
            return _ALTERNATIVE_SCORING[fits[0]]
    # A pairing program's file (`pending_round`) may give the points before the round: only the
    # pairings are read from it, so a mismatch is a warning there.
    flag = report.error if report.pending_round is None else report.warn
    for player in wrong:
        p = player.participant
        expected = Said("trf.expected.points_sum", points=str(_total(p, scoring)))
        where = Said("trf.where.player_points", no=p.start_no)
        flag(player.line, (81, 84), where, str(p.declared_points), expected)
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
    blank = all(d is None for d in declared)
    found = Said("trf.found.blank_points") if blank else Said("trf.found.zero_points")
    where, expected = Said("trf.where.points"), Said("trf.expected.points_computed")
    report.warn(sound[0].line, (81, 84), where, found, expected)
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
    unknown = _IN_FILE if teams is None else Said("trf.expected.team_number")
    bye = Said("trf.where.bye")
    for line in lines:
        if line.damaged:
            continue
        kind = line.text[4:5].upper()
        code = {"F": Code.FULL_BYE, "H": Code.HALF_BYE, "Z": Code.ZERO_BYE}.get(kind)
        rnd = _number(line.number, line.text, (7, 9), Said("trf.where.round_of", tag="240"), report)
        if code is None:
            where, expected = Said("trf.where.bye_type"), Said("trf.expected.bye_type")
            report.error(line.number, (5, 5), where, kind, expected)
        for column, no in _id_cells(line, 11, 4, bye, report):
            if no not in known:
                report.error(line.number, (column, column + 3), bye, str(no), unknown)
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
    found = Said("trf.found.bye_for", code=code.value, no=player.participant.start_no, round=rnd)
    block = _block_text(player, rnd)
    expected = Said("trf.expected.bye_disagrees", line=player.line, block=block)
    report.error(line.number, columns, Said("trf.where.bye"), found, expected)


def _id_cells(
    line: _Line, first: int, width: int, where: Said, report: _Report
) -> list[tuple[int, int]]:
    """Numbers in cells of `width` columns, one blank apart, from column `first`: (column, id)."""
    cells = []
    text = line.text.rstrip()
    for column in range(first, len(text) + 1, width + 1):
        separator = _cols(text, column + width, column + width)
        if separator.strip():
            expected = Said("trf.expected.cell_separator")
            report.error(line.number, (column + width, column + width), where, separator, expected)
        raw = _cols(text, column, column + width - 1).strip()
        if not raw or (_DIGITS.fullmatch(raw) and int(raw) == 0):
            continue  # an empty slot
        if _DIGITS.fullmatch(raw):
            cells.append((column, int(raw)))
        else:
            report.error(
                line.number, (column, column + width - 1), where, raw, Said("trf.expected.number")
            )
    return cells
