"""The websocket feed's wire format, shared by the server (`livetb/web/feed.py`) and the client
(`livetb/client.py`).

    {"type": "snapshot", "seq": N, "standings": <GET /api/tournaments/{id}/standings>}
    {"type": "delta", "seq": N, "rows": [<changed rows, full content>],
     "after_round": K, "round_in_progress": R | null}
    {"type": "ping"}

A filtered feed (`/ws?…&top=N` or `&participants=1,5,9`) carries only the rows in its view: the
snapshot's `standings` lists them, each delta's `rows` the view's changed rows plus any row that
entered it, and `"drop": [start numbers]` the rows that left it (top N only), which the client
removes.

A delta carries every event's seq, even when no row changed, so a client can tell that it missed
nothing; `after_round` and `round_in_progress` are the standings' header after the event.
"""

from __future__ import annotations

import msgspec

from livetb.projections.standings import Delta, Row, StandingsProjection
from livetb.standings_doc import DbStandings


class Message(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """One websocket message from the server."""


class SnapshotMessage(Message, tag="snapshot"):
    seq: int
    standings: DbStandings


class DeltaMessage(Message, tag="delta", omit_defaults=True):
    seq: int
    rows: tuple[Row, ...]
    after_round: int
    round_in_progress: int | None
    # Filtered feeds only (`&top=N`): start numbers that left the view; the client drops them.
    drop: tuple[int, ...] = ()


class PingMessage(Message, tag="ping"):
    pass


AnyMessage = SnapshotMessage | DeltaMessage | PingMessage

encode = msgspec.json.Encoder().encode
decode_message = msgspec.json.Decoder(AnyMessage).decode
PING = encode(PingMessage())


def header(projection: StandingsProjection) -> tuple[int, int | None]:
    """`after_round` and `round_in_progress` of the standings."""
    state = projection.state
    return state.closed, state.paired if state.paired > state.closed else None


def delta_message(delta: Delta, projection: StandingsProjection) -> DeltaMessage:
    after_round, running = header(projection)
    return DeltaMessage(
        seq=delta.seq, rows=delta.rows, after_round=after_round, round_in_progress=running
    )
