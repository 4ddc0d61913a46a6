"""Commands checked against the tournament before anything is appended: every rejection is a
typed error naming what is wrong, and the log is exactly as it was."""

from __future__ import annotations

import datetime as dt

import msgspec
import pytest

from livetb.app.service import TournamentService
from livetb.errors import (
    BoardHasResult,
    CommandRejected,
    ConcurrencyConflict,
    DuplicateParticipant,
    InvalidInput,
    InvalidPlayoff,
    LivetbError,
    NoResultToCorrect,
    ParticipantHasBye,
    ParticipantPairedTwice,
    ParticipantWithdrawnError,
    PreviousRoundOpen,
    ResultsMissing,
    RoundAlreadyPaired,
    RoundClosedError,
    RoundNotPaired,
    TiebreakSpecError,
    TournamentExists,
    TournamentStarted,
    UnknownBoard,
    UnknownParticipant,
    UnknownRound,
    UnknownTournament,
)
from livetb.events.commands import (
    AnyCommand,
    CloseRound,
    CorrectResult,
    CreateTournament,
    DecidePlayoff,
    DrawLots,
    PairRound,
    RecordResult,
    RegisterParticipant,
    RequestBye,
    UpdateParticipant,
    WithdrawParticipant,
    decide,
    decode_command,
)
from livetb.events.schema import (
    Board,
    ByeRequested,
    LotsDrawn,
    ParticipantUpdated,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
)
from livetb.events.store import MemoryStore
from livetb.web.http.statuses import status_of

T = "t-0000c0de"
PLAYERS = ["Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir"]


def bd(board: int, white: int, black: int) -> Board:
    return Board(board, white, black)


@pytest.fixture
def service() -> TournamentService:
    """A 6-player, 5-round Swiss in round 1: board 1 (1-2) is 1-0, boards 2 (3-4) and 3 (5-6)
    are playing; Elm (5) asked for a half-point bye in round 2; Fir (6) withdrew from round 2."""
    s = TournamentService(MemoryStore())
    s.execute(T, CreateTournament(name="Club Open", rounds=5, start_date=dt.date(2025, 5, 1)))
    for no, name in enumerate(PLAYERS, start=1):
        s.execute(T, RegisterParticipant(start_no=no, name=name, rating=2000 - 10 * no))
    s.execute(T, RequestBye(start_no=5, round=2, points="half"))
    s.execute(T, PairRound(round=1, boards=(bd(1, 1, 2), bd(2, 3, 4), bd(3, 5, 6))))
    s.execute(T, RecordResult(round=1, board=1, result="1-0"))
    s.execute(T, WithdrawParticipant(start_no=6, from_round=2))
    return s


@pytest.fixture
def closed(service: TournamentService) -> TournamentService:
    """The same tournament with round 1 finished and closed."""
    service.execute(T, RecordResult(round=1, board=2, result="1/2-1/2"))
    service.execute(T, RecordResult(round=1, board=3, result="+-"))
    service.execute(T, CloseRound(round=1))
    return service


def rejected(service: TournamentService, command: AnyCommand, tid: str = T) -> LivetbError:
    store = service.store
    before = list(store.read(tid))
    with pytest.raises(LivetbError) as caught:
        service.execute(tid, command)
    assert list(store.read(tid)) == before  # nothing appended
    assert store.head(tid) == len(before)
    return caught.value


