"""The REST API's reads. Public unless the tournament is private (`livetb/web/http/auth.py`):

    GET /api/tournaments                                   ids, heads, dates and progress
    GET /api/tournaments/{id}                              details and participants
    GET /api/tournaments/{id}/standings[?at_seq=N | ?after_round=K]
    GET /api/tournaments/{id}/rounds/{round}               pairings, results, requested byes
    GET /api/tournaments/{id}/participants/{start_no}      the card (`livetb/projections/card.py`)
    GET /api/tournaments/{id}/events[?after=N&limit=M]     the log, page by page

A card, the standings at a past position and the log's pages are limited per client
(`livetb/web/http/throttle.py`); a card is built in the offload worker
(`livetb/app/offload.py`), never on the event loop, and kept for the next asker at that seq.

The console's reads (Berger tables, the audit trail) are in `livetb/web/api/console.py`.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import OrderedDict
from collections.abc import Hashable

import msgspec
from aiohttp import web

from livetb.errors import InvalidInput, LivetbError, NotFound, Said
from livetb.events.schema import (
    ParticipantRegistered,
    ParticipantUpdated,
    Recorded,
    RoundClosed,
    RoundPaired,
    TournamentCreated,
)
from livetb.events.state import TournamentState
from livetb.events.store import EventStore
from livetb.projections import card
from livetb.projections.document import to_json
from livetb.projections.standings import StandingsProjection
from livetb.web.api import categories
from livetb.web.feed.messages import round_info as round_message
from livetb.web.http.caching import dressed, not_modified, tagged, validator
from livetb.web.http.limits import int_query
from livetb.web.http.public import delay_of, public_at, public_heads, readable, reads_live
from livetb.web.http.routing import (
    BASE,
    PARTICIPANT,
    PUBLIC,
    READ_ERRORS,
    ROUND,
    Endpoint,
    Query,
    encode,
    json_response,
    route_defs,
)
from livetb.web.http.throttle import limited
from livetb.web.keys import OFFLOAD, SERVICE, STORE, TIMETRAVEL
from livetb.wire.messages import RoundInfo
from livetb.wire.standings import DbStandings


class Summary(msgspec.Struct):
    """A tournament as the list shows it: as of `seq`, the head shown (a delayed tournament's
    public one)."""

    id: str
    seq: int
    name: str
    rounds: int
    kind: str
    start_date: str | None = None  # as created (ISO date), when one was given
    paired: int = 0  # the last round paired at `seq` (0: not started)
    closed: int = 0  # the last round closed at `seq` (`rounds`: finished)
    updated: str | None = None  # when the event at `seq` was recorded (ISO 8601, UTC)


class ParticipantInfo(msgspec.Struct):
    start_no: int
    name: str
    rating: int | None
    title: str
    federation: str
    fide_id: str
    withdrawn_from: int | None
    sex: str = ""  # "m", "w" or "" (unknown)
    birth_date: str = ""  # as registered: YYYY/MM/DD, YYYY-MM-DD or a year; "": unknown


class TeamInfo(msgspec.Struct):
    """A team of a team tournament: its number, name and players' start numbers in board
    order (the overlay's match scoreboard sums its boards)."""

    number: int
    name: str
    members: tuple[int, ...]


class TournamentInfo(msgspec.Struct):
    id: str
    seq: int
    name: str
    rounds: int
    system: str
    kind: str
    tiebreaks: tuple[str, ...]
    edition: str | None
    start_date: str | None
    private: bool
    paired: int
    closed: int
    participants: list[ParticipantInfo]
    teams: list[TeamInfo] = []  # team tournaments only
    public_delay: int = 0  # seconds: the broadcast delay (`livetb/app/delay.py`)


class EventPage(msgspec.Struct):
    events: list[Recorded]
    next_after: int | None  # pass as `after` for the next page; None: the last page


class TournamentList(msgspec.Struct):
    tournaments: list[Summary]


async def list_tournaments(request: web.Request) -> web.Response:
    """Every tournament but the private ones."""
    shown = await asyncio.to_thread(summaries, request.app[STORE])
    await public_heads(request, shown)  # a delayed tournament's public head
    held = request.app[SERVICE].projections
    states = {t.id: p.state for t in shown if (p := held.get(t.id)) is not None and p.seq == t.seq}
    await asyncio.to_thread(progress, request.app[STORE], shown, states)
    return json_response(TournamentList(shown))


def summaries(store: EventStore) -> list[Summary]:
    shown = []
    for tid in store.tournaments():
        created = public_creation(store, tid)
        if created is not None:
            start = created.start_date.isoformat() if created.start_date else None
            head = store.head(tid)
            shown.append(Summary(tid, head, created.name, created.rounds, created.kind, start))
    return shown


def progress(store: EventStore, listed: list[Summary], states: dict[str, TournamentState]) -> None:
    """Each listed tournament's rounds paired and closed, and when its head was recorded, as
    of the head shown: from the state of a projection held at that head, else from the log
    read up to it (no projection is loaded for a list)."""
    for t in listed:
        state = states.get(t.id)
        if state is not None:
            t.paired, t.closed = state.paired, state.closed
        last = None
        try:
            for rec in store.read(t.id, after=t.seq - 1 if state is not None else 0):
                if rec.seq > t.seq:
                    break
                last = rec
                if state is None and isinstance(rec.event, RoundPaired):
                    t.paired = max(t.paired, rec.event.round)
                elif state is None and isinstance(rec.event, RoundClosed):
                    t.closed = max(t.closed, rec.event.round)
        except (msgspec.DecodeError, LivetbError):
            # A log that cannot be read whole (its own reads say why): the list still shows
            # the others, and this one as far as it was read.
            pass
        t.updated = None if last is None else last.at.isoformat()


def public_creation(store: EventStore, tid: str) -> TournamentCreated | None:
    """The log's first event if it creates a public tournament, from that one event: no
    projection is built. (No later event changes `private`; one that did would need folding.)"""
    first = next(store.read(tid), None)
    created = None if first is None else first.event
    return created if isinstance(created, TournamentCreated) and not created.private else None


async def tournament(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    seen = await readable(request, tid)
    projection = seen.projection
    delay = delay_of(request, tid)
    # Under a delay the delay itself is the live log's, which the public seq does not follow.
    cached = validator(request, projection, f"d{delay}" if seen.public else "")
    if (hit := not_modified(request, cached)) is not None:
        return hit
    info = tournament_info(tid, projection.seq, projection.state)
    if not await reads_live(request, tid):
        # A birth date is personal (many players are minors): the public sees the year,
        # which the categories' bands read; a token of the tournament sees the date.
        for p in info.participants:
            p.birth_date = p.birth_date[:4]
    info.public_delay = delay
    return dressed(json_response(info), cached)


def tournament_info(tid: str, seq: int, state: TournamentState) -> TournamentInfo:
    c = state.created
    assert c is not None
    people = [
        ParticipantInfo(
            p.start_no,
            p.name,
            p.rating,
            p.title,
            p.federation,
            p.fide_id,
            state.withdrawn.get(no),
            p.sex,
            p.birth_date,
        )
        for no, p in sorted(state.participants.items())
    ]
    start = c.start_date.isoformat() if c.start_date else None
    return TournamentInfo(
        tid, seq, c.name, c.rounds, c.system, c.kind, c.tiebreaks, c.edition, start, c.private,
        state.paired, state.closed, people,
        [TeamInfo(t.number, t.name, t.members) for _, t in sorted(state.teams.items())],
    )  # fmt: skip


async def standings(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    seen = await readable(request, tid)
    live = seen.projection
    at_seq = int_query(request, "at_seq", low=1)
    after_round = int_query(request, "after_round", low=1)
    if at_seq is not None and after_round is not None:
        said = Said("api.not_both", first="at_seq", second="after_round")
        raise InvalidInput(said, path="at_seq")
    at_seq = public_at(seen, at_seq, after_round)
    category, rated = categories.view_queries(request)
    if at_seq is None and after_round is None:
        cached = validator(request, live)
        if (hit := not_modified(request, cached)) is not None:
            return hit
        body = live_body(request, tid, live, category, rated)
        return dressed(web.Response(body=body, content_type="application/json"), cached)
    travel = request.app[TIMETRAVEL]  # replays off the loop, bounded, cached
    async with limited(request):
        if after_round is not None:
            at_seq = await travel.round_closed_at(tid, after_round)
        assert at_seq is not None
        seq, body = await travel.standings(tid, at_seq)
        if category is not None or rated:
            body = await categories.past_view(request, tid, seq, body, category, rated)
    # A past position's seq is known once it is found: a match saves the bytes, not the work.
    cached = tagged(request, seq, live)
    return not_modified(request, cached) or dressed(
        web.Response(body=body, content_type="application/json"), cached
    )


LIVE_BODIES = web.AppKey("live_bodies", OrderedDict[tuple[str, int, str | None, bool], bytes])
# Tournaments' (or a delayed one's public and live) standings kept, and their category and
# rating-change views.
_KEPT_BODIES = 16


def live_body(
    request: web.Request,
    tid: str,
    live: StandingsProjection,
    category: str | None = None,
    rated: bool = False,
) -> bytes:
    """The standings at `live`'s seq (`category`'s, with each row's rating change if `rated`),
    encoded once for everyone who asks at that seq: 1.5 ms of the loop at 2,000 players each
    time, 13 ms with the rating change, and a few clients asking in a loop delayed every
    viewer's deltas."""
    kept = request.app[LIVE_BODIES]
    key = (tid, live.seq, category, rated)
    body = kept.get(key)
    if body is None:
        doc = to_json(live)
        if category is not None or rated:
            categories.view(doc, live.state, category, rated)
        body = kept[key] = encode(doc)
        while len(kept) > _KEPT_BODIES:
            kept.popitem(last=False)
    else:
        kept.move_to_end(key)
    return body


async def round_info(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    rnd = int(request.match_info["round"])
    projection = (await readable(request, tid)).projection
    state = projection.state
    assert state.created is not None
    if not 1 <= rnd <= state.created.rounds:
        raise NotFound.of("api.no_round", round=rnd, rounds=state.created.rounds)
    cached = validator(request, projection)
    if (hit := not_modified(request, cached)) is not None:
        return hit
    return dressed(json_response(round_message(state, rnd)), cached)


async def participant_card(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    no = int(request.match_info["start_no"])
    projection = (await readable(request, tid)).projection
    if no not in projection.state.participants:
        raise NotFound.of("api.no_participant", no=no)
    cached = validator(request, projection)
    if (hit := not_modified(request, cached)) is not None:
        return hit
    async with limited(request):
        _, body = await request.app[OFFLOAD].run(card_json, tid, projection.seq, no)
    return dressed(web.Response(body=body, content_type="application/json"), cached)


def card_json(projection: StandingsProjection, no: Hashable) -> bytes:
    """In the offload worker: participant `no`'s card, encoded."""
    assert isinstance(no, int)
    return msgspec.json.encode(card.build(projection, no))


async def events(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    seen = await readable(request, tid)  # (404 for a tournament with no log)
    after = int_query(request, "after") or 0
    limit = min(int_query(request, "limit", low=1) or 100, 1000)
    read = request.app[STORE].read
    async with limited(request):
        page = await asyncio.to_thread(lambda: list(itertools.islice(read(tid, after), limit + 1)))
    if seen.public:  # under a broadcast delay: the public part of the log only
        page = [rec for rec in page if rec.seq <= seen.projection.seq]
    more = len(page) > limit
    page = page[:limit]
    if not await reads_live(request, tid):
        page = [_birth_years(rec) for rec in page]
    return json_response(EventPage(page, page[-1].seq if more else None))


def _birth_years(rec: Recorded) -> Recorded:
    """The record as the public reads it: a participant's birth date as its year."""
    e = rec.event
    if not isinstance(e, ParticipantRegistered | ParticipantUpdated):
        return rec
    born = e.birth_date
    if not isinstance(born, str) or len(born) <= 4:
        return rec
    return msgspec.structs.replace(rec, event=msgspec.structs.replace(e, birth_date=born[:4]))


ENDPOINTS = [
    Endpoint(
        method="GET",
        path="/api/tournaments",
        handler=list_tournaments,
        summary="Tournaments: their log heads, start dates, rounds paired and closed",
        response=TournamentList,
        auth=PUBLIC,
    ),
    Endpoint(
        method="GET",
        path=BASE,
        handler=tournament,
        summary="A tournament's details and participants",
        response=TournamentInfo,
        errors=READ_ERRORS,
    ),
    Endpoint(
        method="GET",
        path=BASE + "/standings",
        handler=standings,
        summary="Standings now, after a round, or at a log position",
        response=DbStandings,
        errors=(*READ_ERRORS, 422, 429),
        query=(
            Query("at_seq", "the standings at this log sequence number", minimum=1),
            Query("after_round", "the standings when this round was closed", minimum=1),
            categories.CATEGORY_QUERY,
            categories.WITH_QUERY,
        ),
    ),
    Endpoint(
        method="GET",
        path=ROUND,
        handler=round_info,
        summary="A round's pairings, results and requested byes",
        response=RoundInfo,
        errors=READ_ERRORS,
    ),
    Endpoint(
        method="GET",
        path=PARTICIPANT,
        handler=participant_card,
        summary="A participant's card: results, every tie-break explained, neighbours",
        response=card.Card,
        errors=(*READ_ERRORS, 429),
    ),
    Endpoint(
        method="GET",
        path=BASE + "/events",
        handler=events,
        summary="The event log, page by page",
        response=EventPage,
        errors=(*READ_ERRORS, 422, 429),
        query=(
            Query("after", "events after this seq"),
            Query("limit", "at most 1000 (more is read as 1000)", minimum=1),
        ),
    ),
]


def routes() -> list[web.RouteDef]:
    return route_defs(ENDPOINTS)
