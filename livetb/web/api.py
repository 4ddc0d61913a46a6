"""The REST API: JSON in and out through msgspec, the same schemas as the commands and events.

Writes (an arbiter token of the tournament; `Idempotency-Key` and `If-Match: "SEQ"` or an
`expected_seq` body field are optional) answer `{"seq": N}`, the log's head after the write:

    PUT   /api/tournaments/{id}                            CreateTournament           201
    POST  /api/tournaments/{id}/participants               RegisterParticipant        201
    POST  /api/tournaments/{id}/teams                      RegisterTeam               201
    PATCH /api/tournaments/{id}/participants/{start_no}    UpdateParticipant          200
    POST  /api/tournaments/{id}/withdrawals                WithdrawParticipant        201
    POST  /api/tournaments/{id}/byes                       RequestBye                 201
    POST  /api/tournaments/{id}/rounds/{round}/pairings    PairRound                  201
    POST  /api/tournaments/{id}/rounds/{round}/results     RecordResult               201
    PUT   /api/tournaments/{id}/rounds/{round}/results     CorrectResult              200
    POST  /api/tournaments/{id}/rounds/{round}/close       CloseRound                 201
    POST  /api/tournaments/{id}/playoffs                   DecidePlayoff              201
    POST  /api/tournaments/{id}/lots                       DrawLots                   201

A body is the command's fields less those the URL gives; pairings may instead be the pairing
program's TRF (`Content-Type: text/plain`, see `pairing_from_trf`), participants a TRF player
list (one `RegisterParticipants`). `?dry_run=1` decides without appending and answers 200
`{"dry_run": true, "events": [...]}` (`livetb/web/console_io.py`). Reads are public unless the
tournament is private:

    GET /api/tournaments                                   ids and heads
    GET /api/tournaments/{id}                              details and participants
    GET /api/tournaments/{id}/standings[?at_seq=N | ?after_round=K]
    GET /api/tournaments/{id}/rounds/{round}               pairings, results, requested byes
    GET /api/tournaments/{id}/participants/{start_no}      the card (`livetb/web/card.py`)
    GET /api/tournaments/{id}/events[?after=N&limit=M]     the log, page by page

The console's reads (Berger tables, the audit trail) are in `livetb/web/console_api.py`.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NamedTuple

import msgspec
from aiohttp import hdrs, web

from livetb import messages
from livetb.engine.model import Code
from livetb.errors import (
    InvalidInput,
    LivetbError,
    NotAuthenticated,
    UnknownTournament,
    WrongTournament,
)
from livetb.events.commands import (
    CloseRound,
    Command,
    CorrectResult,
    CreateTournament,
    DecidePlayoff,
    DrawLots,
    PairRound,
    RecordResult,
    RegisterParticipant,
    RegisterTeam,
    RequestBye,
    UpdateParticipant,
    WithdrawParticipant,
)
from livetb.events.schema import Board, Recorded, TournamentCreated
from livetb.events.state import TournamentState
from livetb.events.store import EventStore
from livetb.projections.standings import StandingsProjection
from livetb.standings_doc import DbStandings, to_json
from livetb.trf import parse_trf
from livetb.web import card
from livetb.web.auth import authorize
from livetb.web.console_io import DryRun, dry_run, participants_from_trf
from livetb.web.keys import COMMITS, CONFIG, SERVICE, STORE, TIMETRAVEL, TOKENS
from livetb.web.limits import MAX_INT, int_query, is_number, read_body

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
TID = r"{tid:[A-Za-z0-9._-]{1,64}}"
BASE = f"/api/tournaments/{TID}"
ROUND = BASE + r"/rounds/{round:[0-9]{1,6}}"  # not \d: it takes other scripts' digits too
PARTICIPANT = BASE + r"/participants/{start_no:[0-9]{1,6}}"

encode = msgspec.json.Encoder().encode


def json_response(data: object, status: int = 200, seq: int | None = None) -> web.Response:
    resp = web.Response(body=encode(data), status=status, content_type="application/json")
    if seq is not None:
        resp.headers[hdrs.ETAG] = f'"{seq}"'
    return resp


# --- writes -----------------------------------------------------------------------------------


def body_type(command: type[Command], path: tuple[str, ...]) -> type[msgspec.Struct]:
    """The command's fields less those the URL gives, plus `expected_seq`; typos are 422."""
    fields: list[tuple[str, Any, Any]] = []
    for f in msgspec.structs.fields(command):
        if f.name in path:
            continue
        if f.default is not msgspec.NODEFAULT:
            fields.append((f.name, f.type, f.default))
        elif f.default_factory is not msgspec.NODEFAULT:
            fields.append((f.name, f.type, msgspec.field(default_factory=f.default_factory)))
        else:
            fields.append((f.name, f.type, msgspec.NODEFAULT))
    fields.append(("expected_seq", Annotated[int, msgspec.Meta(ge=0)] | None, None))
    return msgspec.defstruct(
        f"{command.__name__}Body",
        [(n, t) if d is msgspec.NODEFAULT else (n, t, d) for n, t, d in fields],
        kw_only=True,
        forbid_unknown_fields=True,
        frozen=True,
    )