# Round 1 is being played.
IN_ROUND_1 = [
    pytest.param(
        RecordResult(round=2, board=1, result="1-0"),
        RoundNotPaired,
        "round 2 is not paired yet",
        id="result-for-unpaired-round",
    ),
    pytest.param(
        RecordResult(round=1, board=9, result="1-0"),
        UnknownBoard,
        "board 9: round 1 has boards 1..3",
        id="result-for-unknown-board",
    ),
    pytest.param(
        RecordResult(round=1, board=1, result="0-1"),
        BoardHasResult,
        "round 1 board 1 already has the result 1-0: send a correction",
        id="second-result-for-a-board",
    ),
    pytest.param(
        CorrectResult(round=1, board=2, result="1-0", reason="typo"),
        NoResultToCorrect,
        "round 1 board 2 has no result to correct",
        id="correction-without-result",
    ),
    pytest.param(
        CloseRound(round=1),
        ResultsMissing,
        "round 1 cannot be closed: 2 board(s) without a result (2, 3)",
        id="close-with-results-missing",
    ),
    pytest.param(
        PairRound(round=2, boards=(bd(1, 1, 3),)),
        PreviousRoundOpen,
        "round 2 cannot be paired: round 1 is not closed yet",
        id="pair-before-previous-closed",
    ),
    pytest.param(
        PairRound(round=1, boards=(bd(1, 1, 3),)),
        RoundAlreadyPaired,
        "round 1 is already paired",
        id="pair-a-round-twice",
    ),
    pytest.param(
        RegisterParticipant(start_no=6, name="Gum"),
        DuplicateParticipant,
        "start_no 6: already registered (as 'Fir')",
        id="late-entry-with-a-withdrawn-players-number",
    ),
    pytest.param(
        RegisterParticipant(start_no=7, name="Gum", missed={1: "half", 2: "half"}),
        RoundNotPaired,
        "missed.2: round 2 is not paired yet",
        id="late-entry-with-a-bye-for-a-round-not-paired",
    ),
    pytest.param(
        RegisterParticipant(start_no=7, name="Gum", missed={6: "zero"}),
        UnknownRound,
        "missed 6: the tournament has rounds 1..5",
        id="late-entry-with-a-bye-beyond-the-last-round",
    ),
    pytest.param(
        UpdateParticipant(start_no=1, rating=2300),
        TournamentStarted,
        "start_no 1: cannot update a participant once round 1 is paired",
        id="update-after-start",
    ),
    pytest.param(
        RequestBye(start_no=99, round=3),
        UnknownParticipant,
        "start_no 99: no participant with that start number",
        id="bye-for-unknown-participant",
    ),
    pytest.param(
        RequestBye(start_no=1, round=1),
        RoundAlreadyPaired,
        "round 1 is already paired",
        id="bye-for-paired-round",
    ),
    pytest.param(
        RequestBye(start_no=1, round=6),
        UnknownRound,
        "round 6: the tournament has rounds 1..5",
        id="bye-beyond-last-round",
    ),
    pytest.param(
        RequestBye(start_no=6, round=3, points="zero"),
        ParticipantWithdrawnError,
        "start_no 6: withdrawn from round 2 on",
        id="bye-for-withdrawn",
    ),
    pytest.param(
        WithdrawParticipant(start_no=6, from_round=3),
        ParticipantWithdrawnError,
        "start_no 6: withdrawn from round 2 on",
        id="withdraw-twice",
    ),
    pytest.param(
        CreateTournament(name="Club Open", rounds=5),
        TournamentExists,
        f"tournament {T} ('Club Open') already exists",
        id="create-twice",
    ),
    pytest.param(
        DecidePlayoff(order=(1,)),
        InvalidPlayoff,
        "order [1]: a playoff needs at least two participants",
        id="playoff-of-one",
    ),
    pytest.param(
        DecidePlayoff(order=(1, 2, 1)),
        InvalidPlayoff,
        "order [1, 2, 1]: lists a participant more than once",
        id="playoff-with-repeat",
    ),
    pytest.param(
        DecidePlayoff(order=(1, 42)),
        UnknownParticipant,
        "order 42: no participant with that start number",
        id="playoff-with-stranger",
    ),
]


@pytest.mark.parametrize(("command", "error", "message"), IN_ROUND_1)
def test_rejected_while_round_1_is_played(
    service: TournamentService, command: AnyCommand, error: type[CommandRejected], message: str
) -> None:
    err = rejected(service, command)
    assert type(err) is error
    assert message in str(err)
    assert status_of(err) == 422
    assert err.code == error.code


