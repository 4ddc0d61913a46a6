"""Errors a user can cause, and how they are reported.

Every error has an HTTP-style `status`, a machine `code` and a message (`str(err)`, also
`err.message`) that names the field or value it concerns; `as_dict()` is the JSON body.

* LivetbError                       status  code
  x InvalidInput                    400/422 invalid_input: msgspec's message, with its `$.path`
  x TrfError                        422     trf_invalid: file, line, columns, field, found/expected
  x TiebreakSpecError               422     tiebreak_unknown: an unknown code or a bad modifier
  x ImportUnsupported               422     import_unsupported: TRF content with no event form
  x TournamentUnreadable            500     tournament_unreadable: a stored log that cannot fold
  x IdempotencyKeyReused            422     idempotency_key_reused: same key, different events
  x ConcurrencyConflict             409     concurrency_conflict: expected_seq is not the head
  x NotAuthenticated                401     not_authenticated: no, unknown or revoked token
  x WrongTournament                 403     wrong_tournament: the token is another tournament's
  x CommandRejected                 422     the command does not fit the tournament's state
    x UnknownTournament             404     unknown_tournament
    x TournamentExists                      tournament_exists
    x TournamentStarted                     tournament_started: update after round 1
    x TournamentFinished                    tournament_finished: register after the last round
    x UnknownParticipant                    unknown_participant
    x DuplicateParticipant                  duplicate_participant
    x UnknownRound                          unknown_round: outside 1..planned rounds
    x UnknownBoard                          unknown_board
    x RoundNotPaired                        round_not_paired
    x RoundAlreadyPaired                    round_already_paired
    x RoundClosedError                      round_closed: new results need a correction
    x PreviousRoundOpen                     previous_round_open: round k+1 needs k closed
    x BoardHasResult                        board_has_result: use a correction
    x ResultChanged                 409     result_changed: not the result the client saw
    x NoResultToCorrect                     no_result_to_correct
    x ResultsMissing                        results_missing: closing an unfinished round
    x ParticipantWithdrawnError             participant_withdrawn
    x ParticipantNotWithdrawn               participant_not_withdrawn: a return without a withdrawal
    x ParticipantPairedTwice                participant_paired_twice
    x ParticipantHasBye                     participant_has_bye: paired despite a requested bye
    x InvalidPlayoff                        invalid_playoff
  x StoreUnavailable                503     store_unavailable: the store cannot be reached now
    x StoreBusy                     503     store_busy: SQLite's write lock held beyond the timeout
  x StorageFull                     507     storage_full: the disk is full; reads are still served
  x TooManyRequests                 429     too_many_requests: one client's costly reads over limits

The two 503s and the 429 carry `retry_after` (seconds), which the server sends as
`Retry-After`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec


class LivetbError(Exception):
    """Base of every error a user can cause; never a bug."""

    status = 400
    code = "livetb_error"

    @property
    def message(self) -> str:
        return str(self)

    def as_dict(self) -> dict[str, object]:
        """The JSON body an interface reports: code, message and the error's own context."""
        return {"code": self.code, "message": self.message}


class TrfIssue(msgspec.Struct, frozen=True):
    """One located problem in a TRF file (TRF.md 10.1)."""

    line: int
    columns: tuple[int, int] | None
    where: str  # record tag and field, e.g. "001 #3, round 1 result"
    found: str
    expected: str

    def __str__(self) -> str:
        cols = ""
        if self.columns is not None:
            a, b = self.columns
            cols = f", column {a}" if a == b else f", columns {a}-{b}"
        return (
            f"line {self.line}{cols} ({self.where}): found {self.found!r}; expected {self.expected}"
        )


class TrfError(LivetbError):
    """A TRF file rejected as a whole; lists every problem found."""

    status = 422
    code = "trf_invalid"

    def __init__(self, source: str, issues: list[TrfIssue]) -> None:
        self.source = source
        self.issues = issues
        lines = "\n".join(f"{source}: {issue}" for issue in issues)
        super().__init__(f"{source}: {len(issues)} problem(s), nothing imported\n{lines}")

    def as_dict(self) -> dict[str, object]:
        # Located, so a page can mark the line and columns without parsing the message.
        return {**super().as_dict(), "issues": msgspec.to_builtins(self.issues)}


