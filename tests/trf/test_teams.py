"""Team TRF files: the matches rebuilt from the board lines, the team headers (352, 362, 192),
malformed team files rejected with a located error, and `livetb standings` on a team file."""

from __future__ import annotations

import contextlib
import io
import json
from decimal import Decimal
from pathlib import Path

import pytest

from livetb.cli import main
from livetb.engine.model import Code
from livetb.errors import TrfError
from livetb.trf import parse_trf
from tests.trf.test_reader import edit, player, team_013, team_310

# Four teams of two boards, one round: Alders-Birches 1½-½ (#1 beats #3, #4 draws #2), and
# Cedars-Dogwoods 2-0 because Dogwoods did not show up (a whole-team forfeit).
# Lines 1-2 header, 3-10 players 1-8, 11-14 the 013 lines.
HEADER = ["012 Team Cup", "092 Team: Swiss-System"]
PLAYERS = [
    player(1, "1.0", "3 w 1"),
    player(2, "0.5", "4 b ="),
    player(3, "0.0", "1 b 0"),
    player(4, "0.5", "2 w ="),
    player(5, "1.0", "7 w +"),
    player(6, "1.0", "8 b +"),
    player(7, "0.0", "5 b -"),
    player(8, "0.0", "6 w -"),
]
TEAMS = [
    team_013("Alders", 1, 2),
    team_013("Birches", 3, 4),
    team_013("Cedars", 5, 6),
    team_013("Dogwoods", 7, 8),
]
CUP = "\r\n".join([*HEADER, *PLAYERS, *TEAMS]) + "\r\n"

D = Decimal


def test_matches_from_the_board_lines() -> None:
    event = parse_trf(CUP).team_event
    assert event is not None
    assert (event.boards, event.primary, [t.number for t in event.teams]) == (2, "MP", [1, 2, 3, 4])
    a, b = event.team(1).match(1), event.team(2).match(1)
    assert (a.code, a.opponent, a.colour, a.mp, a.gp) == (Code.WIN, 2, "w", D(2), D("1.5"))
    assert (b.code, b.opponent, b.colour, b.mp, b.gp) == (Code.LOSS, 1, "b", D(0), D("0.5"))
    c, d = event.team(3).match(1), event.team(4).match(1)  # whole-team forfeit
    forfeits = (Code.FORFEIT_WIN, D(2), D(2), Code.FORFEIT_LOSS, D(0), D(0))
    assert (c.code, c.mp, c.gp, d.code, d.mp, d.gp) == forfeits


def test_310_team_numbers_are_the_start_numbers() -> None:
    teams = [
        team_310(n, name, *members)
        for n, name, members in (
            (4, "A", (1, 2)),
            (3, "B", (3, 4)),
            (2, "C", (5, 6)),
            (1, "D", (7, 8)),
        )
    ]
    event = parse_trf("\r\n".join([*HEADER, *PLAYERS, *teams]) + "\r\n").team_event
    assert event is not None
    assert event.team(4).match(1).opponent == 3


def test_team_headers() -> None:
    """352: the first-named team has Black on board 1; 362: 3/1/0; 192: GP decide."""
    text = edit(CUP, extra=("352 BW", "362 TW 3.0   TD 1.0   TL 0.0", "192 FIDE_TEAM_GP_MP"))
    event = parse_trf(text).team_event
    assert event is not None
    assert event.primary == "GP"
    assert event.match_scoring.win == 3
    assert event.team(1).match(1).mp == 3
    assert event.team(2).match(1).colour == "w"  # Birches' #3 had Black on board 1


