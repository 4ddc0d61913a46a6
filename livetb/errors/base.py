"""The errors of input, files, the store and access (the tree: `livetb/errors/__init__.py`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Protocol, Self, TypeAlias

import msgspec

from livetb import i18n


class LivetbError(Exception):
    """Base of every error a user can cause; never a bug.

    An error is worded from the catalogs when its message is a `Said` (`Error.of(key,
    **params)`, or `Error(Said(...), ...)` where the class takes more): its message is the
    English words, `words(lang)` the reader's, and its JSON body carries the key and values
    (`said`) for a page to word in its own language."""

    code = "livetb_error"
    said: Said | None = None

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], Said):
            self.said = args[0]
            args = (self.said.words(i18n.DEFAULT), *args[1:])
        super().__init__(*args)

    @classmethod
    def of(cls, key: str, /, **params: Param) -> Self:
        return cls(Said(key, **params))

    @property
    def message(self) -> str:
        return str(self)

    def words(self, lang: str) -> str:
        """The message in `lang`: the catalog's words where this error has them, else the
        English message."""
        return self.message if self.said is None else self.said.words(lang)

    def as_dict(self) -> dict[str, object]:
        """The JSON body an interface reports: code, message and the error's own context."""
        body: dict[str, object] = {"code": self.code, "message": self.message}
        if self.said is not None:
            body["said"] = self.said.as_dict()
        return body


class Num(str):
    """A decimal in a message (an amount, a score: "12.5"), shown with the reader's decimal
    separator ("12,5" in Italian); `{"num": "12.5"}` in JSON."""

    __slots__ = ()


# A catalog message's value: a plain string or number (what a page fills in from JSON), a
# decimal (`Num`), another message worded in the same language, or several, worded one by one
# and joined by "; " (a list in JSON).
Param: TypeAlias = "str | int | float | Said | tuple[Said, ...]"


class Said:
    """A catalog message not yet worded: its key and values. `words(lang)` fills it in;
    `as_dict` is what a page words it from (`t(key, params)`)."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, /, **params: Param) -> None:
        self.key = key
        self.params = params

    def words(self, lang: str) -> str:
        shown = {k: _worded(v, lang) for k, v in self.params.items()}
        return i18n.text(lang, self.key, **shown)

    def as_dict(self) -> dict[str, object]:
        return {"key": self.key, "params": {k: _as_json(v) for k, v in self.params.items()}}

    def __repr__(self) -> str:
        return f"Said({self.key!r}, {self.params!r})"


def _worded(value: Param, lang: str) -> object:
    if isinstance(value, Said):
        return value.words(lang)
    if isinstance(value, tuple):
        return "; ".join(said.words(lang) for said in value)
    if isinstance(value, Num):
        return i18n.number(lang, value)
    return value


def _as_json(value: Param) -> object:
    if isinstance(value, Said):
        return value.as_dict()
    if isinstance(value, tuple):
        return [said.as_dict() for said in value]
    if isinstance(value, Num):
        return {"num": str(value)}
    return value


class TrfIssue(msgspec.Struct, frozen=True):
    """One located problem in a TRF file (TRF.md 10.1).

    `where`, `found` and `expected` are English; `*_key` and `*_params` are the catalog's
    form of the same words (`trf.where.*`, `trf.found.*`, `trf.expected.*`), so that a page
    or the CLI words them in its reader's language. `found_key` is None when `found` is the
    file's own text. `TrfIssue.of` builds both from the catalog."""

    line: int
    columns: tuple[int, int] | None
    where: str  # record tag and field, e.g. "001 #3, round 1 result"
    found: str
    expected: str
    where_key: str | None = None
    where_params: dict[str, Param] = {}
    found_key: str | None = None
    found_params: dict[str, Param] = {}
    expected_key: str | None = None
    expected_params: dict[str, Param] = {}

    @classmethod
    def of(
        cls,
        line: int,
        columns: tuple[int, int] | None,
        where: Said,
        found: str | Said,
        expected: Said,
    ) -> TrfIssue:
        found_key: str | None = None
        found_params: dict[str, Param] = {}
        if isinstance(found, Said):
            found_key, found_params = found.key, found.params
            found = found.words(i18n.DEFAULT)
        return cls(
            line,
            columns,
            where.words(i18n.DEFAULT),
            found,
            expected.words(i18n.DEFAULT),
            where_key=where.key,
            where_params=where.params,
            found_key=found_key,
            found_params=found_params,
            expected_key=expected.key,
            expected_params=expected.params,
        )

    def words(self, lang: str) -> str:
        """The issue in `lang`: "line 17, columns 5-8 (where): found 'x'; expected …"."""
        where = _said(lang, self.where_key, self.where_params, self.where)
        found = _said(lang, self.found_key, self.found_params, self.found)
        expected = _said(lang, self.expected_key, self.expected_params, self.expected)
        said = {"line": self.line, "where": where, "found": repr(found), "expected": expected}
        if self.columns is None:
            return i18n.text(lang, "trf.issue", **said)
        a, b = self.columns
        if a == b:
            return i18n.text(lang, "trf.issue_column", column=a, **said)
        return i18n.text(lang, "trf.issue_columns", first=a, last=b, **said)

    def __str__(self) -> str:
        return self.words(i18n.DEFAULT)

    def __hash__(self) -> int:
        # The params are dicts (JSON objects for the pages): hashed by the English they say.
        return hash((self.line, self.columns, self.where, self.found, self.expected))


