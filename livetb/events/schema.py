"""Event schemas: what happened, in the past tense, as frozen msgspec Structs.

Schema evolution: a new field gets a default; a field's type never changes; each tag is pinned
so renaming a class never orphans stored events. Events accept unknown fields, so an older
reader can still read a newer event; `v` is the event type's schema version.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, UnsetType

from livetb.engine.prizes import Prize, Rule

StartNo = Annotated[int, msgspec.Meta(ge=1, le=9999)]
RoundNo = Annotated[int, msgspec.Meta(ge=1, le=99)]
BoardNo = Annotated[int, msgspec.Meta(ge=1)]
# "0-0": a game played and lost by both players (an arbiter's decision; Vega prints `0 - 0`):
# played over the board, a loss for each (C.07 2024/2026 16.1, 2023 14.1.1: a round is unplayed
# only when no game was played), so BH, SB, ARO, TPR, BPG and GE count it as a game.
GameResult = Literal["1-0", "0-1", "1/2-1/2", "0-0", "+-", "-+", "--"]
EditionName = Literal["2026", "2024", "2023", "legacy"]
ByePoints = Literal["half", "zero", "full"]

# Used when neither the command nor the TRF file names a tie-break list (as the CLI does).
DEFAULT_TIEBREAKS: dict[str, tuple[str, ...]] = {
    "swiss": ("PTS", "BH/C1", "BH", "DE", "WIN", "BWG"),
    "roundrobin": ("PTS", "DE", "SB", "WIN", "BWG"),
}
DEFAULT_TEAM_TIEBREAKS: dict[str, tuple[str, ...]] = {
    "swiss": ("MPTS", "GPTS", "EDE", "EMGSB/C1", "BH:MP/C1"),
    "roundrobin": ("MPTS", "GPTS", "EDE", "EMGSB"),
}


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Something that happened to a tournament. New fields need defaults; types never change.

    Subclasses repeat `frozen=True`: msgspec inherits it, but type checkers (PEP 681) do not."""

    v: int = 1


class ScoringSpec(msgspec.Struct, frozen=True, kw_only=True):
    """Points per outcome (C.07 scoring; TRF 162). `pab` None: worth a win."""

    win: Decimal = Decimal("1")
    draw: Decimal = Decimal("0.5")
    loss: Decimal = Decimal("0")
    absent: Decimal = Decimal("0")
    pab: Decimal | None = None


class TournamentCreated(Event, tag="TournamentCreated", frozen=True):
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    rounds: Annotated[int, msgspec.Meta(ge=1, le=99)]
    system: Literal["swiss", "roundrobin"] = "swiss"
    kind: Literal["individual", "team"] = "individual"
    scoring: ScoringSpec = ScoringSpec()
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS["swiss"]
    edition: EditionName | None = None  # None: by the start date, as FIDE does
    unrated_rating: int | None = None
    start_date: dt.date | None = None
    private: bool = False  # reads need one of the tournament's tokens


class ParticipantRegistered(Event, tag="ParticipantRegistered", frozen=True):
    start_no: StartNo
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
    rating: int | None = None
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    sex: str = ""  # "m", "w" or unknown (""), as the TRF 001 line writes it
    birth_date: str = ""  # as the file writes it: YYYY/MM/DD, YYYY-MM-DD or a year only


class TeamRegistered(Event, tag="TeamRegistered", frozen=True):
    """A team of a team tournament: its number (as the `013` order numbers it) and its
    registered players in board order. Matches are the board games between two teams."""

    number: Annotated[int, msgspec.Meta(ge=1, le=999)]
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
    members: Annotated[tuple[StartNo, ...], msgspec.Meta(min_length=1, max_length=40)]


class ParticipantUpdated(Event, tag="ParticipantUpdated", frozen=True):
    """A correction to a participant's details before the first round is paired."""

    start_no: StartNo
    name: str | UnsetType = UNSET
    rating: int | UnsetType | None = UNSET
    title: str | UnsetType = UNSET
    federation: str | UnsetType = UNSET
    fide_id: str | UnsetType = UNSET
    sex: str | UnsetType = UNSET
    birth_date: str | UnsetType = UNSET


class ParticipantKSet(Event, tag="ParticipantKSet", frozen=True):
    """The K factor the arbiter sets for a participant's rating change (FIDE B.02 8.3.3), at
    any time; None: back to the default read from the rating and the birth date."""

    start_no: StartNo
    k: int | None = None


class Category(msgspec.Struct, frozen=True, kw_only=True):
    """A category: a name and criteria on the participant record, all of which apply. A
    criterion left out (None) does not restrict. Bands are inclusive."""

    code: str
    name: str
    rating_min: int | None = None
    rating_max: int | None = None
    unrated: bool | None = None  # True: only the unrated; False: only the rated
    born_from: dt.date | None = None
    born_to: dt.date | None = None
    sex: Literal["m", "w"] | None = None
    federations: tuple[str, ...] | None = None
    members: tuple[int, ...] | None = None  # start numbers


