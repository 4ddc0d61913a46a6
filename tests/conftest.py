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
# The slowest tests, from `--durations` of a whole run on the 2 shared CPUs (each over 15 s
# there): `-m "not slow"` leaves them out. A name without [...] is every case of the test;
# tests/test_markers.py checks that each still names one.
SLOW = {
    "tests/browser/test_card.py::test_a_card_reopened_offline_shows_the_last_card",
    "tests/browser/test_card.py::test_the_card_leaves_live_when_the_server_freezes_and_is_back_after_a_restart",
    "tests/browser/test_card_prizes.py::test_the_card_shows_category_rank_prize_ranges_and_rating_change",
    "tests/browser/test_console_setup25.py::test_categories_prizes_delay_and_k_through_the_console",
    "tests/browser/test_console_setup25.py::test_italian_console_sets_and_describes_in_italian",
    "tests/browser/test_delay.py::test_the_overlay_shows_a_result_only_after_the_delay",
    "tests/browser/test_event_day.py::test_the_first_hours_of_a_swiss_in_the_browser",
    "tests/browser/test_live_badge.py::test_a_frozen_server_is_noticed_and_its_return_is_live_at_once",
    "tests/browser/test_live_badge.py::test_a_restarted_server_has_every_page_live_again",
    "tests/browser/test_offline.py::test_a_page_reopened_offline_shows_the_last_standings",
    "tests/browser/test_overlay.py::test_the_layout_follows_the_frames_shape",
    "tests/browser/test_overlay_category.py::test_overlay_category_in_a_narrow_column_pages_inside_the_frame",
    "tests/browser/test_pages.py::test_an_open_page_catches_up_after_the_server_restarts",
    "tests/browser/test_pages.py::test_standings_and_card_fit_a_phone_with_twelve_columns",
    "tests/browser/test_pairing_order.py::test_printed_pairings_show_boards_scores_and_results",
    "tests/browser/test_screen.py::test_pairings_come_second_with_points_and_readable_boards",
    "tests/campaign/test_api_fuzz.py::test_generated_requests_never_5xx_and_errors_change_nothing",
    "tests/campaign/test_crash.py::test_acknowledged_writes_survive_sigkill",
    "tests/campaign/test_ws_abuse.py::test_the_server_keeps_serving_a_viewer_through_abuse",
    "tests/cli/test_server.py::test_serve_prints_the_organiser_token_on_a_stores_first_start_only",
    "tests/cli/test_sync.py::test_every_file_of_the_event_syncs_to_its_own_standings[swiss-1007]",
    "tests/cli/test_sync.py::test_watch_syncs_every_saved_version_once_and_never_a_half_written_one",
    "tests/interchange/test_export.py::test_corpus_round_trip_at_every_round[individual-swiss/swiss-1007.expected]",
    "tests/interchange/test_sync_real.py::test_every_file_of_a_real_event_syncs_to_its_own_standings[lichess-zulfikar-bullet-2020]",
    "tests/interchange/test_sync_real.py::test_every_file_of_a_real_event_syncs_to_its_own_standings[mannheim-1914]",
    "tests/interchange/test_sync_real.py::test_every_file_of_a_real_event_syncs_to_its_own_standings[world-blitz-open-2021]",
    "tests/nodes/test_audience.py::test_the_audience_benchmark_counts_every_delta_at_every_viewer_of_both_nodes",
    "tests/nodes/test_outage.py::test_three_nodes_ride_out_a_postgresql_outage_during_a_write_storm",
    "tests/nodes/test_pg_nodes.py::test_three_postgres_nodes_survive_a_killed_node_and_agree",
    "tests/nodes/test_pg_resume.py::test_a_thousand_viewers_resume_on_the_other_nodes_when_one_is_killed",
    "tests/nodes/test_sqlite_nodes.py::test_two_sqlite_nodes_no_unrequested_conflicts_and_viewers_agree",
    "tests/nodes/test_workers.py::test_workers_wait_for_a_store_that_is_down_at_the_first_start",
    "tests/nodes/test_workers.py::test_workers_wait_for_the_store_through_an_outage",
    "tests/projections/test_conformance_replay.py::test_replayed_log_matches_the_reference[swiss-1007]",
    "tests/projections/test_conformance_replay.py::test_replayed_log_matches_the_reference[team-rr-1303]",
    "tests/projections/test_conformance_replay.py::test_replayed_log_matches_the_reference[team-rr-1304]",
    "tests/projections/test_conformance_replay.py::test_replayed_log_matches_the_reference[team-swiss-1202]",
    "tests/projections/test_conformance_replay.py::test_replayed_log_matches_the_reference[team-swiss-1203]",
    "tests/projections/test_conformance_replay.py::test_replayed_log_matches_the_reference[team-swiss-1204]",
    "tests/projections/test_conformance_replay.py::test_replayed_log_matches_the_reference[team-swiss-1205]",
    "tests/projections/test_conformance_replay.py::test_replayed_log_matches_the_reference[team-swiss-1206]",
    "tests/projections/test_incremental.py::test_a_large_field_keeps_its_order_and_ties_incrementally",
    "tests/projections/test_incremental.py::test_incremental_equals_recomputation_after_every_event",
    "tests/projections/test_incremental.py::test_late_entries_keep_the_incremental_standings_equal_to_a_rebuild",
    "tests/projections/test_outlook.py::test_every_outcome_of_the_open_boards_lands_in_the_stated_range",
    "tests/projections/test_prize_outlook.py::test_all_eight_boards_open_with_overlapping_categories",
    "tests/projections/test_prize_outlook.py::test_every_outcome_of_the_open_boards_pays_within_the_stated_prizes",
    "tests/projections/test_team_incremental.py::test_every_event_equals_the_table_from_scratch[wide-team-swiss-1202]",
    "tests/test_conformance.py::test_team_tournament[team-swiss-1206]",
    "tests/web/test_delay.py::test_a_result_reaches_the_public_only_after_the_delay",
}  # fmt: skip
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


def _slow(item: pytest.Item) -> bool:
    return item.nodeid in SLOW or item.nodeid.split("[", 1)[0] in SLOW


@pytest.hookimpl(tryfirst=True)  # before -m selects by them
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The folder markers, `postgres` and `slow`. Across xdist workers, the slow tests out of
    the browser modules go first: started last, one of them would be the run's tail alone."""
    for item in items:
        path = item.path.resolve().relative_to(TESTS)
        folder = path.parts[0] if len(path.parts) > 1 else ""
        if folder in FOLDER_MARKERS:
            item.add_marker(FOLDER_MARKERS[folder])
        if _uses_postgres(item, path):
            item.add_marker("postgres")
        if _slow(item):
            item.add_marker("slow")
    # A worker's option, then the controller's (neither exists without xdist).
    if (
        getattr(config.option, "loadgroup", False)
        or getattr(config.option, "dist", "") == "loadgroup"
    ):
        first = [i for i in items if _slow(i) and not i.nodeid.startswith("tests/browser/")]
        moved = set(first)
        items[:] = first + [i for i in items if i not in moved]


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
