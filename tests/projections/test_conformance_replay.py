"""The FIDE reference corpus, imported as events and replayed one event at a time: right after
RoundClosed(k) the live standings equal the checks for round k, and right after RoundPaired(k)
the Fore-Buchholz predictions equal the checks that treat round k as the last. Team files
(teams as the rows) included."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from livetb.events.schema import Recorded, RoundClosed, RoundPaired
from livetb.interchange.importer import events_from_tournament, team_rosters
from livetb.projections.standings import StandingsProjection
from livetb.trf import load_trf
from tests.conformance import UNPUBLISHED, expected_files

FILES = expected_files("individual-swiss") + expected_files("individual-rr")
TEAMS = expected_files("team-swiss") + expected_files("team-rr")
AT = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def same(want: Any, have: Any) -> bool:
    if want is None or have is None:
        return want is have
    return Decimal(str(want)) == Decimal(str(have))


@pytest.mark.parametrize("path", FILES + TEAMS, ids=lambda p: p.name.removesuffix(".expected.json"))
def test_replayed_log_matches_the_reference(path: Path) -> None:
    spec = json.loads(path.read_text())
    imported = load_trf(path.with_name(spec["file"]))
    tournament = imported.tournament
    # Team files: the rosters (013) become TeamRegistered events; teams are the rows.
    teams = team_rosters(imported, spec["file"])
    assert bool(teams) == (spec["kind"] == "team")
    by_list: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for check in spec["checks"]:
        by_list.setdefault(tuple(check["tiebreaks"]), []).append(check)
    compared = 0
    for tiebreaks, checks in by_list.items():
        closed = {c["after_round"]: c for c in checks if not c.get("treat_round_as_final")}
        paired = {c["after_round"]: c for c in checks if c.get("treat_round_as_final")}
        events = events_from_tournament(
            tournament, tiebreaks=tiebreaks, unrated_rating=spec["unrated_rating"], teams=teams
        )
        live = StandingsProjection()
        for seq, event in enumerate(events, start=1):
            live.apply(Recorded(tournament_id="t", seq=seq, at=AT, actor="t", event=event))
            if isinstance(event, RoundClosed) and event.round in closed:
                compared += compare(live, closed.pop(event.round), predicted=False)
            elif isinstance(event, RoundPaired) and event.round in paired:
                compared += compare(live, paired.pop(event.round), predicted=True)
        assert not closed and not paired, "every check was reached by the replay"
    assert compared > 0


def compare(live: StandingsProjection, check: dict[str, Any], *, predicted: bool) -> int:
    rows = {row.start_no: row for row in live.standings()}
    n = 0
    for no, values in check["values"].items():
        row = rows[int(no)]
        for tb, want, have, status in zip(
            check["tiebreaks"], values, row.values, row.statuses, strict=True
        ):
            if tb in UNPUBLISHED:
                continue
            where = f"round {check['after_round']} #{no} {tb}"
            assert same(want, have), f"{where}: want {want}, got {have}"
            if predicted:
                assert status == "predicted", where
            n += 1
    for no, rank in check.get("ranks", {}).items():
        assert rows[int(no)].rank == rank, f"round {check['after_round']} #{no} rank"
        n += 1
    return n
