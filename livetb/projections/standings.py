"""Standings folded from the event log, kept current one event at a time.

What each value means and when it changes (C.07 2024 4.3 types):

| tie-breaks                       | computed on                      | status while a round runs |
|----------------------------------|----------------------------------|---------------------------|
| own results, pairing-time data   | rounds 1..K, unfinished games 0  | provisional               |
| (PTS, WIN, …, ARO, TPR, PTP, DE) |                                  |                           |
| opponents' results (type C:      | rounds 1..C, the last closed one | final                     |
| BH, SB, AOB, KS, APRO, APPO)     |                                  |                           |
| FB                               | rounds 1..K, round K as the last | predicted                 |
|                                  | one with every game a draw       |                           |

K is the last round paired, C the last closed; once K is closed every value is final. Each row
also carries the Fore-Buchholz prediction (while a round runs) and a projected Buchholz (games
finished count as played, games unfinished as draws).

`recompute(state, …)` defines the standings from scratch; `StandingsProjection.apply` reaches
the same rows incrementally, recomputing only the cells an event can affect.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from decimal import Decimal
from typing import Literal

import msgspec

from livetb.engine.context import Context
from livetb.engine.direct_encounter import direct_encounter
from livetb.engine.model import Code
from livetb.engine.result import Number
from livetb.engine.spec import Spec, parse_list
from livetb.engine.standings import TYPE_C, affected_by, compute, lot_numbers
from livetb.events.schema import (
    AnyEvent,
    ByeRequested,
    ParticipantRegistered,
    ParticipantUpdated,
    Recorded,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    TournamentCreated,
)
from livetb.events.state import TournamentState

Status = Literal["final", "provisional", "predicted"]
Value = str | int | None
BH = Spec("BH")
FB = Spec("FB")


class Row(msgspec.Struct, frozen=True):
    """One participant's line: the unit a delta carries."""

    rank: int
    start_no: int
    name: str
    values: tuple[Value, ...]
    statuses: tuple[Status, ...]
    fb_prediction: str | None = None  # FB if the round being played were the last
    bh_projected: str | None = None  # BH with unfinished games counted as draws


class Delta(msgspec.Struct, frozen=True):
    seq: int
    rows: tuple[Row, ...]


class OutOfOrder(Exception):
    """An event applied out of sequence: a bug in the caller, never user input."""


def fmt(v: Number | None) -> Value:
    """Decimals as strings, counts and ratings as ints (the CLI's JSON contract)."""
    if v is None or isinstance(v, int):
        return v
    if v == v.to_integral_value() and v.as_tuple().exponent >= 0:
        return f"{v:.1f}"
    return str(v)


class Contexts:
    """The engine contexts a tournament's state is read through."""

    def __init__(self, state: TournamentState) -> None:
        created = state.created
        assert created is not None
        self.paired, self.closed = state.paired, state.closed
        live = state.tournament()
        opts = {"edition": state.edition, "unrated_rating": created.unrated_rating}
        self.live = Context(live, self.paired, **opts)  # type: ignore[arg-type]
        self.done = Context(live, self.closed, **opts)  # type: ignore[arg-type]
        self.fore = Context(live, self.paired, as_final=True, **opts)  # type: ignore[arg-type]
        drawn = state.tournament(pending=Code.DRAW)
        self.projected = Context(drawn, self.paired, **opts)  # type: ignore[arg-type]
        self.running = self.paired > self.closed
        for ctx in (self.live, self.done, self.fore, self.projected):
            ctx.explain = False

    def update(self, state: TournamentState, nos: Iterable[int], rnd: int) -> None:
        """New entries for `nos` after a change in round `rnd`."""
        nos = list(nos)
        rounds = range(1, self.paired + 1)
        contexts = [(self.live, Code.PENDING), (self.fore, Code.PENDING)]
        contexts.append((self.projected, Code.DRAW))
        if rnd <= self.closed:  # the closed rounds' context never reads later rounds
            contexts.append((self.done, Code.PENDING))
        for ctx, pending in contexts:
            ctx.update(
                [
                    msgspec.structs.replace(
                        state.participants[no],
                        entries=tuple(state.entry(no, r, pending) for r in rounds),
                    )
                    for no in nos
                ]
            )

    def cell(self, spec: Spec, no: int) -> tuple[Value, Status]:
        """One tie-break value of one participant, with its status."""
        if spec.code == "FB":
            if self.running:
                return fmt(compute(self.fore, spec, no).value), "predicted"
            return fmt(compute(self.live, spec, no).value), "final"
        if spec.code in TYPE_C:
            return fmt(compute(self.done, spec, no).value), "final"
        return fmt(compute(self.live, spec, no).value), "provisional" if self.running else "final"

    def fb_prediction(self, no: int) -> str | None:
        return fmt(compute(self.fore, FB, no).value) if self.running else None  # type: ignore[return-value]

    def bh_projected(self, no: int) -> str | None:
        return fmt(compute(self.projected, BH, no).value)  # type: ignore[return-value]


