"""Command schemas: what a client asks of a tournament, as frozen msgspec Structs checked on
decoding (`decide` in `livetb/events/commands.py` says whether the tournament allows it)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal, TypeVar

import msgspec
from msgspec import UNSET, UnsetType

from livetb.engine.prizes import Prize, Rule
from livetb.errors import InvalidInput
from livetb.events.categories import CategorySpec
from livetb.events.schema import (
    Board,
    BoardNo,
    ByePoints,
    EditionName,
    GameResult,
    RoundNo,
    ScoringSpec,
    StartNo,
)

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
Sex = Literal["", "m", "w"]  # "": unknown
# As a TRF writes it (YYYY/MM/DD, YYYY-MM-DD, YYYY.MM.DD) or a year only; "": unknown.
BirthDate = Annotated[str, msgspec.Meta(pattern=r"^(\d{4}([-/.]\d{2}[-/.]\d{2})?)?$")]
KFactor = Annotated[int, msgspec.Meta(ge=1, le=100)]


class Command(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"
):
    """Something asked of a tournament. Unknown fields are an error (a typo is a 422).

    Subclasses repeat `frozen=True`: msgspec inherits it, but type checkers (PEP 681) do not."""


class CreateTournament(Command, tag="CreateTournament", frozen=True):
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    rounds: Annotated[int, msgspec.Meta(ge=1, le=99)]
    system: Literal["swiss", "roundrobin"] = "swiss"
    kind: Literal["individual", "team"] = "individual"
    scoring: ScoringSpec = ScoringSpec()
    tiebreaks: tuple[str, ...] | None = None  # None: the system's default list
    edition: EditionName | None = None
    unrated_rating: int | None = None
    start_date: dt.date | None = None
    private: bool = False  # reads need one of the tournament's tokens


# A late entrant's round that was paired before it registered: not paired (TRF `Z`, nothing
# recorded), or the bye the arbiter grants it (`ByeRequested`: TRF `Z` or `H`).
MissedRound = Literal["absent", "zero", "half"]


class RegisterParticipant(Command, tag="RegisterParticipant", frozen=True):
    start_no: StartNo
    name: Name
    rating: int | None = None
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    sex: Sex = ""
    birth_date: BirthDate = ""
    # A late entry (a Swiss, after round 1 is paired): what each round already paired was for
    # the entrant; a round not named is absent.
    missed: dict[RoundNo, MissedRound] = {}


class RegisterParticipants(Command, tag="RegisterParticipants", frozen=True):
    """Many participants in one append (a TRF player list): all of them or none."""

    participants: Annotated[tuple[RegisterParticipant, ...], msgspec.Meta(min_length=1)]


class RegisterTeam(Command, tag="RegisterTeam", frozen=True):
    """A team tournament's team: registered players, board order first to last."""

    number: Annotated[int, msgspec.Meta(ge=1, le=999)]
    name: Name
    members: Annotated[tuple[StartNo, ...], msgspec.Meta(min_length=1, max_length=40)]


class UpdateParticipant(Command, tag="UpdateParticipant", frozen=True):
    """Only the fields given change. `k` (the rating change's K factor, null: the default)
    may change at any time; the details only before round 1 is paired."""

    start_no: StartNo
    name: Name | UnsetType = UNSET
    rating: int | UnsetType | None = UNSET
    title: str | UnsetType = UNSET
    federation: str | UnsetType = UNSET
    fide_id: str | UnsetType = UNSET
    sex: Sex | UnsetType = UNSET
    birth_date: BirthDate | UnsetType = UNSET
    k: KFactor | UnsetType | None = UNSET


class DefineCategories(Command, tag="DefineCategories", frozen=True):
    """The tournament's categories, all of them (replacing the previous definition)."""

    categories: Annotated[tuple[CategorySpec, ...], msgspec.Meta(max_length=50)]


class WithdrawParticipant(Command, tag="WithdrawParticipant", frozen=True):
    start_no: StartNo
    from_round: RoundNo


