"""The feed's messages (`livetb.wire.messages`) built from the projection: a snapshot, the
message of one event's delta, and a round as published."""

from __future__ import annotations

from collections.abc import Collection, Iterable

import msgspec

from livetb.events.state import BYE_CODES, TournamentState
from livetb.projections.delta import Delta
from livetb.projections.prizes import prize_list
from livetb.projections.ratings import RatedTotals
from livetb.projections.standings import StandingsProjection
from livetb.wire.messages import ByeInfo, DeltaMessage, GameInfo, RoundInfo, SnapshotMessage
from livetb.wire.standings import DbStandings

_BYE_NAMES = {code: name for name, code in BYE_CODES.items()}


def round_info(state: TournamentState, rnd: int) -> RoundInfo:
    """Round `rnd` as published: its boards with the results so far, and its byes."""
    played = state.rounds.get(rnd)
    byes = [ByeInfo(no, _BYE_NAMES[c]) for no, c in sorted(state.byes.get(rnd, {}).items())]
    games = [
        GameInfo(g.board, g.white, g.black, g.result)
        for _, g in sorted(played.games.items() if played else [])
    ]
    return RoundInfo(
        rnd,
        played is not None,
        bool(played and played.closed),
        games,
        played.pab if played else None,
        byes,
        list(played.more_pabs) if played else [],
    )


def header(projection: StandingsProjection) -> tuple[int, int | None]:
    """`after_round` and `round_in_progress` of the standings."""
    state = projection.state
    return state.closed, state.paired if state.paired > state.closed else None


def snapshot_message(doc: DbStandings, projection: StandingsProjection) -> SnapshotMessage:
    paired = projection.state.paired
    running = round_info(projection.state, paired) if paired else None
    prizes = None if projection.state.prizes is None else prize_list(projection)
    return SnapshotMessage(seq=doc.seq, standings=doc, round=running, prizes=prizes)


def delta_message(delta: Delta, projection: StandingsProjection) -> DeltaMessage:
    after_round, running = header(projection)
    state = projection.state
    games = []
    for rnd, board in delta.games:
        game = state.rounds[rnd].games[board]
        games.append((rnd, board, game.result))
    return DeltaMessage(
        seq=delta.seq,
        after_round=after_round,
        round_in_progress=running,
        statuses=delta.statuses,
        rows=delta.changes,
        moves=delta.moves,
        order=delta.order,
        tied=delta.tied,
        untied=delta.untied,
        round=None if delta.round is None else round_info(state, delta.round),
        games=tuple(games),
    )


def rated_part(
    part: DeltaMessage, rated: RatedTotals, shown: Collection[int], entered: Iterable[int]
) -> DeltaMessage:
    """A rated view's delta `part` with the rating change of its rows (`shown`) whose total
    changed, and of those that `entered` it."""
    nos = {no for no in rated.changed if no in shown} | set(entered)
    if not nos:
        return part
    return msgspec.structs.replace(
        part, rating_change=tuple((no, rated.text(no)) for no in sorted(nos))
    )
