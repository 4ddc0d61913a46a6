"""The pure tournament model: participants, rounds and every outcome a round can have.

No I/O here. Scores are `Decimal` (never floats) so that 1/½/0 and 3/1/0 systems are exact.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from enum import StrEnum
from typing import Literal

import msgspec

Colour = Literal["w", "b"]
System = Literal["swiss", "roundrobin"]


class Code(StrEnum):
    """A round's outcome for one participant, named by its TRF result code (TRF.md 4.3)."""

    WIN = "1"
    DRAW = "="
    LOSS = "0"  # on both sides of a game: lost by both over the board (0-0), still played
    SHORT_WIN = "W"  # game of less than one move: played, not rated
    SHORT_DRAW = "D"
    SHORT_LOSS = "L"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"  # with a forfeiting opponent too, a double forfeit
    HALF_BYE = "H"
    FULL_BYE = "F"
    PAB = "U"  # pairing-allocated bye
    ZERO_BYE = "Z"  # known absence, including every round after a withdrawal (C.07 14.1.2)
    UNKNOWN = "X"  # played, result not known (adjourned): scored as a draw
    PENDING = "*"  # paired, game not finished yet (live only, never in a TRF)

    @property
    def played(self) -> bool:
        """Played over the board (C.07: the only rounds with a real opponent in BH/SB/ARO)."""
        return self in PLAYED


PLAYED = frozenset(  # the codes of a game played over the board
    {Code.WIN, Code.DRAW, Code.LOSS, Code.SHORT_WIN, Code.SHORT_DRAW, Code.SHORT_LOSS, Code.UNKNOWN}
)


class Scoring(msgspec.Struct, frozen=True):
    """Points per outcome bucket, as the TRF `162` record groups them (TRF.md 3.4)."""

    win: Decimal = Decimal("1")
    draw: Decimal = Decimal("0.5")
    loss: Decimal = Decimal("0")
    absent: Decimal = Decimal("0")  # zero-point bye and forfeit loss
    pab: Decimal | None = None  # None: worth a win
    unknown: Decimal | None = None  # None: worth a draw

    def points(self, code: Code) -> Decimal:
        match code:
            case Code.WIN | Code.SHORT_WIN | Code.FORFEIT_WIN | Code.FULL_BYE:
                return self.win
            case Code.DRAW | Code.SHORT_DRAW | Code.HALF_BYE:
                return self.draw
            case Code.LOSS | Code.SHORT_LOSS:
                return self.loss
            case Code.PAB:
                return self.win if self.pab is None else self.pab
            case Code.UNKNOWN:
                return self.draw if self.unknown is None else self.unknown
            case Code.FORFEIT_LOSS | Code.ZERO_BYE | Code.PENDING:
                return self.absent


DEFAULT_SCORING = Scoring()


class Entry(msgspec.Struct, frozen=True, gc=False):
    """One participant's round: the outcome code, and the (scheduled) opponent and colour."""

    code: Code
    opponent: int | None = None
    colour: Colour | None = None


NOT_PAIRED = Entry(Code.ZERO_BYE)


class Participant(msgspec.Struct, frozen=True, gc=False):
    """A player (or, in team events, a team) with one `Entry` per round so far."""

    start_no: int
    name: str
    rating: int | None = None  # None: unrated
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    sex: str = ""
    birth_date: str = ""
    entries: tuple[Entry, ...] = ()
    declared_points: Decimal | None = None  # as written in the source file, for checks
    declared_rank: int | None = None

    def entry(self, rnd: int) -> Entry:
        """Round `rnd` (1-based); a round beyond the recorded ones is an unpaired zero."""
        return self.entries[rnd - 1] if rnd <= len(self.entries) else NOT_PAIRED


class Tournament(msgspec.Struct, frozen=True):
    """An individual tournament as the tie-break engine sees it."""

    name: str
    participants: tuple[Participant, ...]
    rounds: int  # planned number of rounds
    system: System = "swiss"
    scoring: Scoring = DEFAULT_SCORING
    start_date: dt.date | None = None
    tiebreaks: tuple[str, ...] = ()  # the file's own list (TRF 212, or PTS + 202), if any
    initial_colour: Colour | None = None

    @property
    def running_round(self) -> int | None:
        """The first round with a game paired but not finished, if any."""
        pending = (
            rnd
            for p in self.participants
            for rnd, e in enumerate(p.entries, start=1)
            if e.code is Code.PENDING
        )
        return min(pending, default=None)

    @property
    def played_rounds(self) -> int:
        """The last round holding a pairing (an opponent) or a PAB (TRF.md 4.8)."""
        last = 0
        for p in self.participants:
            for rnd, e in enumerate(p.entries, start=1):
                if rnd > last and (e.opponent is not None or e.code is Code.PAB):
                    last = rnd
        return last
