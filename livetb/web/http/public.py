"""What a read shows under a broadcast delay (`livetb/app/delay.py`): a reader with a token of
the tournament (an arbiter's, or an organiser's) reads the live projection; anybody else the
public one, which lags the log by the delay. Without a delay both are the live projection and
no token is looked up.

    seen = await readable(request, tid)  # seen.projection, seen.public
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Iterator, Sequence
from typing import NamedTuple, Protocol

import msgspec
from aiohttp import web

from livetb.errors import DelayBeingSet, InvalidInput, LivetbError, Said, UnknownTournament
from livetb.projections.standings import StandingsProjection
from livetb.tokens.store import ORGANISER
from livetb.web.http.auth import check_read, credentials
from livetb.web.keys import SERVICE, STORE, TOKENS

MAX_DELAY = 3600  # seconds: the longest broadcast delay (`SetPublicDelay`)


class Seen(NamedTuple):
    """The projection a reader sees, and whether it is the delayed public one."""

    projection: StandingsProjection
    public: bool


async def reads_live(request: web.Request, tid: str) -> bool:
    """Whether the request carries a live token of `tid` (or an organiser's)."""
    header = credentials(request)
    if header is None:
        return False
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return False
    grant = await asyncio.to_thread(request.app[TOKENS].grant, token.strip())
    return grant is not None and (grant.kind == ORGANISER or grant.tournament_id == tid)


async def readable(request: web.Request, tid: str) -> Seen:
    """`check_read`'s projection, or under a delay and without a token the public one (a
    tournament with nothing public yet is unknown to the public: 404)."""
    live = await check_read(request, tid)
    service = request.app[SERVICE]
    if not service.delays.delayed(tid) or await reads_live(request, tid):
        return Seen(live, False)
    # Looked up after the awaits: a delay just turned on has its public projection built,
    # or the delay ended meanwhile (then what is public is live).
    public = await service.public_view(tid)
    if public is None:
        if service.delays.delayed(tid):  # turned off and on again meanwhile
            raise DelayBeingSet.of("api.delay_being_set")
        return Seen(live, False)
    if public.seq == 0 or public.state.created is None:
        raise UnknownTournament(tid)
    return Seen(public, True)


def delay_of(request: web.Request, tid: str) -> int:
    """The broadcast delay in force (the live log's: the public one learns it only once the
    change itself is public, but a viewer may know at once that it lags)."""
    return request.app[SERVICE].live(tid).state.public_delay


def public_at(seen: Seen, at_seq: int | None, after_round: int | None) -> int | None:
    """A past position a public reader may see: `at_seq` at most the public head, and a round
    closed in the public log (422 otherwise, as for a round not closed)."""
    if not seen.public:
        return at_seq
    state = seen.projection.state
    if after_round is not None:
        played = state.rounds.get(after_round)
        if played is None or not played.closed:
            said = Said("api.round_not_closed", round=after_round)
            raise InvalidInput(said, path="after_round")
    if at_seq is not None:
        return min(at_seq, seen.projection.seq)
    return None


class Listed(Protocol):
    """A tournament as a list shows it: its id and the head shown (`reads.Summary`)."""

    id: str
    seq: int


async def public_heads(request: web.Request, listed: Sequence[Listed]) -> None:
    """The heads a list shows without a token: a delayed tournament's public one. Only a log
    whose last event is younger than the longest delay can lag: the held projection answers,
    or (none held here) a read of the log in a thread; no projection is loaded."""
    store, service = request.app[STORE], request.app[SERVICE]
    recent = await asyncio.to_thread(_recent, store, [t.id for t in listed if t.seq])
    for t in listed:
        if t.id in recent:
            held = service.projections.get(t.id)
            if held is not None and held.seq >= t.seq:
                public = await service.public_view(t.id)
                t.seq = held.seq if public is None else public.seq
            else:
                t.seq = await asyncio.to_thread(service.public_head, t.id)


class _Stamped(Protocol):
    @property
    def at(self) -> dt.datetime: ...


class _Log(Protocol):
    """The part of the event store `_recent` reads (this layer names no `events` module)."""

    def head(self, tournament_id: str) -> int: ...

    def read(self, tournament_id: str, after: int = 0) -> Iterator[_Stamped]: ...


def _recent(store: _Log, tids: list[str]) -> set[str]:
    since = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=MAX_DELAY)
    out = set()
    for tid in tids:
        try:
            last = next(store.read(tid, after=max(0, store.head(tid) - 1)), None)
        except (msgspec.DecodeError, LivetbError):
            continue  # an event no reader knows: its own reads say so; the list goes on
        if last is not None and last.at > since:
            out.add(tid)
    return out
