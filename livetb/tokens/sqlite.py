"""`TokenStore`: the arbiter tokens (`livetb.tokens.store.Tokens`) in the `tokens` table of the
event store's SQLite file; only a token's sha256 is kept."""

from __future__ import annotations

import datetime as dt
import sqlite3
import threading
from pathlib import Path

from sqlite_utils import Database

from livetb.events.sqlite import create_private, writing
from livetb.tokens.store import actor, fingerprint, new_token


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
        tokens = self._db.table("tokens")
        tokens.create(
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
        if "label" not in tokens.columns_dict:  # a store from before labels
            tokens.add_column("label", str)

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
