"""Commands (what is asked) and `decide` (whether the tournament allows it, and what happens).

`decide(state, command)` is pure: it reads the folded `TournamentState`, raises a typed
`CommandRejected` (or `InvalidInput`) when the command does not fit, and otherwise returns the
events to append. A rejected command produces nothing. `livetb/app/service.py` runs the loop around
it: decide against the live projection's state, append with the expected head, apply.

Rules, in short:
- participant updates before round 1 is paired; registration too, or in a Swiss until the last
  round is closed: a late entrant's rounds already paired are absent unless it names a bye for
  them (a batch registration is refused whole if any one participant is); withdrawals any time
  for a round not yet closed, and a return from one for a round not yet paired; byes only for
  rounds not yet paired;
- round k+1 is paired once round k is closed; nobody withdrawn, unknown, seated twice or with a
  bye for the round may be paired (a board or the pairing-allocated bye);
- results for paired rounds and existing boards, once per board; after that, or once the round
  is closed, only a correction changes a result; closing needs every board's result;
- a playoff lists at least two distinct known participants, best first.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Annotated, Literal, TypeVar

import msgspec
from msgspec import UNSET, UnsetType

from livetb.engine.prizes import Prize, Rule
from livetb.engine.spec import parse_list
from livetb.errors import (
    BoardHasResult,
    DuplicateParticipant,
    InvalidInput,
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
from livetb.events.categories import CategorySpec, categories_event, check_birth_date
from livetb.events.prize_table import prizes_defined
from livetb.events.schema import (
    DEFAULT_TEAM_TIEBREAKS,
    DEFAULT_TIEBREAKS,
    AnyEvent,
    Board,
    BoardNo,
    ByePoints,
    ByeRequested,
    EditionName,
    GameResult,
    LotsDrawn,
    ParticipantKSet,
    ParticipantRegistered,
    ParticipantReinstated,
    ParticipantUpdated,
    ParticipantWithdrawn,
    PlayoffDecided,
    PublicDelaySet,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundNo,
    RoundPaired,
    ScoringSpec,
    StartNo,
    TeamRegistered,
    TournamentCreated,
)
from livetb.events.state import BYE_CODES, Game, RoundState, TournamentState

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


def decide(state: TournamentState, command: AnyCommand) -> list[AnyEvent]:
    """The events `command` produces in `state`; raise the typed rejection otherwise."""
    command = checked(command)
    if isinstance(command, CreateTournament):
        return _create(state, command)
    if state.created is None:
        raise UnknownTournament()
    match command:
        case RegisterParticipant():
            return _register(state, command)
        case RegisterParticipants():
            return _register_all(state, command)
        case RegisterTeam():
            return _register_team(state, command)
        case UpdateParticipant():
            return _update(state, command)
        case WithdrawParticipant():
            return _withdraw(state, command)
        case ReinstateParticipant():
            return _reinstate(state, command)
        case RequestBye():
            return _request_bye(state, command)
        case PairRound():
            return _pair(state, command)
        case RecordResult():
            game = _board(state, command.round, command.board)
            if state.rounds[command.round].closed:
                raise RoundClosedError(command.round, "a new result (send a correction)")
            if game.result is not None:
                raise BoardHasResult(command.round, command.board, game.result)
            return [ResultRecorded(round=command.round, board=command.board, result=command.result)]
        case CorrectResult():
            game = _board(state, command.round, command.board)
            if game.result is None:
                raise NoResultToCorrect(command.round, command.board)
            if command.expected is not None and command.expected != game.result:
                raise ResultChanged(command.round, command.board, command.expected, game.result)
            return [
                ResultCorrected(
                    round=command.round,
                    board=command.board,
                    result=command.result,
                    reason=command.reason,
                )
            ]
        case CloseRound():
            rnd = _paired_round(state, command.round)
            if rnd.closed:
                raise RoundClosedError(command.round, "closing it again")
            missing = sorted(b for b, g in rnd.games.items() if g.result is None)
            if missing:
                raise ResultsMissing(command.round, missing)
            return [RoundClosed(round=command.round)]
        case DecidePlayoff(order=order):
            if len(set(order)) != len(order):
                raise InvalidPlayoff("lists a participant more than once", order)
            if len(order) < 2:
                raise InvalidPlayoff("a playoff needs at least two participants", order)
            for no in order:
                _participant(state, no, "order")
            return [PlayoffDecided(order=order)]
        case DrawLots(seed=seed):
            return [LotsDrawn(seed=seed)]
        case SetPublicDelay(public_delay=seconds):
            return [PublicDelaySet(seconds=seconds)]
        case DefinePrizes():
            return [prizes_defined(state, command.rule, command.one_prize_per_player,
                                   command.currency, command.prizes)]  # fmt: skip
        case DefineCategories():
            return [categories_event(state, command.categories)]
    raise InvalidInput(f"unknown command {type(command).__name__}")  # pragma: no cover


def _create(state: TournamentState, c: CreateTournament) -> list[AnyEvent]:
    if state.created is not None:
        raise TournamentExists(name=state.created.name)
    team = c.kind == "team"
    if c.tiebreaks is None:
        tiebreaks = (DEFAULT_TEAM_TIEBREAKS if team else DEFAULT_TIEBREAKS)[c.system]
    else:
        tiebreaks = c.tiebreaks
    parse_list(tiebreaks, teams=team)  # TiebreakSpecError (422) names the bad code
    return [
        TournamentCreated(
            name=c.name,
            rounds=c.rounds,
            system=c.system,
            kind=c.kind,
            scoring=c.scoring,
            tiebreaks=tiebreaks,
            edition=c.edition,
            unrated_rating=c.unrated_rating,
            start_date=c.start_date,
            private=c.private,
        )
    ]


def _register(state: TournamentState, c: RegisterParticipant, at: str = "") -> list[AnyEvent]:
    """`at`: where the command sits in a batch (`participants[3].`), to locate its errors."""
    created = state.created
    assert created is not None
    if state.paired and (created.system != "swiss" or created.kind == "team"):
        # A round robin's schedule is fixed by its field; a team's line-up by its registration.
        raise TournamentStarted(f"register a participant in a {_kind(created)}", c.start_no)
    if state.closed == created.rounds:
        raise TournamentFinished("register a participant", c.start_no, created.rounds)
    if c.start_no in state.participants:
        taken = state.participants[c.start_no].name
        raise DuplicateParticipant(c.start_no, taken, field=f"{at}start_no")
    for rnd in sorted(c.missed):
        if rnd > state.paired:  # a future round's bye is a RequestBye, once registered
            _in_range(state, rnd, f"{at}missed")
            raise RoundNotPaired(rnd, f"{at}missed.{rnd}")
    check_birth_date(c.birth_date, f"{at}birth_date")
    registered = ParticipantRegistered(
        start_no=c.start_no,
        name=c.name,
        rating=c.rating,
        title=c.title,
        federation=c.federation,
        fide_id=c.fide_id,
        sex=c.sex,
        birth_date=c.birth_date,
    )
    byes = [
        ByeRequested(start_no=c.start_no, round=rnd, points=points)
        for rnd, points in sorted(c.missed.items())
        if points != "absent"  # an unpaired round with no bye is an absence already
    ]
    return [registered, *byes]


def _kind(created: TournamentCreated) -> str:
    return "team tournament" if created.kind == "team" else "round robin"


def _register_all(state: TournamentState, c: RegisterParticipants) -> list[AnyEvent]:
    events: list[AnyEvent] = []
    names = {no: p.name for no, p in state.participants.items()}
    for i, p in enumerate(c.participants):
        if p.start_no in names:  # registered before, or earlier in this batch
            raise DuplicateParticipant(
                p.start_no, names[p.start_no], field=f"participants[{i}].start_no"
            )
        names[p.start_no] = p.name
        events += _register(state, p, f"participants[{i}].")
    return events


def _register_team(state: TournamentState, c: RegisterTeam) -> list[AnyEvent]:
    assert state.created is not None
    if state.created.kind != "team":
        raise InvalidTeam(
            f"team {c.number}: this is an individual tournament", field="number", value=c.number
        )
    if state.paired:
        raise InvalidTeam(
            f"team {c.number}: teams register before round 1 is paired",
            field="number",
            value=c.number,
        )
    if c.number in state.teams:
        taken = state.teams[c.number].name
        raise InvalidTeam(
            f"team {c.number}: already registered (as {taken!r})", field="number", value=c.number
        )
    team_of = {no: t.number for t in state.teams.values() for no in t.members}
    for i, no in enumerate(c.members):
        _participant(state, no, f"members[{i}]")
        if no in team_of or no in c.members[:i]:
            other = team_of.get(no, c.number)
            raise InvalidTeam(
                f"members[{i}]: start_no {no} already plays for team {other}",
                field=f"members[{i}]",
                value=no,
            )
    return [TeamRegistered(number=c.number, name=c.name, members=c.members)]


_DETAILS = ("name", "rating", "title", "federation", "fide_id", "sex", "birth_date")


def _update(state: TournamentState, c: UpdateParticipant) -> list[AnyEvent]:
    _participant(state, c.start_no)
    changes = {f: getattr(c, f) for f in _DETAILS if getattr(c, f) is not UNSET}
    if not changes and c.k is UNSET:
        raise InvalidInput(
            f"start_no {c.start_no}: nothing to update (give one of {(*_DETAILS, 'k')})"
        )
    events: list[AnyEvent] = []
    if changes:  # the details are what round 1 was paired on; K only weighs rating changes
        if state.paired:
            raise TournamentStarted("update a participant", c.start_no)
        if isinstance(birth := changes.get("birth_date"), str):
            check_birth_date(birth, "birth_date")
        events.append(ParticipantUpdated(start_no=c.start_no, **changes))
    if not isinstance(c.k, UnsetType):
        events.append(ParticipantKSet(start_no=c.start_no, k=c.k))
    return events


def _withdraw(state: TournamentState, c: WithdrawParticipant) -> list[AnyEvent]:
    _participant(state, c.start_no)
    _in_range(state, c.from_round, "from_round")
    if c.start_no in state.withdrawn:
        raise ParticipantWithdrawnError(c.start_no, state.withdrawn[c.start_no])
    if c.from_round <= state.closed:
        raise RoundClosedError(c.from_round, "a withdrawal from it")
    return [ParticipantWithdrawn(start_no=c.start_no, from_round=c.from_round)]


def _reinstate(state: TournamentState, c: ReinstateParticipant) -> list[AnyEvent]:
    _participant(state, c.start_no)
    _in_range(state, c.from_round, "from_round")
    since = state.withdrawn.get(c.start_no)
    if since is None:
        raise ParticipantNotWithdrawn(c.start_no)
    if c.from_round <= state.paired:
        raise RoundAlreadyPaired(c.from_round)
    # The rounds left out: absent, as the withdrawal had them (a bye keeps them unpaired).
    away = range(max(since, state.paired + 1), c.from_round)
    return [
        ParticipantReinstated(start_no=c.start_no, from_round=c.from_round),
        *(ByeRequested(start_no=c.start_no, round=rnd, points="zero") for rnd in away),
    ]


def _request_bye(state: TournamentState, c: RequestBye) -> list[AnyEvent]:
    _participant(state, c.start_no)
    _in_range(state, c.round, "round")
    _not_withdrawn(state, c.start_no, c.round, "start_no")
    if c.round <= state.paired:
        raise RoundAlreadyPaired(c.round)
    return [ByeRequested(start_no=c.start_no, round=c.round, points=c.points)]


def _pair(state: TournamentState, c: PairRound) -> list[AnyEvent]:
    rnd = c.round
    _in_range(state, rnd, "round")
    if rnd <= state.paired:
        raise RoundAlreadyPaired(rnd)
    if rnd > state.paired + 1:
        raise PreviousRoundOpen(rnd, rnd - 1, "paired")
    if state.paired and not state.rounds[state.paired].closed:
        raise PreviousRoundOpen(rnd, state.paired)
    numbers: set[int] = set()
    for i, b in enumerate(c.boards):
        if b.board in numbers:
            raise InvalidInput(
                f"boards[{i}].board: board {b.board} appears twice in round {rnd}",
                path=f"$.boards[{i}].board",
            )
        numbers.add(b.board)
    seated: set[int] = set()
    byes = state.byes.get(rnd, {})
    for no, field in _seats(c):
        _participant(state, no, field)
        _not_withdrawn(state, no, rnd, field)
        if no in seated:
            raise ParticipantPairedTwice(no, rnd, field)
        if no in byes:
            raise ParticipantHasBye(no, rnd, _BYE_NAMES[byes[no]], field)
        seated.add(no)
    if c.team_bye:
        _team_bye(state, c.team_bye)
    if c.more_byes and c.bye is None:
        raise InvalidInput("more_byes: further byes follow the first, `bye`", path="$.more_byes")
    return [
        RoundPaired(
            round=rnd, boards=c.boards, bye=c.bye, team_bye=c.team_bye, more_byes=c.more_byes
        )
    ]


def _team_bye(state: TournamentState, players: tuple[int, ...]) -> None:
    """A team's bye: players of one registered team of a team tournament."""
    team_of = {no: t.number for t in state.teams.values() for no in t.members}
    teams = {team_of.get(no) for no in players}
    if len(teams) != 1 or None in teams:
        raise InvalidTeam(
            f"team_bye {list(players)}: the players of one registered team",
            field="team_bye",
            value=list(players),
        )


