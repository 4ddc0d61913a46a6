"""Team competitions (C.07 2023 Art. 10-12 and 13.1.2; 2024 Art. 11-13): match and game points,
team byes and forfeits, and every team tie-break, each value computed by hand below.

Every event here has 2 boards; games 1 / ½ / 0, matches 2 / 1 / 0. Results are written from
the first-named (white) team's side, board by board; board 1's white player is that team's.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from livetb.engine.editions import Edition
from livetb.engine.model import Code
from livetb.engine.spec import parse_list, parse_spec
from livetb.engine.team_boards import (
    board_count,
    board_points,
    bottom_board_elimination,
    top_board_results,
)
from livetb.engine.team_context import TeamView, primary_from_list
from livetb.engine.team_encounter import extended_direct_encounter
from livetb.engine.team_scores import event_factor
from livetb.engine.team_standings import compute_team, rank_teams
from livetb.engine.teams import MatchScoring
from livetb.errors import TiebreakSpecError
from tests.team_builders import TeamEventBuilder, match, team_bye, team_round_robin, team_swiss

D = Decimal
TEAMS = "ABCDE"


# Swiss, 3 rounds, 5 teams of 2 boards.  "+ +" = D did not show up (whole-team forfeit);
# "+ 1" = board 1 won by forfeit, board 2 over the board; PAB = pairing-allocated team bye.
#
#        R1                 R2                 R3                  MP   GP
#  A(1)  w B 1 =   1½-½     b E  ½ 1  1½-½     w D + +   2-0 (ff)   6    5
#  B(2)  b A 0 =    ½-1½    w D  + 1  2-0      PAB       (2 GP)     3    4½
#  C(3)  w D = =   1-1      PAB      (2 GP)    w E 1 =   1½-½       4    4½
#  D(4)  b C = =   1-1      b B  - 0  0-2      b A - -   0-2 (ff)   1    1
#  E(5)  PAB      (2 GP)    w A  = 0  ½-1½     b C 0 =   ½-1½       1    3
def _event() -> TeamEventBuilder:
    t = team_swiss(rounds=3, teams=TEAMS, boards=2)
    t.round(1, match("A", "B", "1 ="), match("C", "D", "= ="), team_bye("E"))
    t.round(2, match("E", "A", "= 0"), match("B", "D", "+ 1"), team_bye("C"))
    t.round(3, match("A", "D", "+ +"), match("C", "E", "1 ="), team_bye("B"))
    return t


def _values(view: TeamView, code: str) -> dict[str, object]:
    spec = parse_spec(code, teams=True)
    return {team: compute_team(view, spec, no).value for no, team in enumerate(TEAMS, start=1)}


def test_matches_are_rebuilt_from_the_boards() -> None:
    """2023 Art. 10: GP = the boards' sum; MP from comparing GP; colours from board 1."""
    event = _event().event()
    a1 = event.team(1).match(1)
    assert (a1.code, a1.opponent, a1.colour, a1.mp, a1.gp) == (Code.WIN, 2, "w", D(2), D("1.5"))
    assert [b.points for b in a1.boards] == [1, D("0.5")]
    assert [b.colour for b in a1.boards] == ["w", "b"]
    b1 = event.team(2).match(1)
    assert (b1.code, b1.colour, b1.mp, b1.gp) == (Code.LOSS, "b", D(0), D("0.5"))


def test_team_pab_is_a_drawn_match_and_a_win_on_every_board() -> None:
    """The reference's convention: 1 MP, and every board a win for GP."""
    e1 = _event().event().team(5).match(1)
    assert (e1.code, e1.opponent, e1.mp, e1.gp) == (Code.PAB, None, D(1), D(2))
    assert [b.points for b in e1.boards] == [1, 1]


def test_board_forfeit_counts_as_a_won_board_of_a_played_match() -> None:
    """B-D round 2: board 1 won by forfeit, board 2 over the board: a played 2-0 win."""
    event = _event().event()
    b2, d2 = event.team(2).match(2), event.team(4).match(2)
    assert (b2.code, b2.mp, b2.gp) == (Code.WIN, D(2), D(2))
    assert [b.code for b in b2.boards] == [Code.FORFEIT_WIN, Code.WIN]
    assert (d2.code, d2.mp, d2.gp) == (Code.LOSS, D(0), D(0))