TextBody = Callable[[bytes, web.Request], Command]


class Write:
    """One write route: the command it builds, the fields its URL gives, its success status,
    and what builds the command from a `text/plain` body (a TRF), if the route takes one."""

    def __init__(
        self,
        command: type[Command],
        path: tuple[str, ...] = (),
        status: int = 201,
        text: TextBody | None = None,
    ):
        self.command = command
        self.path = path
        self.status = status
        self.text = text
        self.body = body_type(command, path)
        self._decode = msgspec.json.Decoder(self.body).decode

    def decode(self, data: bytes) -> Any:
        try:
            return self._decode(data or b"{}")
        except msgspec.DecodeError as err:  # ValidationError (422) is a DecodeError (400)
            raise InvalidInput.from_msgspec(err) from None

    def build(self, request: web.Request, body: Any) -> Command:
        """The command; `decide` checks the URL's numbers against their constraints."""
        fields = {f: getattr(body, f) for f in body.__struct_fields__ if f != "expected_seq"}
        fields.update({name: int(request.match_info[name]) for name in self.path})
        return self.command(**fields)


def expected_seq(header: str | None, field: int | None) -> int | None:
    """From `If-Match: "12"` (an ETag of the standings) or the body's `expected_seq`."""
    if header is None or header.strip() == "*":
        return field
    text = header.strip().removeprefix("W/").strip('"')
    if not is_number(text) or int(text) > MAX_INT:
        raise InvalidInput(
            f'If-Match {header!r}: expected the log sequence number, e.g. "12"', path="If-Match"
        )
    if field is not None and field != int(text):
        raise InvalidInput(
            f"If-Match {header} and expected_seq {field} disagree", path="$.expected_seq"
        )
    return int(text)


def idempotency_key(request: web.Request) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= 200:
        raise InvalidInput("Idempotency-Key: 1 to 200 characters", path="Idempotency-Key")
    return key


def writer(spec: Write) -> Handler:
    async def handle(request: web.Request) -> web.Response:
        tid = request.match_info["tid"]
        actor = await authorize(request.headers.get(hdrs.AUTHORIZATION), request.app[TOKENS], tid)
        dry = dry_run(request)
        config = request.app[CONFIG]  # a whole round's pairings or player list may be large
        limit = config.pairings_max_body if spec.text is not None else config.max_body
        data = await read_body(request, limit, config.body_timeout)  # 413, 408
        if spec.text is not None and request.content_type == "text/plain":
            command: Command = spec.text(data, request)
            expected = expected_seq(request.headers.get(hdrs.IF_MATCH), None)
        else:
            body = spec.decode(data)
            command = spec.build(request, body)
            expected = expected_seq(request.headers.get(hdrs.IF_MATCH), body.expected_seq)
        if dry:
            idempotency_key(request)  # checked as for the write; a rehearsal consumes no key
            # Decided after this tournament's writes in flight, never appended.
            events = await request.app[COMMITS].rehearse(
                tid, command, expected_seq=expected, actor=actor
            )
            return json_response(DryRun(events=events))
        # Decided now, acknowledged once its group is committed (a shutdown waits for it).
        head = await request.app[COMMITS].execute(
            tid,
            command,
            expected_seq=expected,
            idempotency_key=idempotency_key(request),
            actor=actor,
        )
        return json_response({"seq": head}, spec.status, seq=head)

    return handle


