"""The REST API's writes: JSON in and out through msgspec, the same schemas as the commands.

Writes (an arbiter token of the tournament; `Idempotency-Key` and `If-Match: "SEQ"` or an
`expected_seq` body field are optional) answer `{"seq": N}`, the log's head after the write.
A tournament is also created with an organiser token, whose answer then carries the new
tournament's first arbiter token, shown once: `{"seq": 1, "token": "ltb_…"}`.

    PUT   /api/tournaments/{id}                            CreateTournament           201
    POST  /api/tournaments/{id}/participants               RegisterParticipant        201
    POST  /api/tournaments/{id}/teams                      RegisterTeam               201
    PATCH /api/tournaments/{id}/participants/{start_no}    UpdateParticipant          200
    POST  /api/tournaments/{id}/withdrawals                WithdrawParticipant        201
    POST  /api/tournaments/{id}/reinstatements             ReinstateParticipant       201
    POST  /api/tournaments/{id}/byes                       RequestBye                 201
    POST  /api/tournaments/{id}/rounds/{round}/pairings    PairRound                  201
    POST  /api/tournaments/{id}/rounds/{round}/results     RecordResult               201
    PUT   /api/tournaments/{id}/rounds/{round}/results     CorrectResult              200
    POST  /api/tournaments/{id}/rounds/{round}/close       CloseRound                 201
    POST  /api/tournaments/{id}/playoffs                   DecidePlayoff              201
    POST  /api/tournaments/{id}/lots                       DrawLots                   201
    PUT   /api/tournaments/{id}/categories                 DefineCategories           200
    PUT   /api/tournaments/{id}/prizes                     DefinePrizes               200
    PATCH /api/tournaments/{id}                            SetPublicDelay             200

A body is the command's fields less those the URL gives; pairings may instead be the pairing
program's TRF or the pairing engine's output (`Content-Type: text/plain`, see
`livetb.interchange.trf_commands`; boards in publication order), participants
a TRF player list (one `RegisterParticipants`). `?dry_run=1` decides without appending and
answers 200 `{"dry_run": true, "events": [...]}` (`livetb/web/api/dry_run.py`). The reads are
in `livetb/web/api/reads.py`.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Annotated, Any
from urllib.parse import unquote

import msgspec
from aiohttp import hdrs, web

from livetb.errors import InvalidInput, Said
from livetb.events.commands import (
    AnyCommand,
    CloseRound,
    Command,
    CorrectResult,
    CreateTournament,
    DecidePlayoff,
    DefineCategories,
    DefinePrizes,
    DrawLots,
    PairRound,
    RecordResult,
    RegisterParticipant,
    RegisterTeam,
    ReinstateParticipant,
    RequestBye,
    SetPublicDelay,
    UpdateParticipant,
    WithdrawParticipant,
)
from livetb.interchange.trf_commands import pairing_from_text, participants_from_trf
from livetb.web.api.dry_run import DryRun, dry_run
from livetb.web.http.auth import Creator, authorize, authorize_creation
from livetb.web.http.limits import MAX_INT, is_number, read_body
from livetb.web.http.routing import (
    ARBITER,
    BASE,
    CREATE,
    PARTICIPANT,
    ROUND,
    WRITE_ERRORS,
    Endpoint,
    Handler,
    Query,
    json_response,
    route_defs,
)
from livetb.web.keys import COMMITS, CONFIG, TOKENS


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


TextBody = Callable[[bytes, web.Request], AnyCommand]


class Write:
    """One write route: the command it builds, the fields its URL gives, its success status,
    and what builds the command from a `text/plain` body (a TRF), if the route takes one."""

    def __init__(
        self,
        command: type[AnyCommand],
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

    def build(self, request: web.Request, body: Any) -> AnyCommand:
        """The command; `decide` checks the URL's numbers against their constraints."""
        fields = {f: getattr(body, f) for f in body.__struct_fields__ if f != "expected_seq"}
        fields.update({name: int(request.match_info[name]) for name in self.path})
        return self.command(**fields)


def expected_seq(header: str | None, field: int | None) -> int | None:
    """From `If-Match: "12"` (an ETag of a read, `"12-<view>"` too) or the body's
    `expected_seq`."""
    if header is None or header.strip() == "*":
        return field
    text = header.strip().removeprefix("W/").strip('"').partition("-")[0]
    if not is_number(text) or int(text) > MAX_INT:
        raise InvalidInput(Said("api.if_match", header=repr(header)), path="If-Match")
    if field is not None and field != int(text):
        said = Said("api.if_match_disagrees", header=header, seq=field)
        raise InvalidInput(said, path="$.expected_seq")
    return int(text)


def idempotency_key(request: web.Request) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= 200:
        raise InvalidInput(Said("api.idempotency_key"), path="Idempotency-Key")
    return key


def writer(spec: Write) -> Handler:
    async def handle(request: web.Request) -> web.Response:
        tid = request.match_info["tid"]
        header, tokens = request.headers.get(hdrs.AUTHORIZATION), request.app[TOKENS]
        if spec.command is CreateTournament:
            creator = await authorize_creation(header, tokens, tid)
        else:
            creator = Creator(await authorize(header, tokens, tid), organiser=False)
        actor = creator.actor
        dry = dry_run(request)
        config = request.app[CONFIG]  # a whole round's pairings or player list may be large
        limit = config.pairings_max_body if spec.text is not None else config.max_body
        data = await read_body(request, limit, config.body_timeout)  # 413, 408
        if spec.text is not None and request.content_type == "text/plain":
            command: AnyCommand = spec.text(data, request)
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
        if creator.organiser:  # made once the tournament exists: a refusal makes none
            token = await asyncio.to_thread(tokens.create, tid)
            return json_response(Created(seq=head, token=token), spec.status, seq=head)
        return json_response({"seq": head}, spec.status, seq=head)

    return handle


