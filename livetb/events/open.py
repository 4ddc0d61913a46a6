"""Open the event store a target names: a `postgresql://` (or
`postgres://`) URL is PostgreSQL, anything else the path of a SQLite file.

    store = open_store("livetb.sqlite")
    store = open_store("postgresql://livetb@db.example/livetb?options=-csearch_path%3Dclub")

A URL's schema is the first name of its search_path (libpq's `options=-csearch_path%3DNAME`),
else `public`; it is created if missing. psycopg is imported only for a URL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from livetb.events.target import is_url

if TYPE_CHECKING:
    from livetb.events.store import EventStore


def open_store(target: str) -> EventStore:
    if is_url(target):
        from livetb.events.postgres import PostgresStore

        return PostgresStore(target)
    from livetb.events.sqlite import SqliteStore

    return SqliteStore(target)
