"""Two commands as a first user runs them: `livetb watch` piped into another program writes
one table per update as it comes (a live view would write nothing until it stopped), and
`livetb export` finds the store where `livetb serve` keeps it, without `--db`."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.web.conftest import TID, Api

LIVETB = str(Path(sys.executable).with_name("livetb"))
TITLE = re.compile(r"— seq (\d+)")  # a table's title ends so (wrapped to the table's width)
TRF = Path(__file__).parent.parent / "data/conformance/individual-swiss/swiss-1005.trf"


async def next_table(out: asyncio.StreamReader) -> tuple[int, list[str]]:
    """The seq in the next table's title the pipe carries, and the lines up to it (a minute
    at most for each line)."""
    lines: list[str] = []
    while True:
        line = (await asyncio.wait_for(out.readline(), timeout=60)).decode()
        assert line, f"the pipe closed after: {lines}"
        lines.append(line)
        found = TITLE.search(line)
        if found:
            return int(found.group(1)), lines


async def test_watch_piped_writes_each_update_as_it_comes(api: Api) -> None:
    head = await api.start(players=4)
    env = {**os.environ, "COLUMNS": "120"}
    env.pop("LIVETB_TOKEN", None)
    proc = await asyncio.create_subprocess_exec(
        LIVETB, "watch", api.base, "--tournament", TID,  # no --count: until stopped
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )  # fmt: skip
    assert proc.stdout is not None
    try:
        seq, _ = await next_table(proc.stdout)  # the snapshot's table, written at once
        assert seq == head
        status, body = await api.post(
            f"/api/tournaments/{TID}/rounds/1/results", {"board": 1, "result": "1-0"}
        )
        assert status == 201, body
        seq, between = await next_table(proc.stdout)  # the delta's, written at once
        assert seq == head + 1
        assert sum("Ann" in line for line in between) == 1  # the first table, whole, before it
        assert proc.returncode is None  # still following
    finally:
        proc.terminate()
        await asyncio.wait_for(proc.wait(), timeout=60)


def run(cwd: Path, *argv: str, db: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "LIVETB_DB"}
    if db is not None:
        env["LIVETB_DB"] = db
    return subprocess.run(
        [LIVETB, *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_export_defaults_db_as_serve_does(tmp_path: Path) -> None:
    # Where `livetb serve` started here keeps its store: ./livetb.sqlite.
    made = run(tmp_path, "import", str(TRF), "--db", "livetb.sqlite")
    assert made.returncode == 0, made.stderr
    done = run(tmp_path, "export", "--format", "csv")
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()
    assert len(rows) > 10 and rows[0].split(",")[0].lower() == "rank"
    # $LIVETB_DB first, as for every command.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    moved = run(elsewhere, "export", "--format", "csv", db=str(tmp_path / "livetb.sqlite"))
    assert (moved.returncode, moved.stdout) == (0, done.stdout), moved.stderr
    # No store there: said in words, not argparse asking for --db.
    missing = run(elsewhere, "export")
    assert missing.returncode == 2, missing.stderr
    assert "--db livetb.sqlite: no such event store" in missing.stderr
