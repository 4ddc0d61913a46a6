from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import sql

# The PostgreSQL the `pg_url` tests use; their cases skip only when none answers there.
PG_BASE = os.environ.get("LIVETB_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
_pg_down: list[str] = []  # why PostgreSQL is unusable, once known


def pg_admin() -> psycopg.Connection:
    """An autocommit connection to PG_BASE as its owner; skips the test if none answers."""
    if _pg_down:
        pytest.skip(_pg_down[0])
    try:
        return psycopg.connect(PG_BASE, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as err:
        why = " ".join(str(err).split())
        _pg_down.append(f"no PostgreSQL answers at {PG_BASE} (set LIVETB_PG_URL): {why}")
        pytest.skip(_pg_down[0])


def in_schema(base: str, schema: str) -> str:
    """`base` with libpq's options naming `schema` as the search_path."""
    return f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}"


@pytest.fixture
def pg_schema() -> Iterator[str]:
    """A fresh schema name `t_<hex>`, created, and dropped with everything in it after."""
    schema = f"t_{secrets.token_hex(6)}"
    with pg_admin() as admin:
        admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    yield schema
    with pg_admin() as admin:
        admin.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture
def pg_url(pg_schema: str) -> str:
    """A PostgreSQL URL whose store lives in a schema of its own (see `pg_schema`)."""
    return in_schema(PG_BASE, pg_schema)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the conformance tally, `P/T checks agree`, after the run."""
    from tests.test_conformance import TALLY

    if TALLY.total:
        pct = 100 * TALLY.agree / TALLY.total
        terminalreporter.write_line(
            f"conformance: {TALLY.agree}/{TALLY.total} checks agree ({pct:.2f} %)"
        )
