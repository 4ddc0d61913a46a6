from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

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


# The markers of a whole folder (`pytest -m "not browser"` leaves Chromium out, etc.).
FOLDER_MARKERS = {"browser": "browser", "nodes": "nodes", "campaign": "campaign"}
PG_FIXTURES = {"pg_url", "pg_schema"}
TESTS = Path(__file__).resolve().parent


def _uses_postgres(item: pytest.Item, path: Path) -> bool:
    """A PostgreSQL module, a test that takes a schema, or a store's `postgres` variant."""
    if path.name.startswith(("test_postgres", "test_pg_")):
        return True
    if PG_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and "postgres" in callspec.params.values()


@pytest.hookimpl(tryfirst=True)  # before -m selects by them
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The folder markers and `postgres`."""
    for item in items:
        path = item.path.resolve().relative_to(TESTS)
        folder = path.parts[0] if len(path.parts) > 1 else ""
        if folder in FOLDER_MARKERS:
            item.add_marker(FOLDER_MARKERS[folder])
        if _uses_postgres(item, path):
            item.add_marker("postgres")


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist's, absent with -p no:xdist
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`--dist loadgroup` (scripts/test.sh): each browser module on one worker, every other
    test on its own. A browser module's tests share one Chromium and one server (fixtures of
    the module's scope), so one worker starts them once. (xdist's own loadgroup reads
    `xdist_group` marks through a node id that pytest 9 no longer lets it rewrite.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class BrowserModules(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module.startswith("tests/browser/") else nodeid

    return BrowserModules(config, log)


# The conformance tally, added up from each test's report: with xdist the tests run in the
# workers, and only the reports reach the process that prints the summary.
_CONFORMANCE = [0, 0]  # checks that agree, checks


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call":
        for name, value in report.user_properties:
            if name == "conformance":
                agree, total = cast(tuple[int, int], value)
                _CONFORMANCE[0] += agree
                _CONFORMANCE[1] += total


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the conformance tally, `P/T checks agree`, after the run."""
    agree, total = _CONFORMANCE
    if total:
        pct = 100 * agree / total
        terminalreporter.write_line(f"conformance: {agree}/{total} checks agree ({pct:.2f} %)")
