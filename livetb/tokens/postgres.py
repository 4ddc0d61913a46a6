"""`PostgresTokens`: the tokens (`livetb.tokens.store.Tokens`) in the `tokens` table of the
event store's PostgreSQL schema, created by the store's migrations (`livetb/events/postgres.py`).
Same semantics as the SQLite `TokenStore`: only a token's sha256 is kept."""

from __future__ import annotations

from livetb.events.postgres import Session
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

# Serialises `create_first_organiser` per schema: READ COMMITTED alone would let two servers
# starting at once both see no organiser token.
_FIRST_ORGANISER_LOCK = "livetb:first-organiser:"


class PostgresTokens(TokenTable):
    """`Tokens` in PostgreSQL; safe to share between threads."""

    def __init__(self, url: str) -> None:
        self._db = Session(url, "livetb-tokens")
        self.schema = self._db.schema

    def _insert(self, kind: Kind, tournament_id: str, label: str | None) -> str:
        token = new_token()
        with self._db() as conn:
            conn.execute(
                "INSERT INTO tokens (sha256, kind, tournament_id, created_at, label) "
                "VALUES (%s, %s, %s, now(), %s)",
                (fingerprint(token), kind, tournament_id, label),
            )
        return token

    def create_first_organiser(self) -> str | None:
        token = new_token()
        with self._db() as conn, conn.transaction():
            conn.execute(
                "SELECT pg_advisory_xact_lock(hashtext(%s))", (_FIRST_ORGANISER_LOCK + self.schema,)
            )
            cur = conn.execute(
                "INSERT INTO tokens (sha256, kind, tournament_id, created_at) "
                "SELECT %s, %s, %s, now() WHERE NOT EXISTS (SELECT 1 FROM tokens WHERE kind = %s)",
                (fingerprint(token), ORGANISER, NO_TOURNAMENT, ORGANISER),
            )
        return token if cur.rowcount == 1 else None

    def labels(self, tournament_id: str) -> dict[str, str | None]:
        with self._db() as conn:
            rows = conn.execute(
                "SELECT sha256, label FROM tokens WHERE tournament_id = %s AND kind = %s",
                (tournament_id, ARBITER),
            ).fetchall()
        return {actor(str(sha)): label for sha, label in rows}

    def revoke(self, token: str) -> bool:
        with self._db() as conn:
            cur = conn.execute(
                "UPDATE tokens SET revoked_at = now() WHERE sha256 = %s AND revoked_at IS NULL",
                (fingerprint(token),),
            )
        return cur.rowcount == 1

    def grant(self, token: str) -> Grant | None:
        with self._db() as conn:
            row = conn.execute(
                "SELECT kind, tournament_id FROM tokens WHERE sha256 = %s AND revoked_at IS NULL",
                (fingerprint(token),),
            ).fetchone()
        return None if row is None else grant_of(str(row[0]), str(row[1]))

    def close(self) -> None:
        self._db.close()
