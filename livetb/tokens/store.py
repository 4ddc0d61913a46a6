"""Tokens, shown once and stored as sha256 beside the events (the store's SQLite file,
`livetb/tokens/sqlite.py`, or the `tokens` table of its PostgreSQL schema,
`livetb/tokens/postgres.py`). Two kinds:

- an **arbiter** token writes to one tournament (and reads it, if it is private);
- an **organiser** token creates tournaments, and nothing else: each creation hands back the
  new tournament's first arbiter token. `livetb serve` makes one on a store's first start.

    tokens = open_tokens("livetb.sqlite")       # livetb.backends: a TokenStore here
    token = tokens.create("t-3f9c01ab", label="Anna")  # `livetb token create` prints this
    tokens.scope(token)                          # -> "t-3f9c01ab"
    tokens.grant(tokens.create_organiser())      # -> Grant("organiser", None)
    tokens.revoke(token)                         # `livetb token revoke`

What a token allows is checked by the server (`livetb/web/http/auth.py`).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Final, Literal, NamedTuple, Protocol, Self

PREFIX = "ltb_"
Kind = Literal["arbiter", "organiser"]
ARBITER: Final = "arbiter"
ORGANISER: Final = "organiser"
# The `tournament_id` column of an organiser token: no tournament id is empty
# (`livetb.web.http.routing.TID`), so no tournament's check ever matches it.
NO_TOURNAMENT: Final = ""


class Grant(NamedTuple):
    """What a live token allows: an arbiter's tournament, or an organiser's creations."""

    kind: Kind
    tournament_id: str | None  # None for an organiser token


def fingerprint(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def grant_of(kind: str, tournament_id: str) -> Grant:
    """A stored row's grant (rows written before the kinds existed are arbiters')."""
    if kind == ORGANISER:
        return Grant(ORGANISER, None)
    return Grant(ARBITER, tournament_id)


class Tokens(Protocol):
    """Where tokens live. Implementations: TokenStore (SQLite), PostgresTokens."""

    def __enter__(self) -> Tokens: ...

    def __exit__(self, *exc: object) -> None: ...

    def create(self, tournament_id: str, label: str | None = None) -> str:
        """A new arbiter token for `tournament_id`; only its hash (and `label`) is kept."""
        ...

    def create_organiser(self, label: str | None = None) -> str:
        """A new organiser token; only its hash (and `label`) is kept."""
        ...

    def create_first_organiser(self) -> str | None:
        """An organiser token if the store has never had one (revoked ones count), else None;
        atomic, so that two servers starting at once on a new store print one token."""
        ...

    def labels(self, tournament_id: str) -> dict[str, str | None]:
        """Every arbiter token of `tournament_id` (revoked ones too: their writes stay in the
        log) as the actor its writes record, with its label."""
        ...

    def revoke(self, token: str) -> bool:
        """Revoke `token`; False if it is unknown or already revoked."""
        ...

    def grant(self, token: str) -> Grant | None:
        """What a live token allows; None if unknown or revoked."""
        ...

    def scope(self, token: str) -> str | None:
        """The tournament a live arbiter token is for; None if unknown, revoked or an
        organiser's."""
        ...

    def close(self) -> None: ...


def actor(sha256: str, kind: Kind = ARBITER) -> str:
    """What the log records as the author of a token's writes: never the token itself."""
    return f"{kind}:{sha256[:8]}"


class TokenTable:
    """What every token store derives from its own insert and lookup (`_insert`, `grant`)."""

    def _insert(self, kind: Kind, tournament_id: str, label: str | None) -> str:
        raise NotImplementedError

    def grant(self, token: str) -> Grant | None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def create(self, tournament_id: str, label: str | None = None) -> str:
        return self._insert(ARBITER, tournament_id, label)

    def create_organiser(self, label: str | None = None) -> str:
        return self._insert(ORGANISER, NO_TOURNAMENT, label)

    def scope(self, token: str) -> str | None:
        found = self.grant(token)
        return None if found is None else found.tournament_id
