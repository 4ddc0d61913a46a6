"""Open the event store a target names: a `postgresql://` (or
`postgres://`) URL is PostgreSQL, anything else the path of a SQLite file.

    store = open_store("livetb.sqlite")
    store = open_store("postgresql://livetb@db.example/livetb?options=-csearch_path%3Dclub")

A URL's schema is the first name of its search_path (libpq's `options=-csearch_path%3DNAME`),
else `public`; it is created if missing. psycopg is imported only for a URL.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from livetb.events.store import EventStore

_SCHEMES = ("postgresql://", "postgres://")


def is_url(target: str) -> bool:
    """Whether `target` names a PostgreSQL database rather than a SQLite file."""
    return target.startswith(_SCHEMES)


def shown(target: str) -> str:
    """`target` as it may be printed or logged: a URL's password masked."""
    if not is_url(target):
        return target
    target = re.sub(r"^(postgres(?:ql)?://[^:/@?]*):[^@/?]*@", r"\1:***@", target)
    return re.sub(r"([?&]password=)[^&]*", r"\1***", target)


def open_store(target: str) -> EventStore:
    if is_url(target):
        from livetb.events.postgres import PostgresStore

        return PostgresStore(target)
    from livetb.events.sqlite import SqliteStore

    return SqliteStore(target)
