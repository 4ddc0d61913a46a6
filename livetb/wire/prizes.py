"""The live prize list as the API, the feed and the CLI send it (`livetb/projections/prizes.py`
computes it): msgspec structs only, shared by the server, the client and the CLI."""

from __future__ import annotations

from typing import Literal

import msgspec

Status = Literal["provisional", "final"]
Rule = Literal["ranking", "shared", "hort"]


class AwardLine(msgspec.Struct):
    """One prize awarded, or one share of places shared (`places`, `shared` members)."""

    start_no: int
    name: str
    list: str
    place: int
    amount: str
    places: tuple[int, int]
    shared: int
    label: str


class PrizeLine(msgspec.Struct):
    list: str
    place: int
    amount: str
    label: str


class ListInfo(msgspec.Struct):
    code: str  # "main" or a category's code
    name: str | None  # the category's name (the arbiter's own text); None for the main list


class PrizeList(msgspec.Struct):
    """`GET /api/tournaments/{id}/prizes`, the feed's `prizes`, the CLI's JSON."""

    seq: int
    status: Status
    after_round: int
    rule: Rule | None  # None: no prize table defined
    one_prize_per_player: bool
    currency: str | None
    lists: list[ListInfo]
    prizes: list[PrizeLine]
    awards: list[AwardLine]
