"""The store's commands on PostgreSQL: `--db postgresql://…` (or $LIVETB_DB) works as a SQLite
path does, and a bad URL is one line naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from livetb.backends import open_tokens
from tests.cli.test_cli import SWISS, run

TIEBREAKS = ("--tiebreaks", "PTS,BH/C1,BH,SB,WIN,BWG")


def imported(db: str) -> str:
    code, out, err = run("import", str(SWISS), "--db", db, "--unrated-rating", "1400", *TIEBREAKS)
    assert code == 0, err
    return out.strip()


def standings(*argv: str) -> list[tuple[int, int, list[str]]]:
    code, out, err = run("standings", *argv, "--format", "json")
    assert code == 0, err
    return [(r["rank"], r["start_no"], r["values"]) for r in json.loads(out)["standings"]]


def test_standings_from_postgres_equal_those_from_sqlite(pg_url: str, tmp_path: Path) -> None:
    sqlite = str(tmp_path / "t.sqlite")
    imported(sqlite)
    tid = imported(pg_url)
    from_pg = standings("--db", pg_url)
    assert from_pg == standings("--db", sqlite)
    assert len(from_pg) > 50 and from_pg[0][0] == 1
    assert standings("--db", pg_url, "--tournament", tid, "--at-seq", "40") == standings(
        "--db", sqlite, "--at-seq", "40"
    )
    code, out, err = run("rebuild", "--db", pg_url)
    assert code == 0, err
    assert out.startswith(f"{tid}: rebuilt ")


def test_livetb_db_is_the_default_of_db(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LIVETB_DB", pg_url)
    code, out, err = run("import", str(SWISS), "--unrated-rating", "1400", *TIEBREAKS)
    assert code == 0, err
    assert run("standings", "--tournament", out.strip(), "--format", "json")[0] == 0
    from_env = standings()
    assert from_env == standings("--db", pg_url)
    assert standings(str(SWISS), "--unrated-rating", "1400", *TIEBREAKS) == from_env  # FILE wins


def test_token_create_and_revoke_in_postgres(pg_url: str) -> None:
    code, out, err = run("token", "create", "--db", pg_url, "--tournament", "t-1", "--label", "A")
    token = out.strip()
    assert code == 0 and out == token + "\n" and token.startswith("ltb_")
    assert "no events yet" in err
    with open_tokens(pg_url) as tokens:
        assert tokens.scope(token) == "t-1"
    assert run("token", "revoke", "--db", pg_url, token) == (0, "revoked\n", "")
    with open_tokens(pg_url) as tokens:
        assert tokens.scope(token) is None
    code, _, err = run("token", "revoke", "--db", pg_url, token)
    assert code == 2 and "no such live token" in err


@pytest.mark.parametrize(
    "command",
    [("standings",), ("import", str(SWISS)), ("token", "create", "--tournament", "t-1")],
    ids=["standings", "import", "token"],
)
@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("postgresql://nobody:secret@127.0.0.1:1/test", "port 1 failed"),
        ("postgres://127.0.0.1/test?nonsense=1", 'invalid URI query parameter: "nonsense"'),
    ],
    ids=["unreachable", "malformed"],
)
def test_a_bad_url_is_one_line_naming_it(command: tuple[str, ...], url: str, said: str) -> None:
    code, out, err = run(*command, "--db", url)
    shown = url.replace(":secret@", ":***@")
    assert (code, out) == (2, "")
    assert err.startswith(f"livetb: {shown}: ") and said in err
    assert err.count("\n") == 1 and "secret" not in err