class CategoriesDefined(Event, tag="CategoriesDefined", frozen=True):
    """The tournament's categories, replacing the previous definition whole (the log keeps
    each version)."""

    categories: tuple[Category, ...] = ()


class ParticipantWithdrawn(Event, tag="ParticipantWithdrawn", frozen=True):
    """Absent from `from_round` on: every later round is a zero-point bye (C.07 2024 16.1.2)."""

    start_no: StartNo
    from_round: RoundNo


class ParticipantReinstated(Event, tag="ParticipantReinstated", frozen=True):
    """Back after a withdrawal: paired again from `from_round` on (the rounds between stay
    absences)."""

    start_no: StartNo
    from_round: RoundNo


class ByeRequested(Event, tag="ByeRequested", frozen=True):
    """A bye for a round not yet paired, or a late entrant's for a round paired before it
    registered: `half` and `zero` are requested byes (TRF `H`, `Z`); `full` is a full-point
    bye awarded by the organiser (TRF `F`), worth a win."""

    start_no: StartNo
    round: RoundNo
    points: ByePoints = "half"


class Board(msgspec.Struct, frozen=True):
    board: BoardNo
    white: StartNo
    black: StartNo


class RoundPaired(Event, tag="RoundPaired", frozen=True):
    """The round's boards and its pairing-allocated bye; the unpaired are absent."""

    round: RoundNo
    boards: tuple[Board, ...]
    bye: StartNo | None = None
    # Team tournaments: the players of the team given the pairing-allocated bye.
    team_bye: tuple[StartNo, ...] = ()
    # Further pairing-allocated byes a pairing program gave in this round (a file with
    # several `U`, read with a warning: merged sections give one each); `bye` is the first.
    more_byes: tuple[StartNo, ...] = ()


class ColoursSwapped(Event, tag="ColoursSwapped", frozen=True):
    """A board without a result played with the colours the other way round: a pairing
    program's file had given both players one colour, and its file with the result says
    which (the reader took the lower start number as White meanwhile)."""

    round: RoundNo
    board: BoardNo


class ResultRecorded(Event, tag="ResultRecorded", frozen=True):
    round: RoundNo
    board: BoardNo
    result: GameResult


class ResultCorrected(Event, tag="ResultCorrected", frozen=True):
    round: RoundNo
    board: BoardNo
    result: GameResult
    reason: str = ""


class RoundClosed(Event, tag="RoundClosed", frozen=True):
    round: RoundNo


class PlayoffDecided(Event, tag="PlayoffDecided", frozen=True):
    """A playoff among tied participants: `order` is their final order, best first."""

    order: tuple[StartNo, ...]


class LotsDrawn(Event, tag="LotsDrawn", frozen=True):
    """Ties left after the whole list are broken by a lot drawn with this seed (C.07 4.2)."""

    seed: int


class PrizesDefined(Event, tag="PrizesDefined", frozen=True):
    """The prize table, replacing the previous one whole: how places are paid (`rule`),
    whether a participant takes at most one prize, the currency, and the prizes by list and
    place (`livetb/engine/prizes.py`)."""

    rule: Rule = "ranking"
    one_prize_per_player: bool = True
    currency: str = "EUR"
    prizes: tuple[Prize, ...] = ()


class PublicDelaySet(Event, tag="PublicDelaySet", frozen=True):
    """The broadcast delay: public reads show the log only up to the events recorded more than
    `seconds` ago (0: none); a token of the tournament reads it live (`livetb/app/delay.py`)."""

    seconds: int = 0


class FileSynced(Event, tag="FileSynced", frozen=True):
    """What a synced pairing-program file showed, appended with what it added: a later file
    that shows less (fewer rounds, fewer results in a round) is older, and one with another
    `012` name is another tournament's (`livetb/interchange/sync.py`)."""

    source: str  # the file's own name
    name: str = ""  # its 012 line
    rounds: int = 0  # its paired rounds
    results: tuple[int, ...] = ()  # per paired round, its boards with a result


AnyEvent = (
    TournamentCreated
    | ParticipantRegistered
    | TeamRegistered
    | ParticipantUpdated
    | ParticipantWithdrawn
    | ParticipantReinstated
    | ByeRequested
    | RoundPaired
    | ColoursSwapped
    | ResultRecorded
    | ResultCorrected
    | RoundClosed
    | PlayoffDecided
    | LotsDrawn
    | PublicDelaySet
    | ParticipantKSet
    | CategoriesDefined
    | PrizesDefined
    | FileSynced
)


class Recorded(msgspec.Struct, frozen=True, kw_only=True):
    """A stored event: the envelope the store adds."""

    tournament_id: str
    seq: int
    at: dt.datetime
    actor: str
    event: AnyEvent


encode = msgspec.json.Encoder().encode
# Annotated: mypy cannot take a union for `type[T]`, so the decoder would be Decoder[Any].
_event_decoder: msgspec.json.Decoder[AnyEvent] = msgspec.json.Decoder(AnyEvent)
decode_event = _event_decoder.decode
decode_recorded = msgspec.json.Decoder(Recorded).decode
