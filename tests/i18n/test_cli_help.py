"""`--help` and argparse's own words in the reader's language: every help, description and
command help is a catalog message (`cli.help.*`), argparse's headings, "usage: " and usage errors
too (`cli.argparse.*`); English stays word for word what it was."""

from __future__ import annotations

import argparse
import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from livetb import i18n
from livetb.cli.argparsing import argv_language, usage_error
from livetb.cli.parsers import build_parser
from tests.cli.test_cli import run

CLI = Path(i18n.__file__).parent.parent / "cli"

# `livetb sync --help` and `livetb standings --help` in English at 80 columns: argparse's own
# wording and the helps, word for word.
SYNC_HELP = """\
usage: livetb sync [-h] [--db DB] --tournament ID [--tiebreaks TIEBREAKS]
                   [--rounds N] [--dry-run] [--force] [--prefer {file,log}]
                   [--watch] [--lang {en,it}]
                   file

positional arguments:
  file                  the pairing program's TRF-16 or TRF-2026 file

options:
  -h, --help            show this help message and exit
  --db DB               event store: a SQLite file or a postgresql:// URL
                        (default: $LIVETB_DB, else livetb.sqlite, as for
                        serve)
  --tournament ID       the tournament (created if unknown)
  --tiebreaks TIEBREAKS
                        a new tournament's list (default: the file's own, else
                        the system's); an existing tournament's must be the
                        same
  --rounds N            the number of rounds, for a file that declares none
                        (no 142 or XXR: JaVaFo and Vega often save none); a
                        file declaring another is refused; an existing
                        tournament's must be the same
  --dry-run             print the difference in words; write nothing
  --force               sync a file refused as older than the files synced
                        before, or as another tournament's
  --prefer {file,log}   a result entered in the log that the file contradicts:
                        correct it to the file's (file) or keep it (log);
                        default: refuse the sync (exit 3)
  --watch               keep following the file: sync each time it is saved
  --lang {en,it}        language of the table (default: $LIVETB_LANG, else
                        en); JSON and CSV stay as they are
"""
STANDINGS_HELP = """\
usage: livetb standings [-h] [--db DB] [--tournament TOURNAMENT] [--at-seq N]
                        [--tiebreaks TIEBREAKS] [--system {uscf}]
                        [--after-round K] [--rounds N] [--as-final]
                        [--edition {legacy,2023,2024,2026}]
                        [--unrated-rating N] [--format {table,json,csv}]
                        [--lang {en,it}] [--explain START_NO]
                        [--draw-lots SEED] [--category CODE] [--rating-change]
                        [file]

positional arguments:
  file                  TRF-16 or TRF-2026 file (or use --db)

options:
  -h, --help            show this help message and exit
  --db DB               read the standings from this event store: a SQLite
                        file or a postgresql:// URL instead (default:
                        $LIVETB_DB, without FILE)
  --tournament TOURNAMENT
                        with --db: the tournament id (if several)
  --at-seq N            with --db: as of log sequence N
  --tiebreaks TIEBREAKS
                        comma-separated list, e.g. PTS,BH/C1,BH,SB (default:
                        the file's own list, else the default for a Swiss or a
                        round robin, see README)
  --system {uscf}       a preset list instead of --tiebreaks: uscf =
                        PTS,MM,SOLK,CUM,OCUM (US Chess's recommended order,
                        seed 003)
  --after-round K       use rounds 1..K only
  --rounds N            the number of rounds, for a file that declares none
                        (no 142 or XXR: JaVaFo and Vega often save none); a
                        file declaring another is refused
  --as-final            treat round K as the last round (Fore-Buchholz
                        prediction)
  --edition {legacy,2023,2024,2026}
                        unplayed-rounds rules (default: by the start date)
  --unrated-rating N    rating used for unrated players in rating-based tie-
                        breaks
  --format {table,json,csv}
  --lang {en,it}        language of the table (default: $LIVETB_LANG, else
                        en); JSON and CSV stay as they are
  --explain START_NO    show each tie-break's per-round contributions for one
                        participant
  --draw-lots SEED      break the ties left after the whole list by a seeded
                        drawing of lots
  --category CODE       only this category's standings, ranks counted inside
                        it (see docs/categories.md)
  --rating-change       add each participant's FIDE rating change so far (Δ)
"""


