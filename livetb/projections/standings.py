"""Standings folded from the event log, kept current one event at a time.

What each value means and when it changes (C.07 2024 4.3 types):

| tie-breaks                       | computed on                      | status while a round runs |
|----------------------------------|----------------------------------|---------------------------|
| own results, pairing-time data   | rounds 1..K, unfinished games 0  | provisional               |
| (PTS, WIN, …, ARO, TPR, PTP, DE) |                                  |                           |
| opponents' results (type C:      | rounds 1..C, the last closed one | pending                   |
| BH, SB, AOB, KS, APRO, APPO)     |                                  |                           |
| FB                               | rounds 1..K, round K as the last | predicted                 |
|                                  | one with every game a draw       |                           |

K is the last round paired, C the last closed; once K is closed every value is final. Each row
also carries the Fore-Buchholz prediction (while a round runs) and a projected Buchholz (games
finished count as played, games unfinished as draws).

`StandingsProjection.rebuild(log)` defines the standings from scratch (fold every event, then
compute once); `StandingsProjection.apply` reaches the same rows incrementally, recomputing
only the cells an event can affect:

- a result: the two players' own-result cells, the projected BH of them and their opponents
  (not after a draw, which the projection already counted), their DE groups; FB predictions
  do not read the running round's results (except under the legacy rules);
- a pairing: everything but type C (rounds 1..C do not change), the counts of wins and the
  points only for the participants whose new round is not an unfinished game (when such a
  game scores neither a win nor anything), DE's groups only where the points moved them (a
  Swiss round adds no game played inside a group); a close: type C and FB (not FB when the
  final round closes: the prediction was the value), every status. Those values are the
  projected view's once every game is finished (`Contexts.after_close`), so the standings
  the close will publish are prepared between events (`settle`: the server's work once a
  tournament is quiet, a slice of rows at a time; `close.py`), and the close swaps them in,
  taking first the rows an event changed since;
- re-ranking moves the re-keyed rows in an ordered structure (`ranking.py`: O(log n) a row,
  whatever the rows it passes, whose ranks are read from the order and not rebuilt), or sorts
  everything once when many rows moved; a row's rank is read from the order when the row is
  read (`_current`), not when an event changes it; the statuses, the same for every row, are
  told once;
- a row is built anew only when a cell changed, and only the changed cells (a bit each,
  `lines.py`) are compared with the published row; DE regroups only the rows with a changed
  value before its column (`groups.py`).
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Collection, Iterable, Iterator, Mapping

import msgspec

from livetb.engine.catalogue import Tiebreak, tiebreak_of
from livetb.engine.context import Context
from livetb.engine.editions import Edition
from livetb.engine.model import Code
from livetb.engine.spec import Spec, parse_list
from livetb.engine.standings import affected_by, column, lot_numbers
from livetb.events.schema import (
    AnyEvent,
    ByeRequested,
    ColoursSwapped,
    LotsDrawn,
    ParticipantRegistered,
    ParticipantUpdated,
    PlayoffDecided,
    Recorded,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    TournamentCreated,
)
from livetb.events.state import TournamentState
from livetb.projections.close import Prepared, closed_cells, shed
from livetb.projections.contexts import Contexts
from livetb.projections.delta import Changes, Delta
from livetb.projections.groups import DirectEncounters
from livetb.projections.lines import (
    ANEW,
    BH_BIT,
    FB_BIT,
    Line,
    Shown,
    Touched,
    cells,
    fmt,
    set_column,
    set_extra,
    shown,
)
from livetb.projections.ranking import Ranking, flip, place
from livetb.projections.teams import TeamTable
from livetb.wire.standings import Row, RowChange, Status, Value, ties_of

__all__ = ["Delta", "Row", "StandingsProjection", "Value", "fmt"]
BH = Spec("BH")
FB = Spec("FB")
# Two more cells per row, next to the tie-break list's indices.
PROJECTED_BH, FB_PREDICTION = -1, -2


class OutOfOrder(Exception):
    """An event applied out of sequence: a bug in the caller, never user input."""


def _specs(created: TournamentCreated) -> tuple[Spec, ...]:
    return parse_list(created.tiebreaks, teams=created.kind == "team")


class Snapshot(msgspec.Struct):
    seq: int
    state: TournamentState


_encode_snapshot = msgspec.msgpack.Encoder().encode
_decode_snapshot = msgspec.msgpack.Decoder(Snapshot).decode

Dirty = dict[int, Collection[int]]  # cell index (a tie-break's, or the two extra) -> start nos


class StandingsProjection:
    """Standings of one tournament, maintained event by event."""

    def __init__(self) -> None:
        self.state = TournamentState()
        self.seq = 0
        self.specs: tuple[Spec, ...] = ()
        self._tbs: tuple[Tiebreak, ...] = ()  # each one's catalogue record, for the loops
        self.ctx: Contexts | None = None
        self.lines: dict[int, Line] = {}
        self.rows: dict[int, Row] = {}  # as last published, ranks and statuses as last read
        self._statuses: tuple[Status, ...] = ()  # the same for every row
        self._ranking = Ranking()  # the order and the ties; ranks are read from it
        self._out = Changes()  # what the event being folded changed
        self._de: dict[int, DirectEncounters] = {}  # DE index -> its tied groups
        self._teams = TeamTable()  # a team tournament's rows
        # While a round runs, the standings its close will publish (`close.py`), and the rows
        # to take into them again (a pairing: every row; a result: the rows it changes or
        # whose close values it reaches): `settle`.
        self._prepared: Prepared | None = None
        self._unsettled: set[int] = set()
        # What the last round event replaced (the previous contexts, the table a close swapped
        # out): freed by `settle`, after the event has been published, or by the next one.
        self._retired: object = None

    @classmethod
    def rebuild(cls, records: Iterable[Recorded]) -> StandingsProjection:
        """The same standings computed from scratch: fold every event, then compute once."""
        projection = cls()
        for rec in records:
            projection.seq = rec.seq
            projection.state.apply(rec.event)
            if isinstance(rec.event, TournamentCreated):
                projection._list(rec.event)
        projection._refresh_all()
        return projection

    def snapshot(self) -> bytes:
        """The folded state at `seq`; restoring recomputes the rows from it."""
        return _encode_snapshot(Snapshot(self.seq, self.state))

    @classmethod
    def restore(cls, data: bytes) -> StandingsProjection:
        snap = _decode_snapshot(data)
        projection = cls()
        projection.seq = snap.seq
        projection.state = snap.state
        snap.state.make_canonical()
        if snap.state.created is not None:
            projection._list(snap.state.created)
            projection._refresh_all()
        return projection

    def _list(self, created: TournamentCreated) -> None:
        """The tie-break list, and each one's record read once."""
        self.specs = _specs(created)
        self._tbs = tuple(map(tiebreak_of, self.specs))

    def standings(self, limit: int | None = None) -> list[Row]:
        """Every row (the first `limit`), best first, with its rank. A row's rank follows from
        its place in the order and its tie group, and the statuses are the same for every row:
        rows that others moved past, or whose values a close left alone, keep their published
        content and are brought up to date here (once: the current row is kept), not rebuilt
        per event."""
        return list(itertools.islice(self.ordered(), limit))

    def ordered(self) -> Iterator[Row]:
        """The rows of `standings()`, yielded one at a time as read: a reader that stops early
        (the prize list reads the top of the order) pays for the rows it took, not the field.
        Valid until the next `apply`."""
        created = self.state.created
        if created is not None and created.kind == "team":
            yield from sorted(self.rows.values(), key=lambda r: (r.rank, r.start_no))
            return
        rows, current = self.rows, self._current
        for no, rank in self._ranking.ranks():
            yield current(rows[no], rank)

    def ranked(self, nos: Iterable[int]) -> list[Row]:
        """The rows of `nos` (those that exist) with their ranks, in no particular order."""
        rows = self.rows
        if not self._ranking:
            return [rows[no] for no in nos if no in rows]
        return [
            self._current(row, self._rank(no)) for no in nos if (row := rows.get(no)) is not None
        ]

    def _rank(self, no: int) -> int:
        """Row `no`'s rank, read from the order."""
        key = self.lines[no].key
        assert key is not None  # every row is placed
        return self._ranking.rank(key)

    def _current(self, row: Row, rank: int) -> Row:
        """`row` with its current rank and statuses (kept as the published row)."""
        statuses = self._statuses
        if row.rank == rank and row.statuses is statuses:
            return row
        row = msgspec.structs.replace(row, rank=rank, statuses=statuses)
        self.rows[row.start_no] = row
        return row

    # --- folding ---

    def apply(self, rec: Recorded) -> Delta:
        """Fold one stored event in; return exactly the rows it changed."""
        if rec.seq != self.seq + 1:
            raise OutOfOrder(f"expected seq {self.seq + 1}, got {rec.seq}")
        self.seq = rec.seq
        self._out = out = Changes()
        event = rec.event
        changed = self.state.apply(event)
        if isinstance(event, TournamentCreated):
            self._list(event)
        match event:
            # The feed's round is the last one paired: a late entrant's bye for an earlier
            # round changes rows, not the round on show.
            case RoundPaired() | ByeRequested() | ColoursSwapped() if (
                event.round == self.state.paired
            ):
                out.round = event.round  # the round again (after a swap, its boards' colours)
            case ResultRecorded() | ResultCorrected():
                out.games = ((event.round, event.board),)
        created = self.state.created
        if created is not None and created.kind == "team":
            if self._teams.apply(self.state, self.specs, event):
                self._team_rows()
        else:
            self._fold(event, changed)
        return out.delta(rec.seq)

    def _fold(self, event: AnyEvent, changed: frozenset[int]) -> None:
        """Recompute the cells `event` can affect (the changes gathered in `_out`)."""
        state = self.state
        match event:
            case RoundPaired():
                ctx = self.ctx and self.ctx.after_pairing(state)
                if ctx is None:
                    return self._refresh_all()
                # Own results, FB and the projected BH move, type C (rounds 1..C) cannot.
                self._retired = self.ctx
                self.ctx, self._prepared = ctx, None
                cells = [i for i, tb in enumerate(self._tbs) if not tb.type_c]
                dirty = self._every(cells, PROJECTED_BH, FB_PREDICTION)
                self._skip_unfinished(dirty, ctx.live)
                # DE reads the games played inside a group (`direct_encounter`): a new round
                # adds none, but for a round robin's, where every scheduled game counts.
                return self._refresh(dirty, state.participants if ctx.live.rr else ())
            case RoundClosed():
                previous, prepared = self.ctx, self._prepared
                ctx = previous and previous.after_close(state)
                self._prepared = None
                if previous is None or ctx is None:
                    return self._refresh_all()
                self.ctx, self._retired = ctx, previous
                closing = previous.running and not ctx.running
                closed = closed_cells(self.specs, ctx.live.edition, closing and ctx.done.final)
                if closing and ctx.done is ctx.projected:  # what `settle` prepared
                    return self._swap_in(prepared or Prepared(self.specs), closed)
                self._unsettled.clear()
                return self._refresh(self._every(closed, FB_PREDICTION))
            case ParticipantRegistered() | ParticipantUpdated():
                if state.paired:
                    return self._refresh_all()
                # Before the first pairing nobody has opponents: only this row changes (and
                # the lots, drawn over everybody).
                if self.ctx is None:
                    self.ctx = Contexts.fresh(state)
                else:
                    self.ctx.enter(state, changed)
                rekey = bool(state.playoffs) or state.lots_seed is not None
                every = range(-2, len(self.specs))
                return self._refresh({i: changed for i in every}, rows=changed, rekey=rekey)
            case ResultRecorded() | ResultCorrected() | ByeRequested() | ColoursSwapped():
                if not changed or self.ctx is None or not state.paired:
                    return
                ctx, rnd = self.ctx, event.round
                # FB predictions take the running round's games as draws whatever their
                # results (not the legacy rules, which count every game as played with its
                # result: seed 004); a bye changes what the round is, and colours what a
                # game counts for.
                blind = (
                    not isinstance(event, ByeRequested | ColoursSwapped)
                    and ctx.running
                    and rnd == ctx.paired
                    and ctx.live.edition is not Edition.LEGACY
                )
                projected = ctx.update(state, changed, rnd)
                return self._refresh(self._affected_cells(changed, rnd, blind, projected), changed)
            case PlayoffDecided() | LotsDrawn():
                return self._refresh({}, rekey=True)  # only the order within tied groups
        # withdrawals act on later pairings

    def _every(self, cells: Iterable[int], *extra: int) -> Dirty:
        nos = self.state.participants.keys()
        tbs = self._tbs
        dirty: Dirty = {i: nos for i in cells if not tbs[i].group}
        dirty.update((i, nos) for i in extra)
        return dirty

    def _skip_unfinished(self, dirty: Dirty, live: Context) -> None:
        """At a pairing, the counts of rounds scored as a win (`counts_wins`) cannot change for
        a participant whose new round is an unfinished game when such a game does not score a
        win, nor the points when it scores an exact 0 (the same sum, exponent included): only
        the other participants' (byes, forfeits) are recomputed."""
        pending = live.scoring.points(Code.PENDING)
        no_win = pending != live.win
        no_points = pending == 0 and pending.as_tuple().exponent == 0
        skip = [
            i
            for i, tb in enumerate(self._tbs)
            if (no_win and tb.counts_wins) or (no_points and tb.score)
        ]
        if not skip:
            return
        by_no, rnd = live.by_no, live.upto
        nos = [
            no for no in self.state.participants if by_no[no].entry(rnd).code is not Code.PENDING
        ]
        for i in skip:
            dirty[i] = nos

    def _affected_cells(
        self, changed: frozenset[int], rnd: int, fore_blind: bool, projected: bool
    ) -> Dirty:
        """The cells a change to round `rnd` of `changed` can affect: not FB when the change is
        one `fore_blind` (FB predictions do not read it), not the projected BH when the
        `projected` context did not change."""
        ctx = self.ctx
        assert ctx is not None
        found: dict[tuple[int, int | None], frozenset[int]] = {}

        def affected(source: Context, spec: Spec) -> frozenset[int]:
            """`affected_by`, once per context and reach (BH, its cuts and FB: one hop)."""
            key = (id(source), tiebreak_of(spec).reach)
            nos = found.get(key)
            if nos is None:
                nos = found[key] = affected_by(source, spec, changed)
            return nos

        cells: Dirty = {}
        for i, (spec, tb) in enumerate(zip(self.specs, self._tbs, strict=True)):
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
                closing = closed_cells(self.specs, ctx.live.edition, ctx.projected.final)
                for spec in closing.values():
                    self._unsettled.update(affected(ctx.live, spec))
        if not fore_blind:
            cells[FB_PREDICTION] = affected(ctx.live, FB)
        return cells

    @property
    def unsettled(self) -> bool:
        """Some rows of the round's close are not prepared yet, or what the last round event
        replaced is not freed yet (`settle`)."""
        return bool(self._unsettled) or self._retired is not None

    def settle(self, budget: int) -> bool:
        """Take up to `budget` unsettled rows into the standings the running round's close
        will publish (`close.py`): the server's work between events (`TournamentService`), a
        slice at a time; the first ones free what the last round event replaced, a piece at a
        time (`shed`). Nothing a reader sees changes. True while unsettled rows remain."""
        if self._retired is not None:
            self._retired = shed(self._retired)
            return self.unsettled
        ctx = self.ctx
        if ctx is None or not ctx.running:
            self._unsettled.clear()  # only a running round closes
            return False
        if self._prepared is None:
            self._prepared = Prepared(self.specs)
        rows = list(itertools.islice(self._unsettled, budget))
        cells = closed_cells(self.specs, ctx.live.edition, ctx.projected.final)
        self._prepared.take(ctx, self.lines, cells, rows)
        self._unsettled.difference_update(rows)
        return bool(self._unsettled)

    def _swap_in(self, prepared: Prepared, cells: Mapping[int, Spec]) -> None:
        """The close from the standings `settle` prepared: the rows not taken yet are taken,
        the table replaces the live one, and the rows whose cells differ are published, with
        the new order and the ties that flipped."""
        ctx, live = self.ctx, self.lines
        assert ctx is not None
        rest = self._unsettled | (live.keys() - prepared.lines.keys())
        if rest:
            prepared.take(ctx, live, cells, list(rest))
        self._unsettled.clear()
        self._retired = (self._retired, live, self._ranking, self._de)
        prepared.replace(live, self._ranking, self._out)
        self.lines, self._ranking, self._de = prepared.lines, prepared.ranking, prepared.de
        statuses = tuple(ctx.status(spec) for spec in self.specs)
        if statuses != self._statuses:
            self._statuses = self._out.statuses = statuses
        # The rest take their rank and the statuses when read (`_current`).
        prepared.publish(self.rows, self.state.participants, self._statuses, self._out)

    def _team_rows(self) -> None:
        """A team tournament's table (`livetb/projections/teams.py`), re-read whole."""
        out, rows = self._out, self.rows
        before = [r.start_no for r in self.standings()]
        table = [
            Row(rank, no, name, tuple(fmt(v) for v in values), statuses)
            for rank, no, name, values, statuses in self._teams.lines(self.state, self.specs)
        ]
        for row in table:
            old = rows.get(row.start_no)
            if row != old:
                rows[row.start_no] = row
                out.row(old, row)
        statuses = table[0].statuses if table else ()
        if statuses != self._statuses:
            self._statuses = out.statuses = statuses
        after = [r.start_no for r in table]
        if after != before:
            out.order = tuple(after)
        shares = self._ranking.shares
        for no, tied in ties_of(table):  # record every row whose tie with the one above flipped
            if tied != (no in shares):
                flip(shares, no, tied, out)

    # --- recomputing and ranking ---

    def _refresh_all(self) -> None:
        """Every cell from fresh contexts (the rows are compared with the published ones)."""
        created = self.state.created
        if created is None:
            return
        if created.kind == "team":
            self._teams.reset(self.state)
            return self._team_rows()
        self.ctx, self._prepared = Contexts.fresh(self.state), None
        nos = self.state.participants.keys()
        dirty: Dirty = {i: nos for i in range(-2, len(self.specs))}
        return self._refresh(dirty, nos, rows=nos, everything=True)

    def _refresh(
        self,
        dirty: Dirty,
        games: Collection[int] = (),
        *,
        rows: Collection[int] = (),
        rekey: bool = False,
        everything: bool = False,
    ) -> None:
        """Recompute the `dirty` cells and the DE groups of everyone whose `games` changed,
        then re-rank; return the rows that changed. `rows` are built anew whatever changed
        (new or renamed participants); `rekey` re-reads the playoffs and lots; `everything`
        starts over."""
        ctx = self.ctx
        if ctx is None or not self.specs:
            return
        lines, n = self.lines, len(self.specs)
        if everything:
            self.lines = lines = {}
            self._de = {}
        touched: Touched = {}  # rows to build anew, with their changed cells
        moved: set[int] = set()  # rows whose sort key changed
        for no in rows:
            touched[no] = ANEW
            if no not in lines:
                lines[no] = Line.empty(n)
                moved.add(no)
        self._compute(dirty, touched, moved)
        for i, tb in enumerate(self._tbs):
            if tb.group:
                de = self._de.get(i) or self._de.setdefault(i, DirectEncounters(i))
                de.update(ctx, lines, touched, moved, games)
        if rekey or everything:
            self._tails()
            moved = set(lines)
        if ctx.running:  # rows the close's standings take again (`settle`)
            self._unsettled.update(touched)
            self._unsettled.update(moved)
        statuses = tuple(ctx.status(spec) for spec in self.specs)
        if lines and statuses != self._statuses:  # no rows, no statuses: told with the first
            # The same for every row: told once, and filled in as rows are read (`_current`).
            self._statuses = self._out.statuses = statuses
        if not touched and not moved:
            return
        resort = everything or len(moved) > max(_FEW, len(lines) // _RESORT)
        ranked = place(self._ranking, lines, moved, self._out, resort)
        if ranked is None:  # ranks are read from the order when a row is read (`_current`)
            self._build((no, None, bits) for no, bits in touched.items())
        else:
            self._build(
                (no, rank, bits) for rank, no in ranked if (bits := touched.get(no)) is not None
            )

    def _compute(self, dirty: Dirty, touched: Touched, moved: set[int]) -> None:
        ctx = self.ctx
        assert ctx is not None
        memo: dict[tuple[int, Spec], tuple[Collection[int], Shown]] = {}

        def known(source: Context, spec: Spec, nos: Collection[int]) -> Shown:
            """`column`, as `shown`, once per context and tie-break within one event: the FB
            prediction is FB's running value, and at a pairing also the projected BH, and once
            every round is closed the projected BH is BH (the same rows in the same order:
            the values are reused as they are, not looked up row by row)."""
            got = memo.get((id(source), spec))
            if got is not None:
                done, (values, parts) = got
                if done is nos or (len(done) == len(nos) and all(map(operator.eq, done, nos))):
                    return values, parts
                at = {no: k for k, no in enumerate(done)}
                if all(no in at for no in nos):
                    return [values[at[no]] for no in nos], [parts[at[no]] for no in nos]
            made = shown(column(source, spec, nos))
            memo[id(source), spec] = (nos, made)
            return made

        lines = self.lines
        for i, nos in dirty.items():
            if i == PROJECTED_BH:
                set_extra(lines, nos, known(ctx.projected, BH, nos)[0], touched, BH_BIT)
            elif i == FB_PREDICTION:
                values: list[Value] = (
                    known(*ctx.source(FB), nos)[0] if ctx.running else [None] * len(nos)
                )
                set_extra(lines, nos, values, touched, FB_BIT)
            elif not self._tbs[i].group:  # DE: decided per tied group (`groups.py`)
                set_column(lines, i, nos, known(*ctx.source(self.specs[i]), nos), touched, moved)

    def _tails(self) -> None:
        """Each row's playoff position and lot: after the whole list, a playoff, then lots."""
        state = self.state
        lots = lot_numbers(self.lines, state.lots_seed) if state.lots_seed is not None else {}
        playoff = {no: k for order in state.playoffs for k, no in enumerate(order)}
        last = len(playoff)
        for no, line in self.lines.items():
            line.tail = (playoff.get(no, last), lots.get(no, 0))

    def _build(self, renew: Iterable[tuple[int, int | None, int]]) -> None:
        """New rows for the touched participants (start no, rank or None, changed cells),
        recorded when their content differs: only the cells the event changed are compared (a
        new or renamed row: all of them). Without a rank, a row keeps its published one until
        it is read (`_current`): only a new row's is looked up."""
        rows, lines, names, statuses, out = (
            self.rows,
            self.lines,
            self.state.participants,
            self._statuses,
            self._out,
        )
        # Recorded as `Changes.row` would, but only the changed cells compared: a close or a
        # pairing records nearly every row.
        changes_of = out.changes.append
        for no, rank, changed in renew:
            line = lines[no]
            old = rows.get(no)
            if rank is None:
                rank = old.rank if old is not None else self._rank(no)
            row = rows[no] = Row(rank, no, names[no].name, line.values, statuses, line.fb, line.bh)
            if old is None or changed & ANEW:
                out.row(old, row)
            else:
                changes = cells(old, row, changed)
                if changes:
                    changes_of(RowChange(no, None, changes))


_RESORT, _FEW = 16, 8  # sort every row again once more than 1/16 of them (and 8) moved
