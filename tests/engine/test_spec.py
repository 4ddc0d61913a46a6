"""Tie-break codes and modifiers (C.07 2024 Art. 5 acronyms, Art. 14 modifiers; 2023 §4.6, 13)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from livetb.engine.spec import Spec, parse_list, parse_spec
from livetb.errors import TiebreakSpecError


@pytest.mark.parametrize("text", ["BH/C1", "BHC1", "BH-C1", "bh/c1", " BH/C1 "])
def test_cut_notations(text: str) -> None:
    """C.07 2024 §14.1 Cut-1 (2023 §13.1): reference notation and C.07 acronyms agree."""
    assert parse_spec(text) == Spec("BH", cut_low=1)
    assert parse_spec(text).text == "BH/C1"


def test_aro_cut_acronym() -> None:
    """C.07 2024 §9.1 + §14.1 AROC1 (2023 §8.1 + §13.1)."""
    assert parse_spec("AROC1") == Spec("ARO", cut_low=1)


def test_median() -> None:
    """C.07 2024 §14.4 Median-2 (2023 §13.4): two cut at each end."""
    spec = parse_spec("BH/M2")
    assert spec == Spec("BH", cut_low=2, cut_high=2)
    assert spec.text == "BH/M2"


def test_koya_limit() -> None:
    """C.07 2024 §14.5 KS limit (2023 §13.5): each step moves the limit by half a point."""
    assert parse_spec("KS/L+1") == Spec("KS", ks_steps=1)
    assert parse_spec("KS/L-1") == Spec("KS", ks_steps=-1)
    assert parse_spec("KS/L+1").text == "KS/L+1"
    assert parse_spec("KS/L60") == Spec("KS", ks_percent=Decimal(60))
    assert parse_spec("KS") == Spec("KS", ks_percent=Decimal(50), ks_steps=0)


def test_aliases() -> None:
    """C.07 2024 §7.6 GE (2023 §6.6 REP): REP is read as GE."""
    assert parse_spec("REP") == Spec("GE")
    assert parse_spec("APRO") == Spec("APRO")  # not ARO + "P..."


def test_parse_list() -> None:
    """C.07 2024 §4.1 (2023 §4.1): an ordered list of tie-breaks."""
    assert parse_list("PTS, BH/C1 ,BH,REP,") == (
        Spec("PTS"),
        Spec("BH", cut_low=1),
        Spec("BH"),
        Spec("GE"),
    )
    assert parse_list(["DE", "SB"]) == (Spec("DE"), Spec("SB"))


@pytest.mark.parametrize(
    "text",
    [
        "",  # empty
        "XYZ",  # unknown code
        "BH/Q1",  # unknown modifier
        "BH/C",  # cut without a number
        "WIN/C1",  # WIN takes no cut
        "KS/C1",  # KS takes no cut
        "PS/M1",  # PS takes Cut-1 only, no median
        "BH/L+1",  # only KS takes a limit
    ],
)
def test_errors(text: str) -> None:
    """C.07 2024 Art. 5 and 14 (2023 §4.6, 13): unknown codes and misplaced modifiers."""
    with pytest.raises(TiebreakSpecError):
        parse_spec(text)
