"""`POST /api/tournaments/{id}/sync`: the pairing program's whole TRF (`text/plain`), and the
log brought to what it says in one append (`livetb.interchange.sync` plans it, as
`livetb sync` does). An arbiter token of the tournament, or an organiser token while the
tournament does not exist yet (the sync creates it; the answer then carries its first arbiter
token).

    ?dry_run=1        200 {"dry_run": true, "events": [...]}: nothing appended
    ?prefer=file|log  a result entered in the log that the file contradicts: corrected to the
                      file's, or kept; without it such a file is a 409 `sync_conflict` naming
                      each board with both results, and nothing is written
    ?tiebreaks=LIST   a new tournament's list (else the file's, else the default); an
                      existing tournament's must be the same
    ?rounds=N         a new tournament's round count when the file declares none (422
                      `rounds_required` without it); an existing tournament's must be the same
    ?force=1          sync a file refused as older than those synced before (409
                      `sync_stale`) or as another tournament's (409 `sync_foreign`)
    ?file=NAME        the file's own name, which the reasons of synced corrections give

The writes of the tournament decided before it are committed first; the append names the
head the plan was made on, so a write that lands meanwhile makes it a 409, never a half sync.
"""

from __future__ import annotations

import asyncio

import msgspec
from aiohttp import hdrs, web

from livetb.engine.spec import parse_list
from livetb.errors import InvalidInput, Said
from livetb.events.schema import Recorded
from livetb.events.store import EventStore
from livetb.interchange import sync
from livetb.projections import stored
from livetb.trf import parse_trf
from livetb.web.api.dry_run import DryRun, dry_run, flag
from livetb.web.http.auth import Creator, authorize, authorize_creation
from livetb.web.http.limits import int_query, read_body
from livetb.web.http.routing import BASE, CREATE, WRITE_ERRORS, Endpoint, Query, json_response
from livetb.web.keys import COMMITS, CONFIG, SERVICE, STORE, TOKENS

SOURCE = "upload.trf"  # the posted file's name when the request gives none


class Synced(msgspec.Struct, omit_defaults=True):
    """A sync's answer: the log's head after it, the events appended (0: the log already
    said what the file says), and for an organiser token the new tournament's arbiter token."""

    seq: int
    events: int
    token: str | None = None


def _prefer(request: web.Request) -> sync.Prefer | None:
    text = request.query.get("prefer")
    if text is None:
        return None
    if text == "file":
        return "file"
    if text == "log":
        return "log"
    raise InvalidInput(Said("api.prefer", value=repr(text)), path="prefer")


def _tiebreaks(request: web.Request) -> list[str] | None:
    text = request.query.get("tiebreaks")
    if text is None:
        return None
    listed = [code.strip() for code in text.split(",") if code.strip()]
    parse_list(listed)  # 422 naming the bad code
    return listed


def _source(request: web.Request) -> str:
    name = request.query.get("file", "").strip()
    # A browser may send a path; the name alone is the file's (and never a line break).
    name = name.replace("\\", "/").rsplit("/", 1)[-1]
    if len(name) > 200 or any(c in name for c in "\r\n"):
        raise InvalidInput(Said("api.file_name"), path="file")
    return name or SOURCE


def _log(store: EventStore, tid: str) -> list[Recorded]:
    return list(store.read(tid))


async def handle_sync(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    header, tokens, store = (
        request.headers.get(hdrs.AUTHORIZATION),
        request.app[TOKENS],
        request.app[STORE],
    )
    if await asyncio.to_thread(store.head, tid):
        creator = Creator(await authorize(header, tokens, tid), organiser=False)
    else:
        creator = await authorize_creation(header, tokens, tid)
    dry, prefer, tiebreaks = dry_run(request), _prefer(request), _tiebreaks(request)
    rounds, force = int_query(request, "rounds", low=1, high=99), flag(request, "force")
    source = _source(request)
    config = request.app[CONFIG]
    data = await read_body(request, config.pairings_max_body, config.body_timeout)  # 413, 408
    imported = parse_trf(data, source)  # 422 with the file's lines
    await request.app[COMMITS].drain(tid)  # the writes decided before this one, committed
    records = await asyncio.to_thread(_log, store, tid)
    made = await asyncio.to_thread(
        sync.plan,
        records,
        imported,
        source,
        sync.player_lines(data),
        tiebreaks=tiebreaks,
        prefer=prefer,
        rounds=rounds,
        force=force,
    )
    events = made.events
    if dry:
        return json_response(DryRun(events=events))
    head = len(records)
    if not events:
        return json_response(Synced(seq=head, events=0), seq=head)
    await asyncio.to_thread(stored.readable, [r.event for r in records] + events)
    actor = f"{sync.ACTOR}:{creator.actor}"  # a sync's results, which a later file may correct
    seq = await asyncio.to_thread(store.append, tid, head, events, actor=actor)
    await request.app[SERVICE].current(tid)  # applied and published before the answer
    token = None
    if creator.organiser:
        token = await asyncio.to_thread(tokens.create, tid)
    return json_response(Synced(seq=seq, events=len(events), token=token), seq=seq)


PREFER = Query(
    "prefer",
    "file: a result entered in the log that the file contradicts is corrected to the file's; "
    "log: it is kept (that board skipped); without it such a file is a 409 naming the boards",
    "string",
    enum=("file", "log"),
)
TIEBREAKS = Query(
    "tiebreaks",
    "a new tournament's tie-break list (else the file's 212, else the system's default); "
    "an existing tournament's must be the same",
    "string",
)
ROUNDS = Query(
    "rounds",
    "a new tournament's number of rounds when the file declares none (no 142 or XXR); "
    "without it such a file is a 422 rounds_required; an existing tournament's must be the same",
    "integer",
    minimum=1,
    maximum=99,
)
FORCE = Query(
    "force",
    "1: sync a file refused as older than the files synced before (409 sync_stale) or as "
    "another tournament's (409 sync_foreign)",
    "string",
    enum=("1",),
)
FILE = Query("file", "the file's own name, given in the reasons of synced corrections", "string")
DRY_RUN = Query(
    "dry_run",
    "1: plan only; 200 {dry_run: true, events: [...]}, nothing appended",
    "string",
    enum=("1",),
)

ENDPOINTS = [
    Endpoint(
        method="POST",
        path=BASE + "/sync",
        handler=handle_sync,
        summary="Bring the log to the pairing program's TRF (one append: players, byes, "
        "pairings, results, corrections, closes); creates an unknown tournament",
        response=Synced,
        auth=CREATE,
        errors=WRITE_ERRORS,
        query=(DRY_RUN, PREFER, TIEBREAKS, ROUNDS, FORCE, FILE),
        trf_body="the pairing program's whole TRF, as saved at any moment of the event",
    )
]


def routes() -> list[web.RouteDef]:
    return [web.post(e.path, e.handler) for e in ENDPOINTS]
