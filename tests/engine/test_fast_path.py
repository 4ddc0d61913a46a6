"""The live projections compute without explanations, through shortcuts (`Context.adjusted`'s
usual cases, cached BH-family terms, cuts on plain scores): on any tournament they give the
very Decimal (value and exponent) the explained computation gives."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from livetb.engine.context import ZERO, Context
from livetb.engine.editions import Edition
from livetb.engine.model import Code, Entry, Participant, Scoring, Tournament
from livetb.engine.spec import parse_spec
from livetb.engine.standings import compute

SPECS = ["BH", "BH/C1", "BH/C2", "BH/M1", "FB", "FB/C1", "FB/M1", "SB", "SB/C1", "AOB", "KS"]
GAME = [Code.WIN, Code.DRAW, Code.LOSS, Code.SHORT_WIN, Code.SHORT_DRAW, Code.UNKNOWN]
OTHER = {
    Code.WIN: Code.LOSS,
    Code.DRAW: Code.DRAW,
    Code.LOSS: Code.WIN,
    Code.SHORT_WIN: Code.SHORT_LOSS,
    Code.SHORT_DRAW: Code.SHORT_DRAW,
    Code.UNKNOWN: Code.UNKNOWN,
    Code.FORFEIT_WIN: Code.FORFEIT_LOSS,
    Code.FORFEIT_LOSS: Code.FORFEIT_WIN,
    Code.PENDING: Code.PENDING,
}
UNPAIRED = [Code.HALF_BYE, Code.ZERO_BYE, Code.FULL_BYE, Code.PAB]
SCORINGS = [
    Scoring(),
    Scoring(win=Decimal(3), draw=Decimal(1)),
    Scoring(win=Decimal("1.00"), draw=Decimal("0.5"), pab=Decimal("0.50")),
]


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[Tournament, int, bool, Edition, Code]:
    n = draw(st.integers(2, 9))
    rounds = draw(st.integers(1, 5))
    entries: dict[int, list[Entry]] = {no: [] for no in range(1, n + 1)}
    for _ in range(rounds):
        pool = draw(st.permutations(range(1, n + 1)))
        paired = draw(st.integers(0, n // 2))
        for b in range(paired):
            white, black = pool[2 * b], pool[2 * b + 1]
            code = draw(st.sampled_from([*GAME, Code.FORFEIT_WIN, Code.FORFEIT_LOSS, Code.PENDING]))
            if code is Code.FORFEIT_LOSS and draw(st.booleans()):
                other = Code.FORFEIT_LOSS  # double forfeit
            else:
                other = OTHER[code]
            entries[white].append(Entry(code, black, "w"))
            entries[black].append(Entry(other, white, "b"))
        for no in pool[2 * paired :]:
            entries[no].append(Entry(draw(st.sampled_from(UNPAIRED))))
    t = Tournament(
        "fast path",
        tuple(
            Participant(no, f"P{no}", rating=1500 + 37 * no, entries=tuple(entries[no]))
            for no in entries
        ),
        rounds + draw(st.integers(0, 1)),
        draw(st.sampled_from(["swiss", "roundrobin"])),
        draw(st.sampled_from(SCORINGS)),
        dt.date(2025, 1, 1),
    )
    # The live projections' projected view counts an unfinished game as a draw.
    unfinished = draw(st.sampled_from([Code.PENDING, Code.DRAW]))
    return (
        t,
        draw(st.integers(0, rounds)),
        draw(st.booleans()),
        draw(st.sampled_from(Edition)),
        unfinished,
    )


@settings(max_examples=300, deadline=None)
@given(tournaments())
def test_fast_equals_explained(case: tuple[Tournament, int, bool, Edition, Code]) -> None:
    t, upto, as_final, edition, unfinished = case
    fast = Context(t, upto, edition=edition, as_final=as_final, unfinished=unfinished)
    fast.explain = False
    for code in SPECS:
        spec = parse_spec(code)
        # Nothing cached.
        explained = Context(t, upto, edition=edition, as_final=as_final, unfinished=unfinished)
        for p in t.participants:
            want = compute(explained, spec, p.start_no).value
            got = compute(fast, spec, p.start_no).value
            assert str(got) == str(want), (code, p.start_no)
    for p in t.participants:
        for fore in (False, True):
            want = sum(
                (fast.adjusted_round(p.start_no, r, fore) for r in fast.rounds(p.start_no)), ZERO
            )
            assert str(fast.adjusted(p.start_no, fore)) == str(want)