def _round_trf(data: bytes, request: web.Request) -> AnyCommand:
    return pairing_from_text(data, int(request.match_info["round"]))


def _players_trf(data: bytes, request: web.Request) -> AnyCommand:
    return participants_from_trf(data)


WRITES: list[tuple[str, str, Write]] = [
    ("PUT", BASE, Write(CreateTournament)),
    ("POST", BASE + "/participants", Write(RegisterParticipant, text=_players_trf)),
    ("POST", BASE + "/teams", Write(RegisterTeam)),
    ("PATCH", PARTICIPANT, Write(UpdateParticipant, ("start_no",), 200)),
    ("POST", BASE + "/withdrawals", Write(WithdrawParticipant)),
    ("POST", BASE + "/reinstatements", Write(ReinstateParticipant)),
    ("POST", BASE + "/byes", Write(RequestBye)),
    ("POST", ROUND + "/pairings", Write(PairRound, ("round",), text=_round_trf)),
    ("POST", ROUND + "/results", Write(RecordResult, ("round",))),
    ("PUT", ROUND + "/results", Write(CorrectResult, ("round",), 200)),
    ("POST", ROUND + "/close", Write(CloseRound, ("round",))),
    ("POST", BASE + "/playoffs", Write(DecidePlayoff)),
    ("POST", BASE + "/lots", Write(DrawLots)),
    ("PUT", BASE + "/categories", Write(DefineCategories, (), 200)),
    ("PUT", BASE + "/prizes", Write(DefinePrizes, (), 200)),
    ("PATCH", BASE, Write(SetPublicDelay, (), 200)),
]


class Head(msgspec.Struct):
    """A write's answer: the log's head after it (also the response's ETag)."""

    seq: int


class Created(msgspec.Struct, omit_defaults=True):
    """A creation's answer: the log's head, and for an organiser token the new tournament's
    first arbiter token (shown once: only its hash is kept)."""

    seq: int
    token: str | None = None


WRITE_SUMMARIES = {
    CreateTournament: "Create a tournament (an organiser token's answer carries its arbiter token)",
    RegisterParticipant: "Register a participant (JSON), or all of a TRF's 001 lines at once",
    RegisterTeam: "Register a team of a team tournament (its players in board order)",
    UpdateParticipant: "Correct a participant's details (before round 1 is paired), or set"
    " the K factor of its rating change (`k`, at any time)",
    WithdrawParticipant: "Withdraw a participant from a round on",
    ReinstateParticipant: "Reinstate a withdrawn participant, paired again from a round not yet"
    " paired",
    RequestBye: "Request a bye for a round not yet paired",
    PairRound: "Publish a round's pairings (JSON, or the pairing program's TRF as text/plain)",
    RecordResult: "Record a result",
    CorrectResult: "Correct a result",
    CloseRound: "Close a round",
    DecidePlayoff: "Record a playoff's order",
    DrawLots: "Draw lots for the ties left",
    DefineCategories: "Define the categories (all of them, replacing the previous definition)",
    DefinePrizes: "Define the prize table (all of it, replacing the previous one)",
    SetPublicDelay: "Set the broadcast delay: public reads lag the log by `public_delay`"
    " seconds (0 to 3600; 0: none); a token of the tournament reads live",
}


TRF_BODIES = {
    PairRound: (
        "the pairing program's TRF (the round's blocks, boards in FIDE's publication order) or "
        "the pairing engine's output (number of pairs, then `white black` per board, kept)"
    ),
    RegisterParticipant: "a TRF player list: its 001 lines, registered in one append",
}
DRY_RUN = Query(
    "dry_run",
    "1: decide only; 200 {dry_run: true, events: [...]}, nothing appended",
    "string",
    enum=("1",),
)


def endpoints() -> list[Endpoint]:
    return [
        Endpoint(
            method=method,
            path=path,
            handler=writer(spec),
            summary=WRITE_SUMMARIES[spec.command],
            request=spec.body,
            response=Created if spec.command is CreateTournament else Head,
            status=spec.status,
            auth=CREATE if spec.command is CreateTournament else ARBITER,
            errors=WRITE_ERRORS,
            trf_body=TRF_BODIES.get(spec.command, ""),
            query=(DRY_RUN,),
        )
        for method, path, spec in WRITES
    ]


def routes() -> list[web.RouteDef]:
    return route_defs(endpoints())


_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")  # what `routing.TID` takes
_CREATION = re.compile(r"/api/tournaments/([^/]+)")


def refused_id(request: web.Request) -> InvalidInput | None:
    """A creation (PUT /api/tournaments/{id}) at an id the routes do not take, which the
    router answers with a bare 404: the refusal that names the field, for the error
    middleware to answer with instead (422)."""
    found = _CREATION.fullmatch(request.rel_url.raw_path)
    if request.method != "PUT" or found is None:
        return None
    tid = unquote(found.group(1))
    if _ID.fullmatch(tid):
        return None
    return InvalidInput(Said("api.tournament_id", id=repr(tid[:80])), path="id")
