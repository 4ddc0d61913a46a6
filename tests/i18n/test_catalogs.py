"""The catalogs: the same keys in every language, every key a page asks for exists, and the
language is chosen by ?lang=, then Accept-Language, then English."""

from __future__ import annotations

import ast
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


def test_the_cli_messages_speak_italian_with_livetb_lang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.cli.test_cli import SWISS, run

    monkeypatch.setenv("LIVETB_LANG", "it")
    db = str(tmp_path / "t.sqlite")
    code, out, err = run("import", str(SWISS), "--db", db, "--unrated-rating", "1400")
    assert code == 0, err
    tid = out.strip()  # an id stays an id
    code, out, _ = run("rebuild", "--db", db)
    assert code == 0 and out.startswith(f"{tid}: ricostruito da ") and out.endswith(" eventi\n")
    code, out, _ = run("replay", "--db", db, "--tournament", tid, "--speed", "0")
    assert code == 0 and out.endswith(f" eventi riprodotti da {tid}\n")
    code, token, err = run("token", "create", "--db", db, "--tournament", "t-new")
    assert err == (
        "livetb: nota: il torneo t-new non ha ancora eventi; il token può crearlo "
        "(PUT /api/tournaments/ID)\n"
    )
    assert run("token", "revoke", "--db", db, token.strip())[1] == "revocato\n"
    monkeypatch.delenv("LIVETB_LANG")
    token = run("token", "create", "--db", db, "--tournament", "t-new")[1]
    assert run("token", "revoke", "--db", db, token.strip())[1] == "revoked\n"


def test_the_running_round_note_follows_lang(tmp_path: Path) -> None:
    from tests.trf.test_real_world import MID_ROUND, run, write

    path = str(write(tmp_path, MID_ROUND))
    code, _, err = run("standings", path, "--explain", "1", "--lang", "it")
    assert code == 0
    assert err == (
        "livetb: nota: il turno 3 è in corso (1 partita senza risultato); "
        "questa classifica è dopo il turno 2\n"
    )
    assert (
        "(1 game without a result); this table is after round 2"
        in run("standings", path, "--explain", "1")[2]
    )


def test_the_workers_supervisor_speaks_the_language_given() -> None:
    import io

    from livetb.cli.workers import _Outage

    answers = iter(["postgresql://db: connection refused", None])
    out = io.StringIO()
    outage = _Outage(lambda: next(answers), out, "it")
    assert outage.store_away() and not outage.store_away()
    assert out.getvalue() == (
        "livetb: in attesa dell'archivio, nuovi tentativi a intervalli crescenti: "
        "postgresql://db: connection refused\n"
        "livetb: l'archivio risponde di nuovo; avvio dei processi\n"
    )


def test_a_latin1_pgn_is_said_in_the_language_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from livetb.cli.pgn import fetch

    path = tmp_path / "games.pgn"
    path.write_bytes('[White "Müller"]'.encode("latin-1"))
    assert fetch(str(path), "it") == '[White "Müller"]'
    assert capsys.readouterr().err == (
        f"livetb: attenzione: {path}: non è UTF-8; letto come Latin-1\n"
    )


def test_the_cli_language_comes_from_the_flag_then_livetb_lang() -> None:
    assert i18n.cli_language("it", {}) == "it"
    assert i18n.cli_language(None, {"LIVETB_LANG": "it"}) == "it"
    assert i18n.cli_language("en", {"LIVETB_LANG": "it"}) == "en"
    assert i18n.cli_language(None, {"LANG": "it_IT.UTF-8"}) == "en"


# Calls whose text reaches the user: `print`, a progress bar's label, a stream's `.write`, a
# usage error's message (worded from the catalogs with `UsageError.of`).
_SHOWN_BY_NAME = {"print", "bar", "UsageError"}
_WORD = re.compile(r"[^\W\d_]{3,}")  # a run of three or more letters: a word, not a separator
CLI = Path(i18n.__file__).parent.parent / "cli"


def _literal_words(node: ast.expr) -> list[str]:
    """The words of the string literals that make up `node`, fields left out: the text of an
    f-string's `{}` is computed (a catalog message, a number), its literal parts are not."""
    match node:
        case ast.Constant(value=str(text)):
            return _WORD.findall(text)
        case ast.JoinedStr(values=parts):
            return [w for part in parts for w in _literal_words(part)]
        case ast.BinOp(left=left, right=right):
            return _literal_words(left) + _literal_words(right)
        case ast.IfExp(body=body, orelse=orelse):
            return _literal_words(body) + _literal_words(orelse)
        case ast.List(elts=items) | ast.Tuple(elts=items):
            return [w for item in items for w in _literal_words(item)]
    return []