class TiebreakSpecError(LivetbError):
    """A tie-break code that cannot be parsed or is not supported."""

    status = 422
    code = "tiebreak_unknown"


_AT_PATH = re.compile(r" - at `(\$[^`]*)`$")


class InvalidInput(LivetbError):
    """A request body that is not valid JSON (400) or does not fit the schema (422)."""

    code = "invalid_input"

    def __init__(self, message: str, *, path: str | None = None, status: int = 422) -> None:
        super().__init__(message)
        self.path = path
        self.status = status

    @classmethod
    def from_msgspec(cls, err: msgspec.DecodeError) -> InvalidInput:
        """`ValidationError` (a subclass of `DecodeError`) is 422, malformed JSON is 400."""
        text = str(err)
        found = _AT_PATH.search(text)
        status = 422 if isinstance(err, msgspec.ValidationError) else 400
        return cls(text, path=found.group(1) if found else None, status=status)

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "path": self.path}


class ImportUnsupported(LivetbError):
    """A TRF entry that no event can express (e.g. a short game `W`/`L`, or an unknown `X`)."""

    status = 422
    code = "import_unsupported"


class TournamentUnreadable(LivetbError):
    """A stored log that no longer folds into standings (written before a check existed, or
    damaged). Only that tournament is refused; the others load, rebuild and serve."""

    status = 500
    code = "tournament_unreadable"

    def __init__(self, tournament_id: str, reason: str) -> None:
        self.tournament_id = tournament_id
        super().__init__(f"tournament {tournament_id}: its event log cannot be read: {reason}")

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "tournament_id": self.tournament_id}


class IdempotencyKeyReused(LivetbError):
    """An idempotency key sent again with a different batch of events."""

    status = 422
    code = "idempotency_key_reused"

    def __init__(self, tournament_id: str, key: str) -> None:
        self.tournament_id = tournament_id
        self.key = key
        super().__init__(
            f"idempotency key {key!r} of tournament {tournament_id} was already used "
            "for a different request"
        )


class ConcurrencyConflict(LivetbError):
    """`expected_seq` is not the log's head: someone else wrote first. Re-read and retry."""

    status = 409
    code = "concurrency_conflict"

    def __init__(self, tournament_id: str, expected: int, head: int) -> None:
        self.tournament_id = tournament_id
        self.expected = expected
        self.head = head
        super().__init__(
            f"tournament {tournament_id}: expected_seq {expected} is stale, the log is at {head}"
        )

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "expected_seq": self.expected, "head": self.head}


class NotAuthenticated(LivetbError):
    """A write without an arbiter token, or with one that is unknown or revoked."""

    status = 401
    code = "not_authenticated"


class WrongTournament(LivetbError):
    """A write with a valid token scoped to a different tournament."""

    status = 403
    code = "wrong_tournament"

    def __init__(self, tournament_id: str) -> None:
        self.tournament_id = tournament_id
        super().__init__(f"this token is not an arbiter token of tournament {tournament_id}")


# --- commands rejected by the tournament's state (livetb/events/commands.py) ------------------


class CommandRejected(LivetbError):
    """A well-formed command that the tournament's current state does not allow.

    `field` names the command field at fault and `value` its value, when there is one.
    """

    status = 422
    code = "command_rejected"

    def __init__(self, message: str, *, field: str | None = None, value: object = None) -> None:
        super().__init__(message)
        self.field = field
        self.value = value

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "field": self.field, "value": self.value}


class UnknownTournament(CommandRejected):
    """A command for a tournament that has not been created."""

    status = 404
    code = "unknown_tournament"

    def __init__(self, tournament_id: str | None = None) -> None:
        which = f"tournament {tournament_id}" if tournament_id else "the tournament"
        super().__init__(
            f"{which} does not exist: create it first", field="tournament_id", value=tournament_id
        )


