"""`TokenStore`: the tokens (`livetb.tokens.store.Tokens`) in the `tokens` table of the event
store's SQLite file; only a token's sha256 is kept."""

from __future__ import annotations

import datetime as dt
import sqlite3
import threading
from pathlib import Path

from sqlite_utils import Database

from livetb.events.sqlite import create_private, writing
from livetb.tokens.store import (
    ARBITER,
    NO_TOURNAMENT,
    ORGANISER,
    Grant,
    Kind,
    TokenTable,
    actor,
    fingerprint,
    grant_of,
    new_token,
)


class TokenStore(TokenTable):
    """`Tokens` in SQLite: the `tokens` table: sha256 of the token, its kind (arbiter or
    organiser), its tournament ("" for an organiser's), when created and revoked, and an
    optional label (who holds it), which the audit trail shows beside the token's writes."""

    def __init__(self, path: str | Path, *, timeout: float = 10.0) -> None:
        self._lock = threading.Lock()
        create_private(path)  # token hashes: owner only, like the events
        self._conn = sqlite3.connect(str(path), timeout=timeout, check_same_thread=False)
        self._db = Database(self._conn)
        with writing(self._conn):  # several processes may open a new file at once
            self._create_table()

    def _create_table(self) -> None:
        tokens = self._db.table("tokens")
        tokens.create(
            {
                "sha256": str,
                "tournament_id": str,
                "created_at": str,
                "revoked_at": str,
                "label": str,
                "kind": str,
            },
            pk="sha256",
            not_null={"sha256", "tournament_id", "created_at", "kind"},
            defaults={"kind": ARBITER},
            if_not_exists=True,
        )
        columns = tokens.columns_dict
        if "label" not in columns:  # a store from before labels
            tokens.add_column("label", str)
        if "kind" not in columns:  # a store from before organiser tokens: all arbiters'
            tokens.add_column("kind", str, not_null_default=ARBITER)

    def _insert(self, kind: Kind, tournament_id: str, label: str | None) -> str:
        token = new_token()
        with self._lock, self._conn:
            self._conn.execute(
                "INSERT INTO tokens (sha256, kind, tournament_id, created_at, label) "
                "VALUES (?, ?, ?, ?, ?)",
                (fingerprint(token), kind, tournament_id, _now(), label),
            )
        return token

    def create_first_organiser(self) -> str | None:
        token = new_token()
        with self._lock, writing(self._conn) as conn:  # BEGIN IMMEDIATE: one writer decides
            cur = conn.execute(
                "INSERT INTO tokens (sha256, kind, tournament_id, created_at) "
                "SELECT ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM tokens WHERE kind = ?)",
                (fingerprint(token), ORGANISER, NO_TOURNAMENT, _now(), ORGANISER),
            )
        return token if cur.rowcount == 1 else None

    def labels(self, tournament_id: str) -> dict[str, str | None]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT sha256, label FROM tokens WHERE tournament_id = ? AND kind = ?",
                (tournament_id, ARBITER),
            ).fetchall()
        return {actor(str(sha)): label for sha, label in rows}

    def revoke(self, token: str) -> bool:
        with self._lock, self._conn:
            cur = self._conn.execute(
                "UPDATE tokens SET revoked_at = ? WHERE sha256 = ? AND revoked_at IS NULL",
                (_now(), fingerprint(token)),
            )
        return cur.rowcount == 1

    def grant(self, token: str) -> Grant | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT kind, tournament_id FROM tokens WHERE sha256 = ? AND revoked_at IS NULL",
                (fingerprint(token),),
            ).fetchone()
        return None if row is None else grant_of(str(row[0]), str(row[1]))

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()