def pairing_from_trf(data: bytes, rnd: int) -> PairRound:
    """Round `rnd` of a pairing program's TRF: its games as boards (numbered in the order of
    the white players' start numbers; results, if any, are ignored) and its `U` as the PAB.
    Requested byes (H, F, Z) are not pairings: send them as byes. TRF errors are 422 with
    their line and columns."""
    imported = parse_trf(data, "pairings.trf", pending_round=rnd)
    people = imported.tournament.participants
    width = max((len(p.entries) for p in people), default=0)
    if rnd > width:
        raise InvalidInput(
            f"the TRF has round blocks 1..{width}: none for round {rnd}", path="round"
        )
    whites: list[tuple[int, int]] = []
    pabs: list[int] = []
    for p in people:
        e = p.entries[rnd - 1]
        if e.code is Code.PAB:
            pabs.append(p.start_no)
        elif e.opponent is not None and (
            e.colour == "w" or (e.colour is None and p.start_no < e.opponent)
        ):
            whites.append((p.start_no, e.opponent))
    if len(pabs) > 1:
        raise InvalidInput(f"round {rnd}: more than one pairing-allocated bye (U): {pabs}")
    boards = tuple(
        Board(board=i, white=w, black=b) for i, (w, b) in enumerate(sorted(whites), start=1)
    )
    return PairRound(round=rnd, boards=boards, bye=pabs[0] if pabs else None)


def _round_trf(data: bytes, request: web.Request) -> Command:
    return pairing_from_trf(data, int(request.match_info["round"]))


def _players_trf(data: bytes, request: web.Request) -> Command:
    return participants_from_trf(data)


WRITES: list[tuple[str, str, Write]] = [
    ("PUT", BASE, Write(CreateTournament)),
    ("POST", BASE + "/participants", Write(RegisterParticipant, text=_players_trf)),
    ("POST", BASE + "/teams", Write(RegisterTeam)),
    ("PATCH", PARTICIPANT, Write(UpdateParticipant, ("start_no",), 200)),
    ("POST", BASE + "/withdrawals", Write(WithdrawParticipant)),
    ("POST", BASE + "/byes", Write(RequestBye)),
    ("POST", ROUND + "/pairings", Write(PairRound, ("round",), text=_round_trf)),
    ("POST", ROUND + "/results", Write(RecordResult, ("round",))),
    ("PUT", ROUND + "/results", Write(CorrectResult, ("round",), 200)),
    ("POST", ROUND + "/close", Write(CloseRound, ("round",))),
    ("POST", BASE + "/playoffs", Write(DecidePlayoff)),
    ("POST", BASE + "/lots", Write(DrawLots)),
]


# --- reads ------------------------------------------------------------------------------------


class NotFound(LivetbError):
    status = 404
    code = "not_found"


class Summary(msgspec.Struct):
    id: str
    seq: int
    name: str
    rounds: int
    kind: str


class ParticipantInfo(msgspec.Struct):
    start_no: int
    name: str
    rating: int | None
    title: str
    federation: str
    fide_id: str
    withdrawn_from: int | None


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


class EventPage(msgspec.Struct):
    events: list[Recorded]
    next_after: int | None  # pass as `after` for the next page; None: the last page


async def check_read(request: web.Request, tid: str) -> StandingsProjection:
    """The caught-up projection of `tid` (404 if unknown); a private tournament's reads need
    one of its tokens, as a bearer header, the websocket subprotocol or `?access_token=`.
    Without one it answers as an unknown tournament does (404): a caller without its token
    must not learn that a private tournament exists."""
    projection = await request.app[SERVICE].current(tid)
    created = projection.state.created
    if created is not None and created.private:
        try:
            await authorize(credentials(request), request.app[TOKENS], tid, what="reads")
        except (NotAuthenticated, WrongTournament):
            raise UnknownTournament(tid) from None
    return projection


def credentials(request: web.Request) -> str | None:
    """`Bearer <token>` from the header, the websocket subprotocol or `?access_token=`."""
    header = request.headers.get(hdrs.AUTHORIZATION) or bearer_protocol(request)
    if header is None and "access_token" in request.query:
        header = f"Bearer {request.query['access_token']}"
    return header


