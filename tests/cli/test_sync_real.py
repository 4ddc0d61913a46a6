"""`livetb sync` over a few real events cut as a pairing program writes them during the event
(`sync_cuts`; every real event is synced in memory by tests/interchange/test_sync_real.py):
after every file `livetb standings --db --tournament` is `livetb standings FILE`. One event is
cut as JaVaFo or Vega may write it, without a round count: synced (and its standings read)
with `--rounds`."""

from __future__ import annotations

from pathlib import Path

import pytest

from livetb.events.schema import ResultCorrected
from livetb.events.sqlite import SqliteStore
from tests.cli.running import run, standings
from tests.interchange.sync_cuts import event

TIEBREAKS = "PTS,BH/C1,BH,SB,DE,WIN,BWG"
EVENTS = [  # (file stem, cut without its round count)
    ("hobsons-bay-cup-open-2026", False),  # Vega: late entrants, half-point byes, forfeits
    ("hobsons-bay-western-masters-2025", False),  # a round robin with forfeits
    ("ascid-primavera-2-2026-r6-native", False),  # Tornello: cut before its last round
    ("lichess-lwz-2020-06", False),  # absences, half-point byes, several players leaving
    ("ilmenau-gerd-fornahl-2024", True),  # no XXR: --rounds 9
]


@pytest.mark.parametrize(
    ("stem", "undeclared"),
    EVENTS,
    ids=[stem + ("-without-XXR" if undeclared else "") for stem, undeclared in EVENTS],
)
def test_livetb_sync_follows_a_real_event_file_by_file(
    stem: str, undeclared: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ev = event(Path(f"tests/data/real/{stem}.trf"), undeclared=undeclared)
    assert ev.declared is not undeclared
    db, tid = str(tmp_path / "t.sqlite"), "t"
    base = ("--db", db, "--tournament", tid, "--tiebreaks", TIEBREAKS)
    rounds = () if ev.declared else ("--rounds", str(ev.rounds))
    if not ev.declared:
        first = tmp_path / "first.trf"
        first.write_bytes(ev.cuts[0].text.encode())
        code, _, err = run(capsys, "sync", str(first), *base)
        assert code == 2 and "--rounds" in err
        assert SqliteStore(db).head(tid) == 0  # nothing written
    sync: tuple[str, ...] = ()
    for i, cut in enumerate(ev.cuts):
        trf = tmp_path / f"{i:02}.trf"
        trf.write_bytes(cut.text.encode())
        sync = ("sync", str(trf), *base, *rounds)
        code, _, err = run(capsys, *sync)
        assert code == 0, (cut.label, err)
        mine = standings(capsys, "--db", db, "--tournament", tid)
        assert mine == standings(capsys, str(trf), "--tiebreaks", TIEBREAKS, *rounds), cut.label
    code, out, _ = run(capsys, *sync)  # the last file again: nothing to add
    assert code == 0 and "nothing to sync" in out
    with SqliteStore(db) as store:
        log = [rec.event for rec in store.read(tid)]
    corrections = [e.round for e in log if isinstance(e, ResultCorrected)]
    assert corrections == [ev.wrong_round]
