"""Rejected commands are worded from the catalogs (`rejected.*`): the English message word for
word as the API and the tests have always had it, the reader's language from `words`, and the
key and values in the JSON body for a page to word."""

from __future__ import annotations

import datetime as dt

import pytest

from livetb.app.service import TournamentService
from livetb.errors import (
    CommandRejected,
    DuplicateParticipant,
    InvalidPlayoff,
    InvalidTeam,
    LivetbError,
    ParticipantHasBye,
    PreviousRoundOpen,
    ResultsMissing,
    RoundClosedError,
    TournamentExists,
    TournamentFinished,
    TournamentStarted,
    UnknownBoard,
    UnknownParticipant,
    UnknownTournament,
)
from livetb.events.commands import (
    AnyCommand,
    CloseRound,
    CreateTournament,
    DecidePlayoff,
    PairRound,
    RecordResult,
    RegisterParticipant,
    RegisterTeam,
    RequestBye,
    UpdateParticipant,
)
from livetb.events.schema import Board
from livetb.events.store import MemoryStore

T = "t-words"


def swiss(rounds: int = 3) -> TournamentService:
    """Four players, round 1 paired (1-2, 3-4); player 4 asked for a half-point bye in round 2
    (when there is one)."""
    s = TournamentService(MemoryStore())
    s.execute(T, CreateTournament(name="Open", rounds=rounds, start_date=dt.date(2025, 5, 1)))
    for no, name in enumerate(("Ann", "Bob", "Cid", "Dan"), start=1):
        s.execute(T, RegisterParticipant(start_no=no, name=name))
    if rounds > 1:
        s.execute(T, RequestBye(start_no=4, round=2))
    s.execute(T, PairRound(round=1, boards=(Board(1, 1, 2), Board(2, 3, 4))))
    return s


def closed(rounds: int = 3) -> TournamentService:
    """The same, round 1 played and closed."""
    s = swiss(rounds)
    s.execute(T, RecordResult(round=1, board=1, result="1-0"))
    s.execute(T, RecordResult(round=1, board=2, result="0-1"))
    s.execute(T, CloseRound(round=1))
    return s


def rejected(service: TournamentService, command: AnyCommand) -> CommandRejected:
    with pytest.raises(LivetbError) as caught:
        service.execute(T, command)
    assert isinstance(caught.value, CommandRejected)
    return caught.value


def test_a_refused_update_speaks_both_languages() -> None:
    err = rejected(swiss(), UpdateParticipant(start_no=1, rating=2300))
    assert type(err) is TournamentStarted
    assert str(err) == "start_no 1: cannot update a participant once round 1 is paired"
    assert err.words("en") == str(err)
    assert err.words("it") == (
        "start_no 1: impossibile modificare i dati di un partecipante una volta abbinato il turno 1"
    )
    assert err.as_dict() == {
        "code": "tournament_started",
        "message": str(err),
        "said": {
            "key": "rejected.tournament_started",
            "params": {"start_no": 1, "action": {"key": "rejected.action.update", "params": {}}},
        },
        "field": "start_no",
        "value": 1,
    }


def test_a_registration_after_the_last_round_is_refused_in_italian() -> None:
    s = closed(rounds=1)
    err = rejected(s, RegisterParticipant(start_no=5, name="Eve"))
    assert type(err) is TournamentFinished
    assert str(err) == "start_no 5: cannot register a participant: the last round (1) is closed"
    assert err.words("it") == (
        "start_no 5: impossibile iscrivere un partecipante: l'ultimo turno (1) è chiuso"
    )
    assert err.as_dict()["said"]["key"] == "rejected.tournament_finished"  # type: ignore[index]


def test_a_playoff_wraps_its_reason() -> None:
    err = rejected(swiss(), DecidePlayoff(order=(1, 2, 1)))
    assert type(err) is InvalidPlayoff
    assert str(err) == "order [1, 2, 1]: lists a participant more than once"
    assert err.words("it") == "order [1, 2, 1]: un partecipante compare più di una volta"
    assert err.as_dict()["said"] == {
        "key": "rejected.invalid_playoff",
        "params": {
            "order": "[1, 2, 1]",
            "reason": {"key": "rejected.playoff.repeat", "params": {}},
        },
    }
    err = rejected(swiss(), DecidePlayoff(order=(1,)))
    assert err.words("it") == "order [1]: uno spareggio richiede almeno due partecipanti"


