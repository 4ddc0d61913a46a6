"""Errors a user can cause, and how they are reported.

* LivetbError
  x TrfError                 file, line, columns, field, what was found and expected
  x TiebreakSpecError        a tie-break code the engine does not know, or a bad modifier
"""

from __future__ import annotations

import msgspec


class LivetbError(Exception):
    """Base of every error a user can cause; never a bug."""

    code = "livetb_error"


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


class TiebreakSpecError(LivetbError):
    """A tie-break code that cannot be parsed or is not supported."""

    code = "tiebreak_unknown"
