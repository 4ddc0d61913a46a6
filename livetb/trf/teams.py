"""Team records (TRF.md 6.1-6.6, 6.11; C.07 2023 Art. 10): the teams (013/310), the matches
rebuilt from the board lines, and the TRF-2026 team-level records checked against them."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from decimal import Decimal

import msgspec

from livetb.engine.model import (
    Code,
    Entry,
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
from livetb.errors import Said
from livetb.trf.checks import _IN_FILE, _block_text, _id_cells
from livetb.trf.records import (
    _DIGITS,
    _POINTS,
    _SCORE_CELL,
    TeamRecord,
    _check_gap,
    _cols,
    _Header,
    _Line,
    _Player,
    _Report,
)

# --- team records (TRF.md 6.1, 6.2) -----------------------------------------------------------


def _read_teams(
    by_tag: defaultdict[str, list[_Line]], index: dict[int, _Player], report: _Report
) -> tuple[TeamRecord, ...]:
    """310 lines if any (TRF-2026 readers then skip 013), else 013 lines in order."""
    if by_tag["310"]:
        if by_tag["013"]:
            where, expected = Said("trf.where.team", tag="013"), Said("trf.expected.one_team_kind")
            both = Said("trf.found.both_team_kinds")
            report.warn(by_tag["013"][0].number, (1, 3), where, both, expected)
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
    member = Said("trf.where.team_member", tag="013", team=number)
    cells = _id_cells(line, 37, 4, member, report)
    name = _cols(line.text, 5, 36).strip()
    return TeamRecord(number, name, tuple(no for _, no in cells), line.number), cells


def _team_310(line: _Line, report: _Report) -> _TeamCells | None:
    raw = _cols(line.text, 5, 7).strip()
    if not (_DIGITS.fullmatch(raw) and int(raw) > 0):
        where = Said("trf.where.team_number", tag="310")
        expected = Said("trf.expected.number_range", low=1, high=999)
        report.error(line.number, (5, 7), where, raw, expected)
        return None
    cells = _id_cells(line, 74, 4, Said("trf.where.team_member", tag="310", team=raw), report)
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
            expected = Said("trf.expected.unique_team", line=numbers[team.number].line)
            where = Said("trf.where.team_number", tag=tag)
            report.error(team.line, (5, 7), where, str(team.number), expected)
        numbers.setdefault(team.number, team)
        where = Said("trf.where.team_member", tag=tag, team=team.number)
        for column, no in cells:
            if no not in index:
                report.error(team.line, (column, column + 3), where, str(no), _IN_FILE)
            elif no in owner:
                first = owner[no]
                expected = Said(
                    "trf.expected.one_team",
                    no=no,
                    team=first.number,
                    name=first.name,
                    line=first.line,
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
            where = Said("trf.where.player_round", no=player.participant.start_no, round=rnd)
            expected = Said("trf.expected.teamless")
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
        no = player.participant.start_no
        where = Said("trf.where.player_round_opponent", no=no, round=rnd)
        opponent_columns = (82 + 10 * rnd, 85 + 10 * rnd)
        if entry.opponent is None:
            if entry.code in _TEAM_BYES:
                bye = bye or player
                _check_same_bye(rnd, team, bye, player, report)
            continue
        other = team_of.get(entry.opponent)
        found = f"#{entry.opponent}"
        if other is None:
            expected = Said("trf.expected.opponent_teamless")
            report.error(player.line, opponent_columns, where, found, expected)
        elif other.number == team.number:
            if player.participant.start_no < entry.opponent:  # report the game once
                expected = Said("trf.expected.team_mate", team=team.number)
                report.error(player.line, opponent_columns, where, found, expected)
        elif first is None:
            first = (player, other)
        elif other.number != first[1].number:
            board1, met = first
            expected = Said(
                "trf.expected.same_match",
                other=met.number,
                name=met.name,
                team=team.number,
                round=rnd,
                no=board1.participant.start_no,
                line=board1.line,
            )
            of_team = Said(
                "trf.found.player_of_team", no=entry.opponent, team=other.number, name=other.name
            )
            report.error(player.line, opponent_columns, where, of_team, expected)
    if first is not None and bye is not None:
        board1, met = first
        expected = Said(
            "trf.expected.no_team_bye",
            team=team.number,
            other=met.number,
            round=rnd,
            no=board1.participant.start_no,
            line=board1.line,
        )
        columns = (82 + 10 * rnd, 89 + 10 * rnd)
        at = Said("trf.where.player_round", no=bye.participant.start_no, round=rnd)
        report.error(bye.line, columns, at, _block_text(bye, rnd), expected)


def _check_same_bye(
    rnd: int, team: TeamRecord, first: _Player, player: _Player, report: _Report
) -> None:
    mine, theirs = player.participant.entry(rnd).code, first.participant.entry(rnd).code
    if mine is not theirs:
        expected = Said(
            "trf.expected.team_bye",
            code=theirs.value,
            no=first.participant.start_no,
            line=first.line,
            team=team.number,
        )
        where = Said("trf.where.player_round", no=player.participant.start_no, round=rnd)
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
            where, expected = Said("trf.where.board_colours"), Said("trf.expected.board_colours")
            report.error(line.number, line.value_columns, where, line.value, expected)
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
            where, expected = Said("trf.where.record", tag=tag), Said("trf.expected.needs_teams")
            report.warn(line.number, (1, 3), where, tag, expected)


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

    def _team(self, line: _Line, columns: tuple[int, int], where: Said) -> TeamRecord | None:
        raw = _cols(line.text, *columns).strip()
        team = self.teams.get(int(raw)) if _DIGITS.fullmatch(raw) else None
        if team is None:
            expected = Said("trf.expected.team_number")
            self.report.error(line.number, columns, where, raw, expected)
        return team

    def _round(self, line: _Line, columns: tuple[int, int], where: Said) -> int | None:
        raw = _cols(line.text, *columns).strip()
        if not (_DIGITS.fullmatch(raw) and int(raw) > 0):
            expected = Said("trf.expected.round_number")
            self.report.error(line.number, columns, where, raw, expected)
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

    def _state(self, line: _Line, where: Said, team: TeamRecord, rnd: int, code: Code) -> None:
        """A bye stated at team level: the team's players show no game, nor another bye."""
        found = Said("trf.found.team_bye_for", code=code.value, team=team.number, round=rnd)
        games = self._games(team, rnd)
        if games:
            player = games[0][0]
            no = player.participant.start_no
            expected = Said(
                "trf.expected.team_did_not_play", team=team.number, no=no, line=player.line
            )
            self.report.error(line.number, None, where, found, expected)
            return
        for no in team.members:
            member = self.by_no.get(no)
            shown = member.participant.entry(rnd).code if member is not None else code
            if member is not None and shown in _TEAM_BYES and shown is not code:
                expected = Said(
                    "trf.expected.member_bye", no=no, code=shown.value, line=member.line
                )
                self.report.error(line.number, None, where, found, expected)
                return
        self._put(line, where, (rnd, team.number), TeamRound(code))

    def _put(self, line: _Line, where: Said, key: RoundKey, stated: TeamRound) -> None:
        if key in self.rounds:
            found = Said("trf.found.team_round", team=key[1], round=key[0])
            expected = Said("trf.expected.one_team_record")
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
        where = Said("trf.where.bye")
        for _column, no in _id_cells(line, 11, 4, where, quiet):
            if no in self.teams and 0 < rnd <= self.width:
                self._state(line, where, self.teams[no], rnd, code)

    def pab_320(self, line: _Line, scoring: MatchScoring) -> MatchScoring:
        """320: what a team PAB is worth, then the team that got one in each round."""
        if line.damaged:
            return scoring
        values = {}
        for field, columns, where in (
            ("pab", (5, 8), Said("trf.where.pab_match_points")),
            ("pab_games", (10, 13), Said("trf.where.pab_game_points")),
        ):
            raw = _cols(line.text, *columns).strip()
            if _POINTS.fullmatch(raw):
                values[field] = Decimal(raw.replace(",", "."))
            elif raw:
                expected = Said("trf.expected.number_such_as", example="1.0")
                self.report.error(line.number, columns, where, raw, expected)
        team_at = Said("trf.where.team", tag="320")
        for column, no in _id_cells(line, 15, 3, team_at, self.report):
            rnd = (column - 15) // 4 + 1
            where = Said("trf.where.in_round", tag="320", round=rnd)
            if no not in self.teams:
                expected = Said("trf.expected.team_number")
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
            where, expected = Said("trf.where.forfeit_type"), Said("trf.expected.forfeit_type")
            self.report.error(line.number, (5, 6), where, kind, expected)
        rnd = self._round(line, (8, 10), Said("trf.where.round_of", tag="330"))
        white = self._team(line, (12, 14), Said("trf.where.white_team"))
        black = self._team(line, (16, 18), Said("trf.where.black_team"))
        if codes is None or rnd is None or white is None or black is None:
            return
        if white.number == black.number:
            where, expected = Said("trf.where.forfeit_teams"), Said("trf.expected.two_teams")
            self.report.error(line.number, (12, 18), where, str(white.number), expected)
            return
        games = self._games(white, rnd)
        where = Said("trf.where.in_round", tag="330", round=rnd)
        if not games and not self._games(black, rnd):
            self._put(line, where, (rnd, white.number), TeamRound(codes[0], black.number, "w"))
            self._put(line, where, (rnd, black.number), TeamRound(codes[1], white.number, "b"))
            return
        wanted = Code.FORFEIT_WIN if codes[0] is Code.FORFEIT_WIN else Code.FORFEIT_LOSS
        # White's team with no game (black's has some): one pass with no player, to report it.
        seen: Sequence[tuple[_Player | None, Entry | None]] = games or [(None, None)]
        for player, entry in seen:
            if entry is None or entry.opponent not in black.members or entry.code is not wanted:
                found = Said(
                    "trf.found.forfeit_for", code=kind, white=white.number, black=black.number
                )
                expected = (
                    Said(
                        "trf.expected.board_result",
                        no=player.participant.start_no,
                        block=_block_text(player, rnd),
                        line=player.line,
                    )
                    if player is not None
                    else Said("trf.expected.board_result_no_game", team=white.number)
                )
                self.report.error(line.number, (5, 6), where, found, expected)
                return

    def lineup_300(self, line: _Line) -> None:
        """300: who sat on which board (0000: an empty board) in one match of one team."""
        if line.damaged:
            return
        rnd = self._round(line, (5, 7), Said("trf.where.round_of", tag="300"))
        team = self._team(line, (9, 11), Said("trf.where.team", tag="300"))
        other = self._team(line, (13, 15), Said("trf.where.opposing_team"))
        if rnd is None or team is None or other is None:
            return
        seated: list[int] = []
        board = Said("trf.where.lineup_board", team=team.number)
        for column, no in _id_cells(line, 17, 4, board, self.report):
            seated.extend([0] * ((column - 17) // 5 - len(seated)))  # empty boards before it
            if no not in team.members:
                expected = Said("trf.expected.team_player", team=team.number, name=team.name)
                where = Said("trf.where.board")
                self.report.error(line.number, (column, column + 3), where, str(no), expected)
            seated.append(no)
        games = self._games(team, rnd)
        played = {p.participant.start_no for p, _ in games}
        opponents = {e.opponent for _, e in games}
        where = Said("trf.where.lineup", round=rnd, team=team.number)
        if set(seated) - {0} != played or not opponents <= set(other.members):
            names = ", ".join(f"#{no}" for no in seated if no)
            found = names or Said("trf.found.nobody")
            met = ", ".join(f"#{no}" for no in sorted(played))
            expected = (
                Said("trf.expected.lineup", team=team.number, other=other.number, players=met)
                if met
                else Said("trf.expected.lineup_none", team=team.number, other=other.number)
            )
            self.report.error(line.number, None, where, found, expected)
            return
        opposite = self.lineups.get((rnd, other.number), ())
        for player, entry in games:
            mine = seated.index(player.participant.start_no) + 1
            theirs = opposite.index(entry.opponent) + 1 if entry.opponent in opposite else mine
            if theirs != mine:
                found = Said("trf.found.on_board", no=player.participant.start_no, board=mine)
                expected = Said("trf.expected.lineup_seat", board=theirs, team=other.number)
                self.report.error(line.number, None, where, found, expected)
                return
        self.lineups[rnd, team.number] = tuple(seated)


_MATCH_FIELDS = {"W": "win", "D": "draw", "L": "loss", "A": "absent", "P": "pab"}
_MATCH_CELLS = (Said("trf.where.match_scoring"), Said("trf.expected.match_cells"))


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
    return MatchScoring(**values)


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
