"""Open the token table a target names, beside the event store `livetb.events.open` opens
there: a `postgresql://` URL is PostgreSQL, anything else the path of a SQLite file."""

from __future__ import annotations

from typing import TYPE_CHECKING

from livetb.events.target import is_url

if TYPE_CHECKING:
    from livetb.tokens.store import Tokens


def open_tokens(target: str) -> Tokens:
    if is_url(target):
        from livetb.tokens.postgres import PostgresTokens

        return PostgresTokens(target)
    from livetb.tokens.sqlite import TokenStore

    return TokenStore(target)
