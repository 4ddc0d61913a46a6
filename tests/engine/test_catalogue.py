"""The tie-break catalogue: one record per code (C.07 2024 Art. 5-14; 2023 Art. 4-13; US Chess,
seed 003), and the tables the parser, the ranking and the live standings read from it."""

from __future__ import annotations

import pytest

from livetb.engine.catalogue import ALIASES, TIEBREAKS, tiebreak_of
from livetb.engine.direct_encounter import direct_encounter
from livetb.engine.spec import Spec, parse_spec
from livetb.engine.standings import CATALOGUE
from livetb.engine.team_standings import TEAM_CATALOGUE, TEAM_GROUP
from livetb.errors import TiebreakSpecError

# C.07 2023 Art. 10-12 (2024 Art. 11-13): scores, secondary score, extended SB and DE, boards.
SCORES = {"MPTS", "GPTS", "MPVGP", "SSSC"}
TEAM_ONLY = SCORES | {"EMMSB", "EMGSB", "EGMSB", "EGGSB", "EDE", "BC", "TBR", "BBE"}


def _codes(test: str) -> set[str]:
    return {code for code, tb in TIEBREAKS.items() if getattr(tb, test)}


@pytest.mark.parametrize("code", list(TIEBREAKS))
def test_every_code_parses_to_its_record(code: str) -> None:
    """C.07 2024 Art. 5 acronyms (2023 4.6): each code reads back as itself."""
    tb = TIEBREAKS[code]
    spec = parse_spec(code, teams=True)
    assert spec == Spec(code) and spec.text == code
    assert tiebreak_of(spec) is tb
    if not tb.team_only:
        assert parse_spec(code) == spec


@pytest.mark.parametrize("code", sorted(TEAM_ONLY))
def test_team_tiebreaks_are_for_team_events_only(code: str) -> None:
    """C.07 2023 Art. 11-12 (2024 Art. 12-13): team tie-breaks have no individual reading."""
    assert TIEBREAKS[code].team_only
    with pytest.raises(TiebreakSpecError, match="for team events only"):
        parse_spec(code)


def test_team_only_codes() -> None:
    assert _codes("team_only") == TEAM_ONLY


@pytest.mark.parametrize(("alias", "code"), sorted(ALIASES.items()))
def test_an_alias_is_the_same_tiebreak(alias: str, code: str) -> None:
    """2023 REP is 2024 GE; US Chess's RBT is read as DE, HARK is the Median."""
    assert parse_spec(alias) == Spec(code)
    assert alias not in TIEBREAKS


def test_median_1_cuts_one_at_each_end() -> None:
    """C.07 2024 §14.3 Median-1 (2023 §13.3): the lowest and the highest are cut."""
    spec = parse_spec("BH/M1")
    assert (spec.cut_low, spec.cut_high) == (1, 1)


def test_koya_takes_a_limit_and_no_cut() -> None:
    """C.07 2024 §14.5 (2023 §13.5): KS has the Limit modifier, not Cut-n; nothing else has
    a limit."""
    with pytest.raises(TiebreakSpecError, match="does not take modifier"):
        parse_spec("KS/C1")
    with pytest.raises(TiebreakSpecError, match="only KS takes a limit"):
        parse_spec("BH/L+1")
    assert parse_spec("KS/L+1").ks_steps == 1


def test_modified_median_takes_a_median_and_the_other_reading_but_no_cut() -> None:
    """Seed 003, `us_chess.py`: MM fixes the number dropped at each end (`/M1`) and has the
    other reading of the unplayed-games rule (`/O`); dropping only the lowest is not MM."""
    spec = parse_spec("MM/M1/O")
    assert (spec.cut_low, spec.cut_high, spec.other) == (1, 1, True)
    with pytest.raises(TiebreakSpecError, match="does not take modifier"):
        parse_spec("MM/C1")
    with pytest.raises(TiebreakSpecError, match="no other reading"):
        parse_spec("BH/O")


