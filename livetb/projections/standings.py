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

import copy
import itertools
from collections.abc import Collection, Iterable, Iterator, Mapping

import msgspec

from livetb.engine.catalogue import Tiebreak, tiebreak_of
from livetb.engine.editions import Edition
from livetb.engine.spec import Spec, parse_list
from livetb.engine.standings import lot_numbers
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
from livetb.events.state import Seated, TournamentState, seats
from livetb.projections.close import Prepared, closed_cells, shed
from livetb.projections.contexts import Contexts
from livetb.projections.delta import Changes, Delta
from livetb.projections.dirty import (
    FB_PREDICTION,
    PROJECTED_BH,
    Dirty,
    affected_cells,
    computing,
    every,
    read_on_live,
    skipping_unfinished,
)
from livetb.projections.groups import DirectEncounters
from livetb.projections.lines import ANEW, Line, Touched, cells, fmt
from livetb.projections.ranking import Ranking, placing
from livetb.projections.steps import CHUNK, Pieces, Steps, chunks, finish, item_chunks
from livetb.projections.teams import TeamTable
from livetb.wire.standings import Row, RowChange, Status, Value

__all__ = ["Delta", "Row", "StandingsProjection", "Value", "fmt"]


class OutOfOrder(Exception):
    """An event applied out of sequence: a bug in the caller, never user input."""


def _specs(created: TournamentCreated) -> tuple[Spec, ...]:
    return parse_list(created.tiebreaks, teams=created.kind == "team")


class Snapshot(msgspec.Struct):
    seq: int
    state: TournamentState


