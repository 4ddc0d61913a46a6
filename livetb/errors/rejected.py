"""Commands the tournament's state does not allow (`livetb/events/commands.py` raises them).

Every message is worded from the catalogs (`rejected.*`). A field the message starts with
(`start_no 7: …`, `boards[0].white: …`) is named as the command names it, in every language,
as the command line keeps its flags: it is what the reader corrects."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

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


def _tournament(tournament_id: str | None) -> Said:
    if tournament_id:
        return Said("rejected.tournament.named", tournament=tournament_id)
    return Said("rejected.tournament.this")


class UnknownTournament(CommandRejected):
    """A command for a tournament that has not been created."""

    code = "unknown_tournament"

    def __init__(self, tournament_id: str | None = None) -> None:
        super().__init__(
            Said("rejected.unknown_tournament", which=_tournament(tournament_id)),
            field="tournament_id",
            value=tournament_id,
        )


class TournamentExists(CommandRejected):
    code = "tournament_exists"

    def __init__(self, tournament_id: str | None = None, name: str = "") -> None:
        which = _tournament(tournament_id)
        said = (
            Said("rejected.tournament_exists_named", which=which, name=repr(name))
            if name
            else Said("rejected.tournament_exists", which=which)
        )
        super().__init__(said, field="tournament_id", value=tournament_id)


class TournamentStarted(CommandRejected):
    """Corrections to participants end when round 1 is paired, and so do registrations in a
    round robin or a team tournament (a Swiss takes late entries).

    `action`: what was refused, `rejected.action.*`."""

    code = "tournament_started"

    def __init__(self, action: Said, start_no: int) -> None:
        super().__init__(
            Said("rejected.tournament_started", start_no=start_no, action=action),
            field="start_no",
            value=start_no,
        )


class TournamentFinished(CommandRejected):
    """Late entries end when the last round is closed.

    `action`: what was refused, `rejected.action.*`."""

    code = "tournament_finished"

    def __init__(self, action: Said, start_no: int, last: int) -> None:
        super().__init__(
            Said("rejected.tournament_finished", start_no=start_no, action=action, last=last),
            field="start_no",
            value=start_no,
        )


class UnknownParticipant(CommandRejected):
    code = "unknown_participant"

    def __init__(self, start_no: int, field: str = "start_no") -> None:
        super().__init__(
            Said("rejected.unknown_participant", field=field, start_no=start_no),
            field=field,
            value=start_no,
        )


class DuplicateParticipant(CommandRejected):
    """The holder's name goes to the catalog quoted (`repr`): one with an apostrophe still
    reads as one name."""

    code = "duplicate_participant"

    def __init__(self, start_no: int, name: str, field: str = "start_no") -> None:
        super().__init__(
            Said("rejected.duplicate_participant", field=field, start_no=start_no, name=repr(name)),
            field=field,
            value=start_no,
        )


class InvalidTeam(CommandRejected):
    """A team that the tournament cannot take: not a team event, a number taken, a player in
    two teams (`rejected.team.*`)."""

    code = "invalid_team"

    def __init__(self, message: Said, *, field: str, value: object) -> None:
        super().__init__(message, field=field, value=value)


class UnknownRound(CommandRejected):
    code = "unknown_round"

    def __init__(self, rnd: int, planned: int, field: str = "round") -> None:
        super().__init__(
            Said("rejected.unknown_round", field=field, round=rnd, planned=planned),
            field=field,
            value=rnd,
        )


class UnknownBoard(CommandRejected):
    code = "unknown_board"

    def __init__(self, rnd: int, board: int, boards: int) -> None:
        super().__init__(
            Said("rejected.unknown_board", board=board, round=rnd, boards=boards)
            if boards
            else Said("rejected.unknown_board_none", board=board, round=rnd),
            field="board",
            value=board,
        )


class RoundNotPaired(CommandRejected):
    code = "round_not_paired"

    def __init__(self, rnd: int, field: str = "round") -> None:
        super().__init__(
            Said("rejected.round_not_paired", round=rnd)
            if field == "round"
            else Said("rejected.round_not_paired_at", field=field, round=rnd),
            field=field,
            value=rnd,
        )


class RoundAlreadyPaired(CommandRejected):
    code = "round_already_paired"

    def __init__(self, rnd: int) -> None:
        super().__init__(Said("rejected.round_already_paired", round=rnd), field="round", value=rnd)


class RoundClosedError(CommandRejected):
    """A closed round takes corrections only."""

    code = "round_closed"

    def __init__(
        self,
        rnd: int,
        what: Literal["result", "result_correct", "swap", "close", "withdraw"] = "result",
    ) -> None:
        # `what` was refused (`rejected.round_closed.*`): each a whole sentence in the
        # catalogs, as Italian does not build it around the words the way English does
        super().__init__(Said(f"rejected.round_closed.{what}", round=rnd), field="round", value=rnd)


class PreviousRoundOpen(CommandRejected):
    """Round k+1 is paired only once round k is closed."""

    code = "previous_round_open"

    def __init__(
        self, rnd: int, previous: int, state: Literal["closed", "paired"] = "closed"
    ) -> None:
        super().__init__(
            Said(f"rejected.previous_round_open.{state}", round=rnd, previous=previous),
            field="round",
            value=rnd,
        )


class BoardHasResult(CommandRejected):
    code = "board_has_result"

    def __init__(self, rnd: int, board: int, result: str) -> None:
        self.board = board
        self.current = result
        super().__init__(
            Said("rejected.board_has_result", round=rnd, board=board, result=result),
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
            Said(
                "rejected.result_changed",
                round=rnd,
                board=board,
                expected=expected,
                current=current,
            ),
            field="expected",
            value=expected,
        )

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "board": self.board, "current": self.current}


class NoResultToCorrect(CommandRejected):
    code = "no_result_to_correct"

    def __init__(self, rnd: int, board: int) -> None:
        super().__init__(
            Said("rejected.no_result_to_correct", round=rnd, board=board),
            field="board",
            value=board,
        )


class ResultsMissing(CommandRejected):
    code = "results_missing"

    def __init__(self, rnd: int, boards: Sequence[int]) -> None:
        self.boards = tuple(boards)
        listed = ", ".join(map(str, self.boards[:20])) + (", …" if len(self.boards) > 20 else "")
        super().__init__(
            Said("rejected.results_missing", round=rnd, count=len(self.boards), listed=listed),
            field="round",
            value=rnd,
        )

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "boards": list(self.boards)}


class ParticipantWithdrawnError(CommandRejected):
    code = "participant_withdrawn"

    def __init__(self, start_no: int, from_round: int, field: str = "start_no") -> None:
        super().__init__(
            Said(
                "rejected.participant_withdrawn",
                field=field,
                start_no=start_no,
                from_round=from_round,
            ),
            field=field,
            value=start_no,
        )


class ParticipantNotWithdrawn(CommandRejected):
    code = "participant_not_withdrawn"

    def __init__(self, start_no: int) -> None:
        super().__init__(
            Said("rejected.participant_not_withdrawn", start_no=start_no),
            field="start_no",
            value=start_no,
        )


class ParticipantPairedTwice(CommandRejected):
    code = "participant_paired_twice"

    def __init__(self, start_no: int, rnd: int, field: str = "boards") -> None:
        super().__init__(
            Said("rejected.participant_paired_twice", field=field, start_no=start_no, round=rnd),
            field=field,
            value=start_no,
        )


class ParticipantHasBye(CommandRejected):
    code = "participant_has_bye"

    def __init__(self, start_no: int, rnd: int, points: str, field: str = "boards") -> None:
        bye = Said(f"sync.kind.{points}")  # points: a key of BYE_CODES
        super().__init__(
            Said(
                "rejected.participant_has_bye", field=field, start_no=start_no, bye=bye, round=rnd
            ),
            field=field,
            value=start_no,
        )


class InvalidPlayoff(CommandRejected):
    """`reason`: what is wrong with the order, `rejected.playoff.*`."""

    code = "invalid_playoff"

    def __init__(self, reason: Said, order: Sequence[int]) -> None:
        said = Said("rejected.invalid_playoff", order=str(list(order)), reason=reason)
        super().__init__(said, field="order", value=list(order))
