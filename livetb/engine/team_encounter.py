"""Extended Direct Encounter for teams (C.07 2023 12.3; 2024 13.3), type A.

DE (2023 5.1) is applied to the tied teams on the primary score and, where teams are still
tied, on the secondary score; whenever a new tied subset appears the procedure starts again
for it (12.3.3). As the FIDE reference does it: DE on the primary score, reapplied to every new
subset until nothing changes; then the same on the secondary score; then the primary again,
and so on, until one pass on each score has changed nothing. (A subset found on the secondary
score is thus tried on the secondary score once more before the primary one; the reading
"primary first for every new subset" could order a rare three-way tie differently.)

The knockout tie-breaks that 12.3 lets the competition rules add after EDE are separate codes
(BC, TBR, BBE) that follow EDE in the list.
"""

from __future__ import annotations

from livetb.engine.direct_encounter import direct_encounter
from livetb.engine.modifiers import Spec
from livetb.engine.team_context import TeamView
from livetb.engine.teams import secondary


def extended_direct_encounter(view: TeamView, spec: Spec, group: list[int]) -> dict[int, int]:
    """Places within `group` (1 = best; equal places stay tied)."""
    kind = view.kind_of(spec)
    scores = (view.context(kind), view.context(secondary(kind)))
    groups = [sorted(group)]
    quiet, turn = 0, 0
    while quiet < 2:
        ctx = scores[turn]
        refined = [tier for g in groups for tier in tiers(direct_encounter(ctx, g))]
        quiet = 0 if len(refined) > len(groups) else quiet + 1
        groups, turn = refined, 1 - turn
    places: dict[int, int] = {}
    first = 1
    for g in groups:
        places.update((no, first) for no in g)
        first += len(g)
    return places


def tiers(places: dict[int, int]) -> list[list[int]]:
    """Places (1 = best, shared when tied) as ordered groups of the tied."""
    by_place: dict[int, list[int]] = {}
    for no, place in sorted(places.items(), key=lambda item: (item[1], item[0])):
        by_place.setdefault(place, []).append(no)
    return list(by_place.values())
