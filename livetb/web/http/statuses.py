"""The HTTP status of each error a user can cause (`livetb/errors`): an error answers with its
own class's entry, else its nearest base's."""

from __future__ import annotations

from livetb.errors import (
    CommandRejected,
    ConcurrencyConflict,
    DelayBeingSet,
    ExportUnsupported,
    IdempotencyKeyReused,
    ImportUnsupported,
    InvalidInput,
    LivetbError,
    NotAuthenticated,
    NotFound,
    ResultChanged,
    RoundsDiffer,
    RoundsRequired,
    StorageFull,
    StoreUnavailable,
    SyncConflict,
    SyncMismatch,
    SyncRefused,
    TiebreakSpecError,
    TooManyRequests,
    TournamentUnreadable,
    TrfError,
    UnknownTournament,
    WrongTournament,
)

STATUS: dict[type[LivetbError], int] = {
    LivetbError: 400,
    InvalidInput: 422,  # 400 when malformed (not JSON at all)
    TrfError: 422,
    TiebreakSpecError: 422,
    ImportUnsupported: 422,
    RoundsRequired: 422,
    RoundsDiffer: 409,
    SyncRefused: 409,  # SyncStale, SyncForeign
    SyncMismatch: 409,
    SyncConflict: 409,
    ExportUnsupported: 422,
    NotFound: 404,
    DelayBeingSet: 503,
    TournamentUnreadable: 500,
    IdempotencyKeyReused: 422,
    ConcurrencyConflict: 409,
    NotAuthenticated: 401,
    WrongTournament: 403,
    CommandRejected: 422,
    UnknownTournament: 404,
    ResultChanged: 409,
    StoreUnavailable: 503,
    StorageFull: 507,
    TooManyRequests: 429,
}


def status_of(err: LivetbError) -> int:
    if isinstance(err, InvalidInput) and err.malformed:
        return 400
    return next(STATUS[cls] for cls in type(err).__mro__ if cls in STATUS)
