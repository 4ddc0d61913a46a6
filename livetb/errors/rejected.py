"""Commands the tournament's state does not allow (`livetb/events/commands.py` raises them)."""

from __future__ import annotations

from collections.abc import Sequence

from livetb.errors.base import LivetbError, Said


class CommandRejected(LivetbError):
    """A well-formed command that the tournament's current state does not allow.

    `field` names the command field at fault and `value` its value, when there is one.
    """

    code = "command_rejected"

    def __init__(
        self, message: str | Said, *, field: str | None = None, value: object = None
    ) -> None:
        super().__init__(message)
        self.field = field
        self.value = value

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "field": self.field, "value": self.value}


class UnknownTournament(CommandRejected):
    """A command for a tournament that has not been created."""

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

    def __init__(self, message: str | Said, *, field: str, value: object) -> None:
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

    def __init__(self, message: str | Said, order: Sequence[int]) -> None:
        super().__init__(f"order {list(order)}: {message}", field="order", value=list(order))
