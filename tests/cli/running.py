"""Running the command line in the test's process: exit code, stdout, stderr."""

from __future__ import annotations

import json

import pytest

from livetb.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def standings(capsys: pytest.CaptureFixture[str], *source: str) -> object:
    """`livetb standings … --format json` as (rank, start number, values) rows."""
    code, out, err = run(capsys, "standings", *source, "--format", "json")
    assert code == 0, err
    return [(r["rank"], r["start_no"], r["values"]) for r in json.loads(out)["standings"]]
