"""The REST API: JSON in and out through msgspec, the same schemas as the commands and events.

Writes (an arbiter token of the tournament; `Idempotency-Key` and `If-Match: "SEQ"` or an
`expected_seq` body field are optional) answer `{"seq": N}`, the log's head after the write:

    PUT   /api/tournaments/{id}                            CreateTournament           201
    POST  /api/tournaments/{id}/participants               RegisterParticipant        201
    PATCH /api/tournaments/{id}/participants/{start_no}    UpdateParticipant          200
    POST  /api/tournaments/{id}/withdrawals                WithdrawParticipant        201
    POST  /api/tournaments/{id}/byes                       RequestBye                 201
    POST  /api/tournaments/{id}/rounds/{round}/pairings    PairRound                  201
    POST  /api/tournaments/{id}/rounds/{round}/results     RecordResult               201
    PUT   /api/tournaments/{id}/rounds/{round}/results     CorrectResult              200
    POST  /api/tournaments/{id}/rounds/{round}/close       CloseRound                 201
    POST  /api/tournaments/{id}/playoffs                   DecidePlayoff              201
    POST  /api/tournaments/{id}/lots                       DrawLots                   201

A body is the command's fields less those the URL gives. Reads are public:

    GET /api/tournaments                                   ids and heads
    GET /api/tournaments/{id}                              details and participants
    GET /api/tournaments/{id}/standings[?at_seq=N | ?after_round=K]
    GET /api/tournaments/{id}/rounds/{round}               pairings, results, requested byes
    GET /api/tournaments/{id}/events[?after=N&limit=M]     the log, page by page
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

import msgspec
from aiohttp import hdrs, web

from livetb.cli_db import to_json
from livetb.errors import InvalidInput, LivetbError, UnknownTournament
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
    RequestBye,
    UpdateParticipant,
    WithdrawParticipant,
)
from livetb.events.schema import Recorded, RoundClosed
from livetb.events.state import BYE_CODES, TournamentState
from livetb.service import load
from livetb.web.auth import authorize
from livetb.web.keys import SERVICE, STORE, TOKENS

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
TID = r"{tid:[A-Za-z0-9._-]{1,64}}"
BASE = f"/api/tournaments/{TID}"
ROUND = BASE + r"/rounds/{round:\d{1,6}}"
PARTICIPANT = BASE + r"/participants/{start_no:\d{1,6}}"

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


class Write:
    """One write route: the command it builds, the fields its URL gives, its success status."""

    def __init__(self, command: type[Command], path: tuple[str, ...] = (), status: int = 201):
        self.command = command
        self.path = path
        self.status = status
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
    if not text.isdigit():
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
        actor = authorize(request.headers.get(hdrs.AUTHORIZATION), request.app[TOKENS], tid)
        body = spec.decode(await request.read())  # beyond client_max_size: 413
        expected = expected_seq(request.headers.get(hdrs.IF_MATCH), body.expected_seq)
        # Synchronous from here to the response: no await, so a shutdown cannot cut it.
        head, _ = request.app[SERVICE].execute(
            tid,
            spec.build(request, body),
            expected_seq=expected,
            idempotency_key=idempotency_key(request),
            actor=actor,
        )
        return json_response({"seq": head}, spec.status, seq=head)

    return handle


WRITES: list[tuple[str, str, Write]] = [
    ("PUT", BASE, Write(CreateTournament)),
    ("POST", BASE + "/participants", Write(RegisterParticipant)),
    ("PATCH", PARTICIPANT, Write(UpdateParticipant, ("start_no",), 200)),
    ("POST", BASE + "/withdrawals", Write(WithdrawParticipant)),
    ("POST", BASE + "/byes", Write(RequestBye)),
    ("POST", ROUND + "/pairings", Write(PairRound, ("round",))),
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
    paired: int
    closed: int
    participants: list[ParticipantInfo]


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


class EventPage(msgspec.Struct):
    events: list[Recorded]
    next_after: int | None  # pass as `after` for the next page; None: the last page


def int_query(request: web.Request, name: str, low: int = 0) -> int | None:
    text = request.query.get(name)
    if text is None:
        return None
    if not text.isdigit() or int(text) < low:
        raise InvalidInput(f"{name}={text!r}: expected an integer >= {low}", path=name)
    return int(text)


def seq_after_round(request: web.Request, tid: str, rnd: int) -> int:
    """The log position where round `rnd` was closed."""
    for rec in request.app[STORE].read(tid):
        if isinstance(rec.event, RoundClosed) and rec.event.round == rnd:
            return rec.seq
    raise InvalidInput(f"after_round={rnd}: round {rnd} is not closed", path="after_round")


async def list_tournaments(request: web.Request) -> web.Response:
    store = request.app[STORE]
    return json_response({"tournaments": [Summary(t, store.head(t)) for t in store.tournaments()]})


async def tournament(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    projection = request.app[SERVICE].catch_up(tid)
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
        tid, seq, c.name, c.rounds, c.system, c.kind, c.tiebreaks, c.edition, start,
        state.paired, state.closed, people,
    )  # fmt: skip


async def standings(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    at_seq = int_query(request, "at_seq", low=1)
    after_round = int_query(request, "after_round", low=1)
    if at_seq is not None and after_round is not None:
        raise InvalidInput("give at_seq or after_round, not both", path="at_seq")
    if after_round is not None:
        at_seq = seq_after_round(request, tid, after_round)
    if at_seq is None:
        projection = request.app[SERVICE].catch_up(tid)
    else:
        projection = load(request.app[STORE], tid, at_seq)
    return json_response(to_json(projection), seq=projection.seq)


async def round_info(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    rnd = int(request.match_info["round"])
    projection = request.app[SERVICE].catch_up(tid)
    state = projection.state
    assert state.created is not None
    if not 1 <= rnd <= state.created.rounds:
        raise NotFound(f"round {rnd}: the tournament has rounds 1..{state.created.rounds}")
    played = state.rounds.get(rnd)
    names = {code: name for name, code in BYE_CODES.items()}
    byes = [ByeInfo(no, names[code]) for no, code in sorted(state.byes.get(rnd, {}).items())]
    games = [
        GameInfo(g.board, g.white, g.black, g.result)
        for _, g in sorted(played.games.items() if played else [])
    ]
    info = RoundInfo(
        rnd,
        played is not None,
        bool(played and played.closed),
        games,
        played.pab if played else None,
        byes,
    )
    return json_response(info, seq=projection.seq)


async def events(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    store = request.app[STORE]
    if store.head(tid) == 0:
        raise UnknownTournament(tid)
    after = int_query(request, "after") or 0
    limit = min(int_query(request, "limit", low=1) or 100, 1000)
    page = list(itertools.islice(store.read(tid, after), limit + 1))
    more = len(page) > limit
    page = page[:limit]
    return json_response(EventPage(page, page[-1].seq if more else None))


def routes() -> list[web.RouteDef]:
    reads = [
        web.get("/api/tournaments", list_tournaments),
        web.get(BASE, tournament),
        web.get(BASE + "/standings", standings),
        web.get(ROUND, round_info),
        web.get(BASE + "/events", events),
    ]
    return reads + [web.route(method, path, writer(spec)) for method, path, spec in WRITES]