def test_whole_team_forfeit_is_an_unplayed_round() -> None:
    """A-D round 3, no board played: a forfeit win for A, a voluntary forfeit loss for D."""
    view = _event().view()
    a3, d3 = view.event.team(1).match(3), view.event.team(4).match(3)
    assert (a3.code, a3.mp, a3.gp) == (Code.FORFEIT_WIN, D(2), D(2))
    assert (d3.code, d3.mp, d3.gp) == (Code.FORFEIT_LOSS, D(0), D(0))
    mp = view.context("MP")
    assert mp.category(1, mp.rounds(1)[2]) == 1  # 2024 16.2.1: forfeit win
    assert mp.category(4, mp.rounds(4)[2]) == 5  # 16.2.5: forfeit loss, nothing after


def test_match_and_game_points() -> None:
    view = _event().view()
    assert _values(view, "MPTS") == {"A": 6, "B": 3, "C": 4, "D": 1, "E": 1}
    assert _values(view, "GPTS") == {"A": 5, "B": D("4.5"), "C": D("4.5"), "D": 1, "E": 3}
    assert _values(view, "PTS") == _values(view, "MPTS")  # the primary score


def test_mpvgp_is_the_secondary_score() -> None:
    """2023 12.1: GP when MP decide, MP when GP decide."""
    assert _values(_event().view(), "MPVGP") == _values(_event().view(), "GPTS")
    by_gp = _event().view(primary="GP")
    assert _values(by_gp, "MPVGP") == {"A": 6, "B": 3, "C": 4, "D": 1, "E": 1}


def test_buchholz_on_match_points_2024() -> None:
    """BH:MP, 2024 8.1 + 16: an own unplayed round (PAB, forfeit win) counts the team's own
    MP; D's final forfeit loss stays a loss for its opponents (adjusted MP = 1).
    A: B 3 + E 1 + own 6 = 10; B: A 6 + D 1 + own 3 = 10; C: D 1 + own 4 + E 1 = 6;
    D: C 4 + B 3 + own 1 = 8; E: own 1 + A 6 + C 4 = 11."""
    assert _values(_event().view(), "BH:MP") == {"A": 10, "B": 10, "C": 6, "D": 8, "E": 11}


def test_buchholz_on_match_points_2023() -> None:
    """2023 14.3.5: D's final forfeit loss is a draw for its opponents: adjusted MP 2.
    B: A 6 + D 2 + own 3 = 11; C: D 2 + own 4 + E 1 = 7."""
    view = _event().view(edition=Edition.FIDE_2023)
    assert _values(view, "BH:MP") == {"A": 10, "B": 11, "C": 7, "D": 8, "E": 11}


def test_buchholz_on_match_points_2026_caps_own_rounds() -> None:
    """2026 16.4: A's forfeit win is capped at D's adjusted 1 MP (A: 3 + 1 + 1 = 5); C's PAB
    at rounds x a drawn match = 3 (C: 1 + 3 + 1 = 5)."""
    view = _event().view(edition=Edition.FIDE_2026)
    assert _values(view, "BH:MP") == {"A": 5, "B": 10, "C": 5, "D": 8, "E": 11}


def test_buchholz_cut_1_drops_the_forfeit_loss_first() -> None:
    """BH:MP/C1, 2024 14.1 + 16.5: D's own forfeit loss (1) goes before its opponents."""
    assert _values(_event().view(), "BH:MP/C1") == {"A": 9, "B": 9, "C": 5, "D": 7, "E": 10}


def test_buchholz_on_game_points() -> None:
    """BH:GP: A: B 4½ + E 3 + own 5 = 12½; B: A 5 + D 1 + own 4½ = 10½;
    C: D 1 + own 4½ + E 3 = 8½; D: C 4½ + B 4½ + own 1 = 10; E: own 3 + A 5 + C 4½ = 12½."""
    assert _values(_event().view(), "BH:GP") == {
        "A": D("12.5"),
        "B": D("10.5"),
        "C": D("8.5"),
        "D": 10,
        "E": D("12.5"),
    }


def test_plain_bh_reads_the_primary_score() -> None:
    by_gp = _event().view(primary="GP")
    assert _values(by_gp, "BH") == _values(by_gp, "BH:GP")
    assert _values(_event().view(), "BH") == _values(_event().view(), "BH:MP")


def test_fore_buchholz_on_match_points() -> None:
    """FB:MP, 2024 9.4: the final round's pairings count as drawn matches. A: B 3 (PAB
    counts as awarded) + E 2 (½ drawn match in R3) + D 2 (forfeit taken as a draw) = 7."""
    assert _values(_event().view(), "FB:MP")["A"] == 7


