from __future__ import annotations

import pytest


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the conformance tally, `P/T checks agree`, after the run."""
    from tests.test_conformance import TALLY

    if TALLY.total:
        pct = 100 * TALLY.agree / TALLY.total
        terminalreporter.write_line(
            f"conformance: {TALLY.agree}/{TALLY.total} checks agree ({pct:.2f} %)"
        )
