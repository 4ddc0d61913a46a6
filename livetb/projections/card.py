"""A participant's card: results strip, every tie-break explained, and what separates the
participant from the neighbours directly above and below.

The live projection computes without explanations (for speed); a card builds its own engine
contexts with explanations on, read the same way the standings read them: tie-breaks on the
participant's own results (and DE) over rounds 1..K, the opponents' results (C.07 type C: BH,
SB, AOB, KS, APRO, APPO) over rounds 1..C, the last closed one, and FB with round K as the last
while it runs. Values and statuses therefore match the standings row. While a round runs, the
card also tells the ranks each result of the participant's game leaves open
(`livetb/projections/outlook.py`).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from livetb.engine.catalogue import tiebreak_of
from livetb.engine.categories import category_text
from livetb.engine.context import Context
from livetb.engine.model import Code
from livetb.engine.result import AnySource, Reason
from livetb.engine.spec import Spec
from livetb.engine.standings import compute
from livetb.projections.outlook import Outlook, outlook, running, world_of
from livetb.projections.prize_outlook import PrizeOutlook, prize_outlook
from livetb.projections.prizes import prize_list
from livetb.projections.standings import StandingsProjection, fmt
from livetb.projections.views import view_of
from livetb.wire.prizes import AwardLine
from livetb.wire.standings import Row, Status, Value


class RoundLine(msgspec.Struct):
    """One round of the results strip."""

    round: int
    opponent: int | None  # the scheduled opponent (also for forfeits); None for byes
    colour: Literal["w", "b"] | None
    result: str  # the TRF result code: 1 = 0 + - H F U Z, or * for a game not finished
    outcome: str  # the code's name: win, draw, forfeit_loss, half_bye, pending, …
    points: str
    category: int | None  # unplayed rounds: C.07 2024 16.2.n (= 2023 14.3.n); None: played
    category_text: str


class Contribution(msgspec.Struct):
    """One round's part of a tie-break (round 0: a total the value is built from), its source
    as data (`{"kind": …}`, put into words by the catalogs' `explain.<kind>`)."""

    round: int
    amount: Value
    source: AnySource
    cut: Reason | None  # why this round's contribution is cut, when it is (`cut.<reason>`)


class CutRound(msgspec.Struct):
    round: int
    reason: Reason


class TiebreakLine(msgspec.Struct):
    name: str
    value: Value
    status: Status
    rounds: int  # computed on rounds 1..rounds
    parts: list[Contribution]
    cut: list[CutRound]
    group: bool = False  # decided within the group still tied before it (DE): no parts


class Separation(msgspec.Struct):
    """A neighbour in the standings and the first tie-break whose values differ (`tiebreak`
    null: equal on the whole list; `by` then says whether a playoff or lots order them)."""

    start_no: int
    name: str
    rank: int
    tiebreak: str | None
    value: Value  # the card's participant's
    neighbour_value: Value
    by: Literal["tiebreak", "playoff", "lots"] | None  # None: still tied (same rank)


class Separations(msgspec.Struct):
    above: Separation | None
    below: Separation | None


class Card(msgspec.Struct):
    seq: int
    start_no: int
    name: str
    rating: int | None
    title: str
    federation: str
    withdrawn_from: int | None
    rank: int
    after_round: int
    round_in_progress: int | None
    results: list[RoundLine]
    tiebreaks: list[TiebreakLine]
    separated_from: Separations
    fb_prediction: str | None
    bh_projected: str | None
    outlook: Outlook | None  # while a round runs: the ranks each result of its game leaves open
    # The prizes it would take if the tournament ended now, and while a round runs the best
    # and worst prize each result of its game leaves open (`livetb/projections/prizes.py`).
    prizes: list[AwardLine] = []
    prize_outlook: PrizeOutlook | None = None


class _Sources:
    """Fresh, explaining contexts: live (rounds 1..K), done (1..C), fore (K as the last)."""

    def __init__(self, projection: StandingsProjection) -> None:
        state = projection.state
        created = state.created
        assert created is not None
        t = state.tournament()
        kw = {"edition": state.edition, "unrated_rating": created.unrated_rating}
        self.running = state.paired > state.closed
        self.live = Context(t, state.paired, **kw)  # type: ignore[arg-type]
        self.done, self.fore = self.live, self.live
        if self.running:
            self.done = Context(t, state.closed, **kw)  # type: ignore[arg-type]
            self.fore = Context(t, state.paired, as_final=True, **kw)  # type: ignore[arg-type]

    def of(self, spec: Spec) -> Context:
        return getattr(self, view_of(spec.code, self.running))  # type: ignore[no-any-return]


def build(projection: StandingsProjection, no: int) -> Card:
    """The card of participant `no` (KeyError when there is none)."""
    state = projection.state
    p = state.participants[no]
    rows = projection.standings()
    at = next(i for i, r in enumerate(rows) if r.start_no == no)
    row = rows[at]
    sources = _Sources(projection)
    live = sources.live
    # The running round as its close will leave it: read by both outlooks, built once.
    world = world_of(state, live) if running(state, live) is not None else None
    results = [
        RoundLine(
            r.rnd,
            r.opponent,
            r.colour,
            r.code.value,
            r.code.name.lower(),
            str(fmt(r.points)),
            None if r.code is Code.PENDING else live.category(no, r),
            "game in progress" if r.code is Code.PENDING else category_text(live, no, r),
        )
        for r in live.rounds(no)
    ]
    tiebreaks = [_tiebreak(sources, spec, no, row, i) for i, spec in enumerate(projection.specs)]
    above = _separation(projection, row, rows[at - 1]) if at > 0 else None
    below = _separation(projection, row, rows[at + 1]) if at + 1 < len(rows) else None
    return Card(
        projection.seq,
        no,
        p.name,
        p.rating,
        p.title,
        p.federation,
        state.withdrawn.get(no),
        row.rank,
        state.closed,
        state.paired if sources.running else None,
        results,
        tiebreaks,
        Separations(above, below),
        row.fb_prediction,
        row.bh_projected,
        outlook(state, no, live, world),
        [a for a in prize_list(projection).awards if a.start_no == no] if state.prizes else [],
        prize_outlook(state, no, live, world),
    )


def _tiebreak(sources: _Sources, spec: Spec, no: int, row: Row, i: int) -> TiebreakLine:
    if tiebreak_of(spec).group:  # DE: decided within the group still tied at its turn
        upto = sources.live.upto
        return TiebreakLine(spec.text, row.values[i], row.statuses[i], upto, [], [], group=True)
    ctx = sources.of(spec)
    v = compute(ctx, spec, no)
    cut = dict(v.cut)
    parts = [Contribution(p.rnd, fmt(p.amount), p.source, cut.get(p.rnd)) for p in v.parts]
    cuts = [CutRound(rnd, reason) for rnd, reason in v.cut]
    return TiebreakLine(spec.text, fmt(v.value), row.statuses[i], ctx.upto, parts, cuts)


def _separation(projection: StandingsProjection, me: Row, other: Row) -> Separation:
    for i, (mine, theirs) in enumerate(zip(me.values, other.values, strict=True)):
        if mine != theirs:
            return Separation(
                other.start_no, other.name, other.rank, projection.specs[i].text, mine, theirs,
                "tiebreak",
            )  # fmt: skip
    by: Literal["playoff", "lots"] | None = None
    if me.rank != other.rank:
        pair = {me.start_no, other.start_no}
        by = "playoff" if any(pair <= set(o) for o in projection.state.playoffs) else "lots"
    return Separation(other.start_no, other.name, other.rank, None, None, None, by)
