"""TRF-16 and TRF-2026 files (TRF.md): read into a `Tournament`, every problem located.

`records` turns bytes into tagged lines and holds the shared shapes, `reader` reads the header
and player records, `checks` checks the records against each other, `teams` reads the team
records and rebuilds the matches.
"""

from livetb.trf.reader import load_trf, parse_trf
from livetb.trf.records import TeamRecord, TrfImport

__all__ = ["TeamRecord", "TrfImport", "load_trf", "parse_trf"]
