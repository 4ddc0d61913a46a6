"""livetb as a Python library: a TRF file's standings, or one participant's tie-breaks with
every round's contribution, in one call. `import livetb` re-exports these (lazily: the
command line does not pay for the engine it may not use).

    >>> import livetb
    >>> table = livetb.standings("event.trf", tiebreaks="PTS,BH/C1,BH")
    >>> table.rows[0].rank, table.rows[0].name, table.rows[0].values

Values are `Decimal`s (never floats). A file saved while a round is played (games without a
result) gives the standings after the last complete round, as `livetb standings` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import msgspec

from livetb.engine.catalogue import tiebreak_of
from livetb.engine.context import Context
from livetb.engine.editions import Edition
from livetb.engine.model import Tournament
from livetb.engine.result import Value
from livetb.engine.spec import Spec, parse_list
from livetb.engine.standings import Standings, compute, rank
from livetb.errors import InvalidInput, Said, UnknownParticipant
from livetb.events.schema import DEFAULT_TIEBREAKS
from livetb.trf import TrfImport, parse_trf
from livetb.trf.rounds import with_round_count

Source = Tournament | TrfImport | str | Path | bytes
EditionName = str  # "2026", "2024", "2023" or "legacy"


def read_trf(source: str | Path | bytes, *, rounds: int | None = None) -> TrfImport:
    """A TRF-16 or TRF-2026 file (a path, or its bytes) read and checked; `TrfError` lists
    every problem with its line and columns. `rounds`: the count of a file that declares none."""
    if isinstance(source, bytes):
        imported = parse_trf(source)
        name = "<trf>"
    else:
        imported = parse_trf(Path(source).read_bytes(), source=str(source))
        name = str(source)
    return with_round_count(imported, rounds, name)


def standings(
    source: Source,
    tiebreaks: str | Sequence[str] | None = None,
    *,
    after_round: int | None = None,
    edition: EditionName | None = None,
    as_final: bool = False,
    unrated_rating: int | None = None,
    rounds: int | None = None,
) -> Standings:
    """The ranking by `tiebreaks` (codes such as "PTS,BH/C1,BH,DE"; default: the file's own
    list, else the system's), after round `after_round` (default: the last complete round)."""
    ctx, specs = _context(source, tiebreaks, after_round, edition, as_final, unrated_rating, rounds)
    return rank(ctx, specs)


def explain(
    source: Source,
    start_no: int,
    tiebreaks: str | Sequence[str] | None = None,
    *,
    after_round: int | None = None,
    edition: EditionName | None = None,
    as_final: bool = False,
    unrated_rating: int | None = None,
    rounds: int | None = None,
) -> tuple[Value, ...]:
    """Participant `start_no`'s value of each tie-break, with every round's contribution and
    the rounds a cut dropped (what `livetb standings --explain` prints). A tie-break decided
    within a tied group (DE) has its value and no rounds."""
    ctx, specs = _context(source, tiebreaks, after_round, edition, as_final, unrated_rating, rounds)
    if start_no not in ctx.by_no:
        raise UnknownParticipant(start_no)
    row = next(r for r in rank(ctx, specs).rows if r.start_no == start_no)
    ctx.explain = True
    return tuple(
        Value(row.values[i]) if tiebreak_of(spec).group else compute(ctx, spec, start_no)
        for i, spec in enumerate(specs)
    )


def _context(
    source: Source,
    tiebreaks: str | Sequence[str] | None,
    after_round: int | None,
    edition: EditionName | None,
    as_final: bool,
    unrated_rating: int | None,
    rounds: int | None,
) -> tuple[Context, tuple[Spec, ...]]:
    if isinstance(source, Tournament):
        t = source
        if rounds is not None:
            raise InvalidInput(Said("input.rounds_own"), path="rounds")
    else:
        imported = source if isinstance(source, TrfImport) else read_trf(source, rounds=rounds)
        t = imported.tournament
    listed = tiebreaks if tiebreaks is not None else t.tiebreaks or DEFAULT_TIEBREAKS[t.system]
    specs = parse_list(list(listed) if not isinstance(listed, str) else listed)
    running = t.running_round
    if running is not None:  # a file saved mid-round: the rounds before it, as the CLI reads it
        cut = tuple(
            msgspec.structs.replace(p, entries=p.entries[: running - 1]) for p in t.participants
        )
        t = msgspec.structs.replace(t, participants=cut)
    width = max((len(p.entries) for p in t.participants), default=0)
    upto = t.played_rounds if after_round is None else after_round
    if not 0 <= upto <= width:
        said = Said("input.after_round", round=upto, width=width)
        raise InvalidInput(said, path="after_round")
    ctx = Context(
        t,
        upto,
        edition=Edition(edition) if edition else None,
        as_final=as_final,
        unrated_rating=unrated_rating,
    )
    ctx.explain = False  # the values only: per-round explanations cost most of the time
    return ctx, specs
