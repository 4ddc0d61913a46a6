"""A TRF file's issues are worded from the catalogs (`trf.where.*`, `trf.found.*`,
`trf.expected.*`): English word for word in the message and the API's fields, the reader's
language (LIVETB_LANG, --lang) on the command line, and the keys in the API for a page."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from livetb import i18n
from livetb.errors import Said, TrfError, TrfIssue
from livetb.trf import parse_trf
from tests.trf.test_reader import player
from tests.trf.test_real_world import run, trf, write

LIVETB = Path(i18n.__file__).parent.parent
# Where TrfIssues are made: the reader and its checks, and the TRF player list's own check.
MAKERS = [*sorted((LIVETB / "trf").glob("*.py")), LIVETB / "interchange" / "trf_commands.py"]
_PARTS = ("where", "found", "expected")

BAD = trf(player(1, "1.0", "2 w 1"), player(2, "0.0", "1 b Q"))
# Two XXA lines: one warning for both, its `found` in words.
WARNED = trf(player(1, "1.0", "2 w 1"), player(2, "0.0", "1 b 0"), "XXA    1  1.0", "XXA    2  1.0")


def test_a_refused_file_is_printed_in_the_readers_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(write(tmp_path, BAD, "BAD.trf"))
    monkeypatch.setenv("LIVETB_LANG", "it")
    assert run("standings", path) == (
        2,
        "",
        f"livetb: {path}: non è stato importato nulla; problemi trovati: 1\n"
        f"{path}: riga 13, colonna 99 (001 #2, risultato del turno 1): trovato 'Q'; "
        "atteso uno tra 1 = 0 W D L + - H F U Z o spazio\n",
    )
    english = (
        f"livetb: {path}: 1 problem(s), nothing imported\n"
        f"{path}: line 13, column 99 (001 #2, round 1 result): found 'Q'; "
        "expected one of 1 = 0 W D L + - H F U Z or blank\n"
    )
    assert run("standings", path, "--lang", "en") == (2, "", english)
    monkeypatch.delenv("LIVETB_LANG")
    assert run("standings", path) == (2, "", english)


def test_a_warning_is_printed_in_the_readers_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(write(tmp_path, WARNED))
    italian = (
        f"livetb: attenzione: {path}: riga 14, colonne 1-3 (record XXA): trovato "
        "'2 record XXA alle righe 14-15 (accelerazione)'; atteso nulla: ignorati, non cambiano "
        "nessuna classifica\n"
    )
    code, _, err = run("standings", path, "--lang", "it")
    assert (code, err) == (0, italian)
    monkeypatch.setenv("LIVETB_LANG", "it")
    code, _, err = run("import", path, "--db", str(tmp_path / "t.sqlite"))
    assert (code, err) == (0, italian)
    monkeypatch.delenv("LIVETB_LANG")
    code, _, err = run("standings", path)
    assert (code, err) == (
        0,
        f"livetb: warning: {path}: line 14, columns 1-3 (XXA records): found "
        "'2 XXA records on lines 14-15 (acceleration)'; expected nothing: ignored, they change "
        "no standings\n",
    )


def test_an_issue_is_english_and_carries_its_catalog_form() -> None:
    with pytest.raises(TrfError) as caught:
        parse_trf(BAD, "BAD.trf")
    err = caught.value
    (issue,) = err.issues
    assert (issue.where, issue.found, issue.expected) == (
        "001 #2, round 1 result",
        "Q",
        "one of 1 = 0 W D L + - H F U Z or blank",
    )
    assert (
        str(issue)
        == issue.words("en")
        == (
            "line 13, column 99 (001 #2, round 1 result): found 'Q'; "
            "expected one of 1 = 0 W D L + - H F U Z or blank"
        )
    )
    assert err.message == err.words("en")
    assert err.words("it").endswith(
        "BAD.trf: riga 13, colonna 99 (001 #2, risultato del turno 1): trovato 'Q'; "
        "atteso uno tra 1 = 0 W D L + - H F U Z o spazio"
    )
    sent = msgspec.json.decode(msgspec.json.encode(err.as_dict()))["issues"][0]
    assert {k: v for k, v in sent.items() if k.endswith(("_key", "_params"))} == {
        "where_key": "trf.where.player_round_result",
        "where_params": {"no": 2, "round": 1},
        "found_key": None,  # the file's own text
        "found_params": {},
        "expected_key": "trf.expected.result",
        "expected_params": {},
    }


def test_found_in_words_follows_the_language_too() -> None:
    (issue,) = parse_trf(WARNED).warnings
    assert issue.found == "2 XXA records on lines 14-15 (acceleration)"
    assert (issue.found_key, issue.found_params) == (
        "trf.found.acceleration_lines",
        {"tag": "XXA", "count": 2, "first": 14, "last": 15},
    )
    assert "trovato '2 record XXA alle righe 14-15 (accelerazione)'" in issue.words("it")


def test_an_issue_without_keys_is_worded_with_its_english_fields() -> None:
    issue = TrfIssue(3, (5, 8), "somewhere", "x", "something else")
    assert (
        issue.words("it") == "riga 3, colonne 5-8 (somewhere): trovato 'x'; atteso something else"
    )
    assert str(issue) == "line 3, columns 5-8 (somewhere): found 'x'; expected something else"
    built = TrfIssue.of(1, None, Said("trf.where.numbering"), "2", Said("trf.expected.no_gaps"))
    assert str(built) == "line 1 (001 numbering): found '2'; expected starting ranks without gaps"


def _named_keys() -> set[str]:
    """Every `trf.where.*`, `trf.found.*` and `trf.expected.*` key the makers name."""
    pattern = re.compile(r"""["'](trf\.(?:where|found|expected)\.\w+)["']""")
    return {key for path in MAKERS for key in pattern.findall(path.read_text("utf-8"))}


def test_every_issue_key_named_is_in_the_catalogs_and_every_one_is_named() -> None:
    named = _named_keys()
    assert len(named) > 100
    for lang in i18n.LANGUAGES:
        held = {k for k in i18n.catalog(lang) if k.startswith(tuple(f"trf.{p}." for p in _PARTS))}
        assert named - held == set(), f"missing in {lang}.json"
        assert held - named == set(), f"unused in {lang}.json"