def _shown_literals(tree: ast.AST) -> list[tuple[int, list[str]]]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        by_name = isinstance(func, ast.Name) and func.id in _SHOWN_BY_NAME
        written = isinstance(func, ast.Attribute) and func.attr == "write"
        shown = list(node.args) if by_name or written else []
        shown += [k.value for k in node.keywords if k.arg == "description"]  # a bar's label
        words = [w for arg in shown for w in _literal_words(arg)]
        if words:
            found.append((node.lineno, words))
    return found


def test_the_cli_prints_no_words_outside_the_catalogs() -> None:
    """Every sentence the CLI shows is a catalog message (`i18n.text`), so that `--lang` and
    $LIVETB_LANG reach all of it; machine output (JSON, TRF, CSV, ids) carries no literal words."""
    found = {
        f"{path.name}:{line}": words
        for path in sorted(CLI.glob("*.py"))
        for line, words in _shown_literals(ast.parse(path.read_text("utf-8")))
    }
    assert found == {}


def test_the_literal_check_sees_words_in_strings_and_f_strings() -> None:
    code = """
print("revoked", file=out)
print(f"livetb: worker {pid} exited ({code})", file=out)
out.write("\\n".join(lines) + "\\n")
print(f"{rec.tournament_id} {rec.seq} {data}", file=out)
write(projection, "json", out)
print(i18n.text(lang, "cli.token.revoked"), file=out)
advance(description=f"storing {n} events")
raise UsageError(f"--db {target}: no such event store")
raise UsageError("give either a TRF file " + "or --db") from None
raise UsageError.of("cli.usage.no_store", store=target)
raise UsageError(str(err))
"""
    assert _shown_literals(ast.parse(code)) == [
        (2, ["revoked"]),
        (3, ["livetb", "worker", "exited"]),
        (8, ["storing", "events"]),
        (9, ["such", "event", "store"]),
        (10, ["give", "either", "TRF", "file"]),
    ]


# A TRF file's issues: `where`, `expected` (and `found` when it is words, not the file's text)
# are catalog messages (`Said`), so that every language words them. A literal with words given
# to a report's `error`/`warn` (or `TrfIssue`), or assigned to `where`/`found`/`expected`, is
# English that only English readers could read.
_ISSUE_CALLS = {"error", "warn", "flag", "TrfIssue", "of"}
_ISSUE_PARTS = {"where", "found", "expected"}
TRF_MAKERS = [
    *sorted((CLI.parent / "trf").glob("*.py")),
    CLI.parent / "interchange/trf_commands.py",
]


def _names(target: ast.expr) -> set[str]:
    match target:
        case ast.Name(id=name):
            return {name}
        case ast.Tuple(elts=items):
            return {n for item in items for n in _names(item)}
    return set()


def _issue_literals(tree: ast.AST) -> list[tuple[int, list[str]]]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call | ast.Assign | ast.AnnAssign):
            continue
        shown: list[ast.expr] = []
        if isinstance(node, ast.Call):
            func = node.func
            name = getattr(func, "id", None) or getattr(func, "attr", None)
            if name == "of" and getattr(getattr(func, "value", None), "id", None) != "TrfIssue":
                name = None  # an error's `of` takes a catalog key, not words
            if name in _ISSUE_CALLS:
                shown = [*node.args, *(k.value for k in node.keywords)]
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(_names(t) & _ISSUE_PARTS for t in targets):
                shown = [node.value]
        words = [w for expr in shown for w in _literal_words(expr)]
        if words:
            found.append((node.lineno, words))
    return sorted(found)


def test_trf_issues_are_worded_from_the_catalogs() -> None:
    found = {
        f"{path.name}:{line}": words
        for path in TRF_MAKERS
        for line, words in _issue_literals(ast.parse(path.read_text("utf-8")))
    }
    assert found == {}


def test_the_issue_check_sees_english_given_to_a_report() -> None:
    code = """
report.error(n, (5, 8), "001 starting rank", raw, "a number from 1 to 9999")
expected = f"one {tag} line (also on line {n}); the last one wins"
where, expected = Said("trf.where.start_rank"), Said("trf.expected.number", low=1)
found, expected = text[c], "a blank separator"
block.warn(report, Said("trf.expected.legacy_bye", code=code.value))
report.warn(n, None, where, f"#{no}", expected)
"""
    assert _issue_literals(ast.parse(code)) == [
        (2, ["starting", "rank", "number", "from"]),
        (3, ["one", "line", "also", "line", "the", "last", "one", "wins"]),
        (5, ["blank", "separator"]),
    ]
