"""Arbiter tokens: one tournament each, shown once, stored as sha256 beside the events (the
store's SQLite file, `livetb/tokens/sqlite.py`, or the `tokens` table of its PostgreSQL schema,
`livetb/tokens/postgres.py`).

    tokens = open_tokens("livetb.sqlite")       # livetb.tokens.open: a TokenStore here
    token = tokens.create("t-3f9c01ab", label="Anna")  # `livetb token create` prints this
    tokens.scope(token)                          # -> "t-3f9c01ab"
    tokens.revoke(token)                         # `livetb token revoke`

What a token allows is checked by the server (`livetb/web/http/auth.py`).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Protocol

PREFIX = "ltb_"


def fingerprint(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return PREFIX + secrets.token_urlsafe(32)


class Tokens(Protocol):
    """Where tokens live. Implementations: TokenStore (SQLite), PostgresTokens."""

    def __enter__(self) -> Tokens: ...

    def __exit__(self, *exc: object) -> None: ...

    def create(self, tournament_id: str, label: str | None = None) -> str:
        """A new token for `tournament_id`; only its hash (and `label`, if given) is kept."""
        ...

    def labels(self, tournament_id: str) -> dict[str, str | None]:
        """Every token of `tournament_id` (revoked ones too: their writes stay in the log)
        as the actor its writes record, with its label."""
        ...

    def revoke(self, token: str) -> bool:
        """Revoke `token`; False if it is unknown or already revoked."""
        ...

    def scope(self, token: str) -> str | None:
        """The tournament a live token is for; None if unknown or revoked."""
        ...

    def close(self) -> None: ...


def actor(sha256: str) -> str:
    """What the log records as the author of a token's writes: never the token itself."""
    return f"arbiter:{sha256[:8]}"
