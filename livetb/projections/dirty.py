"""Which cells of which rows an event changes (`Dirty`), and those cells computed again
(`computing`): a result the cells its players and their opponents reach (`affected_cells`), a
pairing every row's but those an unfinished game leaves as they were (`skipping_unfinished`).
Besides the tie-breaks' indices, two cells per row: the projected BH and the FB prediction."""

from __future__ import annotations

import operator
from collections.abc import Collection, Iterable, Mapping, Sequence

from livetb.engine.catalogue import Tiebreak, tiebreak_of
from livetb.engine.context import Context
from livetb.engine.model import Code, Participant
from livetb.engine.spec import Spec
from livetb.engine.standings import affected_by, column
from livetb.projections.close import closed_cells
from livetb.projections.contexts import Contexts
from livetb.projections.lines import (
    BH_BIT,
    FB_BIT,
    Line,
    Shown,
    Touched,
    set_column,
    set_extra,
    shown,
)
from livetb.projections.steps import Steps, chunks
from livetb.projections.views import view_of
from livetb.wire.standings import Value

BH = Spec("BH")
FB = Spec("FB")
# Two more cells per row, next to the tie-break list's indices.
PROJECTED_BH, FB_PREDICTION = -1, -2

Dirty = dict[int, Collection[int]]  # cell index (a tie-break's, or the two extra) -> start nos


def every(
    nos: Collection[int], tbs: Sequence[Tiebreak], cells: Iterable[int], *extra: int
) -> Dirty:
    """`cells` (not DE's: decided per tied group) and the `extra` ones, of every row `nos`."""
    dirty: Dirty = {i: nos for i in cells if not tbs[i].group}
    dirty.update((i, nos) for i in extra)
    return dirty


def skipping_unfinished(
    tbs: Sequence[Tiebreak],
    participants: Mapping[int, Participant],
    dirty: Dirty,
    live: Context,
    chunk: int,
) -> Steps[None]:
    """At a pairing, the counts of rounds scored as a win (`counts_wins`) cannot change for a
    participant whose new round is an unfinished game when such a game does not score a win,
    nor the points when it scores an exact 0 (the same sum, exponent included): only the other
    participants' (byes, forfeits) are recomputed. Pieces of `chunk` rows."""
    pending = live.scoring.points(Code.PENDING)
    no_win = pending != live.win
    no_points = pending == 0 and pending.as_tuple().exponent == 0
    skip = [
        i for i, tb in enumerate(tbs) if (no_win and tb.counts_wins) or (no_points and tb.score)
    ]
    if not skip:
        return
    by_no, rnd = live.by_no, live.upto
    nos: list[int] = []
    for part in chunks(list(participants), chunk):
        nos += [no for no in part if by_no[no].entry(rnd).code is not Code.PENDING]
        yield
    for i in skip:
        dirty[i] = nos


def read_on_live(ctx: Contexts, specs: Sequence[Spec], dirty: Dirty) -> Collection[int]:
    """The rows whose `dirty` cells are read on `live`, or on `fore`, which is made from it
    (not while FB is read on `projected`: `Contexts.source`), found without making `fore`."""

    def on_live(i: int) -> bool:
        if i == PROJECTED_BH:
            return False
        view = view_of("FB" if i == FB_PREDICTION else specs[i].code, ctx.running)
        return view == "live" or (view == "fore" and not ctx.drawn_fore)

    found = {id(nos): nos for i, nos in dirty.items() if on_live(i)}
    if len(found) == 1:
        return next(iter(found.values()))
    return set().union(*found.values())


