"""Team standings from the event log: the teams as participants (C.07 2024 Art. 5 ff.).

The matches are rebuilt from the board games of the folded state (`build_team_event`, as for a
team TRF), then read through the same three views as individual standings: rounds 1..K for
own results (unfinished games 0), rounds 1..C for opponents' results (type C), and round K as
the last one for FB while a round runs.

`TeamTable` keeps what an event leaves unchanged: a result or a correction rebuilds only its
round's matches, and the columns read on the closed rounds (type C) or on the Fore-Buchholz
view survive every event that does not change what they read (a result of the running round
changes neither). What a result does recompute: the own-result columns of every team on the
live view, the group tie-breaks and the ranking.
"""

from __future__ import annotations

from livetb.engine.catalogue import tiebreak_of
from livetb.engine.editions import Edition
from livetb.engine.result import Number
from livetb.engine.spec import Spec
from livetb.engine.team_context import TeamView, primary_from_list
from livetb.engine.team_standings import rank_teams
from livetb.engine.teams import Roster, TeamEvent, build_team_event, rebuild_round
from livetb.events.schema import (
    AnyEvent,
    FileSynced,
    ParticipantReinstated,
    ParticipantWithdrawn,
    ResultCorrected,
    ResultRecorded,
    RoundPaired,
)
from livetb.events.state import TournamentState
from livetb.projections.delta import Changes
from livetb.projections.lines import fmt
from livetb.projections.ranking import flip
from livetb.projections.views import status_of, view_of
from livetb.wire.standings import Row, Status, ties_of

TeamLine = tuple[int, int, str, tuple[Number | None, ...], tuple[Status, ...]]


class TeamTable:
    """A team tournament's table, kept event by event."""

    def __init__(self) -> None:
        self.event: TeamEvent | None = None
        # Columns on the closed rounds' view or the FB view, by tie-break index.
        self.kept: dict[int, dict[int, Number | None]] = {}

    def apply(self, state: TournamentState, specs: tuple[Spec, ...], event: AnyEvent) -> bool:
        """Take one folded event in; whether the table can have changed."""
        if isinstance(event, ParticipantWithdrawn | ParticipantReinstated | FileSynced):
            return False  # act on later pairings; a sync's record changes no table
        rnd = event.round if isinstance(event, ResultRecorded | ResultCorrected) else None
        before = self.event
        if rnd is not None and before is not None:
            self.event = rebuild_round(before, state.tournament(), rnd)
        else:
            self.event = _build(state)
        fb_reads_it = state.edition is Edition.LEGACY  # the legacy FB counts every result
        running = state.paired > state.closed
        if rnd is not None and running and rnd == state.paired and not fb_reads_it:
            return True  # the running round: neither the closed rounds nor FB read it
        if (
            isinstance(event, RoundPaired)
            and before is not None
            and self.event is not None
            and before.boards == self.event.boards
        ):
            # Rounds 1..C read as before (a wider match would change every bye's game points).
            self.kept = {k: c for k, c in self.kept.items() if tiebreak_of(specs[k]).type_c}
        else:
            self.kept = {}
        return True

    def reset(self, state: TournamentState) -> None:
        """Everything from the folded state (a rebuild, a restored snapshot)."""
        self.event, self.kept = _build(state), {}

    def publish(
        self,
        state: TournamentState,
        specs: tuple[Spec, ...],
        rows: dict[int, Row],
        before: list[int],
        shares: set[int],
        out: Changes,
    ) -> tuple[Status, ...]:
        """The table re-read whole into the published `rows` (in the order `before`, the ties
        `shares`): the rows whose content changed, the new order and the ties that flipped go
        to `out`; its statuses."""
        table = [
            Row(rank, no, name, tuple(fmt(v) for v in values), statuses)
            for rank, no, name, values, statuses in self.lines(state, specs)
        ]
        for row in table:
            old = rows.get(row.start_no)
            if row != old:
                rows[row.start_no] = row
                out.row(old, row)
        after = [r.start_no for r in table]
        if after != before:
            out.order = tuple(after)
        for no, tied in ties_of(table):  # every row whose tie with the one above flipped
            if tied != (no in shares):
                flip(shares, no, tied, out)
        return table[0].statuses if table else ()

    def lines(self, state: TournamentState, specs: tuple[Spec, ...]) -> list[TeamLine]:
        """Each team's (rank, number, name, values, statuses), best first."""
        created, event = state.created, self.event
        assert created is not None
        if event is None or not event.teams:
            return []
        paired, closed = state.paired, state.closed
        running = paired > closed
        edition = Edition(created.edition) if created.edition else None
        primary = primary_from_list(specs, event.primary)

        def view(upto: int, as_final: bool = False) -> TeamView:
            return TeamView(event, upto, edition=edition, as_final=as_final, primary=primary)

        live = view(paired)
        done = view(closed) if running else live
        views = {"live": live, "done": done, "fore": view(paired, True) if running else done}

        def on(spec: Spec) -> TeamView:
            return views[view_of(spec.code, running)]

        columns = dict(self.kept)
        table = rank_teams(live, specs, on, columns)
        self.kept = {k: c for k, c in columns.items() if _kept(specs[k])}
        statuses = tuple(status_of(spec.code, running) for spec in specs)
        return [(r.rank, r.start_no, r.name, r.values, statuses) for r in table.rows]


def _build(state: TournamentState) -> TeamEvent | None:
    if not state.teams:
        return None
    rosters = [Roster(t.number, t.name, t.members) for _, t in sorted(state.teams.items())]
    return build_team_event(state.tournament(), rosters)


def _kept(spec: Spec) -> bool:
    """Read on the closed rounds or on the FB view, not on the live one."""
    return view_of(spec.code, True) != "live"
