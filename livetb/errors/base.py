"""The errors of input, files, the store and access (the tree: `livetb/errors/__init__.py`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, Self, TypeAlias

import msgspec

from livetb import i18n


class LivetbError(Exception):
    """Base of every error a user can cause; never a bug."""

    code = "livetb_error"

    @property
    def message(self) -> str:
        return str(self)

    def words(self, lang: str) -> str:
        """The message in `lang`: the catalog's words where this error has them, else the
        English message."""
        return self.message

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

    code = "tiebreak_unknown"


_AT_PATH = re.compile(r" - at `(\$[^`]*)`$")


class InvalidInput(LivetbError):
    """A request body that is not valid JSON (`malformed`) or does not fit the schema."""

    code = "invalid_input"

    def __init__(self, message: str, *, path: str | None = None, malformed: bool = False) -> None:
        super().__init__(message)
        self.path = path
        self.malformed = malformed

    @classmethod
    def from_msgspec(cls, err: msgspec.DecodeError) -> InvalidInput:
        """`ValidationError` (a subclass of `DecodeError`) does not fit; any other is malformed."""
        text = str(err)
        found = _AT_PATH.search(text)
        malformed = not isinstance(err, msgspec.ValidationError)
        return cls(text, path=found.group(1) if found else None, malformed=malformed)

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "path": self.path}


class ImportUnsupported(LivetbError):
    """A TRF entry that no event can express (e.g. a short game `W`/`L`, or an unknown `X`)."""

    code = "import_unsupported"


class RoundsRequired(LivetbError):
    """A new tournament from a file that declares no round count, and none given."""

    code = "rounds_required"

    def __init__(self, source: str) -> None:
        super().__init__(
            f"{source} declares no number of rounds (no 142 or XXR line) and the tournament "
            "is new: give it with --rounds N (livetb sync), the Sync tab's number of rounds, "
            "or ?rounds=N (POST …/sync); nothing written"
        )

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "path": "rounds"}


class RoundsDiffer(LivetbError):
    """The file, or the caller, names another round count than the tournament's."""

    code = "rounds_differ"


class Worded(Protocol):
    """One item of a refusal that the catalogs word (a reason, a difference, a board)."""

    def words(self, lang: str) -> str: ...


class SyncStale(LivetbError):
    """The file shows less than a file synced before: an older save."""

    code = "sync_stale"

    def __init__(self, source: str, reasons: Sequence[Worded]) -> None:
        self.source = source
        self.why = tuple(reasons)
        self.reasons = tuple(r.words("en") for r in self.why)
        super().__init__(self.words("en"))

    def words(self, lang: str) -> str:
        reasons = "; ".join(r.words(lang) for r in self.why)
        return i18n.text(lang, "sync.stale", file=self.source, reasons=reasons)

    def as_dict(self) -> dict[str, object]:
        # `why`: each reason for a page to word in its language (`sync.why.<kind>`).
        why = [msgspec.to_builtins(r) for r in self.why]
        return {**super().as_dict(), "reasons": list(self.reasons), "why": why}


class SyncForeign(LivetbError):
    """The file is another tournament's."""

    code = "sync_foreign"
    SHOWN = 10  # differences named in the message (every one is in `differences`)

    def __init__(self, source: str, differences: Sequence[Worded]) -> None:
        self.source = source
        self.why = tuple(differences)
        self.differences = tuple(d.words("en") for d in self.why)
        super().__init__(self.words("en"))

    def words(self, lang: str) -> str:
        shown = "; ".join(d.words(lang) for d in self.why[: self.SHOWN])
        more = len(self.why) - self.SHOWN
        if more > 0:
            shown += i18n.text(lang, "sync.foreign_more", count=more)
        return i18n.text(lang, "sync.foreign", file=self.source, differences=shown)

    def as_dict(self) -> dict[str, object]:
        why = [msgspec.to_builtins(d) for d in self.why]
        return {**super().as_dict(), "differences": list(self.differences), "why": why}


# A value in a usage message: shown as it is, or a function of the language that words it
# (a nested catalog message), so that the whole message follows the reader's language.
UsageParam: TypeAlias = str | int | float | Callable[[str], str]


class UsageError(LivetbError):
    """A command-line argument that names nothing usable or does not fit the tournament.

    `UsageError.of(key, **params)` takes its words from the catalogs (`cli.usage.*`): the
    message is the English one, `words(lang)` the reader's."""

    code = "usage"

    def __init__(
        self,
        message: str,
        *,
        key: str | None = None,
        params: Mapping[str, UsageParam] | None = None,
    ) -> None:
        super().__init__(message)
        self.key = key
        self.params = dict(params or {})

    @classmethod
    def of(cls, key: str, **params: UsageParam) -> Self:
        return cls(_worded(i18n.DEFAULT, key, params), key=key, params=params)

    def words(self, lang: str) -> str:
        return self.message if self.key is None else _worded(lang, self.key, self.params)


def _worded(lang: str, key: str, params: Mapping[str, UsageParam]) -> str:
    shown = {name: v(lang) if callable(v) else v for name, v in params.items()}
    return i18n.text(lang, key, **shown)


class NotFound(LivetbError):
    code = "not_found"


class DelayBeingSet(LivetbError):
    """A public read while the delay was turned off and on again during it: try again."""

    code = "delay_being_set"


class ExportUnsupported(LivetbError):
    """A value that no TRF field can hold as it is (the file would say something else)."""

    code = "export_unsupported"


class SyncMismatch(LivetbError):
    """The log holds something the file cannot be reconciled with by appending."""

    code = "sync_mismatch"


class SyncConflict(LivetbError):
    """The file contradicts results entered in the log: nothing written."""

    code = "sync_conflict"

    def __init__(self, conflicts: Sequence[Worded]) -> None:
        self.conflicts = tuple(conflicts)
        boards = "; ".join(c.words("en") for c in self.conflicts)
        super().__init__(
            f"the file contradicts {len(self.conflicts)} result(s) entered in the log: "
            f"{boards} (nothing written; --prefer file or --prefer log settles them)"
        )

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "boards": [msgspec.to_builtins(c) for c in self.conflicts]}


class TournamentUnreadable(LivetbError):
    """A stored log that no longer folds into standings (written before a check existed, or
    damaged). Only that tournament is refused; the others load, rebuild and serve."""

    code = "tournament_unreadable"

    def __init__(self, tournament_id: str, reason: str) -> None:
        self.tournament_id = tournament_id
        super().__init__(f"tournament {tournament_id}: its event log cannot be read: {reason}")

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "tournament_id": self.tournament_id}


class IdempotencyKeyReused(LivetbError):
    """An idempotency key sent again with a different batch of events."""

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

    code = "not_authenticated"


class WrongTournament(LivetbError):
    """A write with a valid token scoped to a different tournament."""

    code = "wrong_tournament"

    def __init__(self, tournament_id: str) -> None:
        self.tournament_id = tournament_id
        super().__init__(f"this token is not an arbiter token of tournament {tournament_id}")


class StoreUnavailable(LivetbError):
    """An event store that cannot be opened or reached now: a malformed or unreachable
    database URL, a connection lost, a file that cannot be opened. Nothing was written; the
    same request may be sent again after `retry_after` seconds."""

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

    code = "too_many_requests"

    def __init__(self, why: str, retry_after: int) -> None:
        self.retry_after = retry_after
        super().__init__(f"{why}; try again in {retry_after} s")

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "retry_after": self.retry_after}