class ReinstateParticipant(Command, tag="ReinstateParticipant", frozen=True):
    """A withdrawn participant back from `from_round` (a round not paired yet) on; the
    unpaired rounds between the withdrawal and the return stay absences."""

    start_no: StartNo
    from_round: RoundNo


class RequestBye(Command, tag="RequestBye", frozen=True):
    start_no: StartNo
    round: RoundNo
    points: ByePoints = "half"


class PairRound(Command, tag="PairRound", frozen=True):
    round: RoundNo
    boards: tuple[Board, ...]
    bye: StartNo | None = None  # the pairing-allocated bye
    # Team tournaments: the players of the team given the pairing-allocated bye.
    team_bye: tuple[StartNo, ...] = ()
    # Further pairing-allocated byes, after `bye` (a pairing program's file with several
    # `U` in the round, read with a warning).
    more_byes: tuple[StartNo, ...] = ()


class RecordResult(Command, tag="RecordResult", frozen=True):
    round: RoundNo
    board: BoardNo
    result: GameResult


class CorrectResult(Command, tag="CorrectResult", frozen=True):
    round: RoundNo
    board: BoardNo
    result: GameResult
    reason: Annotated[str, msgspec.Meta(min_length=1, max_length=500)]
    # The result the client saw: if the board has another one now, the correction is refused
    # (409 result_changed) instead of silently overwriting someone else's write.
    expected: GameResult | None = None


class SwapColours(Command, tag="SwapColours", frozen=True):
    """A board without a result played with the colours the other way round."""

    round: RoundNo
    board: BoardNo


class CloseRound(Command, tag="CloseRound", frozen=True):
    round: RoundNo


class DecidePlayoff(Command, tag="DecidePlayoff", frozen=True):
    order: tuple[StartNo, ...]  # best first


class DrawLots(Command, tag="DrawLots", frozen=True):
    seed: int


class SetPublicDelay(Command, tag="SetPublicDelay", frozen=True):
    """The broadcast delay in seconds (0: none), at any time: `PublicDelaySet`."""

    public_delay: Annotated[int, msgspec.Meta(ge=0, le=3600)]


class DefinePrizes(Command, tag="DefinePrizes", frozen=True):
    """The prize table, all of it (replacing the previous one); checked by
    `livetb/events/prize_table.py`."""

    rule: Rule = "ranking"
    one_prize_per_player: bool = True
    currency: str = "EUR"
    prizes: Annotated[tuple[Prize, ...], msgspec.Meta(max_length=500)] = ()


AnyCommand = (
    CreateTournament
    | RegisterParticipant
    | RegisterParticipants
    | RegisterTeam
    | UpdateParticipant
    | WithdrawParticipant
    | ReinstateParticipant
    | RequestBye
    | PairRound
    | RecordResult
    | CorrectResult
    | SwapColours
    | CloseRound
    | DecidePlayoff
    | DrawLots
    | SetPublicDelay
    | DefinePrizes
    | DefineCategories
)

# Annotated: mypy cannot take a union for `type[T]`, so the decoder would be Decoder[Any].
_command_decoder: msgspec.json.Decoder[AnyCommand] = msgspec.json.Decoder(AnyCommand)
_decode_command = _command_decoder.decode


def decode_command(data: bytes | str) -> AnyCommand:
    """A command from JSON with its `type` tag; malformed or invalid input is `InvalidInput`."""
    try:
        return _decode_command(data)
    except msgspec.DecodeError as err:
        raise InvalidInput.from_msgspec(err) from None


C = TypeVar("C", bound=Command)


def checked(command: C) -> C:
    """The command with its type constraints enforced: Structs built in Python skip them."""
    try:
        return msgspec.json.decode(msgspec.json.encode(command), type=type(command))
    except msgspec.ValidationError as err:
        raise InvalidInput.from_msgspec(err) from None