def affected_cells(
    ctx: Contexts,
    specs: Sequence[Spec],
    tbs: Sequence[Tiebreak],
    changed: frozenset[int],
    rnd: int,
    fore_blind: bool,
    projected: bool,
    unsettled: set[int],
) -> Dirty:
    """The cells a change to round `rnd` of `changed` can affect: not FB when the change is
    one `fore_blind` (FB predictions do not read it), not the projected BH when the
    `projected` context did not change. The rows whose close values it reaches join
    `unsettled` (`StandingsProjection.settle`)."""
    found: dict[tuple[int, int | None], frozenset[int]] = {}

    def affected(source: Context, spec: Spec) -> frozenset[int]:
        """`affected_by`, once per context and reach (BH, its cuts and FB: one hop)."""
        key = (id(source), tiebreak_of(spec).reach)
        nos = found.get(key)
        if nos is None:
            nos = found[key] = affected_by(source, spec, changed)
        return nos

    cells: Dirty = {}
    for i, (spec, tb) in enumerate(zip(specs, tbs, strict=True)):
        if tb.group or (tb.fore and fore_blind):
            continue  # DE is recomputed per tied group while ranking
        if tb.type_c:
            if rnd <= ctx.closed:  # a correction to a closed round
                cells[i] = affected(ctx.done, spec)
        else:
            cells[i] = affected(ctx.live, spec)
    if projected:
        cells[PROJECTED_BH] = affected(ctx.live, BH)
        if ctx.running:  # the close's values: `projected` has `live`'s pairings
            closing = closed_cells(tuple(specs), ctx.live.edition, ctx.projected.final)
            for spec in closing.values():
                unsettled.update(affected(ctx.live, spec))
    if not fore_blind:
        cells[FB_PREDICTION] = affected(ctx.live, FB)
    return cells


def computing(
    ctx: Contexts,
    specs: Sequence[Spec],
    tbs: Sequence[Tiebreak],
    lines: dict[int, Line],
    dirty: Dirty,
    touched: Touched,
    moved: set[int],
    chunk: int,
) -> Steps[None]:
    """The `dirty` cells into `lines` (`touched`: the rows changed and their cells, `moved`:
    those whose sort key changed), one column after the other (as at once: the rows they
    change are recorded in the same order), a piece of `chunk` rows at a time; the columns
    that share their rows (a pairing's, a close's: everybody) share its pieces."""
    memo: dict[tuple[int, Spec], dict[int, tuple[Sequence[int], Shown]]] = {}

    def known(source: Context, spec: Spec, nos: Sequence[int]) -> Shown:
        """`column`, as `shown`, once per context, tie-break and piece within one event: the
        FB prediction is FB's running value, and at a pairing also the projected BH, and once
        every round is closed the projected BH is BH (the same rows in the same order: the
        values are reused as they are, not looked up row by row)."""
        made_for = memo.setdefault((id(source), spec), {})
        got = made_for.get(id(nos))
        if got is not None and got[0] is nos:
            return got[1]
        if len(made_for) == 1:  # other rows, at once: reused if it has these
            ((done, (values, parts)),) = made_for.values()
            if len(done) == len(nos) and all(map(operator.eq, done, nos)):
                return values, parts
            at = {no: k for k, no in enumerate(done)}
            if all(no in at for no in nos):
                return [values[at[no]] for no in nos], [parts[at[no]] for no in nos]
        made = shown(column(source, spec, nos))
        made_for[id(nos)] = (nos, made)
        return made

    pieces: dict[int, list[Sequence[int]]] = {}  # the same rows -> the same pieces
    for i, nos in dirty.items():
        parts = pieces.get(id(nos))
        if parts is None:
            parts = pieces[id(nos)] = list(chunks(list(nos), chunk))
        for part in parts:
            if i == PROJECTED_BH:
                set_extra(lines, part, known(ctx.projected, BH, part)[0], touched, BH_BIT)
            elif i == FB_PREDICTION:
                values: list[Value] = (
                    known(*ctx.source(FB), part)[0] if ctx.running else [None] * len(part)
                )
                set_extra(lines, part, values, touched, FB_BIT)
            elif not tbs[i].group:  # DE: decided per tied group (`groups.py`)
                set_column(lines, i, part, known(*ctx.source(specs[i]), part), touched, moved)
            yield
