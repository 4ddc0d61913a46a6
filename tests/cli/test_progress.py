"""Progress bars: drawn on stderr when it is a terminal, never otherwise, and
the command's own output is the same either way."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from livetb.cli import main
from tests.conformance import CORPUS

TRF = str(CORPUS / "individual-swiss" / "swiss-1005.trf")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def run(argv: list[str], err: io.StringIO) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue()


@pytest.mark.parametrize("terminal", [True, False], ids=["terminal", "pipe"])
def test_bars_on_a_terminal_only(tmp_path: Path, terminal: bool) -> None:
    db = str(tmp_path / "events.sqlite")
    err = Terminal() if terminal else io.StringIO()
    code, tid = run(["import", TRF, "--db", db], err)
    assert code == 0 and tid.startswith("t-")
    tid = tid.strip()
    outputs = [
        run(["rebuild", "--db", db], err),
        run(["replay", "--db", db, "--tournament", tid, "--speed", "0", "--into", "copy"], err),
        run(["export", "--db", db, "--tournament", tid, "--format", "csv"], err),
    ]
    assert [code for code, _ in outputs] == [0, 0, 0]
    assert outputs[0][1].startswith(f"{tid}: rebuilt ") and outputs[0][1].endswith(" events\n")
    assert outputs[1][1].startswith("copy: ")
    drawn = err.getvalue()
    for words in ("reading", "rebuilding", "replaying", "exporting"):
        assert (words in drawn) is terminal, words