def test_progressive_scores_and_wins_on_match_points() -> None:
    """PS:MP (2024 7.5) and WIN (7.1: matches scored as a win, a forfeit win included)."""
    view = _event().view()
    assert _values(view, "PS:MP") == {"A": 12, "B": 5, "C": 7, "D": 3, "E": 3}
    assert _values(view, "WIN") == {"A": 3, "B": 1, "C": 1, "D": 0, "E": 0}


def test_wins_on_game_points_count_boards() -> None:
    """WIN:GP: boards scored as a win (A: R1 b1, R2 b2, R3 two forfeits = 4); WON:GP: won
    over the board (2)."""
    view = _event().view()
    assert _values(view, "WIN:GP")["A"] == 4
    assert _values(view, "WON:GP")["A"] == 2


def test_koya_on_match_points() -> None:
    """KS:MP, 2024 10.2: limit 50 % of 3 x 2 MP = 3; A scored 2 MP against B (3)."""
    assert _values(_event().view(), "KS:MP")["A"] == 2


def test_extended_sonneborn_berger() -> None:
    """2023 12.2: opponent's MP or GP x MP or GP scored against it; own unplayed rounds count
    the team's own score, as in SB.
    EMGSB A: B 3 x 1½ + E 1 x 1½ + own 6 x 2 = 18;  B: A 6 x ½ + D 1 x 2 + own 3 x 2 = 11;
    C: D 1 x 1 + own 4 x 2 + E 1 x 1½ = 10½;  D: C 4 x 1 + B 3 x 0 + own 1 x 0 = 4;
    E: own 1 x 2 + A 6 x ½ + C 4 x ½ = 7."""
    view = _event().view()
    assert _values(view, "EMGSB") == {"A": 18, "B": 11, "C": D("10.5"), "D": 4, "E": 7}
    # EMMSB A: 3 x 2 + 1 x 2 + 6 x 2; EGMSB A: 4½ x 2 + 3 x 2 + 5 x 2; EGGSB A: 4½ x 1½ + 3 x 1½
    # + 5 x 2.  B: EMMSB 6 x 0 + 1 x 2 + 3 x 1.
    assert _values(view, "EMMSB")["A"] == 20
    assert _values(view, "EMMSB")["B"] == 5
    assert _values(view, "EGMSB")["A"] == 25
    assert _values(view, "EGGSB")["A"] == D("21.25")


def test_extended_sonneborn_berger_cut_1() -> None:
    """2023 13.1.2: drop the opponent with the lowest MP (EMGSB), among equals the worst
    result; D's own voluntary forfeit loss goes first (2024 16.5).
    A drops E (1, 1½): 16½; B drops D (1, 2): 9; C drops D (1, 1) before E (1, 1½): 9½;
    D drops its own forfeit loss: 4; E drops its own PAB (1, 2): 5."""
    view = _event().view()
    assert _values(view, "EMGSB/C1") == {"A": D("16.5"), "B": 9, "C": D("9.5"), "D": 4, "E": 5}


def test_sssc() -> None:
    """2023 12.4: GP + BH:MP / floor(2 MP x 3 rounds / 2 GP per round = 3), to 0.01."""
    view = _event().view()
    assert event_factor(view, parse_spec("SSSC", teams=True)) == 3
    assert _values(view, "SSSC") == {
        "A": D("8.33"),
        "B": D("7.83"),
        "C": D("6.50"),
        "D": D("3.67"),
        "E": D("6.67"),
    }


def test_sssc_is_undefined_while_the_factor_is_zero() -> None:
    """After round 1 of 2 boards the factor is floor(2 / 2) = 1; of 4 boards 0: null."""
    t = team_swiss(rounds=2, teams="AB", boards=4)
    t.round(1, match("A", "B", "1 1 0 ="))
    assert compute_team(t.view(upto=1), parse_spec("SSSC", teams=True), 1).value is None


def test_board_count() -> None:
    """BC, 2023 11.1, lower is better: A: R1 1x1 + 2x½, R2 1x½ + 2x1, R3 (forfeit wins)
    1 + 2 = 7½; B: 1 + 3 + PAB 3 = 7; E: PAB 3 + ½ + 2x½ = 4½."""
    view = _event().view()
    assert _values(view, "BC") == {
        "A": D("7.5"),
        "B": 7,
        "C": D("6.5"),
        "D": D("1.5"),
        "E": D("4.5"),
    }
    assert board_points(view, 1) == [D("2.5"), D("2.5")]
    assert [p.amount for p in board_count(view, parse_spec("BC", teams=True), 1).parts] == [
        2,
        D("2.5"),
        3,
    ]


