"""A team event seen by the tie-breaks: one `Context` per point type (C.07 2023 Art. 12 intro;
2024 Art. 13): "all tie-breaks of Articles 5-9 may be used for teams with MP or GP".

`TeamContext` is a `Context` whose participants are the teams and whose per-round points are
match points or game points. Everything built on `Context` (BH, FB, SB, PS, WIN, KS, DE, the
unplayed-round categories and adjusted scores of every edition) then works on teams as it is.
A round's "win" and "draw" are those of the chosen score: 2 and 1 MP by default, or every
board won (drawn) for GP, which is what a team's unplayed round is worth to its opponents
(2023 14.4, for teams "this applies to both MP and GP"). Which rounds are available, voluntary,
played, followed by an available round comes from the match, the same for both scores.

`TeamView` holds the contexts of one standings request and decides, per tie-break, which score
it reads: its own `:MP`/`:GP`, else `MPTS`/`GPTS`, else the primary score.
"""

from __future__ import annotations

from livetb.engine.context import Context, Round
from livetb.engine.editions import Edition
from livetb.engine.modifiers import Spec
from livetb.engine.teams import PointType, TeamEvent, secondary

SCORE_CODES: dict[str, PointType] = {"MPTS": "MP", "GPTS": "GP"}


class TeamContext(Context):
    """Team event after round `upto`, scored in `kind` (match or game points)."""

    def __init__(
        self,
        event: TeamEvent,
        kind: PointType,
        upto: int | None = None,
        *,
        edition: Edition | None = None,
        as_final: bool = False,
    ) -> None:
        super().__init__(event.tournament, upto, edition=edition, as_final=as_final)
        self.event = event
        self.kind = kind
        self.win = event.round_win(kind)
        self.draw = event.round_draw(kind)
        self._teams = {t.number: t for t in event.teams}

    def rounds(self, no: int) -> tuple[Round, ...]:
        """Rounds 1..K of team `no`, with this context's points."""
        cached = self._rounds.get(no)
        if cached is None:
            team = self._teams[no]
            cached = tuple(
                Round(m.rnd, m.code, m.opponent, m.colour, m.points(self.kind))
                for m in team.matches[: self.upto]
            )
            self._rounds[no] = cached
        return cached


class TeamView:
    """Everything one team standings request reads: the event after round K, both scores."""

    def __init__(
        self,
        event: TeamEvent,
        upto: int | None = None,
        *,
        edition: Edition | None = None,
        as_final: bool = False,
        primary: PointType | None = None,
    ) -> None:
        self.event = event
        self.primary: PointType = primary or event.primary
        self._settings = (upto, edition, as_final)
        self._contexts: dict[PointType, TeamContext] = {}
        first = self.context("MP")
        self.upto = first.upto
        self.edition = first.edition

    def context(self, kind: PointType) -> TeamContext:
        """The event scored in `kind`, built on first use."""
        ctx = self._contexts.get(kind)
        if ctx is None:
            upto, edition, as_final = self._settings
            ctx = TeamContext(self.event, kind, upto, edition=edition, as_final=as_final)
            self._contexts[kind] = ctx
        return ctx

    @property
    def start_nos(self) -> list[int]:
        return [t.number for t in self.event.teams]

    def kind_of(self, spec: Spec) -> PointType:
        """The score a tie-break reads: `BH:GP` says so; MPTS/GPTS are their score; otherwise
        the primary score (the reference's default for team tie-breaks)."""
        if spec.points:
            return spec.points  # type: ignore[return-value]
        return SCORE_CODES.get(spec.code, self.primary)

    def on(self, spec: Spec) -> TeamContext:
        return self.context(self.kind_of(spec))

    def secondary_of(self, spec: Spec) -> TeamContext:
        return self.context(secondary(self.kind_of(spec)))


def primary_from_list(specs: tuple[Spec, ...], default: PointType) -> PointType:
    """The standings' primary score: the first score in the list (`MPTS`, `GPTS`, `PTS` with
    its point type), as the reference reads it; else the tournament's own."""
    for spec in specs:
        if spec.code in SCORE_CODES:
            return SCORE_CODES[spec.code]
        if spec.code == "PTS":
            return spec.points or default  # type: ignore[return-value]
    return default