def bearer_protocol(request: web.Request) -> str | None:
    """A browser's websocket cannot set headers: it offers `bearer.<token>` as a subprotocol
    (next to `livetb`, which the server selects), so the token stays out of the URL."""
    offered = request.headers.get(hdrs.SEC_WEBSOCKET_PROTOCOL, "")
    for item in offered.split(","):
        if item.strip().startswith("bearer."):
            return f"Bearer {item.strip().removeprefix('bearer.')}"
    return None


async def list_tournaments(request: web.Request) -> web.Response:
    """Every tournament but the private ones."""
    shown = await asyncio.to_thread(summaries, request.app[STORE])
    return json_response(TournamentList(shown))


def summaries(store: EventStore) -> list[Summary]:
    shown = []
    for tid in store.tournaments():
        created = public_creation(store, tid)
        if created is not None:
            shown.append(Summary(tid, store.head(tid), created.name, created.rounds, created.kind))
    return shown


def public_creation(store: EventStore, tid: str) -> TournamentCreated | None:
    """The log's first event if it creates a public tournament, from that one event: no
    projection is built. (No later event changes `private`; one that did would need folding.)"""
    first = next(store.read(tid), None)
    created = None if first is None else first.event
    return created if isinstance(created, TournamentCreated) and not created.private else None