@pytest.mark.parametrize(
    ("text", "line", "columns", "fragment"),
    [
        pytest.param(
            # #2 meets #6 of Cedars while #1 meets #3 of Birches: the boards disagree.
            edit(
                CUP,
                ("4 b =", "6 b ="),
                ("2 w =", "8 w ="),
                ("8 b +", "2 w ="),
                ("6 w -", "4 b ="),
                (player(6, "1.0", "2 w ="), player(6, "0.5", "2 w =")),
                (player(8, "0.0", "4 b ="), player(8, "0.5", "4 b =")),
            ),
            4,
            (92, 95),
            "a player of team 2 'Birches', whom team 1 meets in round 1 (#1 on line 3)",
            id="boards-disagree",
        ),
        pytest.param(
            edit(CUP, extra=(team_013("Elms", 9),)),
            15,
            (37, 40),
            "a player in the file",
            id="team-lists-an-unknown-player",
        ),
        pytest.param(
            edit(CUP, (TEAMS[3], team_013("Dogwoods", 7, 8, 1))),
            14,
            (47, 50),
            "#1 is in team 1 'Alders' on line 11",
            id="player-in-two-teams",
        ),
        pytest.param(
            edit(
                CUP,
                (PLAYERS[0], player(1, "1.0", "2 w 1")),
                (PLAYERS[1], player(2, "0.0", "1 b 0")),
                (PLAYERS[2], player(3, "0.0", "4 w =")),
                (PLAYERS[3], player(4, "0.5", "3 b =")),
            ),
            3,
            (92, 95),
            "not a team-mate in team 1",
            id="game-between-team-mates",
        ),
        pytest.param(
            edit(
                CUP,
                (PLAYERS[1], player(2, "0.5", "0000 - H")),
                (PLAYERS[3], player(4, "0.5", "0000 - H")),
            ),
            4,
            (92, 99),
            "no bye: team 1 meets team 2 in round 1",
            id="bye-while-the-team-plays",
        ),
        pytest.param(
            edit(
                CUP,
                (PLAYERS[0], player(1, "1.0", "0000 - U")),
                (PLAYERS[1], player(2, "0.5", "0000 - H")),
                (PLAYERS[2], player(3, "0.0", "0000 - U")),
                (PLAYERS[3], player(4, "1.0", "0000 - U")),
            ),
            4,
            (92, 99),
            "the team's bye, 'U' as #1 on line 3",
            id="byes-disagree",
        ),
        pytest.param(
            edit(CUP, extra=("362 TW 2.0   TQ 1.0",)),
            15,
            (14, 19),
            "a code TW TD TL",
            id="unknown-362-code",
        ),
        pytest.param(edit(CUP, extra=("352 WX",)), 15, (5, 6), "W and B", id="bad-352"),
    ],
)
def test_malformed_team_file_is_rejected(
    text: str, line: int, columns: tuple[int, int], fragment: str
) -> None:
    with pytest.raises(TrfError) as caught:
        parse_trf(text, source="team.trf")
    relevant = [issue for issue in caught.value.issues if fragment in str(issue)]
    assert relevant, str(caught.value)
    assert (relevant[0].line, relevant[0].columns) == (line, columns)
    assert "nothing imported" in str(caught.value)


def test_player_outside_every_team_may_not_play() -> None:
    text = edit(
        CUP,
        (PLAYERS[7], player(8, "0.0", "9 w -")),
        (PLAYERS[5], player(6, "0.0", "0000 - Z")),
        extra=(player(9, "1.0", "8 b +"),),
    )
    with pytest.raises(TrfError) as caught:
        parse_trf(text)
    found = {(i.line, i.where) for i in caught.value.issues}
    assert (10, "001 #8, round 1 opponent") in found
    assert (15, "001 #9, round 1") in found


# --- the CLI on a team file ---------------------------------------------------------------------


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def cup(tmp_path: Path) -> Path:
    path = tmp_path / "cup.trf"
    path.write_text(CUP)
    return path


def test_standings_json_on_a_team_file(cup: Path) -> None:
    code, out, _ = _run("standings", str(cup), "--format", "json", "--tiebreaks", "MPTS,GPTS,BC")
    assert code == 0
    result = json.loads(out)
    assert result["tiebreaks"] == ["MPTS", "GPTS", "BC"]
    rows = [(r["rank"], r["start_no"], r["name"], r["values"]) for r in result["standings"]]
    assert rows == [
        (1, 3, "Cedars", ["2.0", "2.0", "3.0"]),
        (2, 1, "Alders", ["2.0", "1.5", "2.0"]),
        (3, 2, "Birches", ["0.0", "0.5", "1.0"]),
        (4, 4, "Dogwoods", ["0.0", "0.0", "0.0"]),
    ]


def test_explain_shows_match_and_game_points(cup: Path) -> None:
    code, out, _ = _run(
        "standings", str(cup), "--tiebreaks", "MPTS,BH:GP,EMGSB,TBR", "--explain", "1"
    )
    assert code == 0
    match = "round 1: win, vs team 2 (White), 2.0 match points, 1.5 game points (boards 1.0 0.5)"
    assert match in out
    assert "BH:GP = 0.5  (on GP)" in out
    assert "EMGSB = 0.0" in out
    assert "TBR: decided within the tied group" in out


def test_team_codes_need_a_team_file(tmp_path: Path) -> None:
    path = tmp_path / "solo.trf"
    path.write_text("\r\n".join([HEADER[0], *PLAYERS[:4]]) + "\r\n")
    code, _, err = _run("standings", str(path), "--tiebreaks", "PTS,BH:MP")
    assert code == 2
    assert "'BH:MP': a team tie-break, for team events only" in err


