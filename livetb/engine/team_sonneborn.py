"""Extended Sonneborn-Berger for teams (C.07 2023 12.2 and 13.1.2; 2024 13.2 and 14.1.2).

| code  | opponent's score (a) | points scored against it (b) | type |
|-------|----------------------|------------------------------|------|
| EMMSB | match points         | match points                 | B, C |
| EMGSB | match points         | game points                  | B, C |
| EGMSB | game points          | match points                 | B, C |
| EGGSB | game points          | game points                  | B, C |

Each round adds (a) x (b). The opponent's score is its adjusted score, and an own unplayed
round counts against the team itself, exactly as for SB (2023 Art. 14, by edition; in round
robins forfeits are games and rest rounds add nothing). Cut-1 (13.1.2) drops the opponent with
the lowest score (a), among equals the one against whom the worst result was obtained; own
voluntarily unplayed rounds go first, as for every low cut.
"""

from __future__ import annotations

from livetb.engine.buchholz import Term, cut, terms
from livetb.engine.context import ZERO
from livetb.engine.modifiers import Spec
from livetb.engine.result import Part, Product, Value
from livetb.engine.team_context import TeamView
from livetb.engine.teams import PointType

_KIND: dict[str, PointType] = {"M": "MP", "G": "GP"}


def extended_sonneborn_berger(view: TeamView, spec: Spec, no: int) -> Value:
    """EMMSB, EMGSB, EGMSB, EGGSB: the code's letters name (a) and (b)."""
    of_opponent = view.context(_KIND[spec.code[1]])
    scored = {r.rnd: r.points for r in view.context(_KIND[spec.code[2]]).rounds(no)}
    products = [
        Term(t.rnd, t.score, t.score * scored[t.rnd], t.voluntary, t.source)
        for t in terms(of_opponent, no, fore=False, sb=False)
    ]
    kept, dropped = cut(of_opponent, products, spec.cut_low, spec.cut_high)
    parts = tuple(
        Part(t.rnd, t.product, Product(t.source, t.score, scored[t.rnd]))
        for t in sorted(kept + [t for t, _ in dropped], key=lambda t: t.rnd)
    )
    why = tuple((t.rnd, reason) for t, reason in dropped)
    return Value(sum((t.product for t in kept), ZERO), parts, why)
