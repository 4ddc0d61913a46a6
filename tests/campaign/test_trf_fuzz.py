"""Campaign: mutated corpus files through `livetb standings` and `livetb import`.

Every input ends in standings or a located error: exit 0 or 2, never a traceback (in process,
an exception fails the test), never more than 2 s; a refused import writes nothing. The 2 s
are CPU seconds of this process: the wall clock of a shared CI machine would make it flaky.
"""

from __future__ import annotations

import contextlib
import io
import sqlite3
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from livetb.cli import main
from tests.campaign.budget import size

CORPUS = sorted((Path(__file__).parents[1] / "data" / "conformance").glob("*/*.trf"))
TEXTS = [p.read_bytes() for p in CORPUS]
CASES = size(ci=60, local=3000)


@st.composite
def mutation(draw: st.DrawFn, data: bytes) -> bytes:
    """One damage of the kind real files carry."""
    if not data:  # truncated to nothing already
        return data
    lines = data.split(b"\n")
    at = draw(st.integers(0, max(len(data) - 1, 0)))
    row = draw(st.integers(0, len(lines) - 1))
    match draw(st.sampled_from(MUTATIONS)):
        case "flip":
            return data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1 :]
        case "truncate":
            return data[:at]
        case "duplicate":
            return b"\n".join([*lines[: row + 1], lines[row], *lines[row + 1 :]])
        case "overlong":
            lines[row] += draw(st.sampled_from([b" ", b"9", b"x", b"1 w 1 "])) * draw(
                st.integers(1, 400)
            )
            return b"\n".join(lines)
        case "huge":
            digits = draw(st.sampled_from([b"9" * 30, b"99999999999999999999", b"-1", b"0"]))
            width = draw(st.integers(1, 8))
            return data[:at] + digits + data[at + width :]
        case "bytes":
            junk = draw(st.binary(min_size=1, max_size=4).map(lambda b: bytes(x | 0x80 for x in b)))
            return data[:at] + junk + data[at:]
        case "bom":
            return draw(
                st.sampled_from(
                    [
                        b"\xef\xbb\xbf" + data,
                        b"\xff\xfe" + data,
                        b"\xfe\xff" + data,
                        data.decode("latin-1").encode("utf-16"),
                        data.decode("latin-1").encode("utf-16-be"),
                    ]
                )
            )
        case "line_ends":
            return data.replace(b"\n", draw(st.sampled_from([b"\r\n", b"\r", b"\n\n", b""])))
        case _:  # "tab"
            return data[:at] + b"\t" + data[at + 1 :]


MUTATIONS = [
    "flip",
    "truncate",
    "duplicate",
    "overlong",
    "huge",
    "bytes",
    "bom",
    "line_ends",
    "tab",
]


@st.composite
def damaged(draw: st.DrawFn) -> bytes:
    data = draw(st.sampled_from(TEXTS))
    for _ in range(draw(st.integers(1, 3))):
        data = draw(mutation(data))
    return data


def run(*argv: str) -> tuple[int, str, float]:
    """Exit code, stderr and CPU seconds of one in-process command."""
    err = io.StringIO()
    start, wall = time.process_time(), time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(list(argv))
    TALLY["slowest"] = max(TALLY["slowest"], time.perf_counter() - wall)
    return code, err.getvalue(), time.process_time() - start


def tournaments(db: Path) -> int:
    if not db.exists():
        return 0
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return int(conn.execute("SELECT COUNT(DISTINCT tournament_id) FROM events").fetchone()[0])


TALLY: dict[str, float] = {"cases": 0, "refused": 0, "imported": 0, "slowest": 0.0}


@settings(
    max_examples=CASES,
    deadline=None,  # timed below, per command: 2 s
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,  # the same cases every run: a red CI is reproducible
)
@given(data=damaged())
def test_a_damaged_file_is_standings_or_a_located_error(data: bytes, tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("fuzz")
    path, db = folder / "damaged.trf", folder / "store.sqlite"
    path.write_bytes(data)
    code, err, took = run("standings", str(path))
    assert code in (0, 2) and took < 2.0, (code, took, err)
    assert code == 0 or err.startswith("livetb: "), err
    code, err, took = run("import", str(path), "--db", str(db))
    assert code in (0, 2) and took < 2.0, (code, took, err)
    assert tournaments(db) == (1 if code == 0 else 0), err  # refused: nothing written
    TALLY["cases"] += 1
    TALLY["refused" if code else "imported"] += 1


def test_zz_report_the_trf_campaign() -> None:
    """The figures for the record (runs after the campaign: pytest keeps file order)."""
    print(f"\nTRF fuzz: {TALLY['cases']:.0f} cases, {TALLY['imported']:.0f} imported, "
          f"{TALLY['refused']:.0f} refused with a located error, 0 tracebacks, slowest "
          f"command {TALLY['slowest']:.2f} s wall")  # fmt: skip
    assert TALLY["cases"] in (0, CASES)  # 0: this test alone was selected