@pytest.fixture(autouse=True)
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """80 columns (argparse wraps to the terminal); no language or store from the machine."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("LIVETB_LANG", raising=False)
    monkeypatch.delenv("LIVETB_DB", raising=False)


def test_english_help_is_word_for_word() -> None:
    assert run("sync", "--help") == (0, SYNC_HELP, "")
    assert run("standings", "--help") == (0, STANDINGS_HELP, "")


def test_livetb_help_speaks_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LIVETB_LANG", "it")
    code, out, err = run("--help")
    assert (code, err) == (0, "")
    assert out.startswith("uso: livetb [-h]\n")
    assert "\nClassifiche di scacchi in diretta con gli spareggi FIDE esatti: da file TRF,\n" in out
    assert "\nargomenti posizionali:\n" in out
    assert "\n    token               crea o revoca token arbitrali e dell'organizzatore\n" in out
    assert out.endswith(
        "\nopzioni:\n  -h, --help            mostra questo messaggio di aiuto ed esce\n"
    )


def test_sync_and_standings_help_speak_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LIVETB_LANG", "it")
    code, out, _ = run("sync", "--help")
    assert code == 0 and out.startswith("uso: livetb sync [-h] [--db DB] --tournament ID")
    assert (
        "\n  file                  il file TRF-16 o TRF-2026 del programma di abbinamento\n" in out
    )
    assert "\n  --tournament ID       il torneo (creato se non esiste)\n" in out
    assert "\n  --dry-run             descrive a parole la differenza; non scrive nulla\n" in out
    code, out, _ = run("standings", "--help")
    assert code == 0 and out.startswith("uso: livetb standings [-h]")
    assert "\n  file                  file TRF-16 o TRF-2026 (oppure usa --db)\n" in out
    assert "\n  --after-round K       usa solo i turni 1..K\n" in out
    assert "(predefinito: $LIVETB_DB, senza FILE)" in out
    for english in ("usage:", "positional arguments", "options:", "show this help", "the "):
        assert english not in out


def test_lang_on_the_command_line_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LIVETB_LANG", "en")
    italian = run("sync", "--lang", "it", "--help")
    assert italian[1].startswith("uso: livetb sync")
    assert run("sync", "--lang=it", "--help") == italian
    monkeypatch.setenv("LIVETB_LANG", "it")
    assert run("sync", "--help") == italian
    assert run("sync", "--lang", "en", "--help") == (0, SYNC_HELP, "")


def test_the_language_is_known_before_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    assert argv_language(["sync", "f.trf", "--lang", "it"]) == "it"
    assert argv_language(["sync", "--lang", "it", "--lang=en"]) == "en"  # the last one, as argparse
    assert argv_language(["pgn", "--", "--lang", "it"]) == "en"  # after --: a positional
    monkeypatch.setenv("LIVETB_LANG", "it")
    assert argv_language(["sync"]) == "it"
    assert argv_language(["sync", "--lang", "fr"]) == "it"  # refused by argparse, in Italian
    assert argv_language(["sync", "--lang"]) == "it"


def test_usage_errors_speak_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LIVETB_LANG", "it")
    code, out, err = run("sync", "x.trf")
    assert (code, out) == (2, "")
    assert err.startswith("uso: livetb sync [-h]")
    assert err.endswith(
        "\nlivetb sync: errore: mancano questi argomenti obbligatori: --tournament\n"
    )
    code, _, err = run("standings", "--at-seq", "x")
    assert code == 2
    assert err.endswith(
        "\nlivetb standings: errore: argomento --at-seq: non è un numero intero: 'x'\n"
    )
    code, _, err = run("sync", "x.trf", "--tournament", "t", "--rounds", "200", "--lang", "it")
    assert code == 2
    assert err.endswith("errore: argomento --rounds: 200: atteso un numero di turni, 1-99\n")


def test_usage_errors_stay_argparse_english() -> None:
    code, out, err = run("sync", "x.trf")
    assert (code, out) == (2, "")
    assert err.startswith("usage: livetb sync [-h]")
    assert err.endswith(
        "\nlivetb sync: error: the following arguments are required: --tournament\n"
    )
    code, _, err = run("standings", "--at-seq", "x")
    assert code == 2
    assert err.endswith("\nlivetb standings: error: argument --at-seq: invalid int value: 'x'\n")
    assert run("sync", "x.trf", "--tournament", "t", "--rounds", "x")[2].endswith(
        "error: argument --rounds: 'x': expected a number of rounds, 1 to 99\n"
    )


# argparse's messages (Python 3.11) and their Italian.
SHAPES = [
    (
        "the following arguments are required: file, --db",
        "mancano questi argomenti obbligatori: file, --db",
    ),
    ("unrecognized arguments: --x y", "argomenti non riconosciuti: --x y"),
    (
        "one of the arguments --tournament --organiser is required",
        "serve uno di questi argomenti: --tournament --organiser",
    ),
    (
        "ambiguous option: --t could match --tournament, --tiebreaks",
        "opzione ambigua: --t potrebbe essere --tournament, --tiebreaks",
    ),
    (
        "argument --at-seq: invalid int value: 'x'",
        "argomento --at-seq: non è un numero intero: 'x'",
    ),
    ("argument --speed: invalid float value: 'q'", "argomento --speed: non è un numero: 'q'"),
    (
        "argument --format: invalid choice: 'x' (choose from 'table', 'json')",
        "argomento --format: scelta non valida: 'x' (scegli tra 'table', 'json')",
    ),
    ("argument -o/--output: expected one argument", "argomento -o/--output: manca il valore"),
    (
        "argument --organiser: not allowed with argument --tournament",
        "argomento --organiser: non ammesso insieme all'argomento --tournament",
    ),
]


@pytest.mark.parametrize(("english", "italian"), SHAPES)
def test_argparse_messages_are_reworded(english: str, italian: str) -> None:
    assert usage_error("it", english) == italian
    assert usage_error("en", english) == english


def test_an_unknown_shape_stays_as_argparse_says_it() -> None:
    assert usage_error("it", "ignored explicit argument 'x'") == "ignored explicit argument 'x'"


def _actions(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    """Every action of `parser` and of its subcommands' parsers, in order."""
    for action in parser._actions:
        yield action
        if isinstance(action, argparse._SubParsersAction):
            yield from action._choices_actions  # the commands' helps
            for sub in action.choices.values():
                yield from _actions(sub)