_BYE_NAMES = {code: name for name, code in BYE_CODES.items()}


def _seats(c: PairRound) -> Iterator[tuple[int, str]]:
    for i, b in enumerate(c.boards):
        yield b.white, f"boards[{i}].white"
        yield b.black, f"boards[{i}].black"
    if c.bye is not None:
        yield c.bye, "bye"
    for i, no in enumerate(c.team_bye):
        yield no, f"team_bye[{i}]"
    for i, no in enumerate(c.more_byes):
        yield no, f"more_byes[{i}]"


# --- lookups that raise the typed rejection -------------------------------------------------


def _participant(state: TournamentState, no: int, field: str = "start_no") -> None:
    if no not in state.participants:
        raise UnknownParticipant(no, field)


def _not_withdrawn(state: TournamentState, no: int, rnd: int, field: str) -> None:
    since = state.withdrawn.get(no)
    if since is not None and since <= rnd:
        raise ParticipantWithdrawnError(no, since, field)


def _in_range(state: TournamentState, rnd: int, field: str) -> None:
    assert state.created is not None
    if rnd > state.created.rounds:
        raise UnknownRound(rnd, state.created.rounds, field)


def _paired_round(state: TournamentState, rnd: int) -> RoundState:
    _in_range(state, rnd, "round")
    found = state.rounds.get(rnd)
    if found is None:
        raise RoundNotPaired(rnd)
    return found


def _board(state: TournamentState, rnd: int, board: int) -> Game:
    games = _paired_round(state, rnd).games
    game = games.get(board)
    if game is None:
        raise UnknownBoard(rnd, board, max(games, default=0))
    return game