def _said_dict(obj: object) -> object:
    """A message inside an issue's values, for JSON: its key and values (`Said.as_dict`)."""
    if isinstance(obj, Said):
        return obj.as_dict()
    raise NotImplementedError(type(obj))


def _said(lang: str, key: str | None, params: Mapping[str, Param], english: str) -> str:
    return english if key is None else Said(key, **params).words(lang)


class TrfError(LivetbError):
    """A TRF file rejected as a whole; lists every problem found."""

    code = "trf_invalid"

    def __init__(self, source: str, issues: list[TrfIssue]) -> None:
        self.source = source
        self.issues = issues
        super().__init__(self.words(i18n.DEFAULT))

    def words(self, lang: str) -> str:
        head = i18n.text(lang, "trf.invalid", file=self.source, count=len(self.issues))
        lines = "\n".join(f"{self.source}: {issue.words(lang)}" for issue in self.issues)
        return f"{head}\n{lines}"

    def as_dict(self) -> dict[str, object]:
        # Located, so a page can mark the line and columns without parsing the message; the
        # keys and params let it word each issue in its own language.
        issues = msgspec.to_builtins(self.issues, enc_hook=_said_dict)
        return {**super().as_dict(), "issues": issues}


class TiebreakSpecError(LivetbError):
    """A tie-break code that cannot be parsed or is not supported."""

    code = "tiebreak_unknown"


_AT_PATH = re.compile(r" - at `(\$[^`]*)`$")
# msgspec's sentences (its validation and JSON errors), each a catalog key's English.
_SCHEMA = [
    (key, re.compile(shape))
    for key, shape in (
        ("input.schema.type", r"^Expected `(?P<type>[^`]+)`, got `(?P<got>[^`]+)`$"),
        ("input.schema.bound", r"^Expected `(?P<type>\w+)` (?P<op>>=|<=|>|<) (?P<bound>\S+)$"),
        (
            "input.schema.length",
            r"^Expected `(?P<type>\w+)` of length (?P<op>>=|<=) (?P<bound>\d+)$",
        ),
        ("input.schema.pattern", r"^Expected `str` matching regex (?P<pattern>.+)$"),
        ("input.schema.missing", r"^Object missing required field `(?P<field>[^`]+)`$"),
        ("input.schema.unknown", r"^Object contains unknown field `(?P<field>[^`]+)`$"),
        ("input.schema.enum", r"^Invalid enum value (?P<value>.+)$"),
        ("input.schema.truncated", r"^Input data was truncated$"),
        ("input.schema.malformed", r"^JSON is malformed: (?P<detail>.+) \(byte (?P<byte>\d+)\)$"),
    )
]


class InvalidInput(LivetbError):
    """A request body that is not valid JSON (`malformed`) or does not fit the schema."""

    code = "invalid_input"

    def __init__(
        self, message: str | Said, *, path: str | None = None, malformed: bool = False
    ) -> None:
        super().__init__(message)
        self.path = path
        self.malformed = malformed

    @classmethod
    def from_msgspec(cls, err: msgspec.DecodeError) -> InvalidInput:
        """`ValidationError` (a subclass of `DecodeError`) does not fit; any other is malformed.
        msgspec's words are read back into the catalog's (`input.schema.*`), the same English;
        a sentence of another shape stays as msgspec says it."""
        text = str(err)
        found = _AT_PATH.search(text)
        path = found.group(1) if found else None
        malformed = not isinstance(err, msgspec.ValidationError)
        reason = text[: found.start()] if found else text
        said = next(
            (Said(key, **m.groupdict()) for key, shape in _SCHEMA if (m := shape.match(reason))),
            None,
        )
        if said is not None and path is not None:
            said = Said("input.schema.at", reason=said, path=path)
        return cls(said or text, path=path, malformed=malformed)

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "path": self.path}


class ImportUnsupported(LivetbError):
    """A TRF entry that no event can express (e.g. a short game `W`/`L`, or an unknown `X`)."""

    code = "import_unsupported"


class RoundsRequired(LivetbError):
    """A new tournament from a file that declares no round count, and none given."""

    code = "rounds_required"

    def __init__(self, source: str) -> None:
        super().__init__(Said("rounds.required", file=source))

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "path": "rounds"}


class RoundsDiffer(LivetbError):
    """The file, or the caller, names another round count than the tournament's."""

    code = "rounds_differ"


class Worded(Protocol):
    """A board of a refusal that the catalogs word (`livetb/interchange/sync.py`)."""

    def words(self, lang: str) -> str: ...


