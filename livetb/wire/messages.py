"""The websocket feed's wire format (v2), shared by the server (`livetb/web/feed/`), the
Python client (`livetb/client/follow.py`) and the pages (`livetb/web/pages/static/feed.js`).

    {"type": "snapshot", "version": 2, "seq": N,
     "standings": <GET /api/tournaments/{id}/standings>,
     "round": <GET /api/tournaments/{id}/rounds/{r}> of the last round paired, or null,
     "prizes": <GET /api/tournaments/{id}/prizes> or null (no prize table)}
    {"type": "delta", "seq": N, "after_round": K, "round_in_progress": R | null,
     "statuses": [...],                      only when they flipped (the same for every row)
     "rows": [{"start_no": 7, "name": "…", "cells": [[0, "4.5"], ["bh_projected", "17.0"]]}],
                                             the changed cells (tie-break index, or
                                             "fb_prediction" / "bh_projected"); a new or
                                             renamed row also has "name"
     "moves": [[start_no, position], …],     one after the other: take the row out of the order
                                             and insert it at that 0-based position
     "order": [start_no, …],                 or the whole new order (after a round close)
     "tied": [start_no, …],                  rows that now share the rank of the row above
     "untied": [start_no, …],                rows that no longer do
     "round": <the round, as in the snapshot>,  re-published: pairings or a requested bye
     "games": [[round, board, result], …]}   results recorded or corrected
    {"type": "prizes", "prizes": <GET /api/tournaments/{id}/prizes>}
                                             the prize list, once it changed: not with each
                                             delta but 50 ms after the first event since the
                                             last list, one for all the events in between;
                                             its "seq" is the last event it counts
    {"type": "ping"}                         the feed is idle, or a resume's missed deltas
                                             are all sent (caught up)

Every key after `round_in_progress` is left out when empty. A rank is 1 + the position of the
first row of its tied run: the client keeps the order and the tie flags and derives the ranks.

A filtered feed (`/ws?…&top=N` or `&participants=1,5,9`) carries only its rows: the snapshot's
`standings` lists them; a delta's `rows` has the changed cells of its rows (every cell of a row
that entered), `"ranks": [[start_no, rank], …]` for each of its rows whose rank changed, and
`"drop"` the rows that left it. Its rows are ordered by rank, then start number.

A delta carries every event's seq, even when nothing changed, so a client can tell that it
missed nothing. A viewer resuming with `since=` gets the deltas it missed, then the prize list
as it is (when the tournament has a prize table).
"""

from __future__ import annotations

import msgspec

from livetb.wire.prizes import PrizeList
from livetb.wire.standings import DbStandings, RowChange, Status

VERSION = 2


class GameInfo(msgspec.Struct):
    board: int
    white: int
    black: int
    result: str | None


class ByeInfo(msgspec.Struct):
    start_no: int
    points: str


class RoundInfo(msgspec.Struct):
    round: int
    paired: bool
    closed: bool
    games: list[GameInfo]
    bye: int | None  # the pairing-allocated bye
    requested_byes: list[ByeInfo]
    # further pairing-allocated byes (a pairing program's file with several `U`)
    more_byes: list[int] = []


class Message(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """One websocket message from the server. (Subclasses repeat `frozen=True`: msgspec
    inherits it, but type checkers, following PEP 681, do not.)"""


class SnapshotMessage(Message, tag="snapshot", frozen=True):
    seq: int
    standings: DbStandings
    round: RoundInfo | None = None
    version: int = VERSION
    prizes: PrizeList | None = None  # the live prize list, when the tournament has prizes


class DeltaMessage(Message, tag="delta", omit_defaults=True, frozen=True):
    seq: int
    after_round: int
    round_in_progress: int | None
    statuses: tuple[Status, ...] | None = None
    rows: tuple[RowChange, ...] = ()
    moves: tuple[tuple[int, int], ...] = ()
    order: tuple[int, ...] | None = None
    tied: tuple[int, ...] = ()
    untied: tuple[int, ...] = ()
    # Filtered feeds only: ranks that changed, and start numbers that left the view.
    ranks: tuple[tuple[int, int], ...] = ()
    drop: tuple[int, ...] = ()
    round: RoundInfo | None = None
    games: tuple[tuple[int, int, str | None], ...] = ()
    # `with=rating_change` feeds only: the rating change of the view's rows whose total this
    # event changed (and of rows that entered the view), an exact decimal string or None.
    rating_change: tuple[tuple[int, str | None], ...] = ()


class PrizesMessage(Message, tag="prizes", frozen=True):
    prizes: PrizeList


class PingMessage(Message, tag="ping", frozen=True):
    pass


AnyMessage = SnapshotMessage | DeltaMessage | PrizesMessage | PingMessage

encode = msgspec.json.Encoder().encode
# Annotated: mypy cannot take a union for `type[T]`, so the decoder would be Decoder[Any].
_message_decoder: msgspec.json.Decoder[AnyMessage] = msgspec.json.Decoder(AnyMessage)
decode_message = _message_decoder.decode
PING = encode(PingMessage())