def test_what_the_picker_offers() -> None:
    """The `/new` picker's modifiers: Cut-1/2 and Median-1/2 (2024 §14.1-14.4), the Koya
    limit moved by a half point (§14.5)."""
    offered = {code: tb.takes.offered for code, tb in TIEBREAKS.items()}
    assert offered["BH"] == ("", "C1", "C2", "M1", "M2")
    assert offered["SB"] == ("", "C1", "C2")
    assert offered["KS"] == ("", "L+1", "L0", "L-1")
    assert offered["MM"] == ("", "M1", "M2")
    assert offered["WIN"] == offered["DE"] == offered["SOLK"] == ("",)


@pytest.mark.parametrize("code", list(TIEBREAKS))
def test_every_offered_modifier_parses(code: str) -> None:
    tb = TIEBREAKS[code]
    for mod in tb.takes.offered[1:]:
        assert parse_spec(f"{code}/{mod}", teams=tb.team_only).text == f"{code}/{mod}"


def test_type_c_reads_the_opponents_results_of_the_round() -> None:
    """C.07 2024 4.3 (2023 4.3): while a round runs, these are read on the closed rounds."""
    individual = _codes("type_c") - TEAM_ONLY
    assert individual == {"BH", "SB", "AOB", "KS", "APRO", "APPO", "MM", "MED", "SOLK", "OCUM"}
    # For teams also the extended Sonneborn-Bergers and SSSC, which reads BH.
    assert _codes("type_c") & TEAM_ONLY == {"EMMSB", "EMGSB", "EGMSB", "EGGSB", "SSSC"}


def test_direct_encounter_is_a_group_tiebreak_where_lower_is_better() -> None:
    """C.07 2024 Art. 6 (2023 5.1), type A: places within the group still tied, 1 the best;
    a result can move anybody's."""
    de = TIEBREAKS["DE"]
    assert de.group and de.lower_is_better and de.types == "A"
    assert de.places is direct_encounter and de.compute is None and de.reach is None
    assert _codes("group") == {"DE", "EDE", "TBR", "BBE"}
    assert _codes("lower_is_better") == _codes("group") | {"BC"}  # 2023 11.1: fewer is better


def test_fore_buchholz_is_the_only_prediction() -> None:
    """C.07 2024 §9.4 (2023 §8.4): FB counts the running round as drawn: predicted."""
    assert _codes("fore") == {"FB"}
    assert not TIEBREAKS["FB"].type_c


def test_reach_of_a_result() -> None:
    """Own results reach the participant; BH and SB the opponents; AOB their opponents too."""
    reach = {code: tb.reach for code, tb in TIEBREAKS.items()}
    assert reach["WIN"] == reach["TPR"] == 0
    assert reach["BH"] == reach["FB"] == reach["SB"] == reach["APRO"] == 1
    assert reach["AOB"] == 2
    assert reach["KS"] is None


def test_the_sums_cache_buchholz_fore_buchholz_and_sonneborn_berger() -> None:
    assert _codes("cached") == {"BH", "FB", "SB"}
    assert TIEBREAKS["FB"].sums == (True, False) and TIEBREAKS["SB"].sums == (False, True)


def test_counts_of_wins_and_scores() -> None:
    """C.07 2024 §7.1, 7.2, 7.4 (2023 §6.1, 6.2, 6.4) count rounds scored as a win."""
    assert _codes("counts_wins") == {"WIN", "WON", "BWG"}
    assert _codes("score") == {"PTS", "MPTS", "GPTS"}


def test_point_types() -> None:
    """C.07 2023 Art. 12 intro: any individual tie-break on MP or GP; the team ones whose
    score is in their name take none."""
    assert parse_spec("BH:GP/C1", teams=True) == Spec("BH", cut_low=1, points="GP")
    assert _codes("own_points") == TEAM_ONLY - {"MPVGP", "EDE", "SSSC"}
    with pytest.raises(TiebreakSpecError, match="takes no point type"):
        parse_spec("EMGSB:MP", teams=True)


def test_the_compute_tables_are_read_from_the_records() -> None:
    assert set(CATALOGUE) == {c for c, tb in TIEBREAKS.items() if tb.compute} - TEAM_ONLY
    assert "DE" not in CATALOGUE and "DE" not in TEAM_CATALOGUE
    assert set(TEAM_GROUP) == _codes("group")
    assert set(TEAM_CATALOGUE) == set(TIEBREAKS) - _codes("group")