class TournamentExists(CommandRejected):
    code = "tournament_exists"

    def __init__(self, tournament_id: str | None = None, name: str = "") -> None:
        which = f"tournament {tournament_id}" if tournament_id else "the tournament"
        named = f" ({name!r})" if name else ""
        super().__init__(
            f"{which}{named} already exists", field="tournament_id", value=tournament_id
        )


class TournamentStarted(CommandRejected):
    """Corrections to participants end when round 1 is paired, and so do registrations in a
    round robin or a team tournament (a Swiss takes late entries)."""

    code = "tournament_started"

    def __init__(self, action: str, start_no: int) -> None:
        super().__init__(
            f"start_no {start_no}: cannot {action} once round 1 is paired",
            field="start_no",
            value=start_no,
        )


class TournamentFinished(CommandRejected):
    """Late entries end when the last round is closed."""

    code = "tournament_finished"

    def __init__(self, action: str, start_no: int, last: int) -> None:
        super().__init__(
            f"start_no {start_no}: cannot {action}: the last round ({last}) is closed",
            field="start_no",
            value=start_no,
        )


class UnknownParticipant(CommandRejected):
    code = "unknown_participant"

    def __init__(self, start_no: int, field: str = "start_no") -> None:
        super().__init__(
            f"{field} {start_no}: no participant with that start number",
            field=field,
            value=start_no,
        )


class DuplicateParticipant(CommandRejected):
    code = "duplicate_participant"

    def __init__(self, start_no: int, name: str, field: str = "start_no") -> None:
        super().__init__(
            f"{field} {start_no}: already registered (as {name!r})", field=field, value=start_no
        )


class InvalidTeam(CommandRejected):
    """A team that the tournament cannot take: not a team event, a number taken, a player in
    two teams."""

    code = "invalid_team"

    def __init__(self, message: str, *, field: str, value: object) -> None:
        super().__init__(message, field=field, value=value)


class UnknownRound(CommandRejected):
    code = "unknown_round"

    def __init__(self, rnd: int, planned: int, field: str = "round") -> None:
        super().__init__(
            f"{field} {rnd}: the tournament has rounds 1..{planned}", field=field, value=rnd
        )


class UnknownBoard(CommandRejected):
    code = "unknown_board"

    def __init__(self, rnd: int, board: int, boards: int) -> None:
        super().__init__(
            f"board {board}: round {rnd} has boards 1..{boards}"
            if boards
            else f"board {board}: round {rnd} has no boards",
            field="board",
            value=board,
        )


class RoundNotPaired(CommandRejected):
    code = "round_not_paired"

    def __init__(self, rnd: int, field: str = "round") -> None:
        where = "" if field == "round" else f"{field}: "
        super().__init__(f"{where}round {rnd} is not paired yet", field=field, value=rnd)


class RoundAlreadyPaired(CommandRejected):
    code = "round_already_paired"

    def __init__(self, rnd: int) -> None:
        super().__init__(f"round {rnd} is already paired", field="round", value=rnd)


class RoundClosedError(CommandRejected):
    """A closed round takes corrections only."""

    code = "round_closed"

    def __init__(self, rnd: int, what: str = "a new result") -> None:
        super().__init__(f"round {rnd} is closed: {what} is not allowed", field="round", value=rnd)


class PreviousRoundOpen(CommandRejected):
    """Round k+1 is paired only once round k is closed."""

    code = "previous_round_open"

    def __init__(self, rnd: int, previous: int, state: str = "closed") -> None:
        super().__init__(
            f"round {rnd} cannot be paired: round {previous} is not {state} yet",
            field="round",
            value=rnd,
        )


class BoardHasResult(CommandRejected):
    code = "board_has_result"

    def __init__(self, rnd: int, board: int, result: str) -> None:
        self.board = board
        self.current = result
        super().__init__(
            f"round {rnd} board {board} already has the result {result}: send a correction",
            field="board",
            value=board,
        )

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "board": self.board, "current": self.current}


