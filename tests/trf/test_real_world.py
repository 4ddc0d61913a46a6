"""TRF files of the shapes real exporters write, as small files of our own:
a round paired but not played, points left at 0.0 or blank, dates in local formats; and every
refusal says what it found and what it expected."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from livetb.cli import main
from livetb.engine.model import Code
from livetb.errors import TrfError
from livetb.events.sqlite import SqliteStore
from livetb.trf import parse_trf
from tests.trf.test_reader import HEADER, player


def trf(*lines: str, date: str = "2025/03/01") -> str:
    header = [line if not line.startswith("042") else f"042 {date}" for line in HEADER]
    return "\n".join([*header, *lines]) + "\n"


# Round 3 paired, one game finished (1 beat 3), one still running (2 v 4): the mid-round export.
MID_ROUND = trf(
    player(1, "3.0", "2 w 1", "4 b 1", "3 w 1"),
    player(2, "1.0", "1 b 0", "3 w 1", "4 b  "),
    player(3, "0.0", "4 w 0", "2 b 0", "1 b 0"),
    player(4, "1.0", "3 b 1", "1 w 0", "2 w  "),
)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, text: str, name: str = "t.trf") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_paired_round_without_results_is_the_running_round() -> None:
    t = parse_trf(MID_ROUND).tournament
    by_no = {p.start_no: p for p in t.participants}
    assert by_no[2].entries[2].code is Code.PENDING and by_no[2].entries[2].opponent == 4
    assert by_no[1].entries[2].code is Code.WIN
    assert t.played_rounds == 3


def test_standings_of_a_mid_round_file_show_the_running_round_live(tmp_path: Path) -> None:
    path = write(tmp_path, MID_ROUND)
    code, out, err = run("standings", str(path), "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert (doc["after_round"], doc["round_in_progress"]) == (2, 3)
    rows = {r["start_no"]: r for r in doc["standings"]}
    # round 3's finished game counts (1 beat 3), the running one (2 v 4) does not yet
    assert [rows[no]["values"][0] for no in (1, 2, 3, 4)] == ["3.0", "1.0", "0.0", "1.0"]
    assert all(row["fb_prediction"] is not None for row in doc["standings"])
    # a round before the running one is computed as from any file; the running one refused
    code, out, err = run("standings", str(path), "--after-round", "2", "--format", "json")
    assert code == 0 and json.loads(out)["after_round"] == 2
    assert [r["values"][0] for r in json.loads(out)["standings"]] == ["2.0", "1.0", "1.0", "0.0"]
    code, _, err = run("standings", str(path), "--after-round", "3")
    assert code == 2
    assert "--after-round 3: round 3 is still being played (1 game without a result)" in err
    code, out, err = run("standings", str(path), "--explain", "1")
    assert code == 0 and "this table is after round 2" in err


def test_import_of_a_mid_round_file_leaves_the_round_running(tmp_path: Path) -> None:
    db = tmp_path / "events.sqlite"
    code, out, err = run("import", str(write(tmp_path, MID_ROUND)), "--db", str(db))
    assert code == 0, err
    tid = out.strip()
    with SqliteStore(str(db)) as store:
        kinds = [type(rec.event).__name__ for rec in store.read(tid)]
    assert kinds.count("RoundPaired") == 3 and kinds.count("RoundClosed") == 2
    assert kinds[-2:] == ["RoundPaired", "ResultRecorded"]  # round 3: one result of two
    code, out, _ = run("standings", "--db", str(db), "--format", "json")
    doc = json.loads(out)
    assert (doc["after_round"], doc["round_in_progress"]) == (2, 3)
    # the running round's Fore-Buchholz prediction is on every row
    assert all(row["fb_prediction"] is not None for row in doc["standings"])
    # a table computed from the log stops before the running round, as from the file
    flags = ("--tiebreaks", "PTS,BH", "--format", "json")
    code, out, err = run("standings", "--db", str(db), *flags)
    assert code == 0 and "round 3 is being played" in err
    assert out == run("standings", str(tmp_path / "t.trf"), "--after-round", "2", *flags)[1]
    code, _, err = run("standings", "--db", str(db), "--after-round", "3", "--tiebreaks", "BH")
    assert code == 2 and "round 3 is still being played" in err


def test_a_blank_result_before_the_last_round_says_what_it_is() -> None:
    text = trf(
        player(1, "1.0", "2 w  ", "3 b 1"),
        player(2, "1.0", "1 b  ", "4 w 1"),
        player(3, "0.0", "4 w 1", "1 w 0"),
        player(4, "1.0", "3 b 0", "2 b 0"),
    )
    with pytest.raises(TrfError) as exc:
        parse_trf(text)
    message = str(exc.value)
    assert "found '2 w (a game paired in round 1, no result)'" in message
    assert "read only in round 2, the last round paired" in message
    assert "bye code" not in message


def test_points_left_at_zero_for_everyone_warn_and_score_from_the_results() -> None:
    text = trf(
        player(1, "0.0", "2 w 1", "3 b 1"),
        player(
            2,
            "0.0",
            "1 b 0",
            "4 w =",
        ),
        player(3, "0.0", "4 w 1", "1 w 0"),
        player(4, "0.0", "3 b 0", "2 b ="),
    )
    result = parse_trf(text)
    (warning,) = result.warnings
    assert str(warning).endswith(
        "found '0.0 or blank for every player'; expected each player's points; "
        "the scores are computed from the results"
    )
    blank = parse_trf(text.replace(" 0.0 ", "     "))
    assert "found 'blank for every player'" in str(blank.warnings[0])


def test_points_right_for_some_and_wrong_for_others_are_refused() -> None:
    text = trf(
        player(1, "2.0", "2 w 1", "3 b 1"),
        player(2, "0.0", "1 b 0", "4 w ="),
        player(3, "1.0", "4 w 1", "1 w 0"),
        player(4, "0.0", "3 b 0", "2 b ="),
    )
    with pytest.raises(TrfError) as exc:
        parse_trf(text)
    assert "found '0.0'; expected 0.5, the sum of the results" in str(exc.value)


@pytest.mark.parametrize(
    ("text", "edition"),
    [
        ("2020/05/29", "legacy"),
        ("29.07.2005", "legacy"),
        ("28. 07. 2005", "legacy"),
        ("24/09/2010", "legacy"),
        ("May 29, 2020", "legacy"),
        ("2023/08/15", "2023"),
        ("15.08.2023", "2023"),
        ("Aug 15, 2023", "2023"),
        ("15/09/2024", "2024"),
        ("02.03.2026", "2026"),
    ],
)
def test_start_dates_as_exporters_write_them_give_the_edition(
    tmp_path: Path, text: str, edition: str
) -> None:
    body = trf(
        player(1, "1.0", "2 w 1"),
        player(2, "0.0", "1 b 0"),
        date=text,
    )
    code, out, err = run("standings", str(write(tmp_path, body)), "--format", "json")
    assert code == 0 and err == "", err
    assert json.loads(out)["edition"] == edition


def test_a_240_bye_for_a_later_round_is_kept_and_one_in_the_file_is_checked() -> None:
    lines = (
        player(1, "1.0", "2 w 1", "0000 - Z"),
        player(2, "0.0", "1 b 0"),  # the line ends after round 1: round 2 is blank (Z)
    )
    # Round 2 holds no pairing: #1's written absence and the 240 lines are announced for it
    # (TRF.md 4.8), and #2's blank block there means "to be paired", so the 240 H says more.
    announced = parse_trf(trf(*lines, "240 H   3    2", "240 H   2    2")).announced_byes
    assert announced == ((2, 1, Code.ZERO_BYE), (2, 2, Code.HALF_BYE), (3, 2, Code.HALF_BYE))
    with pytest.raises(TrfError) as exc:
        parse_trf(trf(*lines, "240 H   1    2"))
    assert "found 'H for #2 in round 1'" in str(exc.value)
    assert "bye score disagrees" in str(exc.value)
    with pytest.raises(TrfError) as exc:  # a written block must agree with the 240 line
        parse_trf(trf(*lines, "240 H   2    1"))
    assert "found 'H for #1 in round 2'" in str(exc.value)
