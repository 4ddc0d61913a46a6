"""A file's round count where it declares none: the caller's (`livetb standings`/`import`
`--rounds`, the library's `rounds=`), never a guess from its widest round."""

from __future__ import annotations

import msgspec

from livetb.errors import RoundsDiffer
from livetb.trf.records import TrfImport


def with_round_count(imported: TrfImport, given: int | None, source: str) -> TrfImport:
    """The file read with the round count the caller gives (`livetb standings`/`import`
    `--rounds`), for a file that declares none; a file declaring another, or holding more
    rounds, is refused."""
    if given is None:
        return imported
    declared, t = imported.declared_rounds, imported.tournament
    if declared is not None and declared != given:
        raise RoundsDiffer.of("rounds.given_declared", given=given, file=source, declared=declared)
    width = max((len(p.entries) for p in t.participants), default=0)
    if width > given:
        raise RoundsDiffer.of("rounds.wider", given=given, file=source, width=width)
    tournament = msgspec.structs.replace(t, rounds=given)
    return msgspec.structs.replace(imported, tournament=tournament, declared_rounds=given)
