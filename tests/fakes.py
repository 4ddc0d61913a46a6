"""Pieces of the test doubles several test modules share."""

from __future__ import annotations

from livetb.projections.standings import Delta, StandingsProjection


class Undelayed:
    """The public-feed calls of `livetb.app.service.Feed` for a fake feed of tests where no
    tournament is delayed: never made."""

    def publish_public(
        self, tournament_id: str, delta: Delta, projection: StandingsProjection
    ) -> None:
        raise AssertionError("no delayed tournament here")

    def delayed(self, tournament_id: str, projection: StandingsProjection) -> None:
        raise AssertionError("no delayed tournament here")

    def undelayed(self, tournament_id: str, projection: StandingsProjection) -> None:
        raise AssertionError("no delayed tournament here")