_encode_snapshot = msgspec.msgpack.Encoder().encode
_decode_snapshot = msgspec.msgpack.Decoder(Snapshot).decode


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
        # A fork's lines and DE groups, and its order, are still the base's (`_own`).
        self._borrowed = self._borrowed_order = False

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
        return finish(self._folding(rec, CHUNK))

    def stepwise(self, rec: Recorded, chunk: int = CHUNK) -> Pieces[Delta] | None:
        """`apply` of a round event (a pairing, a close) of a field of more than `chunk` rows,
        as pieces of work a caller runs between its other work (`Pieces.advance`): folded on a
        fork of this projection (`_fork`), which stays as it is, readable whole, until the last
        piece moves the fork's state in. Once begun it is finished: nothing else folds into the
        projection meanwhile. None: an event `apply` folds at once."""
        return Pieces(self._forked(rec, chunk)) if self.folds_in_steps(rec, chunk) else None

    def _forked(self, rec: Recorded, chunk: int) -> Steps[Delta]:
        fork = self._fork()
        yield
        delta = yield from fork._folding(rec, chunk)
        self._adopt(fork)
        return delta

    def folds_in_steps(self, rec: Recorded, chunk: int = CHUNK) -> bool:
        """Whether `stepwise` folds `rec` in pieces (not a team tournament's: a few rows)."""
        created = self.state.created
        return (
            isinstance(rec.event, RoundPaired | RoundClosed)
            and rec.seq == self.seq + 1
            and created is not None
            and created.kind != "team"
            and len(self.lines) > chunk
        )

    def _folding(self, rec: Recorded, chunk: int) -> Steps[Delta]:
        """`apply`'s work; a round event's a piece of at most `chunk` rows at a time."""
        if rec.seq != self.seq + 1:
            raise OutOfOrder(f"expected seq {self.seq + 1}, got {rec.seq}")
        self.seq = rec.seq
        # The rows the last fold changed, when they are a whole table's (a round event, a load,
        # a refresh), are `settle`'s to free a piece at a time, not this event's.
        if len(self._out.changes) > CHUNK:
            self._retired = (self._retired, self._out.changes)
        self._out = out = Changes()
        event = rec.event
        seated: Seated | None = None
        if isinstance(event, RoundPaired) and len(event.boards) > chunk:
            seated = games, seat = {}, {}
            for part in chunks(event.boards, chunk):
                made = self.state.games_of(part)
                games.update(made)
                seat.update(seats(made.values()))
                yield
        changed = self.state.apply(event, seated)
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
        elif isinstance(event, RoundPaired):
            yield from self._pairing(chunk)
        elif isinstance(event, RoundClosed):
            yield from self._closing(chunk)
        else:
            self._fold(event, changed)
        return out.delta(rec.seq)

    def _pairing(self, chunk: int) -> Steps[None]:
        """Round K+1 paired: own results, FB and the projected BH move, type C (rounds 1..C)
        cannot."""
        state = self.state
        yield  # after the round's games are read into the state
        ctx = None
        if self.ctx is not None:
            ctx = yield from self.ctx.after_pairing(state, chunk)
        if ctx is None:
            return self._refresh_all()
        self._retired = (self._retired, self.ctx)
        self.ctx, self._prepared = ctx, None
        cells = [i for i, tb in enumerate(self._tbs) if not tb.type_c]
        dirty = every(state.participants.keys(), self._tbs, cells, PROJECTED_BH, FB_PREDICTION)
        yield
        yield from skipping_unfinished(self._tbs, state.participants, dirty, ctx.live, chunk)
        # Often only a few rows are read on `live` (byes): the rest are taken later (`seed`).
        yield from ctx.seeding_now(read_on_live(ctx, self.specs, dirty), chunk)
        # DE reads the games played inside a group (`direct_encounter`): a new round adds
        # none, but for a round robin's, where every scheduled game counts.
        games = state.participants if ctx.live.rr else ()
        yield from self._refreshing(dirty, games, chunk=chunk)

    def _closing(self, chunk: int) -> Steps[None]:
        """A round closed: type C and FB take their final values, every status flips."""
        previous, prepared = self.ctx, self._prepared
        ctx = previous and previous.after_close(self.state)
        self._prepared = None
        if previous is None or ctx is None:
            return self._refresh_all()
        self.ctx, self._retired = ctx, (self._retired, previous)
        closing = previous.running and not ctx.running
        closed = closed_cells(self.specs, ctx.live.edition, closing and ctx.done.final)
        if closing and ctx.done is ctx.projected:  # what `settle` prepared
            yield from self._swapping_in(prepared or Prepared(self.specs), closed, chunk)
            return
        self._unsettled.clear()
        dirty = every(self.state.participants.keys(), self._tbs, closed, FB_PREDICTION)
        yield from self._refreshing(dirty, chunk=chunk)

    def _fold(self, event: AnyEvent, changed: frozenset[int]) -> None:
        """Recompute the cells `event` (not a round event: `_pairing`, `_closing`) can affect
        (the changes gathered in `_out`)."""
        state = self.state
        match event:
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
                return finish(
                    self._refreshing({i: changed for i in every}, rows=changed, rekey=rekey)
                )
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
                dirty = affected_cells(
                    ctx, self.specs, self._tbs, changed, rnd, blind, projected, self._unsettled
                )
                return finish(self._refreshing(dirty, changed))
            case PlayoffDecided() | LotsDrawn():
                return finish(self._refreshing({}, rekey=True))  # only the order within tied groups
        # withdrawals act on later pairings

    # --- a round event's fold on a fork (`stepwise`) ---

    def _fork(self) -> StandingsProjection:
        """A copy to fold one round event into while this projection is read: its own state
        (`TournamentState.fork`), rows and unsettled rows; the lines, the order and DE's groups
        borrowed until the fold first changes them (`_own`). The prepared close is the one
        object both change (a close takes the rows left into it): only the fork reads it."""
        fork = copy.copy(self)
        fork.state = self.state.fork()
        fork.rows = dict(self.rows)
        fork._unsettled = set(self._unsettled)
        fork._borrowed = fork._borrowed_order = True
        return fork

    def _own(self, chunk: int) -> Steps[None]:
        """A fork's own lines (each row's a copy) and DE groups, before it changes them."""
        if not self._borrowed:
            return
        self._borrowed = False
        lines: dict[int, Line] = {}
        dup = msgspec.structs.replace  # a copy; `copy.copy`'s dispatch cost more, per row
        for part in item_chunks(self.lines, chunk):
            lines.update((no, dup(line)) for no, line in part)
            yield
        self.lines = lines
        groups: dict[int, DirectEncounters] = {}
        for i, de in self._de.items():
            groups[i] = yield from de.copying(chunk)
        self._de = groups

    def _own_order(self, resort: bool) -> None:
        """A fork's own order before it places rows: its ties, and the order itself unless
        every row is sorted again (`Ranking.copy`)."""
        if self._borrowed_order:
            self._borrowed_order = False
            self._ranking = self._ranking.copy(order=not resort)

    def _adopt(self, fork: StandingsProjection) -> None:
        """The fork's state, once its fold is complete, as this projection's; what it replaced
        freed a piece at a time (`settle`), not at once."""
        replaced = tuple(vars(self).values())
        vars(self).update(vars(fork))
        self._borrowed = self._borrowed_order = False
        self._retired = (self._retired, replaced)

    @property
    def unsettled(self) -> bool:
        """Some rows of the round's close are not prepared yet, or what the last round event
        replaced is not freed yet (`settle`)."""
        ctx = self.ctx
        return (
            bool(self._unsettled) or self._retired is not None or (ctx is not None and ctx.seeding)
        )

    def settle(self, budget: int) -> bool:
        """Take up to `budget` unsettled rows into the standings the running round's close
        will publish (`close.py`): the server's work between events (`TournamentService`), a
        slice at a time; the first ones free what the last round event replaced, a piece at a
        time (`shed`), then take the rows a pairing left to the contexts (`Contexts.seed`).
        Nothing a reader sees changes. True while unsettled rows remain."""
        if self._retired is not None:
            self._retired = shed(self._retired)
            return self.unsettled
        ctx = self.ctx
        if ctx is not None and ctx.seeding:
            self._retired = ctx.seed(budget * _SEEDS)
            return True
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

    def _swapping_in(
        self, prepared: Prepared, cells: Mapping[int, Spec], chunk: int
    ) -> Steps[None]:
        """The close from the standings `settle` prepared: the rows not taken yet are taken,
        the table replaces the live one, and the rows whose cells differ are published, with
        the new order and the ties that flipped."""
        ctx, live = self.ctx, self.lines
        assert ctx is not None
        rest = list(self._unsettled | (live.keys() - prepared.lines.keys()))
        yield
        if rest:
            yield from prepared.taking(ctx, live, cells, rest, chunk, self._ranking)
            yield
        self._unsettled.clear()
        self._retired = (self._retired, live, self._ranking, self._de)
        yield from prepared.replacing(live, self._ranking, self._out, chunk)
        self.lines, self._ranking, self._de = prepared.lines, prepared.ranking, prepared.de
        statuses = tuple(ctx.status(spec) for spec in self.specs)
        if statuses != self._statuses:
            self._statuses = self._out.statuses = statuses
        # The rest take their rank and the statuses when read (`_current`).
        yield from prepared.publishing(
            self.rows, self.state.participants, self._statuses, self._out, chunk
        )

    def _team_rows(self) -> None:
        """A team tournament's table (`livetb/projections/teams.py`), re-read whole."""
        before = [r.start_no for r in self.standings()]
        statuses = self._teams.publish(
            self.state, self.specs, self.rows, before, self._ranking.shares, self._out
        )
        if statuses != self._statuses:
            self._statuses = self._out.statuses = statuses

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
        return finish(self._refreshing(dirty, nos, rows=nos, everything=True))

    def _refreshing(
        self,
        dirty: Dirty,
        games: Collection[int] = (),
        *,
        rows: Collection[int] = (),
        rekey: bool = False,
        everything: bool = False,
        chunk: int = CHUNK,
    ) -> Steps[None]:
        """Recompute the `dirty` cells and the DE groups of everyone whose `games` changed,
        then re-rank; return the rows that changed. `rows` are built anew whatever changed
        (new or renamed participants); `rekey` re-reads the playoffs and lots; `everything`
        starts over. Pieces of `chunk` rows."""
        ctx = self.ctx
        if ctx is None or not self.specs:
            return
        yield from self._own(chunk)
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
        yield from computing(ctx, self.specs, self._tbs, lines, dirty, touched, moved, chunk)
        for i, tb in enumerate(self._tbs):
            if tb.group:
                de = self._de.get(i) or self._de.setdefault(i, DirectEncounters(i))
                yield from de.updating(ctx, lines, touched, moved, games, chunk)
        if rekey or everything:
            self._tails()
            moved = set(lines)
        if ctx.running:  # rows the close's standings take again (`settle`)
            self._unsettled.update(touched)
            self._unsettled.update(moved)
            yield
        statuses = tuple(ctx.status(spec) for spec in self.specs)
        if lines and statuses != self._statuses:  # no rows, no statuses: told with the first
            # The same for every row: told once, and filled in as rows are read (`_current`).
            self._statuses = self._out.statuses = statuses
        if not touched and not moved:
            return
        resort = everything or len(moved) > max(_FEW, len(lines) // _RESORT)
        self._own_order(resort)
        ranked = yield from placing(self._ranking, lines, moved, self._out, resort, chunk)
        if ranked is None:  # ranks are read from the order when a row is read (`_current`)
            for part in item_chunks(touched, chunk):
                self._build([(no, None, bits) for no, bits in part])
                yield
            return
        get, (ranks, after) = touched.get, ranked
        for at in range(0, len(after), chunk):
            placed = zip(ranks[at : at + chunk], after[at : at + chunk], strict=True)
            self._build([(no, rank, bits) for rank, no in placed if (bits := get(no)) is not None])
            yield

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
_SEEDS = 16  # a context's rows seeded per row taken into the close: each costs far less
