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

from collections.abc import Iterator

from msgspec import UNSET, UnsetType

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
    Said,
    TournamentExists,
    TournamentFinished,
    TournamentStarted,
    UnknownBoard,
    UnknownParticipant,
    UnknownRound,
    UnknownTournament,
)
from livetb.events.categories import categories_event, check_birth_date
from livetb.events.command_schema import (
    AnyCommand,
    BirthDate,
    CloseRound,
    Command,
    CorrectResult,
    CreateTournament,
    DecidePlayoff,
    DefineCategories,
    DefinePrizes,
    DrawLots,
    KFactor,
    MissedRound,
    Name,
    PairRound,
    RecordResult,
    RegisterParticipant,
    RegisterParticipants,
    RegisterTeam,
    ReinstateParticipant,
    RequestBye,
    SetPublicDelay,
    Sex,
    SwapColours,
    UpdateParticipant,
    WithdrawParticipant,
    checked,
    decode_command,
)
from livetb.events.prize_table import prizes_defined
from livetb.events.schema import (
    DEFAULT_TEAM_TIEBREAKS,
    DEFAULT_TIEBREAKS,
    AnyEvent,
    ByeRequested,
    ColoursSwapped,
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
    RoundPaired,
    TeamRegistered,
    TournamentCreated,
)
from livetb.events.state import BYE_CODES, Game, RoundState, TournamentState

__all__ = [
    "AnyCommand",
    "BirthDate",
    "CloseRound",
    "Command",
    "CorrectResult",
    "CreateTournament",
    "DecidePlayoff",
    "DefineCategories",
    "DefinePrizes",
    "DrawLots",
    "KFactor",
    "MissedRound",
    "Name",
    "PairRound",
    "RecordResult",
    "RegisterParticipant",
    "RegisterParticipants",
    "RegisterTeam",
    "ReinstateParticipant",
    "RequestBye",
    "SetPublicDelay",
    "Sex",
    "SwapColours",
    "UpdateParticipant",
    "WithdrawParticipant",
    "checked",
    "decide",
    "decode_command",
]


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
                raise RoundClosedError(command.round, "result_correct")
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
        case SwapColours():
            game = _board(state, command.round, command.board)
            if state.rounds[command.round].closed:
                raise RoundClosedError(command.round, "swap")
            if game.result is not None:
                raise BoardHasResult(command.round, command.board, game.result)
            return [ColoursSwapped(round=command.round, board=command.board)]
        case CloseRound():
            rnd = _paired_round(state, command.round)
            if rnd.closed:
                raise RoundClosedError(command.round, "close")
            missing = sorted(b for b, g in rnd.games.items() if g.result is None)
            if missing:
                raise ResultsMissing(command.round, missing)
            return [RoundClosed(round=command.round)]
        case DecidePlayoff(order=order):
            if len(set(order)) != len(order):
                raise InvalidPlayoff(Said("rejected.playoff.repeat"), order)
            if len(order) < 2:
                raise InvalidPlayoff(Said("rejected.playoff.too_few"), order)
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
    raise InvalidInput.of(  # pragma: no cover
        "input.unknown_command", command=type(command).__name__
    )


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
        raise TournamentStarted(
            Said("rejected.action.register_in", kind=_kind(created)), c.start_no
        )
    if state.closed == created.rounds:
        raise TournamentFinished(Said("rejected.action.register"), c.start_no, created.rounds)
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


def _kind(created: TournamentCreated) -> Said:
    return Said("rejected.kind.team" if created.kind == "team" else "rejected.kind.round_robin")


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
            Said("rejected.team.individual", number=c.number), field="number", value=c.number
        )
    if state.paired:
        raise InvalidTeam(
            Said("rejected.team.paired", number=c.number), field="number", value=c.number
        )
    if c.number in state.teams:
        taken = state.teams[c.number].name
        raise InvalidTeam(
            Said("rejected.team.taken", number=c.number, name=repr(taken)),
            field="number",
            value=c.number,
        )
    team_of = {no: t.number for t in state.teams.values() for no in t.members}
    for i, no in enumerate(c.members):
        _participant(state, no, f"members[{i}]")
        if no in team_of or no in c.members[:i]:
            other = team_of.get(no, c.number)
            raise InvalidTeam(
                Said("rejected.team.member_taken", field=f"members[{i}]", start_no=no, team=other),
                field=f"members[{i}]",
                value=no,
            )
    return [TeamRegistered(number=c.number, name=c.name, members=c.members)]


_DETAILS = ("name", "rating", "title", "federation", "fide_id", "sex", "birth_date")


def _update(state: TournamentState, c: UpdateParticipant) -> list[AnyEvent]:
    _participant(state, c.start_no)
    changes = {f: getattr(c, f) for f in _DETAILS if getattr(c, f) is not UNSET}
    if not changes and c.k is UNSET:
        fields = str((*_DETAILS, "k"))
        raise InvalidInput.of("input.nothing_to_update", no=c.start_no, fields=fields)
    events: list[AnyEvent] = []
    if changes:  # the details are what round 1 was paired on; K only weighs rating changes
        if state.paired:
            raise TournamentStarted(Said("rejected.action.update"), c.start_no)
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
        raise RoundClosedError(c.from_round, "withdraw")
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
            said = Said("input.board_twice", index=i, board=b.board, round=rnd)
            raise InvalidInput(said, path=f"$.boards[{i}].board")
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
        raise InvalidInput(Said("input.more_byes"), path="$.more_byes")
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
            Said("rejected.team.bye", players=str(list(players))),
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
