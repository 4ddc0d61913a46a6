"""Reads the arbiter console needs, as `Endpoint`s like the reads and writes (so OpenAPI has them):

    GET /api/berger?players=N[&double=1]                       FIDE Berger tables (public)
    GET /api/tournaments/{id}/audit[?round=R][&participant=NO][&after=SEQ][&limit=N]

The audit trail is the log oldest first, paged exactly like `/events` (`after`, `next_after`),
each event with who wrote it (the actor and its token's label) and, for a correction, the
result it replaced. It needs an arbiter token of the tournament, even for a public one: labels
name the arbiters.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
from collections.abc import Iterator

import msgspec
from aiohttp import hdrs, web

from livetb.errors import InvalidInput, Said, UnknownTournament
from livetb.events.schema import (
    AnyEvent,
    ByeRequested,
    ColoursSwapped,
    GameResult,
    ParticipantRegistered,
    ParticipantReinstated,
    ParticipantUpdated,
    ParticipantWithdrawn,
    PlayoffDecided,
    Recorded,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    TeamRegistered,
)
from livetb.events.store import EventStore
from livetb.pairing.berger import MAX_PLAYERS, MIN_PLAYERS, BergerRound, berger
from livetb.web.http.auth import AUDIT, authorize
from livetb.web.http.limits import int_query, is_number
from livetb.web.http.routing import (
    ARBITER,
    BASE,
    PUBLIC,
    READ_ERRORS,
    Endpoint,
    Query,
    json_response,
    route_defs,
)
from livetb.web.keys import OFFLOAD, TOKENS

# --- Berger tables ----------------------------------------------------------------------------


BERGER_PLAYERS = (MIN_PLAYERS, MAX_PLAYERS)  # what the console offers the tables for


class BergerTable(msgspec.Struct):
    players: int
    double: bool
    rounds: list[BergerRound]


def bounded(request: web.Request, name: str, low: int, high: int) -> int:
    """A required integer query parameter in `low..high`; 422 naming it otherwise."""
    text = request.query.get(name)
    if text is None or not is_number(text) or not low <= int(text) <= high:
        found = Said("api.missing") if text is None else repr(text)
        said = Said("api.integer_between", name=name, found=found, low=low, high=high)
        raise InvalidInput(said, path=name)
    return int(text)


def flag(request: web.Request, name: str) -> bool:
    """`1` is yes, `0` or absent is no; anything else is a 422 naming it."""
    text = request.query.get(name, "0")
    if text not in ("0", "1"):
        raise InvalidInput(Said("api.flag_1_0", name=name, value=repr(text)), path=name)
    return text == "1"


async def berger_table(request: web.Request) -> web.Response:
    players = bounded(request, "players", MIN_PLAYERS, MAX_PLAYERS)
    double = flag(request, "double")
    return json_response(BergerTable(players, double, berger(players, double)))


# --- the audit trail ----------------------------------------------------------------------------


class AuditEntry(msgspec.Struct, kw_only=True):
    seq: int
    at: dt.datetime
    actor: str
    label: str | None  # the label of the token that wrote it, if it has one
    event: AnyEvent
    before: GameResult | None = None  # a correction: the result it replaced


class AuditPage(msgspec.Struct):
    entries: list[AuditEntry]  # oldest first
    next_after: int | None  # pass as `after` for the next page; None: the last page


class Boards:
    """Who sat at each board and its result so far: what the filters and `before` need."""

    def __init__(self) -> None:
        self.seats: dict[tuple[int, int], tuple[int, int]] = {}
        self.results: dict[tuple[int, int], GameResult] = {}

    def apply(self, event: AnyEvent) -> GameResult | None:
        """Fold `event` in; for a correction, return the result it replaces."""
        match event:
            case RoundPaired(round=rnd, boards=boards):
                self.seats.update({(rnd, b.board): (b.white, b.black) for b in boards})
            case ColoursSwapped(round=rnd, board=board):
                white, black = self.seats[rnd, board]
                self.seats[rnd, board] = (black, white)
            case ResultRecorded(round=rnd, board=board):
                self.results[rnd, board] = event.result
            case ResultCorrected(round=rnd, board=board):
                before = self.results.get((rnd, board))
                self.results[rnd, board] = event.result
                return before
        return None


def round_of(event: AnyEvent) -> int | None:
    match event:
        case RoundPaired(round=rnd) | ResultRecorded(round=rnd) | ResultCorrected(round=rnd):
            return rnd
        case ColoursSwapped(round=rnd):
            return rnd
        case RoundClosed(round=rnd) | ByeRequested(round=rnd):
            return rnd
        case ParticipantWithdrawn(from_round=rnd) | ParticipantReinstated(from_round=rnd):
            return rnd
    return None


def names(event: AnyEvent, no: int, boards: Boards) -> bool:
    """Whether `event` concerns participant `no`: their registration, updates, withdrawal and
    byes, the pairings that seat them, the results of their boards, teams and playoffs."""
    match event:
        case (
            ParticipantRegistered(start_no=who)
            | ParticipantUpdated(start_no=who)
            | ParticipantWithdrawn(start_no=who)
            | ParticipantReinstated(start_no=who)
            | ByeRequested(start_no=who)
        ):
            return who == no
        case RoundPaired():
            seated = {p for b in event.boards for p in (b.white, b.black)}
            byes = (event.bye, *event.team_bye, *event.more_byes)
            return no in seated or no in byes
        case (
            ResultRecorded(round=rnd, board=board)
            | ResultCorrected(round=rnd, board=board)
            | ColoursSwapped(round=rnd, board=board)
        ):
            return no in boards.seats.get((rnd, board), ())
        case TeamRegistered(members=members) | PlayoffDecided(order=members):
            return no in members
    return False


def audit_entries(
    records: Iterator[Recorded],
    labels: dict[str, str | None],
    rnd: int | None = None,
    participant: int | None = None,
) -> Iterator[AuditEntry]:
    """The log's entries that pass the filters; the whole log is folded, so `before` and the
    seats of a board are known whatever page is asked for."""
    boards = Boards()
    for rec in records:
        before = boards.apply(rec.event)
        if rnd is not None and round_of(rec.event) != rnd:
            continue
        if participant is not None and not names(rec.event, participant, boards):
            continue
        label = labels.get(rec.actor)
        yield AuditEntry(
            seq=rec.seq, at=rec.at, actor=rec.actor, label=label, event=rec.event, before=before
        )


async def audit(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    await authorize(
        request.headers.get(hdrs.AUTHORIZATION),
        request.app[TOKENS],
        tid,
        what=AUDIT,
    )
    rnd = int_query(request, "round", low=1)
    participant = int_query(request, "participant", low=1)
    after = int_query(request, "after") or 0
    limit = min(int_query(request, "limit", low=1) or 100, 1000)
    labels = await asyncio.to_thread(request.app[TOKENS].labels, tid)
    # The whole log is read and folded (and the page encoded) in the offload worker: at 2,000
    # players the fold took 10-20 ms of the loop, and a thread would hold the interpreter
    # lock the loop needs for 100 ms and more.
    what = (labels, rnd, participant, after, limit)
    body = await request.app[OFFLOAD].on_store(audit_json, tid, what)
    if not body:
        raise UnknownTournament(tid)
    return web.Response(body=body, content_type="application/json")


def audit_json(store: EventStore, tid: str, what: object) -> bytes:
    """In the offload worker: the page `what` asks for, encoded (empty: no log)."""
    assert isinstance(what, tuple)
    labels, rnd, participant, after, limit = what
    page = audit_page(store, labels, tid, rnd, participant, after, limit)
    return b"" if page is None else msgspec.json.encode(page)


def audit_page(
    store: EventStore,
    labels: dict[str, str | None],
    tid: str,
    rnd: int | None,
    participant: int | None,
    after: int,
    limit: int,
) -> AuditPage | None:
    """The entries after `after` that pass the filters, at most `limit` of them (None: the
    tournament has no log)."""
    records = store.read(tid)
    first = next(records, None)
    if first is None:
        return None
    page: list[AuditEntry] = []
    for entry in audit_entries(itertools.chain((first,), records), labels, rnd, participant):
        if entry.seq <= after:
            continue
        if len(page) == limit:  # one more exists: this page is not the last
            return AuditPage(page, page[-1].seq)
        page.append(entry)
    return AuditPage(page, None)


# --- the route table ------------------------------------------------------------------------


ENDPOINTS = [
    Endpoint(
        method="GET",
        path="/api/berger",
        handler=berger_table,
        summary="A round robin's rounds by FIDE's Berger tables (C.05 Annex 1), 3 to 24 players",
        response=BergerTable,
        auth=PUBLIC,
        errors=(422,),
        query=(
            Query(
                "players",
                f"{MIN_PLAYERS} to {MAX_PLAYERS}",
                required=True,
                minimum=MIN_PLAYERS,
                maximum=MAX_PLAYERS,
            ),
            Query(
                "double",
                "1: a double round robin (the cycle again, colours reversed)",
                "string",
                enum=("0", "1"),
            ),
        ),
    ),
    Endpoint(
        method="GET",
        path=BASE + "/audit",
        handler=audit,
        summary="The audit trail: the log oldest first with who wrote what, corrections with "
        "the result they replaced",
        response=AuditPage,
        auth=ARBITER,
        errors=(*READ_ERRORS, 422),
        query=(
            Query("round", "only the events of this round", minimum=1),
            Query("participant", "only the events naming this start number", minimum=1),
            Query("after", "entries after this seq"),
            Query("limit", "at most 1000 (default 100; more is read as 1000)", minimum=1),
        ),
    ),
]


def routes() -> list[web.RouteDef]:
    return route_defs(ENDPOINTS)