# --- TBR and BBE: X and Y tie on MP, GP and BC, and the two tie-breaks disagree -------------
#
#        R1                R2               boards 1-2-3   MP  GP  BC
#  X(1)  w P 1 0 1   2-1   w Q 1 0 1  2-1   2  0  2        4   4   8
#  Y(2)  w Q = 1 =   2-1   w P = 1 =  2-1   1  2  1        4   4   8
#  P(3)  b X, b Y          0 + 2             ½  1  ½        0   2
#  Q(4)  b Y, b X          0 + 2             ½  1  ½        0   2
def _boards_event() -> TeamView:
    t = team_swiss(rounds=2, teams="XYPQ", boards=3)
    t.round(1, match("X", "P", "1 0 1"), match("Y", "Q", "= 1 ="))
    t.round(2, match("X", "Q", "1 0 1"), match("Y", "P", "= 1 ="))
    return t.view()


def test_top_board_results() -> None:
    """TBR, 2023 11.2: X has 2 on board 1 against Y's 1."""
    view = _boards_event()
    assert top_board_results(view, parse_spec("TBR", teams=True), [1, 2]) == {1: 1, 2: 2}
    standings = rank_teams(view, parse_list("MPTS,GPTS,BC,TBR", teams=True))
    assert [(r.start_no, r.rank, r.values[-1]) for r in standings.rows] == [
        (1, 1, 1),
        (2, 2, 2),
        (3, 3, 0),  # P and Q stay tied: 0 = the group was not split
        (4, 3, 0),
    ]


def test_bottom_board_elimination() -> None:
    """BBE, 2023 11.3: without board 3, Y has 3 against X's 2."""
    view = _boards_event()
    assert bottom_board_elimination(view, parse_spec("BBE", teams=True), [1, 2]) == {2: 1, 1: 2}
    standings = rank_teams(view, parse_list("MPTS,GPTS,BC,BBE", teams=True))
    assert [(r.start_no, r.rank) for r in standings.rows] == [(2, 1), (1, 2), (3, 3), (4, 3)]


# --- EDE: a round robin of three teams tied on MP, separated by GP among themselves ---------
#
#        R1              R2              R3              MP  GP
#  A(1)  w B 1 =  1½-½   rest            b C 1 = ½-1½    2   2
#  B(2)  b A  ½-1½       w C 1 1  2-0    rest            2   2½
#  C(3)  rest            b B  0-2        w A 1 =  1½-½   2   1½
def _cycle() -> TeamView:
    t = team_round_robin(rounds=3, teams="ABC", boards=2)
    t.round(1, match("A", "B", "1 ="))
    t.round(2, match("B", "C", "1 1"))
    t.round(3, match("C", "A", "1 ="))
    return t.view()


def test_extended_direct_encounter() -> None:
    """2023 12.3: DE on MP leaves all three tied (2 each); on GP among them B 2½, A 2, C 1½."""
    view = _cycle()
    assert extended_direct_encounter(view, parse_spec("EDE", teams=True), [1, 2, 3]) == {
        2: 1,
        1: 2,
        3: 3,
    }
    plain = rank_teams(view, parse_list("MPTS,DE", teams=True))
    assert [r.rank for r in plain.rows] == [1, 1, 1]
    assert [r.values[1] for r in plain.rows] == [0, 0, 0]
    ede = rank_teams(view, parse_list("MPTS,EDE", teams=True))
    assert [(r.start_no, r.rank, r.values[1]) for r in ede.rows] == [
        (2, 1, 1),
        (1, 2, 2),
        (3, 3, 3),
    ]


def test_extended_direct_encounter_on_game_points_first() -> None:
    """EDE:GP: primary GP separates at once; the order is the same here."""
    view = _cycle()
    assert extended_direct_encounter(view, parse_spec("EDE:GP", teams=True), [1, 2, 3]) == {
        2: 1,
        1: 2,
        3: 3,
    }


def test_swiss_teams_that_did_not_meet_stay_tied_under_ede() -> None:
    """D and E (1 MP each) never met: nobody is bound to be ahead, on MP or on GP."""
    view = _event().view()
    assert extended_direct_encounter(view, parse_spec("EDE", teams=True), [4, 5]) == {4: 1, 5: 1}


