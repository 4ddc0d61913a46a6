"""What a PostgreSQL URL names, in words an operator checks at a glance: the database, the
host and port, the schema, as libpq resolves them (the URL, else `PG*` variables and libpq's
defaults), never the password. Faults name their store with it (`livetb/events/postgres.py`):
a URL may leave out what a 503 or a start-up failure has to say.

    described("postgresql://app:pw@db.example:5433/chess?options=-csearch_path%3Dclub")
    # -> Said("store.pg.database_user", ...): "PostgreSQL database chess on db.example:5433,
    #    schema club, user app"
"""

from __future__ import annotations

import re

import psycopg
from psycopg import pq
from psycopg.conninfo import conninfo_to_dict

from livetb.errors import Said, StoreUnavailable
from livetb.events.target import shown

_SEARCH_PATH = re.compile(r"-c\s*search_path=((?:\\.|[^\s\\])+)")


def checked(url: str) -> None:
    """A URL libpq cannot parse is refused (`StoreUnavailable`, one line, password masked):
    no wait for the database makes it usable."""
    try:
        conninfo_to_dict(url)
    except psycopg.Error as err:
        raise StoreUnavailable(shown(url), " ".join(str(err).split())) from None


def described(url: str, schema: str | None = None) -> Said | None:
    """The store `url` names (`schema` when known, e.g. once the store is open: a role's own
    search_path may differ from what the URL says); None for a URL libpq cannot parse."""
    try:
        given = {k: str(v) for k, v in conninfo_to_dict(url).items()}
    except psycopg.Error:
        return None
    defaults = {
        o.keyword.decode(): o.val.decode() for o in pq.Conninfo.get_defaults() if o.val is not None
    }

    def value(key: str) -> str | None:
        return given.get(key) or defaults.get(key)

    user = value("user")
    host = value("host") or value("hostaddr")
    port = value("port") or "5432"
    where: str | Said
    if host is None:
        where = Said("store.pg.local_socket")
    elif host.startswith("/"):
        where = Said("store.pg.socket_dir", dir=host, port=port)
    elif "," in host:
        where = Said("store.pg.hosts", hosts=host, ports=port)
    else:
        where = f"{host}:{port}"
    if schema is None:
        # as the store picks it (`postgres.target_schema`): the first name but `$user`
        found = _SEARCH_PATH.search(value("options") or "")
        names = found.group(1).replace("\\", "").split(",") if found else []
        schema = next((n.strip('" ') for n in names if n.strip() not in ("", "$user")), "public")
    database = str(value("dbname") or user)
    if user:
        return Said(
            "store.pg.database_user", database=database, where=where, schema=schema, user=user
        )
    return Said("store.pg.database", database=database, where=where, schema=schema)
