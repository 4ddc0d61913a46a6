"""Where code written before the CLI became a package still finds the standings document:
`livetb/web/feed.py` imports `to_json` from here. The document moved to
`livetb/standings_doc.py` (and the CLI to `livetb/cli/`); remove this module once nothing
imports it."""

from livetb.standings_doc import DbStandings, to_json

__all__ = ["DbStandings", "to_json"]
