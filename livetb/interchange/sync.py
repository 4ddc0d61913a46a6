"""A pairing program's TRF against the log: the commands that make the log say what the file
says, decided one after the other on a copy of the log's state (the API's own rules).

A new tournament's tie-break list is the caller's, else the file's `212`, else the system's
default (as `livetb import` chooses). The file may be read at any moment of the event
(players only; a round paired with no results; some results; all of them; the next round
paired). What it adds is planned in the log's order: the tournament if unknown, new
participants (late entries with the rounds they missed as the file gives them: `Z` absent,
`H` a half-point bye), details changed while round 1 is unpaired, then per round the
reinstatements, the requested byes, the pairing (boards in publication order, `round_boards`),
the results, the corrections and the close of a round whose every board has a result in the
file; last the byes and absences entered ahead.

A result the file contradicts is corrected when the log's result came from an earlier sync
(actor `sync`: the pairing program's file was wrong, and fixed); one entered otherwise (the
console, the API) is a conflict, settled only by `prefer` ("file": corrected; "log": kept).

An absence is that round's only: a file never withdraws anyone (TRF has no withdrawal, and a
player absent for rounds may still come back). A withdrawal is the arbiter's; a file that
pairs a withdrawn player reinstates them from that round. Before planning, the file's round
count, age and identity are checked (`sync_checks`); `force` skips the last two. What the
file showed is appended as a `FileSynced` record whenever it differs from the last one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import msgspec

from livetb import i18n
from livetb.engine.model import Code, Participant, Tournament
from livetb.errors import (
    ImportUnsupported,
    InvalidInput,
    Said,
    SyncConflict,
    SyncForeign,
    SyncMismatch,
    SyncStale,
)
from livetb.events.commands import (
    AnyCommand,
    CloseRound,
    CorrectResult,
    CreateTournament,
    MissedRound,
    PairRound,
    RecordResult,
    RegisterParticipant,
    ReinstateParticipant,
    RequestBye,
    Sex,
    SwapColours,
    UpdateParticipant,
    decide,
)
from livetb.events.schema import (
    AnyEvent,
    Board,
    ByePoints,
    FileSynced,
    GameResult,
    Recorded,
    ResultCorrected,
    ResultRecorded,
    TournamentCreated,
)
from livetb.events.state import TournamentState
from livetb.interchange import sync_checks as checks
from livetb.interchange.importer import RESULTS, events_from_tournament
from livetb.interchange.sync_checks import ACTOR, by_sync
from livetb.interchange.trf_commands import round_boards
from livetb.projections.categories import birth_span
from livetb.trf import TrfImport

__all__ = ["ACTOR", "BoardConflict", "Plan", "by_sync", "plan"]

Prefer = Literal["file", "log"]
_POINTS: dict[Code, ByePoints] = {
    Code.HALF_BYE: "half",
    Code.FULL_BYE: "full",
    Code.ZERO_BYE: "zero",
}
_MISSED: dict[Code, MissedRound] = {Code.ZERO_BYE: "absent", Code.HALF_BYE: "half"}
_DETAILS = ("name", "rating", "title", "federation", "fide_id", "sex", "birth_date")


class BoardConflict(msgspec.Struct, frozen=True):
    """A board whose result in the log (not written by a sync) the file contradicts."""

    round: int
    board: int
    white: int
    black: int
    log: GameResult
    file: GameResult
    line: int  # the file's 001 line of the white player
    white_name: str = ""
    black_name: str = ""

    def words(self, lang: str) -> str:
        return i18n.text(lang, "sync.conflict", **msgspec.structs.asdict(self))


@dataclass
class Step:
    command: AnyCommand
    events: list[AnyEvent]


@dataclass
class Plan:
    """What a sync appends (`events`), step by step, and what it left as it was."""

    steps: list[Step] = field(default_factory=list)
    kept: list[BoardConflict] = field(default_factory=list)  # prefer="log": the log's result
    unchanged_details: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)
    state: TournamentState = field(default_factory=TournamentState)
    record: FileSynced | None = None  # what the file showed, if not what the last one did

    @property
    def events(self) -> list[AnyEvent]:
        done = [e for s in self.steps for e in s.events]
        return [*done, self.record] if self.record is not None else done

    def names(self) -> Mapping[int, str]:
        """Start number -> name, the file's new participants included."""
        return {no: p.name for no, p in self.state.participants.items()}


