"""`PostgresTokens`: the arbiter tokens (`livetb.tokens.store.Tokens`) in the `tokens` table of the
event store's PostgreSQL schema, created by the store's migration (`livetb/events/postgres.py`).
Same semantics as the SQLite `TokenStore`: only a token's sha256 is kept."""

from __future__ import annotations

from livetb.events.postgres import Session
from livetb.tokens.store import actor, fingerprint, new_token


class PostgresTokens:
    """`Tokens` in PostgreSQL; safe to share between threads."""

    def __init__(self, url: str) -> None:
        self._db = Session(url, "livetb-tokens")
        self.schema = self._db.schema

    def __enter__(self) -> PostgresTokens:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def create(self, tournament_id: str, label: str | None = None) -> str:
        token = new_token()
        with self._db() as conn:
            conn.execute(
                "INSERT INTO tokens (sha256, tournament_id, created_at, label) "
                "VALUES (%s, %s, now(), %s)",
                (fingerprint(token), tournament_id, label),
            )
        return token

    def labels(self, tournament_id: str) -> dict[str, str | None]:
        with self._db() as conn:
            rows = conn.execute(
                "SELECT sha256, label FROM tokens WHERE tournament_id = %s", (tournament_id,)
            ).fetchall()
        return {actor(str(sha)): label for sha, label in rows}

    def revoke(self, token: str) -> bool:
        with self._db() as conn:
            cur = conn.execute(
                "UPDATE tokens SET revoked_at = now() WHERE sha256 = %s AND revoked_at IS NULL",
                (fingerprint(token),),
            )
        return cur.rowcount == 1

    def scope(self, token: str) -> str | None:
        with self._db() as conn:
            row = conn.execute(
                "SELECT tournament_id FROM tokens WHERE sha256 = %s AND revoked_at IS NULL",
                (fingerprint(token),),
            ).fetchone()
        return None if row is None else str(row[0])

    def close(self) -> None:
        self._db.close()
