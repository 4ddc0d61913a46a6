"""`python -m livetb`: the same as the `livetb` command."""

from livetb.cli import run

run()
