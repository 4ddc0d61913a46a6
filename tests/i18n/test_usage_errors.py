"""Usage errors are worded from the catalogs (`cli.usage.*`): English word for word in the
message, the reader's language (LIVETB_LANG, --lang) on the command line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from livetb import i18n
from livetb.cli.parsers import DB_ENV
from livetb.errors import Said, UsageError
from tests.cli.test_cli import SWISS, run
from tests.trf.test_real_world import MID_ROUND, write

CLI = Path(i18n.__file__).parent.parent / "cli"


def test_the_message_is_english_and_words_follow_the_language() -> None:
    err = UsageError.of("cli.usage.after_round", round=9, last=3)
    assert str(err) == err.message == "--after-round 9: the tournament has rounds 0..3"
    assert err.words("en") == str(err)
    assert err.words("it") == "--after-round 9: il torneo ha i turni 0..3"
    said = {"key": "cli.usage.after_round", "params": {"round": 9, "last": 3}}
    assert err.as_dict() == {"code": "usage", "message": str(err), "said": said}
    assert UsageError("as given").words("it") == "as given"  # no key: the message as it is


def test_a_nested_message_is_worded_in_the_language_of_the_whole() -> None:
    games = Said("cli.standings.games_other", count=2)
    err = UsageError.of("cli.usage.round_running", after=3, round=3, games=games, last=2)
    assert str(err) == (
        "--after-round 3: round 3 is still being played (2 games without a result); "
        "rounds 0..2 are complete"
    )
    assert err.words("it") == (
        "--after-round 3: il turno 3 è ancora in corso (2 partite senza risultato); "
        "i turni 0..2 sono completi"
    )


def test_usage_errors_speak_italian_with_livetb_lang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(DB_ENV, raising=False)
    mid_round = str(write(tmp_path, MID_ROUND))
    missing = str(tmp_path / "none.sqlite")
    cases = [
        (("standings",), "indica o un file TRF o --db", "give either a TRF file or --db"),
        (
            ("standings", str(SWISS), "--explain", "999"),
            "--explain 999: nessun partecipante ha questo numero di partenza",
            "--explain 999: no participant with that start number",
        ),
        (
            ("standings", str(SWISS), "--at-seq", "3"),
            "--at-seq: solo con --db (un file TRF contiene un solo torneo e nessun registro)",
            "--at-seq: only with --db (a TRF file holds one tournament, no log)",
        ),
        (
            ("standings", mid_round, "--after-round", "3"),
            "--after-round 3: il turno 3 è ancora in corso (1 partita senza risultato); "
            "i turni 0..2 sono completi",
            "--after-round 3: round 3 is still being played (1 game without a result); "
            "rounds 0..2 are complete",
        ),
        (
            ("replay", "--db", missing, "--tournament", "t", "--speed", "-1"),
            "--speed -1.0: deve essere 0 (senza attese) o più",
            "--speed -1.0: must be 0 (no waiting) or more",
        ),
        (
            ("token", "revoke", "--db", missing, "ltb_x"),
            f"--db {missing}: questo archivio degli eventi non esiste",
            f"--db {missing}: no such event store",
        ),
    ]
    for argv, italian, english in cases:
        monkeypatch.setenv("LIVETB_LANG", "it")
        assert run(*argv) == (2, "", f"livetb: {italian}\n")
        monkeypatch.delenv("LIVETB_LANG")
        assert run(*argv) == (2, "", f"livetb: {english}\n")
    assert run("standings", "--lang", "it") == (2, "", "livetb: indica o un file TRF o --db\n")
    monkeypatch.setenv("LIVETB_LANG", "it")
    assert run("standings", "--lang", "en")[2] == "livetb: give either a TRF file or --db\n"


def test_a_refused_feed_is_worded_in_the_language_given() -> None:
    from livetb.cli.server import refusal

    err = refusal("http://h", "open", 404, None)
    assert str(err) == (
        "http://h: tournament open does not exist, or is private: give one of its tokens "
        "with --token or $LIVETB_TOKEN (404)"
    )
    assert err.words("it") == (
        "http://h: il torneo open non esiste, oppure è privato: indica uno dei suoi token "
        "con --token o $LIVETB_TOKEN (404)"
    )
    assert refusal("http://h", "open", 500, "t").words("it") == (
        "http://h: il server ha rifiutato il flusso (500)"
    )


def _usage_keys(tree: ast.AST) -> set[str]:
    """The catalog keys of `UsageError.of("cli.usage.…", …)` calls."""
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "of"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "UsageError"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    }


def test_every_usage_key_is_raised_and_every_one_raised_exists() -> None:
    used: set[str] = set()
    for path in CLI.glob("*.py"):
        used |= _usage_keys(ast.parse(path.read_text("utf-8")))
    catalogued = {key for key in i18n.catalog("en") if key.startswith("cli.usage.")}
    assert used == catalogued