class ResultChanged(CommandRejected):
    """A correction based on a result the board no longer has: someone wrote in between.
    Nothing is overwritten silently; the client shows `current` and asks again."""

    status = 409
    code = "result_changed"

    def __init__(self, rnd: int, board: int, expected: str, current: str) -> None:
        self.board = board
        self.current = current
        super().__init__(
            f"round {rnd} board {board}: expected the result {expected}, but it is now "
            f"{current} (changed meanwhile)",
            field="expected",
            value=expected,
        )

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "board": self.board, "current": self.current}


class NoResultToCorrect(CommandRejected):
    code = "no_result_to_correct"

    def __init__(self, rnd: int, board: int) -> None:
        super().__init__(
            f"round {rnd} board {board} has no result to correct: record one first",
            field="board",
            value=board,
        )


class ResultsMissing(CommandRejected):
    code = "results_missing"

    def __init__(self, rnd: int, boards: Sequence[int]) -> None:
        self.boards = tuple(boards)
        listed = ", ".join(map(str, self.boards[:20])) + (", …" if len(self.boards) > 20 else "")
        super().__init__(
            f"round {rnd} cannot be closed: {len(self.boards)} board(s) without a result "
            f"({listed})",
            field="round",
            value=rnd,
        )

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "boards": list(self.boards)}


class ParticipantWithdrawnError(CommandRejected):
    code = "participant_withdrawn"

    def __init__(self, start_no: int, from_round: int, field: str = "start_no") -> None:
        super().__init__(
            f"{field} {start_no}: withdrawn from round {from_round} on", field=field, value=start_no
        )


class ParticipantNotWithdrawn(CommandRejected):
    code = "participant_not_withdrawn"

    def __init__(self, start_no: int) -> None:
        super().__init__(
            f"start_no {start_no}: not withdrawn, nothing to return from",
            field="start_no",
            value=start_no,
        )


class ParticipantPairedTwice(CommandRejected):
    code = "participant_paired_twice"

    def __init__(self, start_no: int, rnd: int, field: str = "boards") -> None:
        super().__init__(
            f"{field}: start_no {start_no} is seated more than once in round {rnd}",
            field=field,
            value=start_no,
        )


class ParticipantHasBye(CommandRejected):
    code = "participant_has_bye"

    def __init__(self, start_no: int, rnd: int, points: str, field: str = "boards") -> None:
        super().__init__(
            f"{field}: start_no {start_no} has a {points}-point bye in round {rnd}",
            field=field,
            value=start_no,
        )


class InvalidPlayoff(CommandRejected):
    code = "invalid_playoff"

    def __init__(self, message: str, order: Sequence[int]) -> None:
        super().__init__(f"order {list(order)}: {message}", field="order", value=list(order))


class StoreUnavailable(LivetbError):
    """An event store that cannot be opened or reached now: a malformed or unreachable
    database URL, a connection lost, a file that cannot be opened. Nothing was written; the
    same request may be sent again after `retry_after` seconds."""

    status = 503
    code = "store_unavailable"
    retry_after = 2

    def __init__(self, target: str, reason: str) -> None:
        self.target = target
        super().__init__(f"{target}: {reason}")


class StoreBusy(StoreUnavailable):
    """SQLite's write lock held by another process beyond the busy timeout."""

    code = "store_busy"
    retry_after = 1

    def __init__(self, target: str, reason: str = "database is locked") -> None:
        super().__init__(
            target, f"{reason}: another process holds the store's write lock; try again"
        )


class StorageFull(LivetbError):
    """The disk (or the database's size limit) is full: the write was refused whole, nothing
    acknowledged is lost, reads are still served, and writes are taken again once space is
    freed."""

    status = 507
    code = "storage_full"

    def __init__(self, target: str, reason: str) -> None:
        self.target = target
        super().__init__(
            f"{target}: the disk is full ({reason}): writes are refused until space is freed; "
            "reads are still served"
        )


class TooManyRequests(LivetbError):
    """A client over its limits for expensive anonymous reads (cards, exports, time travel):
    too many in flight at once, or too many in a short time. Asked again after `retry_after`
    seconds, it is served."""

    status = 429
    code = "too_many_requests"

    def __init__(self, why: str, retry_after: int) -> None:
        self.retry_after = retry_after
        super().__init__(f"{why}; try again in {retry_after} s")

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "retry_after": self.retry_after}
