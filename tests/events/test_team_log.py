"""Team tournaments in the event log: teams register before round 1, a whole team can get the
pairing-allocated bye, and the live rows are the teams."""

from __future__ import annotations

import pytest

from livetb.app.service import TournamentService
from livetb.errors import CommandRejected, InvalidTeam, UnknownParticipant
from livetb.events.commands import (
    AnyCommand,
    CloseRound,
    CreateTournament,
    PairRound,
    RecordResult,
    RegisterParticipant,
    RegisterTeam,
)
from livetb.events.schema import Board
from livetb.events.store import MemoryStore

T = "cup"


def league(kind: str = "team") -> TournamentService:
    """Six players; teams A (1, 2) and B (3, 4) registered; 5 and 6 in no team yet."""
    service = TournamentService(MemoryStore())
    service.execute(T, CreateTournament(name="Cup", rounds=3, kind=kind))  # type: ignore[arg-type]
    for no in range(1, 7):
        service.execute(T, RegisterParticipant(start_no=no, name=f"P{no}"))
    if kind == "team":
        service.execute(T, RegisterTeam(number=1, name="A", members=(1, 2)))
        service.execute(T, RegisterTeam(number=2, name="B", members=(3, 4)))
    return service


@pytest.mark.parametrize(
    ("command", "error", "message"),
    [
        (RegisterTeam(number=1, name="C", members=(5, 6)), InvalidTeam, "already registered"),
        (RegisterTeam(number=3, name="C", members=(5, 9)), UnknownParticipant, "members[1] 9"),
        (RegisterTeam(number=3, name="C", members=(5, 3)), InvalidTeam, "plays for team 2"),
        (RegisterTeam(number=3, name="C", members=(5, 5)), InvalidTeam, "plays for team 3"),
        (
            PairRound(round=1, boards=(Board(1, 1, 3), Board(2, 4, 2)), team_bye=(5, 6)),
            InvalidTeam,
            "the players of one registered team",
        ),
    ],
)
def test_invalid_team_commands_append_nothing(
    command: AnyCommand, error: type[CommandRejected], message: str
) -> None:
    service = league()
    head = service.store.head(T)
    with pytest.raises(error, match=message.replace("[", r"\[").replace("]", r"\]")):
        service.execute(T, command)
    assert service.store.head(T) == head


def test_teams_belong_to_team_tournaments_and_register_before_round_1() -> None:
    individual = league("individual")
    with pytest.raises(InvalidTeam, match="individual tournament"):
        individual.execute(T, RegisterTeam(number=1, name="A", members=(1, 2)))
    service = league()
    service.execute(T, RegisterTeam(number=3, name="C", members=(5, 6)))
    service.execute(T, PairRound(round=1, boards=(Board(1, 1, 3), Board(2, 4, 2))))
    with pytest.raises(InvalidTeam, match="before round 1 is paired"):
        service.execute(T, RegisterTeam(number=4, name="D", members=(7,)))


def test_the_rows_are_teams_with_match_and_game_points() -> None:
    service = league()
    service.execute(T, RegisterTeam(number=3, name="C", members=(5, 6)))
    # A v B on two boards; C has the pairing-allocated bye (a drawn match, every board won).
    pair = PairRound(round=1, boards=(Board(1, 1, 3), Board(2, 4, 2)), team_bye=(5, 6))
    service.execute(T, pair)
    service.execute(T, RecordResult(round=1, board=1, result="1-0"))
    _, (delta,) = service.execute(T, RecordResult(round=1, board=2, result="1/2-1/2"))
    cells = {change.start_no: dict(change.cells) for change in delta.changes}
    # Only the game points moved: A already led the match 1-0 (2 MP), B had lost it (0 MP).
    assert cells == {1: {1: "1.5"}, 2: {1: "0.5"}}
    rows = {row.start_no: row for row in service.projection(T).ranked([1, 2])}
    assert rows[1].values[:2] == ("2.0", "1.5") and rows[1].statuses[0] == "provisional"
    assert rows[2].values[:2] == ("0.0", "0.5")
    _, (closed,) = service.execute(T, CloseRound(round=1))
    assert closed.statuses is not None and set(closed.statuses) == {"final"}  # once, for all
    table = service.projection(T).standings()
    assert [(r.rank, r.start_no, r.values[:2]) for r in table] == [
        (1, 1, ("2.0", "1.5")),  # A won the match 1.5-0.5: 2 match points
        (2, 3, ("1.0", "2.0")),  # C's bye: a drawn match's 1 MP, every board won
        (3, 2, ("0.0", "0.5")),
    ]
    assert {r.statuses[0] for r in table} == {"final"}
