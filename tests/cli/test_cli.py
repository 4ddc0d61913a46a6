"""The `livetb standings` command: its JSON contract, formats, `--explain`, and that every
user error is a located message with a non-zero exit code, never a traceback."""

from __future__ import annotations

import contextlib
import csv
import io
import json
from pathlib import Path

import pytest

from livetb.cli import main
from tests.trf.test_reader import DEFECTS, TRF16

SWISS = (
    Path(__file__).parent.parent / "data" / "conformance" / "individual-swiss" / "swiss-1005.trf"
)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def example(tmp_path: Path) -> Path:
    path = tmp_path / "example.trf"
    path.write_text(TRF16)
    return path


def test_json_contract(example: Path) -> None:
    """TRF.md section 11: 1-3 1-0, 4-2 =; 2-1 =, 3 HPB, 4 PAB; 1-4 0-1, 2 wins by forfeit."""
    code, out, _ = run(
        "standings", str(example), "--tiebreaks", "PTS,WIN,WON,BH", "--format", "json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["edition"] == "2024"  # start date 2025/03/01
    assert data["after_round"] == 3
    assert data["tiebreaks"] == ["PTS", "WIN", "WON", "BH"]
    rows = {r["start_no"]: r for r in data["standings"]}
    assert [r["start_no"] for r in data["standings"]] == [4, 2, 1, 3]
    assert rows[4] == {
        "rank": 1,
        "start_no": 4,
        "name": "Dogwood, Dina",
        "values": ["2.5", 2, 1, "6.0"],
    }
    assert rows[2]["values"][:3] == ["2.0", 1, 0]
    assert rows[3]["values"][:3] == ["0.5", 0, 0]


def test_as_final_takes_the_last_round_as_draws(example: Path) -> None:
    """FB (2024 9.4) for player 1 with round 3 as the last: 3's H now precedes a pairing
    (1.0), 2's forfeit win and 4's win become draws (1.5, 2.0); BH is 0.5 + 2.0 + 2.5."""
    code, out, _ = run(
        "standings", str(example), "--tiebreaks", "BH,FB", "--as-final", "--format", "json"
    )
    assert code == 0
    rows = {r["start_no"]: r["values"] for r in json.loads(out)["standings"]}
    assert rows[1] == ["5.0", "4.5"]
    _, out, _ = run(
        "standings", str(example), "--tiebreaks", "BH,FB", "--after-round", "2", "--format", "json"
    )
    rows = {r["start_no"]: r["values"] for r in json.loads(out)["standings"]}
    assert rows[1] == ["1.5", "1.5"]  # round 2 of 3 is not the last: FB equals BH


def test_csv_and_table(example: Path) -> None:
    code, out, _ = run("standings", str(example), "--tiebreaks", "PTS,BH/C1", "--format", "csv")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["rank", "start_no", "name", "PTS", "BH/C1"]
    assert rows[1][:4] == ["1", "4", "Dogwood, Dina", "2.5"]
    code, out, _ = run("standings", str(example))
    assert code == 0
    assert "Dogwood, Dina" in out and "BH/C1" in out  # the default FIDE Swiss list


def test_file_list_is_the_default(tmp_path: Path) -> None:
    path = tmp_path / "with212.trf"
    path.write_text(TRF16 + "212 PTS,SB,WIN\n")
    _, out, _ = run("standings", str(path), "--format", "json")
    assert json.loads(out)["tiebreaks"] == ["PTS", "SB", "WIN"]


def test_explain_names_contributions_cuts_and_categories(example: Path) -> None:
    code, out, _ = run("standings", str(example), "--tiebreaks", "BH/C1", "--explain", "3")
    assert code == 0
    assert "round 2: half-point bye, no opponent" in out
    assert "16.2.2" in out or "16.2.4" in out
    assert "BH/C1 = " in out
    assert "cut first: own voluntarily unplayed round" in out


def test_draw_lots_is_explicit_and_reproducible(example: Path) -> None:
    argv = ("standings", str(example), "--tiebreaks", "WON", "--format", "json")
    _, plain, _ = run(*argv)
    ranks = sorted(r["rank"] for r in json.loads(plain)["standings"])
    assert ranks == [1, 1, 3, 3]  # WON 1, 1, 0, 0: shared ranks without lots
    _, first, _ = run(*argv, "--draw-lots", "7")
    _, again, _ = run(*argv, "--draw-lots", "7")
    assert first == again
    assert sorted(r["rank"] for r in json.loads(first)["standings"]) == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("defect", "text", "line", "columns", "fragment"), DEFECTS, ids=[d[0] for d in DEFECTS]
)
def test_malformed_file_exits_with_a_located_error(
    tmp_path: Path,
    defect: str,
    text: str,
    line: int,
    columns: tuple[int, int] | None,
    fragment: str,
) -> None:
    path = tmp_path / f"{defect}.trf"
    path.write_text(text)
    code, out, err = run("standings", str(path))
    assert code == 2
    assert out == ""
    assert f"{path}: line {line}" in err
    assert fragment in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--tiebreaks", "PTS,XYZ"], "unknown tie-break 'XYZ'"),
        (["--tiebreaks", "WIN/C1"], "WIN does not take modifier 'C1'"),
        (["--after-round", "9"], "--after-round 9: the tournament has rounds 0..3"),
        (["--explain", "77"], "--explain 77: no participant"),
        (["--edition", "1999"], "invalid choice"),
    ],
)
def test_bad_arguments_are_reported(example: Path, argv: list[str], message: str) -> None:
    code, _, err = run("standings", str(example), *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_missing_file(tmp_path: Path) -> None:
    code, _, err = run("standings", str(tmp_path / "nope.trf"))
    assert code == 2
    assert "nope.trf: No such file or directory" in err


def test_conformance_file_in_json(tmp_path: Path) -> None:
    """swiss-1005 after round 1: the reference's values for player 1 (see the corpus)."""
    code, out, _ = run(
        "standings",
        str(SWISS),
        "--after-round",
        "1",
        "--unrated-rating",
        "1400",
        "--tiebreaks",
        "PTS,ARO,TPR,PTP,APRO,APPO",
        "--format",
        "json",
    )
    assert code == 0
    row = next(r for r in json.loads(out)["standings"] if r["start_no"] == 1)
    assert row["values"] == ["1.0", 2002, 2802, 2738, 1660, 1660]


def test_a_utf16_byte_order_mark_is_read_or_refused_in_words(example: Path, tmp_path: Path) -> None:
    """`printf '\\xff\\xfe\\n'` was a UnicodeDecodeError traceback."""
    utf16 = tmp_path / "utf16.trf"
    utf16.write_bytes(example.read_text().encode("utf-16"))  # with its BOM
    assert (
        run("standings", str(utf16), "--format", "json")[:2]
        == run("standings", str(example), "--format", "json")[:2]
    )
    broken = tmp_path / "b.trf"
    broken.write_bytes(b"\xff\xfe\n")
    for command in (["standings"], ["import", "--db", str(tmp_path / "s.sqlite")]):
        code, out, err = run(*command, str(broken))
        assert (code, out) == (2, "")
        assert "line 1 (file encoding): found 'a UTF-16 byte-order mark, then invalid" in err
    assert not (tmp_path / "s.sqlite").exists()