# Round 1 is closed; round 2 is to be paired. Elm (5) has a bye, Fir (6) has withdrawn.
AFTER_ROUND_1 = [
    pytest.param(
        PairRound(round=2, boards=(bd(1, 1, 4), bd(2, 6, 3))),
        ParticipantWithdrawnError,
        "boards[1].white 6: withdrawn from round 2 on",
        id="pair-withdrawn",
    ),
    pytest.param(
        PairRound(round=2, boards=(bd(1, 1, 4), bd(2, 2, 3)), bye=5),
        ParticipantHasBye,
        "bye: start_no 5 has a half-point bye in round 2",
        id="pab-for-requested-bye",
    ),
    pytest.param(
        PairRound(round=2, boards=(bd(1, 5, 4),)),
        ParticipantHasBye,
        "boards[0].white: start_no 5 has a half-point bye in round 2",
        id="pair-participant-with-bye",
    ),
    pytest.param(
        PairRound(round=2, boards=(bd(1, 1, 4), bd(2, 3, 1))),
        ParticipantPairedTwice,
        "boards[1].black: start_no 1 is seated more than once in round 2",
        id="pair-twice-on-boards",
    ),
    pytest.param(
        PairRound(round=2, boards=(bd(1, 2, 2),)),
        ParticipantPairedTwice,
        "boards[0].black: start_no 2 is seated more than once in round 2",
        id="pair-against-self",
    ),
    pytest.param(
        PairRound(round=2, boards=(bd(1, 1, 4), bd(2, 2, 3)), bye=1),
        ParticipantPairedTwice,
        "bye: start_no 1 is seated more than once in round 2",
        id="pab-also-on-a-board",
    ),
    pytest.param(
        PairRound(round=2, boards=(bd(1, 1, 42),)),
        UnknownParticipant,
        "boards[0].black 42: no participant with that start number",
        id="pair-unknown",
    ),
    pytest.param(
        PairRound(round=3, boards=(bd(1, 1, 4),)),
        PreviousRoundOpen,
        "round 3 cannot be paired: round 2 is not paired yet",
        id="skip-a-round",
    ),
    pytest.param(
        RecordResult(round=1, board=2, result="1-0"),
        RoundClosedError,
        "round 1 is closed: a new result (send a correction) is not allowed",
        id="result-in-closed-round",
    ),
    pytest.param(
        CloseRound(round=1),
        RoundClosedError,
        "round 1 is closed: closing it again is not allowed",
        id="close-twice",
    ),
    pytest.param(
        WithdrawParticipant(start_no=3, from_round=1),
        RoundClosedError,
        "round 1 is closed: a withdrawal from it is not allowed",
        id="withdraw-from-closed-round",
    ),
]


@pytest.mark.parametrize(("command", "error", "message"), AFTER_ROUND_1)
def test_rejected_after_round_1_closed(
    closed: TournamentService, command: AnyCommand, error: type[CommandRejected], message: str
) -> None:
    err = rejected(closed, command)
    assert type(err) is error
    assert message in str(err)


def test_every_rejection_is_its_own_type() -> None:
    kinds = {p.values[1] for p in IN_ROUND_1 + AFTER_ROUND_1}
    assert len(kinds) >= 12


def test_commands_for_a_tournament_never_created() -> None:
    s = MemoryStore()
    register = RegisterParticipant(start_no=1, name="Alder")
    err = rejected(TournamentService(s), register, tid="t-nothere")
    assert type(err) is UnknownTournament
    assert status_of(err) == 404
    assert str(err) == "tournament t-nothere does not exist: create it first"
    assert s.tournaments() == []


def test_unknown_tiebreak_at_creation() -> None:
    create = CreateTournament(name="Open", rounds=5, tiebreaks=("PTS", "XYZ"))
    err = rejected(TournamentService(MemoryStore()), create)
    assert type(err) is TiebreakSpecError
    assert "XYZ" in str(err)


def test_constraints_hold_for_commands_built_in_python(service: TournamentService) -> None:
    """msgspec checks `Meta` constraints when decoding; decide checks them for Python too."""
    err = rejected(service, RecordResult(round=0, board=1, result="1-0"))
    assert type(err) is InvalidInput
    assert err.path == "$.round"
    assert "Expected `int` >= 1" in str(err)


def test_duplicate_board_numbers(closed: TournamentService) -> None:
    err = rejected(closed, PairRound(round=2, boards=(bd(1, 1, 4), bd(1, 2, 3))))
    assert type(err) is InvalidInput
    assert str(err) == "boards[1].board: board 1 appears twice in round 2"


def test_empty_update_before_the_start() -> None:
    s = TournamentService(MemoryStore())
    s.execute(T, CreateTournament(name="Open", rounds=5))
    s.execute(T, RegisterParticipant(start_no=1, name="Alder"))
    err = rejected(s, UpdateParticipant(start_no=1))
    assert type(err) is InvalidInput
    assert "nothing to update" in str(err)
    assert s.execute(T, UpdateParticipant(start_no=1, rating=2250, title="FM"))[0] == 3
    update = ParticipantUpdated(start_no=1, rating=2250, title="FM")
    assert next(s.store.read(T, after=2)).event == update
    assert s.projection(T).state.participants[1].rating == 2250