async def tournament(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    projection = await check_read(request, tid)
    return json_response(tournament_info(tid, projection.seq, projection.state), seq=projection.seq)


def tournament_info(tid: str, seq: int, state: TournamentState) -> TournamentInfo:
    c = state.created
    assert c is not None
    people = [
        ParticipantInfo(
            p.start_no, p.name, p.rating, p.title, p.federation, p.fide_id, state.withdrawn.get(no)
        )
        for no, p in sorted(state.participants.items())
    ]
    start = c.start_date.isoformat() if c.start_date else None
    return TournamentInfo(
        tid, seq, c.name, c.rounds, c.system, c.kind, c.tiebreaks, c.edition, start, c.private,
        state.paired, state.closed, people,
    )  # fmt: skip


async def standings(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    live = await check_read(request, tid)
    at_seq = int_query(request, "at_seq", low=1)
    after_round = int_query(request, "after_round", low=1)
    if at_seq is not None and after_round is not None:
        raise InvalidInput("give at_seq or after_round, not both", path="at_seq")
    travel = request.app[TIMETRAVEL]  # replays off the loop, bounded, cached
    if after_round is not None:
        at_seq = await travel.round_closed_at(tid, after_round)
    if at_seq is None:
        return json_response(to_json(live), seq=live.seq)
    seq, body = await travel.standings(tid, at_seq)
    resp = web.Response(body=body, content_type="application/json")
    resp.headers[hdrs.ETAG] = f'"{seq}"'
    return resp


async def round_info(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    rnd = int(request.match_info["round"])
    projection = await check_read(request, tid)
    state = projection.state
    assert state.created is not None
    if not 1 <= rnd <= state.created.rounds:
        raise NotFound(f"round {rnd}: the tournament has rounds 1..{state.created.rounds}")
    info = messages.round_info(state, rnd)
    return json_response(info, seq=projection.seq)


async def participant_card(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    no = int(request.match_info["start_no"])
    projection = await check_read(request, tid)
    if no not in projection.state.participants:
        raise NotFound(f"start_no {no}: no participant with that start number")
    return json_response(card.build(projection, no), seq=projection.seq)


async def events(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    await check_read(request, tid)  # (404 for a tournament with no log)
    after = int_query(request, "after") or 0
    limit = min(int_query(request, "limit", low=1) or 100, 1000)
    read = request.app[STORE].read
    page = await asyncio.to_thread(lambda: list(itertools.islice(read(tid, after), limit + 1)))
    more = len(page) > limit
    page = page[:limit]
    return json_response(EventPage(page, page[-1].seq if more else None))


# --- the route table: registered by `routes()`, documented by `livetb/web/openapi.py` ---------


ARBITER, READ, PUBLIC = "arbiter", "read", "public"
Auth = Literal["arbiter", "read", "public"]


class Head(msgspec.Struct):
    """A write's answer: the log's head after it (also the response's ETag)."""

    seq: int


class TournamentList(msgspec.Struct):
    tournaments: list[Summary]


class ErrorBody(msgspec.Struct, kw_only=True):
    """Every error: a machine code, a message naming the field or value, and the error's own
    context (`path` of a bad input, `field`/`value` of a rejected command, `head`, …)."""

    code: str
    message: str
    path: str | None = None
    field: str | None = None
    value: Any = None


class Query(NamedTuple):
    name: str
    text: str
    type: Literal["integer", "string"] = "integer"
    required: bool = False


@dataclass(frozen=True, kw_only=True)
class Endpoint:
    """One route: what aiohttp registers and what the OpenAPI document says about it.

    `auth`: `arbiter` needs the tournament's token, `read` needs one only for a private
    tournament, `public` never. `errors` are the statuses it can answer besides success."""

    method: str
    path: str
    handler: Handler
    summary: str
    request: type | None = None
    response: type | None = None
    status: int = 200
    auth: Auth = READ
    errors: tuple[int, ...] = ()
    query: tuple[Query, ...] = ()
    media: str = "application/json"  # of the success response ("": none)
    trf_body: str = ""  # also takes a TRF as text/plain: what is read from it
    messages: tuple[type, ...] = ()  # a websocket's messages (documented as `x-messages`)


WRITE_ERRORS = (400, 401, 403, 404, 408, 409, 413, 422)
READ_ERRORS = (401, 403, 404)

WRITE_SUMMARIES = {
    CreateTournament: "Create a tournament",
    RegisterParticipant: "Register a participant (JSON), or all of a TRF's 001 lines at once",
    RegisterTeam: "Register a team of a team tournament (its players in board order)",
    UpdateParticipant: "Correct a participant's details (before round 1 is paired)",
    WithdrawParticipant: "Withdraw a participant from a round on",
    RequestBye: "Request a bye for a round not yet paired",
    PairRound: "Publish a round's pairings (JSON, or the pairing program's TRF as text/plain)",
    RecordResult: "Record a result",
    CorrectResult: "Correct a result",
    CloseRound: "Close a round",
    DecidePlayoff: "Record a playoff's order",
    DrawLots: "Draw lots for the ties left",
}


TRF_BODIES = {
    PairRound: "the pairing program's TRF; the round's blocks are read",
    RegisterParticipant: "a TRF player list: its 001 lines, registered in one append",
}
DRY_RUN = Query("dry_run", "1: decide only; 200 {dry_run: true, events: [...]}, nothing appended")


def endpoints() -> list[Endpoint]:
    reads = [
        Endpoint(
            method="GET",
            path="/api/tournaments",
            handler=list_tournaments,
            summary="Tournaments and their log heads",
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
            errors=(*READ_ERRORS, 422),
            query=(
                Query("at_seq", "the standings at this log sequence number"),
                Query("after_round", "the standings when this round was closed"),
            ),
        ),
        Endpoint(
            method="GET",
            path=ROUND,
            handler=round_info,
            summary="A round's pairings, results and requested byes",
            response=messages.RoundInfo,
            errors=READ_ERRORS,
        ),
        Endpoint(
            method="GET",
            path=PARTICIPANT,
            handler=participant_card,
            summary="A participant's card: results, every tie-break explained, neighbours",
            response=card.Card,
            errors=READ_ERRORS,
        ),
        Endpoint(
            method="GET",
            path=BASE + "/events",
            handler=events,
            summary="The event log, page by page",
            response=EventPage,
            errors=(*READ_ERRORS, 422),
            query=(Query("after", "events after this seq"), Query("limit", "at most 1000")),
        ),
    ]
    writes = [
        Endpoint(
            method=method,
            path=path,
            handler=writer(spec),
            summary=WRITE_SUMMARIES[spec.command],
            request=spec.body,
            response=Head,
            status=spec.status,
            auth=ARBITER,
            errors=WRITE_ERRORS,
            trf_body=TRF_BODIES.get(spec.command, ""),
            query=(DRY_RUN,),
        )
        for method, path, spec in WRITES
    ]
    return reads + writes


def routes() -> list[web.RouteDef]:
    return [
        web.get(e.path, e.handler) if e.method == "GET" else web.route(e.method, e.path, e.handler)
        for e in endpoints()
    ]
