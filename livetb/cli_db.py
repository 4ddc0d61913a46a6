"""Where `livetb/web/feed.py` still finds `to_json`; the module itself moved to
`livetb/standings_doc.py` (and the CLI to `livetb/cli/`). Remove once the feed imports it
from there."""

from livetb.standings_doc import to_json

__all__ = ["to_json"]