# --- TRF-2026 team records: 310, 320, 330, 240, 300 ------------------------------------------
#
# Teams 1-4 of two boards (#1 #2, #3 #4, #5 #6, #7 #8), two rounds.
# R1: 1-2 on the boards, with a 300 line-up: team 1 put #2 on board 1 (#2 w beats #3) and #1 on
#     board 2 (#4 w draws #1); team 3 a PAB (320: 2.0 MP, 1.5 GP), team 4 a half-point bye (240).
# R2: 1-3 forfeited by team 3 (330, no board lines); 2-4 on the boards (#3 w 1-0, #8 w 0-1).
# Lines 1-3 header, 4-11 players 1-8, 12-15 the 310 lines, 16-19 the 320/330/240/300 lines.
TRF26_TEAMS = [
    "012 Team Cup 2026",
    "092 Team: Swiss-System",
    "142 2",
    player(1, "0.5", "4 b =", "0000 - Z"),
    player(2, "1.0", "3 w 1", "0000 - Z"),
    player(3, "1.0", "2 b 0", "7 w 1"),
    player(4, "1.5", "1 w =", "8 b 1"),
    player(5, "0.0", "0000 - Z", "0000 - Z"),
    player(6, "0.0", "0000 - Z", "0000 - Z"),
    player(7, "0.0", "0000 - Z", "3 b 0"),
    player(8, "0.0", "0000 - Z", "4 w 0"),
    team_310(1, "Alders", 1, 2),
    team_310(2, "Birches", 3, 4),
    team_310(3, "Cedars", 5, 6),
    team_310(4, "Dogwoods", 7, 8),
]
PAB_320 = "320  2.0  1.5   3   0"
FORFEIT_330 = "330 +-   2   1   3"
HALF_240 = "240 H   1    4"
LINEUP_300 = "300   1   1   2    2    1"
CUP26 = "\r\n".join([*TRF26_TEAMS, PAB_320, FORFEIT_330, HALF_240, LINEUP_300]) + "\r\n"


def test_trf2026_team_records() -> None:
    result = parse_trf(CUP26)
    assert [w.where for w in result.warnings] == []
    event = result.team_event
    assert event is not None
    a1, b1 = event.team(1).match(1), event.team(2).match(1)
    # 300: #2 on board 1 with White, so team 1 is the white team.
    assert [(b.board, b.player, b.points) for b in a1.boards] == [(1, 2, 1), (2, 1, Decimal("0.5"))]
    assert (a1.code, a1.colour, a1.mp, a1.gp) == (Code.WIN, "w", D(2), D("1.5"))
    assert [(b.board, b.player) for b in b1.boards] == [(1, 3), (2, 4)]
    c1, d1 = event.team(3).match(1), event.team(4).match(1)
    assert (c1.code, c1.mp, c1.gp) == (Code.PAB, D(2), D("1.5"))  # 320's values
    assert (d1.code, d1.mp, d1.gp) == (Code.HALF_BYE, D(1), D(1))  # 240 H: a drawn match
    a2, c2 = event.team(1).match(2), event.team(3).match(2)  # 330 +-
    assert (a2.code, a2.opponent, a2.colour, a2.mp, a2.gp) == (Code.FORFEIT_WIN, 3, "w", D(2), D(2))
    assert (c2.code, c2.opponent, c2.colour, c2.mp, c2.gp) == (
        Code.FORFEIT_LOSS,
        1,
        "b",
        D(0),
        D(0),
    )


def test_without_the_300_line_boards_follow_the_roster() -> None:
    """Team 1's roster order puts #1 (vs #4, who had White) on board 1: team 2 is white."""
    event = parse_trf(edit(CUP26, (LINEUP_300 + "\r\n", ""))).team_event
    assert event is not None
    assert event.team(1).match(1).colour == "b"
    assert [b.player for b in event.team(1).match(1).boards] == [1, 2]


@pytest.mark.parametrize(
    ("change", "line", "fragment"),
    [
        pytest.param(
            (PAB_320, "320  2.0  1.5   1   0"),
            16,
            "a round team 1 did not play (#1 plays, line 4)",
            id="320-pab-for-a-team-that-played",
        ),
        pytest.param(
            (FORFEIT_330, "330 +-   1   1   2"),
            17,
            "the result the board lines show (#1 '4 b =' on line 4)",
            id="330-disagrees-with-the-boards",
        ),
        pytest.param(
            (LINEUP_300, "300   1   1   2    2    5"),
            19,
            "a player of team 1 'Alders'",
            id="300-seats-another-team's-player",
        ),
        pytest.param(
            (HALF_240, "240 H   1    3"),
            18,
            "one team-level record per team and round",
            id="team-round-stated-twice",
        ),
        pytest.param(
            (FORFEIT_330, "330 +-   2   1   9"), 17, "a team number", id="330-unknown-team"
        ),
    ],
)
def test_malformed_trf2026_team_record(change: tuple[str, str], line: int, fragment: str) -> None:
    with pytest.raises(TrfError) as caught:
        parse_trf(edit(CUP26, change))
    relevant = [issue for issue in caught.value.issues if fragment in str(issue)]
    assert relevant, str(caught.value)
    assert relevant[0].line == line


def test_team_records_in_an_individual_file_are_skipped() -> None:
    text = "\r\n".join([HEADER[0], *PLAYERS[:4], FORFEIT_330]) + "\r\n"
    assert [(w.line, w.where) for w in parse_trf(text).warnings] == [(6, "330 record")]