def test_every_help_has_its_italian() -> None:
    """Each help differs between the languages: none is left in one language for both."""
    en, it = build_parser(lang="en"), build_parser(lang="it")
    assert en.description != it.description
    pairs = list(zip(_actions(en), _actions(it), strict=True))
    helps = [(e.help, i.help) for e, i in pairs if e.help not in (None, argparse.SUPPRESS)]
    assert len(helps) > 90
    assert [e for e, i in helps if e == i] == []


def _literal_helps(tree: ast.AST) -> list[int]:
    """Lines where `help=` or `description=` is given a string literal or an f-string."""

    def literal(node: ast.expr) -> bool:
        match node:
            case ast.Constant(value=str()) | ast.JoinedStr():
                return True
            case ast.BinOp(left=left, right=right):
                return literal(left) or literal(right)
            case ast.IfExp(body=body, orelse=orelse):
                return literal(body) or literal(orelse)
        return False

    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and any(k.arg in ("help", "description") and literal(k.value) for k in node.keywords)
    ]


def test_no_help_is_written_in_the_code() -> None:
    """A flag's help comes from the catalogs, so that a new flag cannot add English only."""
    found = [
        f"{path.name}:{line}"
        for path in sorted(CLI.glob("*.py"))
        for line in _literal_helps(ast.parse(path.read_text("utf-8")))
    ]
    assert found == []


def test_the_help_check_sees_literals_and_f_strings() -> None:
    code = """
p.add_argument("--x", help="English")
p.add_argument("--y", help=f"port (default {port})")
sub.add_parser("z", help="a" + words)
argparse.ArgumentParser(description="English")
p.add_argument("--w", help=_help(p, "w"))
p.add_argument("--v", help=argparse.SUPPRESS)
sub.add_parser("u", help=said)
"""
    assert _literal_helps(ast.parse(code)) == [2, 3, 4, 5]
