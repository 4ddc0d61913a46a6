"""One token contract, both token stores: SQLite's `TokenStore` and `PostgresTokens`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from livetb.errors import NotAuthenticated, WrongTournament
from livetb.tokens.open import open_tokens
from livetb.tokens.store import PREFIX, Tokens, actor, fingerprint
from livetb.web.http.auth import authorize


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