def player_lines(data: bytes) -> dict[int, int]:
    """Start number -> the file's line of its 001 record (for the reasons and conflicts)."""
    lines: dict[int, int] = {}
    for n, raw in enumerate(data.replace(b"\r\n", b"\n").split(b"\n"), start=1):
        number = raw[4:8].strip()
        if raw.startswith(b"001") and number.isdigit():
            lines.setdefault(int(number), n)
    return lines


def authors(records: Sequence[Recorded]) -> dict[tuple[int, int], str]:
    """(round, board) -> the actor of the board's last result."""
    by: dict[tuple[int, int], str] = {}
    for rec in records:
        if isinstance(rec.event, ResultRecorded | ResultCorrected):
            by[(rec.event.round, rec.event.board)] = rec.actor
    return by


def plan(
    records: Sequence[Recorded],
    imported: TrfImport,
    source: str,
    lines: dict[int, int],
    *,
    tiebreaks: Sequence[str] | None = None,
    prefer: Prefer | None = None,
    rounds: int | None = None,
    force: bool = False,
) -> Plan:
    """The steps that bring the log (`records`) to the file; `SyncConflict` or
    `SyncMismatch` when it cannot, a command's own rejection when the rules refuse one.

    `rounds`: a new tournament's round count when the file declares none. The round count,
    the file's age and its identity are checked first (`sync_checks`); `force` skips the age
    and identity checks, never the round count's."""
    if imported.is_team:
        raise ImportUnsupported.of("sync.err.teams", file=source)
    state = TournamentState()
    for rec in records:
        state.apply(rec.event)
    t = imported.tournament
    if not force:  # another tournament's file first: its round count would be beside the point
        foreign = checks.foreign_differences(state, t, t.participants)
        if foreign:
            raise SyncForeign(source, foreign)
    width = max((len(p.entries) for p in t.participants), default=0)
    count = checks.round_count(state, imported.declared_rounds, rounds, width, source)
    t = msgspec.structs.replace(t, rounds=count)
    record = checks.record(t, source)
    if not force:
        names = {no: p.name for no, p in state.participants.items()}
        results = checks.file_results(t)
        stale = checks.stale_reasons(state, records, record, results, names, t.participants)
        if stale:
            raise SyncStale(source, stale)
    imported = msgspec.structs.replace(imported, tournament=t)
    made = _Planner(state, authors(records), imported, source, lines, prefer).run(tiebreaks)
    if not checks.same_showing(state.synced, record):
        made.record = record
    return made


