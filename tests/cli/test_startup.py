"""`python -m livetb` works, and a command loads only what it needs: `livetb standings FILE`
never imports aiohttp, sqlite-utils, the server or rich."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conformance import CORPUS

FILE = str(CORPUS / "individual-swiss" / "swiss-1005.trf")


def test_python_dash_m_livetb() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "livetb", "standings", FILE, "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout)["standings"][0]["start_no"] == 5


def test_standings_from_a_file_imports_no_server_store_or_rich() -> None:
    probe = (
        "import contextlib, io, sys\n"
        "from livetb.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['standings', {FILE!r}]) == 0\n"
        "heavy = ('aiohttp', 'sqlite_utils', 'livetb.web.app', 'livetb.app.service', 'rich')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
