"""Errors a user can cause, and how they are reported.

Every error has a machine `code` and a message (`str(err)`, also `err.message`) that names the
field or value it concerns; `as_dict()` is the JSON body. The message is worded from the
catalogs (a `Said`: key and values): English in `str(err)`, the reader's language in
`err.words(lang)`, the key and values in the body's `said` for a page. The HTTP status each
answers with is the web layer's to say (`livetb/web/http/statuses.py`); the tree shows it.

* LivetbError                       status  code
  x InvalidInput                    400/422 invalid_input: a body or parameter; `$.path` if any
  x TrfError                        422     trf_invalid: file, line, columns, field, found/expected
  x TiebreakSpecError               422     tiebreak_unknown: an unknown code or a bad modifier
  x ImportUnsupported               422     import_unsupported: TRF content with no event form
  x RoundsRequired                  422     rounds_required: a file with no round count, none given
  x RoundsDiffer                    409     rounds_differ: not the file's or the log's count
  x SyncRefused                     409     sync_refused: a file refused unless forced, with why
    x SyncStale                             sync_stale: a file older than those synced before
    x SyncForeign                           sync_foreign: another tournament's file
  x SyncMismatch                    409     sync_mismatch: a log a file cannot follow by appending
  x SyncConflict                    409     sync_conflict: results entered that the file contradicts
  x ExportUnsupported               422     export_unsupported: a value no TRF field holds as it is
  x UsageError                              usage: a command-line argument naming nothing usable
  x NotFound                        404     not_found: no such round, participant or category
  x DelayBeingSet                   503     delay_being_set: the broadcast delay changing; retry
  x TournamentUnreadable            500     tournament_unreadable: a stored log that cannot fold
  x IdempotencyKeyReused            422     idempotency_key_reused: same key, different events
  x ConcurrencyConflict             409     concurrency_conflict: expected_seq is not the head
  x NotAuthenticated                401     not_authenticated: no, unknown or revoked token
  x WrongTournament                 403     wrong_tournament: the token is another tournament's
  x CommandRejected                 422     command_rejected: the command does not fit the state
    x UnknownTournament             404     unknown_tournament
    x TournamentExists                      tournament_exists
    x TournamentStarted                     tournament_started: update after round 1
    x TournamentFinished                    tournament_finished: register after the last round
    x UnknownParticipant                    unknown_participant
    x DuplicateParticipant                  duplicate_participant
    x InvalidTeam                           invalid_team: no team event, a number taken, …
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

from livetb.errors.base import (
    ConcurrencyConflict,
    DelayBeingSet,
    ExportUnsupported,
    IdempotencyKeyReused,
    ImportUnsupported,
    InvalidInput,
    LivetbError,
    NotAuthenticated,
    NotFound,
    Num,
    Param,
    RoundsDiffer,
    RoundsRequired,
    Said,
    StorageFull,
    StoreBusy,
    StoreUnavailable,
    SyncConflict,
    SyncForeign,
    SyncMismatch,
    SyncRefused,
    SyncStale,
    TiebreakSpecError,
    TooManyRequests,
    TournamentUnreadable,
    TrfError,
    TrfIssue,
    UsageError,
    Worded,
    WrongTournament,
)
from livetb.errors.rejected import (
    BoardHasResult,
    CommandRejected,
    DuplicateParticipant,
    InvalidPlayoff,
    InvalidTeam,
    NoResultToCorrect,
    ParticipantHasBye,
    ParticipantNotWithdrawn,
    ParticipantPairedTwice,
    ParticipantWithdrawnError,
    PreviousRoundOpen,
    ResultChanged,
    ResultsMissing,
    RoundAlreadyPaired,
    RoundClosedError,
    RoundNotPaired,
    TournamentExists,
    TournamentFinished,
    TournamentStarted,
    UnknownBoard,
    UnknownParticipant,
    UnknownRound,
    UnknownTournament,
)

__all__ = [
    "BoardHasResult",
    "CommandRejected",
    "ConcurrencyConflict",
    "DelayBeingSet",
    "DuplicateParticipant",
    "ExportUnsupported",
    "IdempotencyKeyReused",
    "ImportUnsupported",
    "InvalidInput",
    "InvalidPlayoff",
    "InvalidTeam",
    "LivetbError",
    "NoResultToCorrect",
    "NotAuthenticated",
    "NotFound",
    "Num",
    "Param",
    "ParticipantHasBye",
    "ParticipantNotWithdrawn",
    "ParticipantPairedTwice",
    "ParticipantWithdrawnError",
    "PreviousRoundOpen",
    "ResultChanged",
    "ResultsMissing",
    "RoundAlreadyPaired",
    "RoundClosedError",
    "RoundNotPaired",
    "RoundsDiffer",
    "RoundsRequired",
    "Said",
    "StorageFull",
    "StoreBusy",
    "StoreUnavailable",
    "SyncConflict",
    "SyncForeign",
    "SyncMismatch",
    "SyncRefused",
    "SyncStale",
    "TiebreakSpecError",
    "TooManyRequests",
    "TournamentExists",
    "TournamentFinished",
    "TournamentStarted",
    "TournamentUnreadable",
    "TrfError",
    "TrfIssue",
    "UnknownBoard",
    "UnknownParticipant",
    "UnknownRound",
    "UnknownTournament",
    "UsageError",
    "Worded",
    "WrongTournament",
]