class _Planner:
    def __init__(
        self,
        state: TournamentState,
        by: dict[tuple[int, int], str],
        imported: TrfImport,
        source: str,
        lines: dict[int, int],
        prefer: Prefer | None,
    ) -> None:
        self.state = state  # folded for this plan: the steps are applied to it
        self.by = by
        self.imported = imported
        self.t: Tournament = imported.tournament
        self.source = source
        self.lines = lines
        self.prefer = prefer
        self.result = Plan(state=self.state)
        self.conflicts: list[BoardConflict] = []

    def do(self, command: AnyCommand) -> None:
        events = decide(self.state, command)
        for event in events:
            self.state.apply(event)
        self.result.steps.append(Step(command, events))

    def run(self, tiebreaks: Sequence[str] | None) -> Plan:
        t = self.t
        people = sorted(t.participants, key=lambda p: p.start_no)
        created = self.state.created
        if created is None:
            self._create(tiebreaks)
        elif tiebreaks and tuple(tiebreaks) != created.tiebreaks:
            listed = Said(
                "sync.err.tiebreaks", given=",".join(tiebreaks), have=",".join(created.tiebreaks)
            )
            raise InvalidInput(listed, path="tiebreaks")
        self._participants(people)
        for rnd in range(1, t.played_rounds + 1):
            self._round(people, rnd)
        for rnd, no, code in self.imported.announced_byes:
            self._bye(no, rnd, code, ahead=True)
        if self.conflicts:
            raise SyncConflict(self.conflicts)
        return self.result

    def _create(self, tiebreaks: Sequence[str] | None) -> None:
        created = events_from_tournament(self.t, tiebreaks=tiebreaks)[0]
        assert isinstance(created, TournamentCreated)
        self.do(
            CreateTournament(
                name=created.name,
                rounds=created.rounds,
                system=created.system,
                scoring=created.scoring,
                tiebreaks=created.tiebreaks,
                start_date=created.start_date,
            )
        )

    def _participants(self, people: list[Participant]) -> None:
        state = self.state
        for p in people:
            name = p.name or f"Player {p.start_no}"
            known = state.participants.get(p.start_no)
            if known is None:
                self.do(
                    RegisterParticipant(
                        start_no=p.start_no,
                        name=name,
                        rating=p.rating,
                        title=p.title,
                        federation=p.federation,
                        fide_id=p.fide_id,
                        sex=_sex(p.sex),
                        birth_date=_birth_date(p.birth_date),
                        missed=self._missed(p),
                    )
                )
                continue
            wanted: dict[str, object] = {"name": name, "rating": p.rating, "title": p.title}
            wanted |= {"federation": p.federation, "fide_id": p.fide_id}
            wanted |= {"sex": _sex(p.sex), "birth_date": _birth_date(p.birth_date)}
            changed = {f: v for f, v in wanted.items() if getattr(known, f) != v}
            if changed and not state.paired:
                update = msgspec.convert({"start_no": p.start_no, **changed}, UpdateParticipant)
                self.do(update)
            elif changed:  # the rules allow no change once round 1 is paired
                self.result.unchanged_details.append((p.start_no, tuple(changed)))

    def _missed(self, p: Participant) -> dict[int, MissedRound]:
        """A late entrant's rounds the log has paired already, as the file has them."""
        missed: dict[int, MissedRound] = {}
        for rnd in range(1, self.state.paired + 1):
            code = p.entry(rnd).code
            if code not in _MISSED:
                raise SyncMismatch.of(
                    "sync.err.late_entrant",
                    file=self.source,
                    line=self.lines.get(p.start_no, 0),
                    no=p.start_no,
                    round=rnd,
                    code=repr(code.value),
                )
            missed[rnd] = _MISSED[code]
        return missed

    def _round(self, people: list[Participant], rnd: int) -> None:
        state, t = self.state, self.t
        boards, byes = round_boards(t, rnd)
        seated = {no for b in boards for no in (b.white, b.black)} | set(byes)
        for p in people:
            if p.start_no not in seated:
                self._bye(p.start_no, rnd, p.entry(rnd).code, ahead=False)
        if rnd > state.paired:
            for no in sorted(n for n in seated if n is not None):
                since = state.withdrawn.get(no)
                if since is not None and since <= rnd:  # paired again: back from this round
                    self.do(ReinstateParticipant(start_no=no, from_round=rnd))
            bye = byes[0] if byes else None
            self.do(PairRound(round=rnd, boards=boards, bye=bye, more_byes=byes[1:]))
        else:
            self._same_pairing(rnd, boards, byes, people)
        by_seat = {(g.white, g.black): g for g in state.rounds[rnd].games.values()}
        by_no = {p.start_no: p for p in people}
        complete = True
        for b in boards:
            w, k = by_no[b.white].entry(rnd).code, by_no[b.black].entry(rnd).code
            if w is Code.PENDING and k is Code.PENDING:
                complete = False
                continue
            result = RESULTS.get((w, k))
            if result is None:
                raise ImportUnsupported.of(
                    "sync.err.result_codes",
                    file=self.source,
                    line=self.lines.get(b.white, 0),
                    round=rnd,
                    white=b.white,
                    black=b.black,
                    codes=f"{w.value}/{k.value}",
                )
            self._result(rnd, by_seat[(b.white, b.black)].board, b.white, b.black, result)
        closed = state.rounds[rnd].closed
        if complete and not closed and state.rounds[rnd].complete:
            self.do(CloseRound(round=rnd))

    def _same_pairing(
        self,
        rnd: int,
        boards: Sequence[Board],
        byes: tuple[int, ...],
        people: list[Participant],
    ) -> None:
        logged = self.state.rounds[rnd]
        mine = {(g.white, g.black): g for g in logged.games.values()}
        theirs = {(b.white, b.black) for b in boards}
        # A board logged from a file that gave both players one colour (the lower start number
        # taken as White): the file with its result says the colours, which the log takes.
        by_no = {p.start_no: p for p in people}
        for white, black in sorted(theirs - mine.keys()):
            game = mine.get((black, white))
            has_result = by_no[white].entry(rnd).code is not Code.PENDING
            if game is not None and game.result is None and has_result and not logged.closed:
                self.do(SwapColours(round=rnd, board=game.board))
                mine[(white, black)] = mine.pop((black, white))
        pabs = tuple(sorted(((logged.pab,) if logged.pab is not None else ()) + logged.more_pabs))
        if mine.keys() != theirs or pabs != byes:
            only_log = ", ".join(f"#{w}-#{b}" for w, b in sorted(mine.keys() - theirs)) or "-"
            only_file = ", ".join(f"#{w}-#{b}" for w, b in sorted(theirs - mine.keys())) or "-"
            log_byes, file_byes = (", ".join(f"#{no}" for no in x) or "-" for x in (pabs, byes))
            raise SyncMismatch.of(
                "sync.err.paired_otherwise",
                file=self.source,
                round=rnd,
                only_log=only_log,
                only_file=only_file,
                log_byes=log_byes,
                file_byes=file_byes,
            )

    def _bye(self, no: int, rnd: int, code: Code, *, ahead: bool) -> None:
        """A participant not seated in round `rnd`: its bye, if the log lacks it."""
        state = self.state
        if code not in _POINTS or no not in state.participants:
            return
        since = state.withdrawn.get(no)
        if since is not None and since <= rnd:
            return  # absent anyway
        has = state.byes.get(rnd, {}).get(no)
        if rnd <= state.paired:
            if ahead:
                return  # the log has paired further than this file: its own reading stands
            entry = state.entry(no, rnd).code
            if entry is not code:
                line = self.lines.get(no, 0)
                raise SyncMismatch.of(
                    "sync.err.entry",
                    file=self.source,
                    line=line,
                    round=rnd,
                    no=no,
                    log=repr(entry.value),
                    found=repr(code.value),
                )
            return
        if has is not None and has is not code:
            raise SyncMismatch.of(
                "sync.err.bye",
                file=self.source,
                line=self.lines.get(no, 0),
                no=no,
                bye=has.value,
                round=rnd,
                found=repr(code.value),
            )
        rest = code is Code.ZERO_BYE and not ahead and self.t.system == "roundrobin"
        if has is code or rest:
            return  # logged already; or a round robin's rest round, which no event says
        self.do(RequestBye(start_no=no, round=rnd, points=_POINTS[code]))

    def _result(self, rnd: int, board: int, white: int, black: int, result: GameResult) -> None:
        game = self.state.rounds[rnd].games[board]
        if game.result == result:
            return
        line = self.lines.get(white, 0)
        if game.result is None:
            if self.state.rounds[rnd].closed:  # pragma: no cover - a closed round is complete
                return
            self.do(RecordResult(round=rnd, board=board, result=result))
            return
        names = self.state.participants
        conflict = BoardConflict(
            rnd,
            board,
            white,
            black,
            game.result,
            result,
            line,
            names[white].name,
            names[black].name,
        )
        if not by_sync(self.by.get((rnd, board))) and self.prefer != "file":
            if self.prefer == "log":
                self.result.kept.append(conflict)
            else:
                self.conflicts.append(conflict)
            return
        reason = f"sync: {self.source}, line {line}"
        self.do(
            CorrectResult(
                round=rnd, board=board, result=result, reason=reason, expected=game.result
            )
        )