class _Line(msgspec.Struct):
    values: list[Value]
    statuses: list[Status]
    fb: str | None = None
    bh: str | None = None


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
        self.ctx: Contexts | None = None
        self.lines: dict[int, _Line] = {}
        self.rows: dict[int, Row] = {}  # as last published
        self._order: list[tuple[tuple[object, ...], int]] = []  # sorted (key, start no)
        self._keys: dict[int, tuple[object, ...]] = {}
        # DE index -> values before it -> the participants tied on them (one DE group)
        self._groups: dict[int, dict[tuple[Value, ...], set[int]]] = {}
        self._group_of: dict[tuple[int, int], tuple[Value, ...]] = {}

    @classmethod
    def rebuild(cls, records: Iterable[Recorded]) -> StandingsProjection:
        """The same standings computed from scratch: fold every event, then compute once."""
        projection = cls()
        for rec in records:
            projection.seq = rec.seq
            projection.state.apply(rec.event)
            if isinstance(rec.event, TournamentCreated):
                projection.specs = parse_list(rec.event.tiebreaks)
        if projection.state.created is not None:
            projection.ctx = Contexts(projection.state)
            projection._refresh(None)
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
        if snap.state.created is not None:
            projection.specs = parse_list(snap.state.created.tiebreaks)
            projection.ctx = Contexts(projection.state)
            projection._refresh(None)
        return projection

    def standings(self) -> list[Row]:
        return sorted(self.rows.values(), key=lambda r: (r.rank, r.start_no))

    # --- folding ---

    def apply(self, rec: Recorded) -> Delta:
        """Fold one stored event in; return exactly the rows it changed."""
        if rec.seq != self.seq + 1:
            raise OutOfOrder(f"expected seq {self.seq + 1}, got {rec.seq}")
        self.seq = rec.seq
        changed = self.state.apply(rec.event)
        dirty = self._dirty(rec.event, changed)
        return Delta(rec.seq, self._refresh(dirty))

    def _dirty(self, event: AnyEvent, changed: frozenset[int]) -> set[tuple[int, int]] | None:
        """The (tie-break index, start no) cells to recompute (-1: projected BH, -2: FB
        prediction); None for every cell."""
        match event:
            case TournamentCreated():
                self.specs = parse_list(event.tiebreaks)
                return set()
            case RoundPaired() | RoundClosed():
                self.ctx = Contexts(self.state)
                return None
            case ParticipantRegistered() | ParticipantUpdated():
                self.ctx = Contexts(self.state)
                # Before the first pairing nobody has opponents: only this row changes.
                return None if self.state.paired else self._cells(changed)
            case ResultRecorded() | ResultCorrected() | ByeRequested():
                if not changed or self.ctx is None or not self.state.paired:
                    return set()
                self.ctx.update(self.state, changed, event.round)
                return self._affected_cells(changed, event.round)
        return set()  # withdrawals act on later pairings; playoffs and lots only re-rank

    def _cells(self, nos: Iterable[int]) -> set[tuple[int, int]]:
        return {(i, no) for no in nos for i in range(-2, len(self.specs))}

    def _affected_cells(self, changed: frozenset[int], rnd: int) -> set[tuple[int, int]]:
        ctx = self.ctx
        assert ctx is not None
        # FB predictions take the running round's games as draws whatever their results.
        in_running_round = ctx.running and rnd == ctx.paired
        cells: set[tuple[int, int]] = set()
        for i, spec in enumerate(self.specs):
            if spec.code == "DE" or (spec.code == "FB" and in_running_round):
                continue  # DE is recomputed per tied group while ranking
            if spec.code in TYPE_C:
                if rnd <= ctx.closed:  # a correction to a closed round
                    cells |= {(i, no) for no in affected_by(ctx.done, spec, changed)}
            else:
                cells |= {(i, no) for no in affected_by(ctx.live, spec, changed)}
        cells |= {(-1, no) for no in affected_by(ctx.live, BH, changed)}
        if not in_running_round:
            cells |= {(-2, no) for no in affected_by(ctx.live, FB, changed)}
        return cells

    # --- recomputing and ranking ---

    def _refresh(self, dirty: set[tuple[int, int]] | None) -> tuple[Row, ...]:
        ctx = self.ctx
        if ctx is None or not self.specs:
            return ()
        if dirty is None:
            dirty = self._cells(self.state.participants)
        touched: set[int] = set()
        n = len(self.specs)
        for i, no in dirty:
            line = self.lines.get(no)
            if line is None:
                line = self.lines[no] = _Line([None] * n, ["final"] * n)
            if i == -1:
                line.bh = ctx.bh_projected(no)
            elif i == -2:
                line.fb = ctx.fb_prediction(no)
            elif self.specs[i].code != "DE":  # DE is decided per tied group, below
                line.values[i], line.statuses[i] = ctx.cell(self.specs[i], no)
            touched.add(no)
        self._direct_encounters(touched)
        if self.state.playoffs or self.state.lots_seed is not None:
            touched |= set(self.lines)  # a playoff or the lots may reorder any tied group
        if not touched:
            return ()
        return self._publish(touched, self._sort(touched))

    def _direct_encounters(self, touched: set[int]) -> None:
        """DE (type A) for every tied group a touched row left or joined."""
        ctx = self.ctx
        assert ctx is not None
        status: Status = "provisional" if ctx.running else "final"
        for i, spec in enumerate(self.specs):
            if spec.code != "DE":
                continue
            groups = self._groups.setdefault(i, {})
            redo: set[tuple[Value, ...]] = set()
            for no in list(touched):
                prefix = tuple(self.lines[no].values[:i])
                old = self._group_of.get((i, no))
                if old != prefix:
                    if old is not None:
                        groups[old].discard(no)
                        redo.add(old)
                    groups.setdefault(prefix, set()).add(no)
                    self._group_of[(i, no)] = prefix
                redo.add(prefix)
            for prefix in redo:
                members = groups.get(prefix)
                if not members:
                    groups.pop(prefix, None)
                    continue
                for no, place in direct_encounter(ctx.live, sorted(members)).items():
                    line = self.lines[no]
                    if line.values[i] != place or line.statuses[i] != status:
                        line.values[i], line.statuses[i] = place, status
                    touched.add(no)

    def _sort(self, touched: set[int]) -> tuple[tuple[object, ...], tuple[object, ...]]:
        """Move the touched rows to their new places; return the lowest and highest key any
        of them left or took (only rows between those can change rank)."""
        lots = (
            lot_numbers(self.lines, self.state.lots_seed)
            if self.state.lots_seed is not None
            else {}
        )
        playoff = {no: k for order in self.state.playoffs for k, no in enumerate(order)}
        bounds: list[tuple[object, ...]] = []
        for no in touched:
            old = self._keys.get(no)
            if old is not None:
                del self._order[bisect.bisect_left(self._order, (old, no))]
                bounds.append(old)
            key = self._key(no, playoff, lots)
            self._keys[no] = key
            bisect.insort(self._order, (key, no))
            bounds.append(key)
        return min(bounds), max(bounds)

    def _key(self, no: int, playoff: dict[int, int], lots: dict[int, int]) -> tuple[object, ...]:
        """Best first; a null value after every defined one; then a playoff, then lots."""
        parts: list[object] = []
        for spec, v in zip(self.specs, self.lines[no].values, strict=True):
            if v is None:
                parts.append((1, 0))
            else:
                d = Decimal(v) if isinstance(v, str) else v
                parts.append((0, d if spec.code == "DE" else -d))
        parts.append(playoff.get(no, len(playoff)))
        parts.append(lots.get(no, 0))
        return tuple(parts)

    def _publish(
        self, touched: set[int], span: tuple[tuple[object, ...], tuple[object, ...]]
    ) -> tuple[Row, ...]:
        """New rows for the touched participants and for everyone whose rank moved."""
        order = self._order
        lo = bisect.bisect_left(order, (span[0], 0))
        hi = bisect.bisect_right(order, (span[1], _AFTER_ALL))
        while lo > 0 and order[lo - 1][0] == order[lo][0]:
            lo -= 1  # a rank is the first position of its tied run
        while hi < len(order) and order[hi][0] == order[hi - 1][0]:
            hi += 1
        changed: list[Row] = []
        names = self.state.participants
        rank, previous = 0, None
        for position in range(lo, hi):
            key, no = order[position]
            if key != previous:
                rank, previous = position + 1, key
            old = self.rows.get(no)
            if old is not None and no not in touched:
                if old.rank != rank:  # moved by others: only the rank changed
                    self.rows[no] = row = msgspec.structs.replace(old, rank=rank)
                    changed.append(row)
                continue
            line = self.lines[no]
            row = Row(
                rank,
                no,
                names[no].name,
                tuple(line.values),
                tuple(line.statuses),
                line.fb,
                line.bh,
            )
            if row != old:
                self.rows[no] = row
                changed.append(row)
        return tuple(changed)


_AFTER_ALL = 10**9  # larger than any start number