# --- a team that withdraws ---------------------------------------------------------------------
#
#        R1                 R2                R3                 MP  GP
#  A(1)  w B 1 1   2-0      w C = =  1-1      PAB     (2 GP)     4   5
#  B(2)  b A       0-2      PAB     (2 GP)    w C 1 0  1-1       2   3
#  C(3)  w D = =   1-1      b A      1-1      b B      1-1       3   3
#  D(4)  b C       1-1      withdrawn         withdrawn          1   1
def _withdrawal() -> TeamView:
    t = team_swiss(rounds=3, teams="ABCD", boards=2)
    t.round(1, match("A", "B", "1 1"), match("C", "D", "= ="))
    t.round(2, match("A", "C", "= ="), team_bye("B"))
    t.round(3, match("B", "C", "1 0"), team_bye("A"))
    return t.view()


def test_withdrawn_team_counts_draws_for_its_opponents() -> None:
    """2024 16.2.4 / 16.3.2: after D withdraws, its rounds are drawn matches for its opponents
    (MP 1 + 1 + 1 = 3; GP 1 + 1 + 1 = 3, a drawn round being ½ on both boards).
    C: BH:MP = D 3 + A 4 + B 2 = 9; BH:GP = D 3 + A 5 + B 3 = 11."""
    view = _withdrawal()
    assert view.context("MP").adjusted(4) == 3
    assert view.context("GP").adjusted(4) == 3
    mp = view.context("MP")
    assert [mp.category(4, r) for r in mp.rounds(4)] == [None, 4, 4]
    assert compute_team(view, parse_spec("BH:MP", teams=True), 3).value == 9
    assert compute_team(view, parse_spec("BH:GP", teams=True), 3).value == 11


def test_withdrawn_team_cuts_its_own_absences_first() -> None:
    """D: BH:MP = C 3 + own 1 + own 1 = 5; Cut-1 drops one of its absences: 4."""
    view = _withdrawal()
    assert compute_team(view, parse_spec("BH:MP", teams=True), 4).value == 5
    assert compute_team(view, parse_spec("BH:MP/C1", teams=True), 4).value == 4


# --- line-ups, the primary score, scoring ------------------------------------------------------


def test_reserve_plays_on_the_board_of_its_roster_order() -> None:
    """A's players 1, 2, 4 play (3 is out): boards 1-3 are A1, A2, A4."""
    t = team_swiss(rounds=1, teams="AB", boards=3, reserves=1)
    t.round(1, match("A", "B", "1 0 =", players=((1, 2, 4), (1, 2, 3))))
    a = t.event().team(1).match(1)
    assert [b.player for b in a.boards] == [1, 2, 4]
    assert a.gp == D("1.5")


def test_primary_score_comes_from_the_list() -> None:
    """The first score of the list is the primary one, as the FIDE reference reads it."""
    assert primary_from_list(parse_list("GPTS,MPTS,BH", teams=True), "MP") == "GP"
    assert primary_from_list(parse_list("MPTS,GPTS", teams=True), "GP") == "MP"
    assert primary_from_list(parse_list("PTS:GP,BH", teams=True), "MP") == "GP"
    assert primary_from_list(parse_list("BH,SB", teams=True), "GP") == "GP"


@pytest.mark.parametrize(("win", "expected"), [(D(2), 6), (D(3), 9)])
def test_match_points_are_configurable(win: Decimal, expected: int) -> None:
    """3/1/0 match points (TRF 362): A's three wins are worth 9."""
    event = _event().event(match_scoring=MatchScoring(win=win))
    view = TeamView(event, 3, edition=Edition.FIDE_2024)
    assert compute_team(view, parse_spec("MPTS", teams=True), 1).value == expected


# --- team codes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["BH:MP/C1", "PS:MP", "EMGSB/C1", "MPVGP", "SSSC", "FB:MP"])
def test_team_codes_round_trip(text: str) -> None:
    """The reference's notation `NAME[:POINTS][/MODIFIER]` reads back as written."""
    assert parse_spec(text, teams=True).text == text


@pytest.mark.parametrize("text", ["EMMSB", "BH:GP", "EDE", "BC"])
def test_team_codes_are_refused_for_individual_events(text: str) -> None:
    with pytest.raises(TiebreakSpecError, match="for team events only"):
        parse_spec(text)


@pytest.mark.parametrize("text", ["BH:XP", "MPTS:GP", "EGGSB:MP", "BC/C1", "TBR/C1"])
def test_malformed_team_codes(text: str) -> None:
    with pytest.raises(TiebreakSpecError):
        parse_spec(text, teams=True)