def _sex(code: str) -> Sex:
    """The TRF's sex as the log keeps it: "m", "w" or unknown ("")."""
    return "m" if code == "m" else "w" if code == "w" else ""


def _birth_date(text: str) -> str:
    """A birth date as the file writes it, if it reads as one (a category can use it)."""
    return text.strip() if birth_span(text) else ""


# --- the difference in words -------------------------------------------------------------------


def describe(step: Step, lang: str, made: Plan) -> list[str]:
    """What a step appends, in words naming the players: one line, and for a pairing one more
    per board."""
    c = step.command
    t = i18n.catalog(lang)
    names = made.names()

    def who(no: int) -> str:
        return f"{names.get(no, '?')} (#{no})"

    def game(rnd: int, board: int) -> dict[str, object]:
        g = made.state.rounds[rnd].games[board]
        return {"round": rnd, "board": board, "white": who(g.white), "black": who(g.black)}

    match c:
        case CreateTournament():
            listed = ", ".join(c.tiebreaks or ())
            return [i18n.text(lang, "sync.create", name=c.name, rounds=c.rounds, tiebreaks=listed)]
        case RegisterParticipant(missed=missed) if missed:
            rounds = ", ".join(
                i18n.text(lang, "sync.missed", round=r, kind=t[f"sync.kind.{k}"])
                for r, k in sorted(missed.items())
            )
            line = i18n.text(lang, "sync.register_late", no=c.start_no, name=c.name, rounds=rounds)
            return [line]
        case RegisterParticipant():
            return [i18n.text(lang, "sync.register", no=c.start_no, name=c.name)]
        case UpdateParticipant():
            fields = ", ".join(f for f in _DETAILS if getattr(c, f) is not msgspec.UNSET)
            return [i18n.text(lang, "sync.update", who=who(c.start_no), fields=fields)]
        case ReinstateParticipant():
            return [i18n.text(lang, "sync.reinstate", who=who(c.start_no), round=c.from_round)]
        case RequestBye():
            kind = t[f"sync.kind.{c.points}"]
            return [i18n.text(lang, "sync.bye", who=who(c.start_no), round=c.round, kind=kind)]
        case PairRound():
            byes = c.more_byes if c.bye is None else (c.bye, *c.more_byes)
            bye = "".join(i18n.text(lang, "sync.pab", who=who(no)) for no in byes)
            head = i18n.text(lang, "sync.pair", round=c.round, boards=len(c.boards), bye=bye)
            return [head] + [
                "  " + i18n.text(lang, "sync.board", **game(c.round, b.board)) for b in c.boards
            ]
        case RecordResult():
            return [i18n.text(lang, "sync.result", result=c.result, **game(c.round, c.board))]
        case CorrectResult():
            line = i18n.text(
                lang,
                "sync.correct",
                old=c.expected,
                result=c.result,
                reason=c.reason,
                **game(c.round, c.board),
            )
            return [line]
        case SwapColours():
            return [i18n.text(lang, "sync.swap", **game(c.round, c.board))]
        case CloseRound():
            return [i18n.text(lang, "sync.close", round=c.round)]
    return [type(c).__name__]  # pragma: no cover - a sync plans only the commands above
