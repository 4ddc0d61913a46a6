"""The catalogs: the same keys in every language, every key a page asks for exists, and the
language is chosen by ?lang=, then Accept-Language, then English."""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import get_args

import pytest

from livetb import i18n
from livetb.engine.catalogue import TIEBREAKS
from livetb.wire.standings import Status

STATIC = Path(i18n.__file__).parent.parent / "web" / "pages" / "static"


def test_every_key_is_in_every_catalog() -> None:
    en, it = (set(i18n.catalog(lang)) for lang in i18n.LANGUAGES)
    assert en - it == set(), "missing in it.json"
    assert it - en == set(), "missing in en.json"


def test_the_placeholders_agree_between_languages() -> None:
    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    en, it = i18n.catalog("en"), i18n.catalog("it")
    assert {k for k in en if fields(en[k]) != fields(it[k])} == set()


def test_every_tiebreak_and_category_has_a_name() -> None:
    for lang in i18n.LANGUAGES:
        names = i18n.catalog(lang)
        assert {code for code in TIEBREAKS if f"tb.{code}" not in names} == set()
        assert all(f"cat.{n}" in names for n in range(1, 6))
        statuses = get_args(Status)  # every status the wire carries is named, short and long
        assert all(f"status.{s}" in names and f"status.short.{s}" in names for s in statuses)


def test_every_key_the_pages_name_exists() -> None:
    used: set[str] = set()
    for script in STATIC.glob("*.js"):
        used |= set(re.findall(r"""\bt\(\s*["']([\w.]+)["']""", script.read_text("utf-8")))
    assert len(used) > 60
    assert used - set(i18n.catalog("en")) == set()


def test_italian_writes_decimal_commas() -> None:
    assert i18n.number("it", "12.5") == "12,5"
    assert i18n.number("en", "12.5") == "12.5"
    assert i18n.number("it", 2350) == "2350"
    assert i18n.number("it", None) == "–"
    assert i18n.text("it", "state.running", round=6) == "Turno 6 · in corso"


@pytest.mark.parametrize(
    ("asked", "header", "chosen"),
    [
        ("it", "en-GB,en;q=0.9", "it"),
        (None, "it-IT,it;q=0.9,en;q=0.8", "it"),
        (None, "de-DE,de;q=0.9,en;q=0.5,it;q=0.7", "it"),
        ("fr", "fr-FR", "en"),
        (None, "it;q=0", "en"),
        (None, None, "en"),
        (None, "en;q=garbage, it", "it"),
    ],
)
def test_the_language_is_negotiated(asked: str | None, header: str | None, chosen: str) -> None:
    assert i18n.negotiate(asked, header) == chosen


def test_the_cli_speaks_italian_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    from livetb.cli import main

    trf = Path(__file__).parent.parent / "data/conformance/individual-swiss/swiss-1005.trf"
    assert main(["standings", str(trf), "--unrated-rating", "1400", "--lang", "it"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("— dopo il turno 11 (edizione C.07 2024)")
    assert "┃ Pos ┃ N. ┃ Nome" in lines[2]
    assert "│   1 │  5 │ Jensen, David     │ 8,0 │  68,0 │ 76,0 │" in lines[4]
    assert main(["standings", str(trf), "--unrated-rating", "1400", "--format", "json"]) == 0
    assert '"values":["8.0","68.0","76.0"' in capsys.readouterr().out  # JSON stays JSON


def test_the_cli_language_comes_from_the_flag_then_livetb_lang() -> None:
    assert i18n.cli_language("it", {}) == "it"
    assert i18n.cli_language(None, {"LIVETB_LANG": "it"}) == "it"
    assert i18n.cli_language("en", {"LIVETB_LANG": "it"}) == "en"
    assert i18n.cli_language(None, {"LANG": "it_IT.UTF-8"}) == "en"