def test_a_whole_round_then_a_correction_in_the_closed_round(closed: TournamentService) -> None:
    # Round 2: Elm has her half-point bye, Fir is gone; Dogwood gets the pairing-allocated bye.
    closed.execute(T, PairRound(round=2, boards=(bd(1, 3, 1), bd(2, 2, 4))))
    closed.execute(T, RecordResult(round=2, board=1, result="0-1"))
    closed.execute(T, RecordResult(round=2, board=2, result="--"))
    head, _ = closed.execute(T, CloseRound(round=2))
    # The arbiter finds board 2 of round 1 was won by White, not drawn.
    seq, _ = closed.execute(T, CorrectResult(round=1, board=2, result="1-0", reason="scoresheet"))
    assert seq == head + 1
    assert next(closed.store.read(T, after=head)).event == ResultCorrected(
        round=1, board=2, result="1-0", reason="scoresheet"
    )
    state = closed.projection(T).state
    entries = {
        p.start_no: [e.code.value for e in p.entries] for p in state.tournament().participants
    }
    assert entries == {
        1: ["1", "1"],
        2: ["0", "-"],
        3: ["1", "0"],
        4: ["0", "-"],
        5: ["+", "H"],
        6: ["-", "Z"],
    }


def test_decide_is_pure_and_returns_the_events(closed: TournamentService) -> None:
    state = closed.projection(T).state
    before = state.seq
    assert decide(state, RequestBye(start_no=1, round=3, points="zero")) == [
        ByeRequested(start_no=1, round=3, points="zero")
    ]
    assert decide(state, CorrectResult(round=1, board=3, result="-+", reason="appeal")) == [
        ResultCorrected(round=1, board=3, result="-+", reason="appeal")
    ]
    (drawn,) = decide(state, DrawLots(seed=7))
    assert isinstance(drawn, LotsDrawn) and drawn.seed == 7
    assert state.seq == before and state.rounds[1].games[3].result == "+-"


def test_stale_expected_seq_is_a_conflict(service: TournamentService) -> None:
    store = service.store
    head = store.head(T)
    with pytest.raises(ConcurrencyConflict) as caught:
        service.execute(T, RecordResult(round=1, board=2, result="1-0"), expected_seq=head - 1)
    assert status_of(caught.value) == 409
    assert caught.value.as_dict() == {
        "code": "concurrency_conflict",
        "message": f"tournament {T}: expected_seq {head - 1} is stale, the log is at {head}",
        "said": {
            "key": "store.stale_seq",
            "params": {"tournament": T, "expected": head - 1, "head": head},
        },
        "expected_seq": head - 1,
        "head": head,
    }
    assert store.head(T) == head
    command = RecordResult(round=1, board=2, result="1-0")
    assert service.execute(T, command, expected_seq=head)[0] == head + 1


def test_a_retried_command_returns_its_first_outcome(service: TournamentService) -> None:
    """The retry would now be a BoardHasResult; the key makes it the original success."""
    store = service.store
    command = RecordResult(round=1, board=2, result="1/2-1/2")
    seq, _ = service.execute(T, command, idempotency_key="k-1")
    assert service.execute(T, command, idempotency_key="k-1")[0] == seq
    assert store.head(T) == seq
    assert isinstance(next(store.read(T, after=seq - 1)).event, ResultRecorded)
    with pytest.raises(BoardHasResult):
        service.execute(T, command, idempotency_key="k-2")


def test_closing_round_1_appends_round_closed(service: TournamentService) -> None:
    service.execute(T, RecordResult(round=1, board=2, result="1/2-1/2"))
    service.execute(T, RecordResult(round=1, board=3, result="+-"))
    seq, _ = service.execute(T, CloseRound(round=1))
    assert [r.event for r in service.store.read(T, after=seq - 1)] == [RoundClosed(round=1)]


def test_decode_command_from_json() -> None:
    command = b'{"type": "RecordResult", "round": 2, "board": 12, "result": "1-0"}'
    assert decode_command(command) == RecordResult(round=2, board=12, result="1-0")
    with pytest.raises(InvalidInput) as typo:
        decode_command(b'{"type": "RecordResult", "round": 2, "board": 12, "reslt": "1-0"}')
    assert status_of(typo.value) == 422
    assert "unknown field `reslt`" in str(typo.value)
    with pytest.raises(InvalidInput) as bad:
        decode_command(b'{"type": "RecordResult", "round": 2, "board": 0, "result": "1-0"}')
    assert (status_of(bad.value), bad.value.path) == (422, "$.board")
    with pytest.raises(InvalidInput) as broken:
        decode_command(b'{"type": "RecordResult", ')
    assert status_of(broken.value) == 400
    assert broken.value.as_dict()["code"] == "invalid_input"


def test_commands_forbid_unknown_fields_and_are_frozen() -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"round": 1, "colour": "w"}', type=CloseRound)
    with pytest.raises(AttributeError):
        CloseRound(round=1).round = 2  # type: ignore[misc]
