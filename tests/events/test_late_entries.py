"""Late entries: a Swiss takes a participant after round 1 is paired, until its last round is
closed, with the start number the pairing program gave it. Its rounds paired before it came are
absent unless the arbiter grants a bye, and its values follow the edition's unplayed-rounds
rules (C.07 2024 Art. 16; the 2026 edition caps an own unplayed round)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any, Literal

import pytest

from livetb.app.service import TournamentService
from livetb.errors import (
    CommandRejected,
    DuplicateParticipant,
    InvalidInput,
    LivetbError,
    RoundNotPaired,
    TournamentFinished,
    TournamentStarted,
)
from livetb.events.commands import (
    AnyCommand,
    CloseRound,
    CreateTournament,
    PairRound,
    RecordResult,
    RegisterParticipant,
    RequestBye,
    decode_command,
)
from livetb.events.schema import (
    Board,
    ByeRequested,
    GameResult,
    ParticipantRegistered,
)
from livetb.events.store import MemoryStore
from livetb.projections.standings import StandingsProjection

T = "t-late"
EXAMPLES = Path("/work/shared/regulations/worked-examples.json")
# The editions' first days (livetb/engine/editions.py): 2024 from 2024-08-01, 2026 from 2026-03-01.
STARTS = {"2024": dt.date(2025, 5, 1), "2026": dt.date(2026, 5, 1)}
Edition = Literal["2024", "2026"]


def rejected(service: TournamentService, command: AnyCommand) -> CommandRejected:
    before = list(service.store.read(T))
    with pytest.raises(LivetbError) as caught:
        service.execute(T, command)
    assert list(service.store.read(T)) == before  # nothing appended
    return caught.value  # type: ignore[return-value]


def play(service: TournamentService, rnd: int, games: list[tuple[int, int, GameResult]]) -> None:
    for board, (_, _, result) in enumerate(games, start=1):
        service.execute(T, RecordResult(round=rnd, board=board, result=result))
    service.execute(T, CloseRound(round=rnd))


def pair(service: TournamentService, rnd: int, games: list[tuple[int, int, GameResult]]) -> None:
    boards = tuple(Board(b, w, k) for b, (w, k, _) in enumerate(games, start=1))
    pab = {1: 5, 2: 4}.get(rnd)  # the five players' rounds: one PAB each
    service.execute(T, PairRound(round=rnd, boards=boards, bye=pab))


# A 4-round Swiss of five; Fay (6) enters once round 2 is paired: a half-point bye in round 1,
# absent in round 2, then she wins rounds 3 and 4.
ROUNDS: dict[int, list[tuple[int, int, GameResult]]] = {
    1: [(1, 2, "1-0"), (3, 4, "1/2-1/2")],  # PAB 5
    2: [(1, 3, "1-0"), (5, 2, "1/2-1/2")],  # PAB 4
    3: [(6, 5, "1-0"), (1, 4, "1/2-1/2"), (2, 3, "1-0")],
    4: [(6, 1, "1-0"), (4, 2, "1-0"), (3, 5, "0-1")],
}
FAY = RegisterParticipant(start_no=6, name="Fay", rating=1900, missed={1: "half", 2: "absent"})


def club(edition: Edition, rounds: int = 4) -> TournamentService:
    """Five players, rounds 1 and 2 paired, round 1 played and closed."""
    s = TournamentService(MemoryStore())
    tiebreaks = ("PTS", "BH", "BH/C1")
    s.execute(
        T,
        CreateTournament(
            name="Late", rounds=rounds, start_date=STARTS[edition], tiebreaks=tiebreaks
        ),
    )
    for no, name in enumerate(["Ann", "Bob", "Cid", "Dan", "Eve"], start=1):
        s.execute(T, RegisterParticipant(start_no=no, name=name, rating=2000 - 10 * no))
    pair(s, 1, ROUNDS[1])
    play(s, 1, ROUNDS[1])
    pair(s, 2, ROUNDS[2])
    return s


def test_a_late_entry_after_round_2_is_paired_registers_with_its_missed_rounds() -> None:
    s = club("2024")
    head = s.store.head(T)
    seq, _ = s.execute(T, FAY)
    events = [rec.event for rec in s.store.read(T, after=head)]
    # Round 2 absent: not paired and no bye, as every unpaired round is (TRF `Z`).
    assert events == [
        ParticipantRegistered(start_no=6, name="Fay", rating=1900),
        ByeRequested(start_no=6, round=1, points="half"),
    ]
    assert seq == head + 2
    fay = next(p for p in s.projection(T).state.tournament().participants if p.start_no == 6)
    assert [e.code.value for e in fay.entries] == ["H", "Z"]


def test_every_missed_round_defaults_to_absent_and_a_zero_point_bye_is_recorded() -> None:
    s = club("2024")
    head = s.store.head(T)
    s.execute(T, RegisterParticipant(start_no=6, name="Fay"))
    s.execute(T, RegisterParticipant(start_no=7, name="Gus", missed={2: "zero"}))
    events = [rec.event for rec in s.store.read(T, after=head)]
    assert events == [
        ParticipantRegistered(start_no=6, name="Fay"),
        ParticipantRegistered(start_no=7, name="Gus"),
        ByeRequested(start_no=7, round=2, points="zero"),
    ]
    entries = {p.start_no: p.entries for p in s.projection(T).state.tournament().participants}
    assert [e.code.value for e in entries[6]] == ["Z", "Z"]
    assert [e.code.value for e in entries[7]] == ["Z", "Z"]


def test_a_start_number_already_used_is_refused_and_located() -> None:
    s = club("2024")
    err = rejected(s, RegisterParticipant(start_no=3, name="Fay", missed={1: "half"}))
    assert type(err) is DuplicateParticipant
    assert (err.field, err.value) == ("start_no", 3)
    assert str(err) == "start_no 3: already registered (as 'Cid')"


def test_a_bye_for_a_round_not_yet_paired_is_refused_and_located() -> None:
    s = club("2024")
    err = rejected(s, RegisterParticipant(start_no=6, name="Fay", missed={3: "half"}))
    assert type(err) is RoundNotPaired
    assert (err.field, err.value) == ("missed.3", 3)


def test_a_full_point_bye_is_not_a_missed_round() -> None:
    body = b'{"type": "RegisterParticipant", "start_no": 6, "name": "Fay", "missed": {"1": "full"}}'
    with pytest.raises(InvalidInput) as caught:
        decode_command(body)
    assert caught.value.path == "$.missed[...]"
    assert "Invalid enum value 'full'" in str(caught.value)


def test_after_the_last_round_is_closed_a_registration_is_refused() -> None:
    s = club("2024", rounds=2)
    s.execute(T, RecordResult(round=2, board=1, result="1-0"))
    s.execute(T, RecordResult(round=2, board=2, result="0-1"))
    s.execute(T, RegisterParticipant(start_no=6, name="Fay"))  # the last round still open
    s.execute(T, CloseRound(round=2))
    err = rejected(s, RegisterParticipant(start_no=7, name="Gus"))
    assert type(err) is TournamentFinished
    assert err.code == "tournament_finished"
    assert str(err) == "start_no 7: cannot register a participant: the last round (2) is closed"


def test_a_team_tournament_takes_no_late_entry() -> None:
    s = TournamentService(MemoryStore())
    s.execute(T, CreateTournament(name="Teams", rounds=3, kind="team"))
    for no in (1, 2):
        s.execute(T, RegisterParticipant(start_no=no, name=f"P{no}"))
    s.execute(T, PairRound(round=1, boards=(Board(1, 1, 2),)))
    err = rejected(s, RegisterParticipant(start_no=3, name="Late"))
    assert type(err) is TournamentStarted
    assert str(err) == (
        "start_no 3: cannot register a participant in a team tournament once round 1 is paired"
    )
    assert err.words("it") == (
        "start_no 3: impossibile iscrivere un partecipante in un torneo a squadre "
        "una volta abbinato il turno 1"
    )
    action = err.as_dict()["said"]["params"]["action"]  # type: ignore[index]
    assert action == {
        "key": "rejected.action.register_in",
        "params": {"kind": {"key": "rejected.kind.team", "params": {}}},
    }


def finished(edition: Edition) -> dict[int, tuple[str, ...]]:
    s = club(edition)
    s.execute(T, FAY)  # while round 2 is played
    play(s, 2, ROUNDS[2])
    for rnd in (3, 4):
        s.execute(
            T,
            PairRound(
                round=rnd,
                boards=tuple(Board(b, w, k) for b, (w, k, _) in enumerate(ROUNDS[rnd], 1)),
            ),
        )
        play(s, rnd, ROUNDS[rnd])
    live = {r.start_no: tuple(map(str, r.values)) for r in s.projection(T).standings()}
    rebuilt = StandingsProjection.rebuild(s.store.read(T)).standings()
    assert live == {r.start_no: tuple(map(str, r.values)) for r in rebuilt}
    return live


# Final scores: Ann 2.5, Bob 1.5, Cid 0.5, Dan 3.0, Eve 2.5, Fay 2.5 (H ½ + Z 0 + 1 + 1).
# Fay's own unplayed rounds 1 and 2 count a game against herself (2024 16.4): her score, 2.5
# each; in 2026 capped at rounds x draw points = 4 x ½ = 2.0 (no scheduled opponent). Cut-1
# takes a requested bye or absence first (2024 16.5): one of those two rounds.
# For her opponents (2024 16.3/16.4.1) her byes are followed by available rounds: counted as
# awarded, so she is worth 2.5 (not 3.0, as absences to the end would count as draws).
# Eve: PAB (own, 2.5; 2026 capped 2.0) + Bob 1.5 + Fay 2.5 + Cid 0.5; Cut-1 drops Cid's 0.5.
# Ann: Bob 1.5 + Cid 0.5 + Dan 3.0 + Fay 2.5 = 7.5, Cut-1 7.0, in either edition.
EXPECTED = {
    "2024": {
        1: ("2.5", "7.5", "7.0"),
        5: ("2.5", "7.0", "6.5"),
        6: ("2.5", "10.0", "7.5"),
    },
    "2026": {
        1: ("2.5", "7.5", "7.0"),
        5: ("2.5", "6.5", "6.0"),
        6: ("2.5", "9.0", "7.0"),
    },
}


@pytest.mark.parametrize("edition", ["2024", "2026"])
def test_a_late_entrants_values_follow_the_editions_unplayed_round_rules(
    edition: Edition,
) -> None:
    values = finished(edition)
    assert {no: values[no] for no in EXPECTED[edition]} == EXPECTED[edition]


RESULTS: dict[str, GameResult] = {"1": "1-0", "0": "0-1", "=": "1/2-1/2", "+": "+-", "-": "-+"}
CARLA = RegisterParticipant(start_no=3, name="Carla", rating=1625, missed={1: "half"})


def _crosstable() -> dict[str, Any]:
    cases = json.loads(EXAMPLES.read_text())["cases"]
    return next(c for c in cases if c["id"] == "s000-swiss-8p-5r-crosstable")


@pytest.mark.parametrize("edition", ["2024", "2026"])
def test_the_seed_crosstable_with_carla_entering_late_matches_the_reference(
    edition: Edition,
) -> None:
    """Seed 000's 8-player Swiss: Carla (3) has a half-point bye in round 1, as if she entered
    once round 1 was paired. Registered late, every BH and BH Cut-1 equals the FIDE reference
    implementation's (TieBreakServer) for the edition; Carla's: own rounds 1, 4, 5 at her 2.0
    (not capped: 5 x ½ = 2.5), Bruno 3.0, Giorgia 2.5 = 11.5; Cut-1 drops a bye's 2.0 = 9.5."""
    case = _crosstable()
    players = case["input"]["players"]
    reference = case["reference_implementation_values"][edition]
    s = TournamentService(MemoryStore())
    s.execute(
        T,
        CreateTournament(
            name="Seed 000", rounds=5, start_date=STARTS[edition], tiebreaks=("PTS", "BH", "BH/C1")
        ),
    )
    for p in players:
        if p["id"] != 3:
            s.execute(T, RegisterParticipant(start_no=p["id"], name=p["name"], rating=p["rating"]))
    for rnd in range(1, 6):
        games: list[tuple[int, int, GameResult]] = []
        pab = None
        for p in players:
            r = p["rounds"][rnd - 1]
            if r["kind"] == "pab":
                pab = p["id"]
            elif r["kind"] == "hpb" and p["id"] != 3:  # Davide's, asked before round 2
                s.execute(T, RequestBye(start_no=p["id"], round=rnd, points="half"))
            elif r["opponent"] and r["trf"][5] == "w":
                games.append((p["id"], r["opponent"], RESULTS[r["trf"][7]]))
        # Zero-point byes (Carla 4, Fabio 3) and Italo's rounds 4-5: not paired, absent.
        boards = tuple(Board(b, w, k) for b, (w, k, _) in enumerate(games, start=1))
        s.execute(T, PairRound(round=rnd, boards=boards, bye=pab))
        if rnd == 1:
            s.execute(T, CARLA)
        play(s, rnd, games)
    rows = {r.start_no: r for r in s.projection(T).standings()}
    got = {str(no): {"BH": str(r.values[1]), "BH/C1": str(r.values[2])} for no, r in rows.items()}
    assert got == reference