class SyncRefused(LivetbError):
    """A file a sync refuses unless forced, with why (`why`: each reason for a page to word in
    its language, `sync.why.*`; `field`: the same reasons in English, the API's older form)."""

    code = "sync_refused"
    field = "reasons"

    def __init__(self, source: str, why: Sequence[Said]) -> None:
        self.source = source
        self.why = tuple(why)
        super().__init__(self.words(i18n.DEFAULT))

    def english(self) -> tuple[str, ...]:
        return tuple(r.words(i18n.DEFAULT) for r in self.why)

    def as_dict(self) -> dict[str, object]:
        why = [r.as_dict() for r in self.why]
        return {**super().as_dict(), self.field: list(self.english()), "why": why}


class SyncStale(SyncRefused):
    """The file shows less than a file synced before: an older save."""

    code = "sync_stale"

    @property
    def reasons(self) -> tuple[str, ...]:
        return self.english()

    def words(self, lang: str) -> str:
        return Said("sync.stale", file=self.source, reasons=self.why).words(lang)


class SyncForeign(SyncRefused):
    """The file is another tournament's."""

    code = "sync_foreign"
    field = "differences"
    SHOWN = 10  # differences named in the message (every one is in `differences`)

    @property
    def differences(self) -> tuple[str, ...]:
        return self.english()

    def words(self, lang: str) -> str:
        shown = "; ".join(d.words(lang) for d in self.why[: self.SHOWN])
        more = len(self.why) - self.SHOWN
        if more > 0:
            shown += i18n.text(lang, "sync.foreign_more", count=more)
        return i18n.text(lang, "sync.foreign", file=self.source, differences=shown)


class UsageError(LivetbError):
    """A command-line argument that names nothing usable or does not fit the tournament
    (worded from the catalogs, `cli.usage.*`)."""

    code = "usage"


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
        super().__init__(self.words(i18n.DEFAULT))

    def words(self, lang: str) -> str:
        # The boards are worded one by one (each is no `Said`): a page words them from
        # `boards` (`sync.conflict`), as the CLI does line by line.
        boards = "; ".join(c.words(lang) for c in self.conflicts)
        return i18n.text(lang, "sync.err.contradicted", count=len(self.conflicts), boards=boards)

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "boards": [msgspec.to_builtins(c) for c in self.conflicts]}


class TournamentUnreadable(LivetbError):
    """A stored log that no longer folds into standings (written before a check existed, or
    damaged). Only that tournament is refused; the others load, rebuild and serve."""

    code = "tournament_unreadable"

    def __init__(self, tournament_id: str, reason: str | Said) -> None:
        self.tournament_id = tournament_id
        super().__init__(Said("store.unreadable", tournament=tournament_id, reason=reason))

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "tournament_id": self.tournament_id}


class IdempotencyKeyReused(LivetbError):
    """An idempotency key sent again with a different batch of events."""

    code = "idempotency_key_reused"

    def __init__(self, tournament_id: str, key: str) -> None:
        self.tournament_id = tournament_id
        self.key = key
        super().__init__(Said("store.key_reused", key=repr(key), tournament=tournament_id))


class ConcurrencyConflict(LivetbError):
    """`expected_seq` is not the log's head: someone else wrote first. Re-read and retry."""

    code = "concurrency_conflict"

    def __init__(self, tournament_id: str, expected: int, head: int) -> None:
        self.tournament_id = tournament_id
        self.expected = expected
        self.head = head
        said = Said("store.stale_seq", tournament=tournament_id, expected=expected, head=head)
        super().__init__(said)

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
        super().__init__(Said("access.wrong_tournament", tournament=tournament_id))


class StoreUnavailable(LivetbError):
    """An event store that cannot be opened or reached now: a malformed or unreachable
    database URL, a connection lost, a file that cannot be opened. Nothing was written; the
    same request may be sent again after `retry_after` seconds."""

    code = "store_unavailable"
    retry_after = 2

    def __init__(self, target: str, reason: str | Said) -> None:
        # `reason`: the driver's own words (untranslated), or what livetb says of them
        self.target = target
        super().__init__(Said("store.unavailable", target=target, reason=reason))


class StoreBusy(StoreUnavailable):
    """SQLite's write lock held by another process beyond the busy timeout."""

    code = "store_busy"
    retry_after = 1

    def __init__(self, target: str, reason: str = "database is locked") -> None:
        super().__init__(target, Said("store.busy", reason=reason))


class StorageFull(LivetbError):
    """The disk (or the database's size limit) is full: the write was refused whole, nothing
    acknowledged is lost, reads are still served, and writes are taken again once space is
    freed."""

    code = "storage_full"

    def __init__(self, target: str, reason: str | Said) -> None:
        self.target = target
        super().__init__(Said("store.full", target=target, reason=reason))


class TooManyRequests(LivetbError):
    """A client over its limits for expensive anonymous reads (cards, exports, time travel):
    too many in flight at once, or too many in a short time. Asked again after `retry_after`
    seconds, it is served."""

    code = "too_many_requests"

    def __init__(self, why: str | Said, retry_after: int) -> None:
        self.retry_after = retry_after
        super().__init__(Said("access.too_many", why=why, retry_after=retry_after))

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "retry_after": self.retry_after}
