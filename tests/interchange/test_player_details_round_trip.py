"""Sex and birth date through the whole trip: a real file read (TRF-16, and the same file as
TRF-2026), imported into the log, exported as TRF-16 and TRF-2026, read again."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest

from livetb.events.store import MemoryStore
from livetb.interchange.export import trf_text
from livetb.interchange.importer import events_from_tournament
from livetb.projections.standings import StandingsProjection
from livetb.trf import parse_trf

REAL = Path("tests/data/real")
# What each file writes in columns 10 and 70-79, as the reader gives it back: Tornello's own
# export (`M`, `F`, `w`; full dates), Tornello's JSON turned TRF (women left blank; a year
# alone for #14), trf-kt's Gros open (`m`/`w`, years only).
FILES = {
    "ascid-campionato-italiano-2025-r6-native.trf": {
        1: ("m", "1993/01/01"),  # written `M`
        8: ("w", "1983/01/01"),  # written `F`
        15: ("w", "1978/07/13"),
    },
    "ascid-primavera-2-2026-tornello.trf": {
        10: ("m", "1974/09/13"),
        14: ("", "1977"),
        16: ("m", ""),
    },
    "gros-2010-trfkt.trf": {1: ("m", "1978"), 23: ("w", "1985"), 35: ("w", "1962")},
}


def trf2026(text: str, rounds: int) -> str:
    """The same file as TRF-2026: a `142` round count and a `192` code mark the version."""
    marked = text.replace("\n001", f"\n142 {rounds}\n192 FIDE_DUTCH_2025\n001", 1)
    assert marked != text
    return marked


def details(text: str) -> dict[int, tuple[str, str]]:
    return {p.start_no: (p.sex, p.birth_date) for p in parse_trf(text).tournament.participants}


@pytest.mark.parametrize("name", sorted(FILES))
@pytest.mark.parametrize("source", ["trf16", "trf26"])
@pytest.mark.parametrize("target", ["trf16", "trf26"])
def test_sex_and_birth_date_survive_import_and_export(
    name: str, source: str, target: Literal["trf16", "trf26"]
) -> None:
    text = (REAL / name).read_text(encoding="utf-8")
    read = parse_trf(text).tournament
    if source == "trf26":
        text = trf2026(text, read.rounds)
    read_in = details(text)
    assert {no: read_in[no] for no in FILES[name]} == FILES[name]
    imported = parse_trf(text)
    events = events_from_tournament(imported.tournament, announced=imported.announced_byes)
    with MemoryStore() as store:
        store.append("t", 0, events, actor="import")
        projection = StandingsProjection.rebuild(store.read("t"))
    exported = trf_text(projection, target)
    assert details(exported) == read_in
    assert ("142 " in exported) == (target == "trf26")
