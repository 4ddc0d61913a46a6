"""`create_app(config)`: the only wiring. The CLI, the demo and the tests all go through it.

Writes are decided on the event loop in arrival order and committed in groups
(`livetb/app/group_commit.py`): one writer per process, and an acknowledged result is one
that reached the log (handler cancellation stays off, and the store closes after the last group).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor

from aiohttp import hdrs, web

from livetb.app.collector import Collector
from livetb.app.follower import Follower
from livetb.app.group_commit import GroupCommit
from livetb.app.offload import Held, Offload
from livetb.app.service import TournamentService
from livetb.app.timetravel import TimeTravel, process_pool, start_fork_server
from livetb.backends import backend, driver_fault, open_store, open_tokens
from livetb.errors import LivetbError, NotAuthenticated, StoreUnavailable, TooManyRequests
from livetb.events.changes import ChangeSignal
from livetb.web.api import (
    categories,
    console,
    crosstable,
    files,
    openapi,
    prizes,
    reads,
    sync,
    writes,
)
from livetb.web.config import Config
from livetb.web.feed import socket
from livetb.web.feed.hub import Hub
from livetb.web.http import headers, redact
from livetb.web.http.queries import QueryCheck
from livetb.web.http.routing import Handler, json_response
from livetb.web.http.statuses import status_of
from livetb.web.http.throttle import THROTTLE, Throttle
from livetb.web.keys import COMMITS, CONFIG, HUB, OFFLOAD, SERVICE, STORE, TIMETRAVEL, TOKENS
from livetb.web.pages import qr, shell

log = logging.getLogger(__name__)

# What the worker processes run (time travel, cards, exports, the audit trail): imported once,
# by the fork server they are forked from.
WORKER_MODULES = ["livetb.app.timetravel", "livetb.app.offload"]
WORKER_MODULES += ["livetb.web.api.reads", "livetb.web.api.files", "livetb.web.api.console"]

HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed"}
HTTP_CODES[413] = "body_too_large"
HTTP_CODES[408] = "body_timeout"


def create_app(config: Config | None = None) -> web.Application:
    config = config or Config()
    redact.install()  # no token in any log line
    largest = max(config.max_body, config.pairings_max_body)  # each endpoint's in limits.py
    queries = QueryCheck(openapi.all_endpoints())  # unknown query parameters: 422
    app = web.Application(client_max_size=largest, middlewares=[errors, queries.middleware])
    app.on_response_prepare.append(headers.secure)  # CSP, nosniff, no version in Server
    headers.hide_version()
    app[CONFIG] = config
    app[reads.LIVE_BODIES] = OrderedDict()  # the live standings, encoded once per seq
    if config.reads_per_second > 0:
        app[THROTTLE] = Throttle(
            config.reads_in_flight,
            config.reads_per_second,
            config.reads_burst,
            config.reads_waiting,
        )
    app.cleanup_ctx.append(service_ctx)
    app.cleanup_ctx.append(follower_ctx)
    app.on_shutdown.append(socket.close_feeds)
    app.add_routes(shell.routes())
    app.add_routes(qr.routes())  # the venue screen's QR code of the phone page
    app.add_routes(reads.routes())
    app.add_routes(writes.routes())
    app.add_routes(sync.routes())
    app.add_routes(console.routes())
    app.add_routes(openapi.routes())
    app.add_routes(socket.routes())
    app.add_routes(files.routes())
    app.add_routes(categories.routes())  # the categories and rating change reads
    app.add_routes(prizes.routes())  # the live prize list
    app.add_routes(crosstable.routes())
    return app


async def service_ctx(app: web.Application) -> AsyncIterator[None]:
    """Open the store (a SQLite file or a PostgreSQL URL) and its token table; close them
    last."""
    config = app[CONFIG]
    store = open_store(config.db_path)
    tokens = open_tokens(config.db_path)
    app[STORE] = store
    app[TOKENS] = tokens
    collector = Collector()  # one policy for the viewers' connections and the settle slices
    # Looked for 4 times a heartbeat: a silent viewer is pinged within 1.25 heartbeats.
    app[HUB] = hub = Hub(config.ring_size, config.ring_bytes, collector, config.heartbeat / 4)
    app[SERVICE] = service = TournamentService(store, feed=hub, collector=collector)
    app[COMMITS] = writes = GroupCommit(service)
    pool = None
    if config.replay_processes:
        await asyncio.to_thread(start_fork_server, WORKER_MODULES)
        pool = process_pool(config.replays)
    app[TIMETRAVEL] = TimeTravel(
        store,
        source=config.db_path if pool else store,
        executor=pool,
        concurrency=config.replays,
        cache_size=config.replay_cache,
    )
    # Cards and exports: one worker of their own (a thread keeps `Held` to one at a time).
    offloaded = process_pool(1) if pool else ThreadPoolExecutor(1, "offload")
    app[OFFLOAD] = Offload(
        config.db_path if pool else Held(store), offloaded, cache_bytes=config.offload_cache
    )
    yield
    await writes.drain()  # every decided write committed and told, the snapshots due saved
    if pool is not None:  # waits for a running replay: exiting under it breaks the pool's pipe
        await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
    await asyncio.to_thread(offloaded.shutdown, wait=True, cancel_futures=True)
    tokens.close()
    store.close()


async def follower_ctx(app: web.Application) -> AsyncIterator[None]:
    """The tournaments this node holds follow the other nodes' writes to the store (and
    other processes', e.g. `livetb replay`), from the store's change signal."""
    config = app[CONFIG]
    follower = None
    if config.poll_interval > 0:
        follower = Follower(app[SERVICE], change_signal(config))
        follower.start()
    yield
    if follower is not None:
        await follower.stop()


def change_signal(config: Config) -> ChangeSignal:
    """PostgreSQL's notifications, or SQLite's change counter."""
    return backend(config.db_path).changes(config.db_path, config.poll_interval)


@web.middleware
async def errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every error as JSON: `{"code", "message", ...}` with the error's own context."""
    try:
        return await handler(request)
    except LivetbError as err:
        return error_response(err)
    except web.HTTPException as err:
        if err.status < 400:
            raise
        refused = writes.refused_id(request) if err.status == 404 else None
        if refused is not None:  # a creation at an id no route takes: the field named
            return error_response(refused)
        code = HTTP_CODES.get(err.status, f"http_{err.status}")
        resp = json_response({"code": code, "message": err.text or err.reason}, err.status)
        if err.status == 405:
            resp.headers[hdrs.ALLOW] = err.headers.get(hdrs.ALLOW, "")
        return resp
    except Exception as err:
        named = driver_fault(request.app[CONFIG].db_path, err)
        if named is not None:  # a store's fault met outside the stores' own mapping
            log.warning("%s %s: %s", request.method, request.path, named)
            return error_response(named)
        log.exception("%s %s", request.method, request.path)
        return json_response({"code": "internal_error", "message": "internal error"}, 500)


def error_response(err: LivetbError) -> web.Response:
    resp = json_response(err.as_dict(), status_of(err))
    if isinstance(err, NotAuthenticated):
        resp.headers[hdrs.WWW_AUTHENTICATE] = 'Bearer realm="livetb"'
    if isinstance(err, StoreUnavailable | TooManyRequests):  # when to try again
        resp.headers[hdrs.RETRY_AFTER] = str(err.retry_after)
    return resp
