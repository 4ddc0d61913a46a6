"""The console's commands in the domain: a batch registration is all or nothing, a correction
names the result it replaces, and a dry run decides without appending."""

from __future__ import annotations

import pytest

from livetb.app.service import TournamentService
from livetb.errors import (
    DuplicateParticipant,
    InvalidInput,
    ResultChanged,
    RoundNotPaired,
    TournamentStarted,
)
from livetb.events.commands import (
    CorrectResult,
    CreateTournament,
    PairRound,
    RecordResult,
    RegisterParticipant,
    RegisterParticipants,
)
from livetb.events.schema import Board, ByeRequested, ParticipantRegistered, ResultCorrected
from livetb.events.store import MemoryStore
from livetb.web.http.statuses import status_of

T = "t-batch"


def person(no: int, name: str) -> RegisterParticipant:
    return RegisterParticipant(start_no=no, name=name)


@pytest.fixture
def service() -> TournamentService:
    s = TournamentService(MemoryStore())
    s.execute(T, CreateTournament(name="Club", rounds=3))
    return s


def test_a_batch_registers_everyone_in_one_append(service: TournamentService) -> None:
    batch = RegisterParticipants(participants=(person(1, "Ann"), person(2, "Bob")))
    head, _ = service.execute(T, batch)
    assert head == 3
    assert [r.event for r in service.store.read(T, 1)] == [
        ParticipantRegistered(start_no=1, name="Ann"),
        ParticipantRegistered(start_no=2, name="Bob"),
    ]


def test_a_start_number_twice_in_the_batch_refuses_it_all(service: TournamentService) -> None:
    batch = RegisterParticipants(participants=(person(1, "Ann"), person(2, "Bob"), person(1, "X")))
    with pytest.raises(DuplicateParticipant) as caught:
        service.execute(T, batch)
    assert caught.value.field == "participants[2].start_no"
    assert str(caught.value) == "participants[2].start_no 1: already registered (as 'Ann')"
    assert service.store.head(T) == 1


def test_an_empty_batch_or_a_bad_name_is_invalid_input(service: TournamentService) -> None:
    with pytest.raises(InvalidInput) as caught:
        service.execute(T, RegisterParticipants(participants=()))
    assert caught.value.path == "$.participants"
    with pytest.raises(InvalidInput) as caught:
        service.execute(T, RegisterParticipants(participants=(person(1, "Ann"), person(2, ""))))
    assert caught.value.path == "$.participants[1].name"
    assert service.store.head(T) == 1


def test_a_batch_after_round_1_is_paired_registers_late_entrants_all_or_none(
    service: TournamentService,
) -> None:
    service.execute(T, RegisterParticipants(participants=(person(1, "Ann"), person(2, "Bob"))))
    service.execute(T, PairRound(round=1, boards=(Board(1, 1, 2),)))
    head = service.store.head(T)
    late = RegisterParticipant(start_no=4, name="Dee", missed={2: "half"})  # round 2: not paired
    with pytest.raises(RoundNotPaired) as caught:
        service.execute(T, RegisterParticipants(participants=(person(3, "Cid"), late)))
    assert caught.value.field == "participants[1].missed.2"
    assert str(caught.value) == "participants[1].missed.2: round 2 is not paired yet"
    assert service.store.head(T) == head
    half = RegisterParticipant(start_no=4, name="Dee", missed={1: "half"})
    service.execute(T, RegisterParticipants(participants=(person(3, "Cid"), half)))
    events = [rec.event for rec in service.store.read(T, after=head)]
    assert events == [
        ParticipantRegistered(start_no=3, name="Cid"),
        ParticipantRegistered(start_no=4, name="Dee"),
        ByeRequested(start_no=4, round=1, points="half"),
    ]


def test_a_batch_in_a_round_robin_after_round_1_is_paired_is_refused() -> None:
    service = TournamentService(MemoryStore())
    service.execute(T, CreateTournament(name="Club", rounds=3, system="roundrobin"))
    service.execute(T, RegisterParticipants(participants=(person(1, "Ann"), person(2, "Bob"))))
    service.execute(T, PairRound(round=1, boards=(Board(1, 1, 2),)))
    with pytest.raises(TournamentStarted) as caught:
        service.execute(T, RegisterParticipants(participants=(person(3, "Cid"),)))
    assert str(caught.value) == (
        "start_no 3: cannot register a participant in a round robin once round 1 is paired"
    )


def test_expected_guards_a_correction_and_a_dry_run_appends_nothing(
    service: TournamentService,
) -> None:
    service.execute(T, RegisterParticipants(participants=(person(1, "Ann"), person(2, "Bob"))))
    service.execute(T, PairRound(round=1, boards=(Board(1, 1, 2),)))
    service.execute(T, RecordResult(round=1, board=1, result="1-0"))
    fix = CorrectResult(round=1, board=1, result="0-1", reason="sheet", expected="1-0")
    events = service.execute(T, fix, dry_run=True)
    assert events == [ResultCorrected(round=1, board=1, result="0-1", reason="sheet")]
    assert service.store.head(T) == 5
    service.execute(T, fix)
    with pytest.raises(ResultChanged) as caught:
        service.execute(T, fix)  # the same correction again: the board is 0-1 now
    assert (status_of(caught.value), caught.value.current, caught.value.board) == (409, "0-1", 1)
    assert service.store.head(T) == 6
