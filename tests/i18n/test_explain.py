"""Explanations are data that the catalogs put into words: every kind of tie-break part, every
cut reason and every outcome has its message in each language, and `livetb standings --explain
N --lang it` prints no English line."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Any, get_args

import msgspec
import pytest

import livetb
from livetb import i18n
from livetb.cli import main
from livetb.engine.model import Code
from livetb.engine.result import (
    AnySource,
    Black,
    BlackForfeit,
    BoardProducts,
    FirstLoss,
    KoyaLimit,
    NormalisingFactor,
    OnBoard,
    Opponent,
    OpponentRating,
    OpponentValue,
    Outcome,
    OwnUnplayed,
    OwnUnplayedCapped,
    Product,
    Reason,
    RoundResult,
    RunningScore,
    SecondaryScore,
    Source,
    UnplayedZero,
    VirtualOpponent,
)
from livetb.i18n.explain import cut_words, source_words

CORPUS = Path(__file__).parent.parent / "data" / "conformance"

# One part of every kind the engine gives.
SAMPLES: list[Source] = [
    Opponent(12),
    OpponentValue(12, "BH"),
    OpponentRating(12),
    OwnUnplayed("half_bye"),
    OwnUnplayedCapped("zero_bye"),
    UnplayedZero("forfeit_loss"),
    VirtualOpponent("pab"),
    RoundResult("win"),
    RunningScore(),
    Black(),
    BlackForfeit(),
    FirstLoss(),
    KoyaLimit(),
    OnBoard(2),
    BoardProducts(((1, Decimal("1.0")), (2, Decimal("0.5")))),
    SecondaryScore("GP"),
    NormalisingFactor(),
    Product(OwnUnplayed("full_bye"), Decimal("7"), Decimal("3.5")),
]
KINDS = get_args(AnySource)
# What the command line's explanation is written from.
EXPLAINING = ("explain.", "cli.explain.", "cut.", "outcome.", "cat.", "colour.")


def _tag(kind: type[Source]) -> str:
    return str(kind.__struct_config__.tag)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]{3,}", re.sub(r"\{\w+\}", "", text).lower()))


def english() -> set[str]:
    """The words of the English explaining messages that no Italian one uses ("bye", "Koya",
    "null" are in both)."""

    def of(lang: str) -> set[str]:
        texts = [v for k, v in i18n.catalog(lang).items() if k.startswith(EXPLAINING)]
        return set().union(*map(_words, texts))

    return of("en") - of("it")


def test_the_samples_are_every_kind() -> None:
    assert {type(s) for s in SAMPLES} == set(KINDS)
    assert set(get_args(Outcome)) == {code.name.lower() for code in Code}


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_kind_reason_and_outcome_has_its_message(lang: str) -> None:
    names = i18n.catalog(lang)
    wanted = {f"explain.{_tag(kind)}" for kind in KINDS}
    wanted |= {f"explain.{_tag(kind)}.named" for kind in KINDS if "no" in kind.__struct_fields__}
    assert wanted - set(names) == set()
    # ... and no message for a kind the engine no longer gives.
    extra = {k for k in names if k.startswith("explain.")} - wanted - {"explain.board_product"}
    assert extra == set()
    assert {f"cut.{reason}" for reason in Reason} <= set(names)
    assert {f"outcome.{o}" for o in get_args(Outcome)} <= set(names)


@pytest.mark.parametrize("source", SAMPLES, ids=lambda s: _tag(type(s)))
def test_every_kind_is_written_in_every_language(source: Source) -> None:
    data = msgspec.to_builtins(source)
    for lang in i18n.LANGUAGES:
        words = source_words(lang, data)
        assert words and "{" not in words, (lang, words)
    italian = source_words("it", data)
    assert _words(italian) & english() == set(), italian


def test_every_reason_is_written_in_italian() -> None:
    for reason in Reason:
        assert _words(cut_words("it", reason)) & english() == set(), reason


C = CORPUS
# Files, participants and lists that give every kind of part the command line can print:
# unplayed rounds (own score, capped in 2026, a virtual opponent in the legacy rules), cuts of
# every reason, ratings, a round robin's forfeit, the US Chess tie-breaks and the team ones.
INDIVIDUAL = "PTS,WIN,STD,PS/C1,BH/C1,BH/M1,FB,SB/C1,AOB,ARO/M1,TPR,PTP,APRO,APPO,KS,MM,MED,SOLK"
CASES = [
    (C / "individual-swiss/swiss-1005.trf", 4, [INDIVIDUAL + ",CUM,OCUM,KASH,MB,TFL,DE"]),
    (C / "individual-swiss/swiss-1005.trf", 4, ["PTS,ARO,TPR", "--unrated-rating", "1400"]),
    (C / "individual-swiss/swiss-1005.trf", 4, ["ARO,TPR,APPO"]),  # undefined without ratings
    (C / "individual-swiss/swiss-1001.trf", 2, ["BH/C1,SB,FB", "--edition", "2026"]),
    (C / "individual-swiss/swiss-1001.trf", 1, ["BH/C1,SB", "--edition", "legacy"]),
    (C / "individual-rr/rr-1101.trf", 1, ["PTS,BH,SB/C1,KS,MB/O,DE"]),
    (C / "team-swiss/team-swiss-1201.trf", 1, ["MPTS,GPTS,BH:GP,EMGSB/C1,SSSC,BC,TBR,WIN:GP"]),
    (C / "team-rr/team-rr-1301.trf", 2, ["MPTS,MPVGP,EGGSB,STD:GP,BPG:GP,EDE,BBE"]),
]


@pytest.mark.parametrize(
    ("path", "no", "flags"), CASES, ids=[f"{p.stem}-{n}-{f[0]}" for p, n, f in CASES]
)
def test_explain_in_italian_has_no_english_line(
    path: Path, no: int, flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    tiebreaks, *rest = flags
    argv = ["standings", str(path), "--explain", str(no), "--tiebreaks", tiebreaks, *rest]
    assert main([*argv, "--lang", "it"]) == 0
    out = capsys.readouterr().out
    imported = livetb.read_trf(path)
    names = [p.name for p in imported.tournament.participants]
    names += [t.name for t in imported.team_event.teams] if imported.team_event else []
    lines = out.splitlines()
    assert len(lines) > 10
    words = english()
    for line in lines:
        for name in (*names, *tiebreaks.split(",")):  # names and codes are no language's
            line = line.replace(name, "")
        assert _words(line) & words == set(), line
    # The same explanation in English: the lines match one for one.
    assert main([*argv, "--lang", "en"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(lines)


def test_the_cases_print_every_kind_and_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from livetb.cli import explain

    kinds: set[str] = set()
    reasons: set[str] = set()

    def source(lang: str, data: dict[str, Any]) -> str:
        kinds.update(s["kind"] for s in (data, data.get("of")) if s)
        return source_words(lang, data)

    def cut(lang: str, reason: str) -> str:
        reasons.add(reason)
        return cut_words(lang, reason)

    monkeypatch.setattr(explain, "source_words", source)
    monkeypatch.setattr(explain, "cut_words", cut)
    for path, no, (tiebreaks, *rest) in CASES:
        argv = ["standings", str(path), "--explain", str(no), "--tiebreaks", tiebreaks, *rest]
        assert main(argv) == 0
    capsys.readouterr()
    assert kinds == {_tag(kind) for kind in KINDS}
    assert reasons == set(Reason)
