"""One token contract, both token stores: SQLite's `TokenStore` and `PostgresTokens`."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from livetb.backends import open_tokens
from livetb.errors import NotAuthenticated, WrongTournament
from livetb.events.postgres import MIGRATIONS
from livetb.tokens.sqlite import TokenStore
from livetb.tokens.store import PREFIX, Grant, Tokens, actor, fingerprint
from livetb.web.http.auth import Creator, OrganiserToken, authorize, authorize_creation
from livetb.web.http.statuses import status_of


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "live.sqlite")
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def tokens(target: str) -> Iterator[Tokens]:
    with open_tokens(target) as t:
        yield t


def test_a_token_is_scoped_to_its_tournament_until_revoked(tokens: Tokens) -> None:
    token = tokens.create("t-1")
    other = tokens.create("t-2")
    assert token.startswith(PREFIX) and token != other
    assert (tokens.scope(token), tokens.scope(other)) == ("t-1", "t-2")
    assert tokens.scope("ltb_unknown") is None
    assert tokens.revoke(token) is True
    assert tokens.scope(token) is None and tokens.scope(other) == "t-2"
    assert tokens.revoke(token) is False  # already revoked
    assert tokens.revoke("ltb_unknown") is False


def test_labels_list_every_token_revoked_or_not_as_its_actor(tokens: Tokens) -> None:
    anna = tokens.create("t-1", label="Anna")
    unlabelled = tokens.create("t-1")
    tokens.create("t-2", label="Bruno")
    tokens.revoke(anna)
    assert tokens.labels("t-1") == {
        actor(fingerprint(anna)): "Anna",
        actor(fingerprint(unlabelled)): None,
    }
    assert tokens.labels("t-3") == {}


async def test_authorize_by_the_bearer_header(tokens: Tokens) -> None:
    token = tokens.create("t-1")
    assert await authorize(f"Bearer {token}", tokens, "t-1") == actor(fingerprint(token))
    with pytest.raises(WrongTournament):
        await authorize(f"Bearer {token}", tokens, "t-2")
    tokens.revoke(token)
    with pytest.raises(NotAuthenticated, match="unknown or revoked"):
        await authorize(f"Bearer {token}", tokens, "t-1")


def test_tokens_outlive_the_store_that_made_them(target: str) -> None:
    with open_tokens(target) as first:
        token = first.create("t-1", label="Anna")
    with open_tokens(target) as again:
        assert again.scope(token) == "t-1"
        assert again.labels("t-1") == {actor(fingerprint(token)): "Anna"}


def test_only_the_hash_is_stored_in_postgres(pg_url: str) -> None:
    with open_tokens(pg_url) as tokens:
        token = tokens.create("t-1")
    with psycopg.connect(pg_url, autocommit=True) as conn:
        stored = conn.execute("SELECT sha256, tournament_id FROM tokens").fetchall()
    assert stored == [(fingerprint(token), "t-1")]


def test_an_organiser_token_has_no_tournament(tokens: Tokens) -> None:
    organiser = tokens.create_organiser(label="Club office")
    arbiter = tokens.create("t-1")
    assert organiser.startswith(PREFIX)
    assert tokens.grant(organiser) == Grant("organiser", None)
    assert tokens.grant(arbiter) == Grant("arbiter", "t-1")
    assert tokens.scope(organiser) is None  # it reads and writes no tournament
    assert tokens.labels("") == {}  # nor is it any tournament's token in the audit trail
    assert tokens.revoke(organiser) is True
    assert tokens.grant(organiser) is None


def test_the_first_organiser_token_is_made_once_revoked_or_not(tokens: Tokens) -> None:
    first = tokens.create_first_organiser()
    assert first is not None and tokens.grant(first) == Grant("organiser", None)
    assert tokens.create_first_organiser() is None
    tokens.revoke(first)
    assert tokens.create_first_organiser() is None  # a store's first start is past
    another = tokens.create_organiser()  # `livetb token create --organiser`
    assert tokens.grant(another) == Grant("organiser", None)


def test_arbiter_tokens_made_first_do_not_count_as_an_organiser(tokens: Tokens) -> None:
    tokens.create("t-1")
    assert tokens.create_first_organiser() is not None


async def test_an_organiser_token_creates_but_writes_to_no_tournament(tokens: Tokens) -> None:
    organiser = tokens.create_organiser()
    arbiter = tokens.create("t-1")
    bearer = f"Bearer {organiser}"
    expected = Creator(f"organiser:{fingerprint(organiser)[:8]}", organiser=True)
    assert await authorize_creation(bearer, tokens, "t-new") == expected
    with pytest.raises(OrganiserToken, match="only creates tournaments") as refused:
        await authorize(bearer, tokens, "t-1")
    assert status_of(refused.value) == 403
    # An arbiter token creates only the tournament it was made for.
    assert await authorize_creation(f"Bearer {arbiter}", tokens, "t-1") == Creator(
        actor(fingerprint(arbiter)), organiser=False
    )
    with pytest.raises(WrongTournament):
        await authorize_creation(f"Bearer {arbiter}", tokens, "t-new")
    tokens.revoke(organiser)
    with pytest.raises(NotAuthenticated):
        await authorize_creation(bearer, tokens, "t-new")


def test_a_sqlite_store_from_before_organiser_tokens_keeps_its_tokens(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as conn:  # the table as stores made before the kinds had it
        conn.execute(
            "CREATE TABLE tokens (sha256 TEXT PRIMARY KEY NOT NULL, tournament_id TEXT NOT "
            "NULL, created_at TEXT NOT NULL, revoked_at TEXT, label TEXT)"
        )
        conn.execute(
            "INSERT INTO tokens VALUES (?, 't-1', '2025-05-01T10:00:00+00:00', NULL, 'Anna')",
            (fingerprint("ltb_old"),),
        )
    conn.close()
    with TokenStore(db) as tokens:
        assert tokens.grant("ltb_old") == Grant("arbiter", "t-1")
        assert tokens.labels("t-1") == {actor(fingerprint("ltb_old")): "Anna"}
        assert tokens.create_first_organiser() is not None


def test_a_postgres_store_from_before_organiser_tokens_keeps_its_tokens(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:  # a store at migration 1
        conn.execute(
            "CREATE TABLE schema_version (version integer PRIMARY KEY, "
            "applied_at timestamptz NOT NULL DEFAULT now())"
        )
        for step in MIGRATIONS[0]:
            conn.execute(step)
        conn.execute("INSERT INTO schema_version (version) VALUES (1)")
        conn.execute(
            "INSERT INTO tokens (sha256, tournament_id, created_at, label) "
            "VALUES (%s, 't-1', now(), 'Anna')",
            (fingerprint("ltb_old"),),
        )
    with open_tokens(pg_url) as tokens:
        assert tokens.grant("ltb_old") == Grant("arbiter", "t-1")
        assert tokens.labels("t-1") == {actor(fingerprint("ltb_old")): "Anna"}
        organiser = tokens.create_first_organiser()
        assert organiser is not None
    with psycopg.connect(pg_url, autocommit=True) as conn:
        rows = conn.execute("SELECT kind, tournament_id FROM tokens ORDER BY kind").fetchall()
        assert rows == [("arbiter", "t-1"), ("organiser", "")]
        # An organiser's row names no tournament: the schema refuses one that does.
        with pytest.raises(psycopg.errors.CheckViolation):
            conn.execute(
                "INSERT INTO tokens (sha256, kind, tournament_id, created_at) "
                "VALUES ('x', 'organiser', 't-1', now())"
            )
