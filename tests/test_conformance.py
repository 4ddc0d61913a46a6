"""The FIDE Technical Commission's reference values: 100 % agreement or the suite fails."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conformance import Tally, expected_files, run_file

INDIVIDUAL = expected_files("individual-swiss") + expected_files("individual-rr")
TEAM = expected_files("team-swiss") + expected_files("team-rr")


def test_corpus_is_present() -> None:
    assert len(INDIVIDUAL) == 14
    assert len(TEAM) == 10


def _agrees(path: Path, record_property: Callable[[str, object], None]) -> None:
    tally = Tally()
    run_file(path, tally)
    record_property("conformance", (tally.agree, tally.total))  # the run's tally: conftest
    assert tally.total > 0
    assert tally.agree == tally.total, "\n".join(tally.failures)


@pytest.mark.parametrize("path", INDIVIDUAL, ids=lambda p: p.name.removesuffix(".expected.json"))
def test_individual_tournament(path: Path, record_property: Callable[[str, object], None]) -> None:
    _agrees(path, record_property)


# Team events: match and game points, team byes and forfeits, every team tie-break.
@pytest.mark.parametrize("path", TEAM, ids=lambda p: p.name.removesuffix(".expected.json"))
def test_team_tournament(path: Path, record_property: Callable[[str, object], None]) -> None:
    _agrees(path, record_property)
