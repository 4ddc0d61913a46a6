"""`import livetb`: the library's public names, pinned, and what they compute (the same
standings as `livetb standings`)."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

import livetb
from livetb.cli import main

FILE = Path("tests/data/conformance/individual-swiss/swiss-1001.trf")
TIEBREAKS = "PTS,BH/C1,BH,SB,DE,WIN,BWG"

PUBLIC = [
    "__version__",
    "standings",
    "explain",
    "read_trf",
    "Tournament",
    "Participant",
    "Entry",
    "Code",
    "Scoring",
    "Standings",
    "Row",
    "Value",
    "Part",
    "Edition",
    "TrfImport",
    "LivetbError",
    "InvalidInput",
    "TrfError",
    "TrfIssue",
    "TiebreakSpecError",
    "ImportUnsupported",
    "RoundsDiffer",
    "UnknownParticipant",
]


def test_the_public_names_are_pinned_and_each_resolves() -> None:
    assert livetb.__all__ == PUBLIC
    for name in PUBLIC:
        assert getattr(livetb, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        livetb.nothing  # noqa: B018
    assert (Path(livetb.__file__).parent / "py.typed").is_file()


def test_standings_are_the_command_lines(capsys: pytest.CaptureFixture[str]) -> None:
    table = livetb.standings(FILE, tiebreaks=TIEBREAKS)
    assert main(["standings", str(FILE), "--tiebreaks", TIEBREAKS, "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    got = [
        (r.rank, r.start_no, [None if v is None else str(v) for v in r.values]) for r in table.rows
    ]
    want = [
        (
            r["rank"],
            r["start_no"],
            [None if v is None else str(Decimal(str(v))) for v in r["values"]],
        )
        for r in cli["standings"]
    ]
    assert [(rank, no) for rank, no, _ in got] == [(rank, no) for rank, no, _ in want]
    assert [[Decimal(v) for v in values if v is not None] for _, _, values in got] == [
        [Decimal(v) for v in values if v is not None] for _, _, values in want
    ]
    assert table.tiebreaks == tuple(TIEBREAKS.split(","))


def test_explain_gives_each_value_with_its_rounds() -> None:
    table = livetb.standings(FILE, tiebreaks=TIEBREAKS, after_round=5)
    first = table.rows[0]
    values = livetb.explain(FILE, first.start_no, TIEBREAKS, after_round=5)
    assert tuple(v.value for v in values) == first.values
    bh = values[TIEBREAKS.split(",").index("BH")]
    assert sum(p.amount for p in bh.parts) == bh.value and len(bh.parts) == 5
    with pytest.raises(livetb.UnknownParticipant):
        livetb.explain(FILE, 999)


def test_a_file_without_a_round_count_takes_one() -> None:
    text = "".join(x for x in FILE.read_text().splitlines(True) if x[:3] not in ("XXR", "142"))
    bare = livetb.read_trf(text.encode(), rounds=7)
    assert bare.tournament.rounds == 7
    assert livetb.standings(bare, TIEBREAKS) == livetb.standings(FILE, TIEBREAKS)
    with pytest.raises(livetb.RoundsDiffer, match="declares 7"):
        livetb.read_trf(FILE, rounds=9)


def test_one_line_from_a_fresh_interpreter() -> None:
    code = f"import livetb; print(livetb.standings({str(FILE)!r}, tiebreaks='PTS,BH/C1').rows[0])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("Row(rank=1, start_no=")
