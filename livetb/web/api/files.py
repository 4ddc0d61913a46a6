"""Files in and out of a tournament: `GET …/export?format=trf26|trf16|csv|html` (an attachment;
the tournament's read rule) and `POST …/rounds/{r}/pgn` (a round's PGN as text, arbiter token:
its final results recorded, `?corrections=true` to let a changed result correct the log; its
body within the writes' limits: `max_body`, refused before reading, and `body_timeout`).
An export is made in the offload worker (`livetb/app/offload.py`), off the event loop, kept for
the next asker at that seq, and limited per client (`livetb/web/http/throttle.py`).
Registered by `livetb/web/app.py`, documented by `openapi.py`."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable

import msgspec
from aiohttp import hdrs, web

from livetb.errors import InvalidInput, LivetbError, Said
from livetb.interchange import pgn
from livetb.interchange.export import FORMATS, Exported, exported, is_format
from livetb.projections.standings import StandingsProjection
from livetb.web.api import categories
from livetb.web.http.auth import authorize
from livetb.web.http.caching import dressed, not_modified, validator
from livetb.web.http.limits import read_body
from livetb.web.http.public import readable
from livetb.web.http.routing import (
    ARBITER,
    BASE,
    READ_ERRORS,
    ROUND,
    WRITE_ERRORS,
    Endpoint,
    Query,
    json_response,
    route_defs,
)
from livetb.web.http.throttle import limited
from livetb.web.keys import COMMITS, CONFIG, OFFLOAD, SERVICE, TOKENS


async def export_file(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    fmt = request.query.get("format", "trf26")
    if not is_format(fmt):
        said = Said("api.format", format=repr(fmt), known=", ".join(FORMATS))
        raise InvalidInput(said, path="format")
    projection = (await readable(request, tid)).projection  # the public one under a delay
    category, rated = categories.view_queries(request)
    categories.export_views(projection.state, fmt, category, rated)
    what = (tid, fmt, category, rated)
    cached = validator(request, projection)
    if (hit := not_modified(request, cached)) is not None:
        return hit
    async with limited(request):
        _, body = await request.app[OFFLOAD].run(export_file_of, tid, projection.seq, what)
    made = msgspec.msgpack.decode(body, type=Exported)
    resp = web.Response(
        body=made.text.encode("utf-8"),
        content_type=made.media_type,
        charset="utf-8",
        headers={"Content-Disposition": f'attachment; filename="{made.filename}"'},
    )
    return dressed(resp, cached)


def export_file_of(projection: StandingsProjection, what: Hashable) -> bytes:
    """In the offload worker: tournament `what[0]` as format `what[1]` (its standings maybe
    category `what[2]`'s, with the rating change if `what[3]`), encoded for the trip back."""
    assert isinstance(what, tuple)
    tid, fmt, category, rated = what
    assert isinstance(tid, str) and isinstance(fmt, str) and is_format(fmt)
    assert category is None or isinstance(category, str)
    return msgspec.msgpack.encode(exported(projection, tid, fmt, category, bool(rated)))


class Recorded(msgspec.Struct):
    round: int
    board: int
    result: str
    corrected: bool = False


class PgnReport(msgspec.Struct):
    """What one PGN did: results recorded (or corrected), and every game left out and why."""

    seq: int
    recorded: list[Recorded]
    already: int  # final results the log already held
    unfinished: int  # matched games still being played
    refused: list[pgn.Unmatched]
    unmatched: list[pgn.Unmatched]


async def pgn_results(request: web.Request) -> web.Response:
    tid = request.match_info["tid"]
    rnd = int(request.match_info["round"])
    actor = await authorize(request.headers.get(hdrs.AUTHORIZATION), request.app[TOKENS], tid)
    corrections = request.query.get("corrections", "false")
    if corrections not in ("true", "false"):
        said = Said("api.corrections", value=repr(corrections))
        raise InvalidInput(said, path="corrections")
    config = request.app[CONFIG]
    data = await read_body(request, config.max_body, config.body_timeout)  # 413, 408
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InvalidInput(Said("api.pgn_not_utf8", byte=err.start), path="body") from None
    games = await asyncio.to_thread(pgn.read_games, text)  # grows with the body: off the loop
    # Planned on the state the writes decided so far leave; each command then goes through
    # the group commit, decided again there on the state the ones before it leave.
    commits = request.app[COMMITS]
    await commits.drain(tid)
    projection = await request.app[SERVICE].current(tid)
    made = pgn.plan(projection.state, games, round_=rnd, corrections=corrections == "true")
    recorded, refused = [], list(made.refused)
    seq = projection.seq
    for command in made.commands:
        corrected = isinstance(command, pgn.CorrectResult)
        try:
            seq = await commits.execute(tid, command, actor=actor)
        except LivetbError as err:
            where = f"round {command.round} board {command.board}: {command.result}"
            refused.append(pgn.Unmatched(where, str(err)))
            continue
        recorded.append(Recorded(command.round, command.board, command.result, corrected))
    report = PgnReport(seq, recorded, made.already, made.unfinished, refused, made.unmatched)
    return json_response(report, seq=seq)


ENDPOINTS = [
    Endpoint(
        method="GET",
        path=BASE + "/export",
        handler=export_file,
        summary="The tournament as a file: TRF-2026, TRF-16, CSV standings or a printable page",
        errors=(*READ_ERRORS, 422, 429),
        media="text/plain",
        query=(
            Query("format", "trf26 (default), trf16, csv or html", "string", enum=FORMATS),
            categories.CATEGORY_QUERY,
            categories.WITH_QUERY,
        ),
    ),
    Endpoint(
        method="POST",
        path=ROUND + "/pgn",
        handler=pgn_results,
        summary="Record a round's final results from its PGN (DGT LiveChess, broadcast relays)",
        response=PgnReport,
        auth=ARBITER,
        errors=WRITE_ERRORS,
        query=(
            Query(
                "corrections",
                "true: a changed result corrects the log (default false)",
                "string",
                enum=("true", "false"),
            ),
        ),
    ),
]


def routes() -> list[web.RouteDef]:
    return route_defs(ENDPOINTS)
