"""Team tournaments kept event by event equal the same log computed from scratch after every
event, each delta carries exactly the rows whose content changed and the feed's v2 messages give
a viewer what GET would (two corpus files: a Swiss with whole-
team byes, a round robin), plus a correction to a closed round."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from livetb.engine.teams import Roster, build_team_event, rebuild_round
from livetb.events.schema import AnyEvent, Recorded, ResultCorrected, ResultRecorded, RoundClosed
from livetb.events.state import TournamentState
from livetb.interchange.importer import events_from_tournament, team_rosters
from livetb.trf import load_trf
from tests.conformance import CORPUS
from tests.wire import follow_log

AT = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
FILES = [CORPUS / "team-swiss" / "team-swiss-1202.trf", CORPUS / "team-rr" / "team-rr-1301.trf"]
LISTS = [
    None,  # the system's default list
    ("MPTS", "GPTS", "BH:MP", "FB:MP", "EMGSB", "BC", "TBR", "BBE", "SSSC", "PS:MP"),
]


def log_of(path: Path, tiebreaks: tuple[str, ...] | None) -> list[AnyEvent]:
    imported = load_trf(path)
    teams = team_rosters(imported, path.name)
    events = events_from_tournament(imported.tournament, tiebreaks=tiebreaks, teams=teams)
    # A correction to round 1 once round 2 is closed: every later type-C value moves.
    second = next(i for i, e in enumerate(events) if isinstance(e, RoundClosed) and e.round == 2)
    first = next(e for e in events if isinstance(e, ResultRecorded) and e.result == "1-0")
    fix = ResultCorrected(round=first.round, board=first.board, result="0-1", reason="swap")
    return [*events[: second + 1], fix, *events[second + 1 :]]


def recorded(events: list[AnyEvent]) -> list[Recorded]:
    return [
        Recorded(tournament_id="t", seq=n, at=AT, actor="t", event=e)
        for n, e in enumerate(events, start=1)
    ]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("tiebreaks", LISTS, ids=["default", "wide"])
def test_every_event_equals_the_table_from_scratch(
    path: Path, tiebreaks: tuple[str, ...] | None
) -> None:
    follow_log(recorded(log_of(path, tiebreaks)))


def test_rebuilding_one_round_equals_building_every_round() -> None:
    path = FILES[0]
    log = log_of(path, None)
    state = TournamentState()
    event = None
    checked = 0
    for e in log:
        state.apply(e)
        if not state.teams or not state.paired:
            continue
        rosters = [Roster(t.number, t.name, t.members) for _, t in sorted(state.teams.items())]
        whole = build_team_event(state.tournament(), rosters)
        if isinstance(e, ResultRecorded | ResultCorrected) and event is not None:
            event = rebuild_round(event, state.tournament(), e.round)
            assert event == whole
            checked += 1
        else:
            event = whole
    results = sum(isinstance(e, ResultRecorded | ResultCorrected) for e in log)
    assert checked == results == 217  # every board result of the file, and the correction