@pytest.mark.parametrize(
    ("command", "error", "english", "italian", "key"),
    [
        pytest.param(
            RecordResult(round=1, board=1, result="0-1"),
            RoundClosedError,
            "round 1 is closed: a new result (send a correction) is not allowed",
            "il turno 1 è chiuso: non si può registrare un nuovo risultato (invia una correzione)",
            "rejected.round_closed.result_correct",
            id="result-in-closed-round",
        ),
        pytest.param(
            CloseRound(round=1),
            RoundClosedError,
            "round 1 is closed: closing it again is not allowed",
            "il turno 1 è chiuso: non si può chiudere di nuovo",
            "rejected.round_closed.close",
            id="close-twice",
        ),
        pytest.param(
            PairRound(round=3, boards=(Board(1, 1, 3),)),
            PreviousRoundOpen,
            "round 3 cannot be paired: round 2 is not paired yet",
            "il turno 3 non si può abbinare: il turno 2 non è ancora abbinato",
            "rejected.previous_round_open.paired",
            id="skip-a-round",
        ),
        pytest.param(
            PairRound(round=2, boards=(Board(1, 4, 1),)),
            ParticipantHasBye,
            "boards[0].white: start_no 4 has a half-point bye in round 2",
            "boards[0].white: il n. 4 ha un bye da mezzo punto nel turno 2",
            "rejected.participant_has_bye",
            id="pair-a-bye",
        ),
        pytest.param(
            RegisterParticipant(start_no=2, name="Eve"),
            DuplicateParticipant,
            "start_no 2: already registered (as 'Bob')",
            "start_no 2: già iscritto (come 'Bob')",
            "rejected.duplicate_participant",
            id="number-taken",
        ),
        pytest.param(
            RequestBye(start_no=9, round=3),
            UnknownParticipant,
            "start_no 9: no participant with that start number",
            "start_no 9: nessun partecipante ha questo numero di partenza",
            "rejected.unknown_participant",
            id="unknown-participant",
        ),
        pytest.param(
            RegisterTeam(number=1, name="Club", members=(1, 2)),
            InvalidTeam,
            "team 1: this is an individual tournament",
            "squadra 1: questo è un torneo individuale",
            "rejected.team.individual",
            id="team-in-individual",
        ),
    ],
)
def test_rejections_after_round_1_closed(
    command: AnyCommand, error: type[CommandRejected], english: str, italian: str, key: str
) -> None:
    err = rejected(closed(), command)
    assert type(err) is error
    assert str(err) == english
    assert err.words("it") == italian
    assert err.as_dict()["said"]["key"] == key  # type: ignore[index]


def test_rejections_while_round_1_is_played() -> None:
    err = rejected(swiss(), CloseRound(round=1))
    assert type(err) is ResultsMissing
    assert str(err) == "round 1 cannot be closed: 2 board(s) without a result (1, 2)"
    assert err.words("it") == (
        "il turno 1 non si può chiudere: scacchiere senza risultato: 2 (1, 2)"
    )
    err = rejected(swiss(), RecordResult(round=1, board=7, result="1-0"))
    assert type(err) is UnknownBoard
    assert str(err) == "board 7: round 1 has boards 1..2"
    assert err.words("it") == "board 7: il turno 1 ha le scacchiere 1..2"


def test_a_tournament_named_or_not() -> None:
    err: CommandRejected = UnknownTournament("t-x")
    assert str(err) == "tournament t-x does not exist: create it first"
    assert err.words("it") == "il torneo t-x non esiste: crealo prima"
    err = TournamentExists(name="Open")
    assert str(err) == "the tournament ('Open') already exists"
    assert err.words("it") == "il torneo ('Open') esiste già"
    assert TournamentExists("t-x").words("it") == "il torneo t-x esiste già"
