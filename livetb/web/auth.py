"""Arbiter tokens: one tournament each, shown once, stored as sha256 beside the events (the
store's SQLite file, or the `tokens` table of its PostgreSQL schema: `livetb/web/auth_pg.py`).

    tokens = open_tokens("livetb.sqlite")       # livetb.events.open: a TokenStore here
    token = tokens.create("t-3f9c01ab", label="Anna")  # `livetb token create` prints this
    await authorize(f"Bearer {token}", tokens, "t-3f9c01ab")  # -> "arbiter:1a2b3c4d"
    tokens.revoke(token)                         # `livetb token revoke`

Writes need a token for their tournament: none, unknown or revoked is 401, another
tournament's is 403. Reads are public, except those of a private tournament, which need one of
its tokens too (`Authorization: Bearer`, or `?access_token=` where headers cannot be set, as
for a browser's websocket).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import secrets
import sqlite3
import threading
from pathlib import Path
from typing import Protocol

from sqlite_utils import Database

from livetb.errors import NotAuthenticated, WrongTournament
from livetb.events.sqlite import create_private, writing

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


class TokenStore:
    """`Tokens` in SQLite: the `tokens` table: sha256 of the token, its tournament, when
    created and revoked, and an optional label (who holds it), which the audit trail shows
    beside the token's writes."""

    def __init__(self, path: str | Path, *, timeout: float = 10.0) -> None:
        self._lock = threading.Lock()
        create_private(path)  # token hashes: owner only, like the events
        self._conn = sqlite3.connect(str(path), timeout=timeout, check_same_thread=False)
        self._db = Database(self._conn)
        with writing(self._conn):  # several processes may open a new file at once
            self._create_table()

    def _create_table(self) -> None:
        self._db["tokens"].create(  # type: ignore[union-attr]
            {
                "sha256": str,
                "tournament_id": str,
                "created_at": str,
                "revoked_at": str,
                "label": str,
            },
            pk="sha256",
            not_null={"sha256", "tournament_id", "created_at"},
            if_not_exists=True,
        )
        if "label" not in self._db["tokens"].columns_dict:  # a store from before labels
            self._db["tokens"].add_column("label", str)  # type: ignore[union-attr]

    def __enter__(self) -> TokenStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def create(self, tournament_id: str, label: str | None = None) -> str:
        token = new_token()
        with self._lock, self._conn:
            self._conn.execute(
                "INSERT INTO tokens (sha256, tournament_id, created_at, label) VALUES (?, ?, ?, ?)",
                (fingerprint(token), tournament_id, _now(), label),
            )
        return token

    def labels(self, tournament_id: str) -> dict[str, str | None]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT sha256, label FROM tokens WHERE tournament_id = ?", (tournament_id,)
            ).fetchall()
        return {actor(str(sha)): label for sha, label in rows}

    def revoke(self, token: str) -> bool:
        with self._lock, self._conn:
            cur = self._conn.execute(
                "UPDATE tokens SET revoked_at = ? WHERE sha256 = ? AND revoked_at IS NULL",
                (_now(), fingerprint(token)),
            )
        return cur.rowcount == 1

    def scope(self, token: str) -> str | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT tournament_id FROM tokens WHERE sha256 = ? AND revoked_at IS NULL",
                (fingerprint(token),),
            ).fetchone()
        return None if row is None else str(row[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


async def authorize(
    header: str | None, tokens: Tokens, tournament_id: str, *, what: str = "writes"
) -> str:
    """The actor recorded for a write to `tournament_id` by the `Authorization` header's
    bearer token; 401 or 403 otherwise. The lookup runs in a thread, off the event loop."""
    scheme, _, token = (header or "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise NotAuthenticated(f"{what} need an arbiter token: Authorization: Bearer <token>")
    scope = await asyncio.to_thread(tokens.scope, token)
    if scope is None:
        raise NotAuthenticated("unknown or revoked token")
    if scope != tournament_id:
        raise WrongTournament(tournament_id)
    return actor(fingerprint(token))


def actor(sha256: str) -> str:
    """What the log records as the author of a token's writes: never the token itself."""
    return f"arbiter:{sha256[:8]}"
