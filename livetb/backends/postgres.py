"""PostgreSQL: a `postgresql://` or `postgres://` URL (`livetb/events/postgres.py`,
`livetb/tokens/postgres.py`). psycopg is imported only once a URL is used."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from livetb.errors import LivetbError, StoreUnavailable
from livetb.events.target import shown

if TYPE_CHECKING:
    from livetb.events.changes import ChangeSignal
    from livetb.events.store import EventStore
    from livetb.tokens.store import Tokens

SCHEMES = ("postgresql://", "postgres://")


class Postgres:
    name = "postgresql"

    def claims(self, target: str) -> bool:
        return target.startswith(SCHEMES)

    def store(self, target: str) -> EventStore:
        from livetb.events.postgres import PostgresStore

        return PostgresStore(target)

    def tokens(self, target: str) -> Tokens:
        from livetb.tokens.postgres import PostgresTokens

        return PostgresTokens(target)

    def changes(self, target: str, interval: float) -> ChangeSignal:
        from livetb.events.postgres import PostgresChanges

        return PostgresChanges(target)  # LISTEN: told, not polled

    def exists(self, target: str) -> bool:
        return True  # the schema is created on open

    def checked(self, target: str) -> None:
        from livetb.events.postgres_target import checked

        checked(target)

    def fault(self, target: str, err: BaseException) -> LivetbError | None:
        psycopg = sys.modules.get("psycopg")  # loaded only if a store is PostgreSQL
        if psycopg is None or not isinstance(err, psycopg.Error):
            return None
        if isinstance(err, psycopg.IntegrityError):
            return None
        from livetb.events.postgres import fault, named

        reason = named(target, " ".join(str(err).split()))
        return fault(target, err, broken=False) or StoreUnavailable(shown(target), reason)

    def waitable(self, err: LivetbError) -> bool:
        return isinstance(err, StoreUnavailable)  # the server away, or starting
