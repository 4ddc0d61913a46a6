"""The demo stores a generated tournament's log up to round 1's pairing, then replays the
rest as commands through the group commit, one result every `interval` seconds, so every viewer
sees standings move; when a tournament ends, the next one starts."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import msgspec
from aiohttp import web

from livetb.backends import open_store, open_tokens
from livetb.demo.tournament import as_command, split, swiss_events, with_names
from livetb.events.schema import (
    AnyEvent,
    ResultRecorded,
)
from livetb.web.keys import COMMITS, STORE, TOKENS

log = logging.getLogger(__name__)


class Demo(msgspec.Struct, frozen=True):
    tournament_id: str
    token: str
    live: list[AnyEvent]

    @property
    def console(self) -> str:
        """The arbiter console's path with the token in the fragment, which the browser keeps
        to itself: the page takes it from there and never sends it in a URL."""
        return f"/t/{self.tournament_id}/arbiter#token={self.token}"


def prepare(
    db_path: str | Path, players: int = 40, rounds: int = 7, seed: int = 1, tid: str = "demo"
) -> Demo:
    """Store the tournament until round 1 is paired; make an arbiter token for it."""
    setup, live = split(with_names(swiss_events(players, rounds, seed), seed))
    with open_store(str(db_path)) as store, open_tokens(str(db_path)) as tokens:
        n = 1
        while store.head(tid if n == 1 else f"{tid}-{n}"):
            n += 1
        tid = tid if n == 1 else f"{tid}-{n}"
        store.append(tid, 0, setup, actor="demo")
        return Demo(tid, tokens.create(tid), live)


async def replay(app: web.Application, demo: Demo, interval: float) -> bool:
    """Execute the rest of the log through the group commit, as a client's writes: one result
    per `interval`; whether the tournament reached its end."""
    writes = app[COMMITS]
    for event in demo.live:
        await asyncio.sleep(interval if isinstance(event, ResultRecorded) else 0)
        try:
            await writes.execute(demo.tournament_id, as_command(event), actor="demo")
        except Exception:  # someone else wrote (an arbiter playing with the token): stop
            log.exception("demo replay stopped")
            return False
    return True


async def start_next(app: web.Application, players: int, rounds: int, seed: int) -> Demo:
    """A new tournament (the next free `demo-N`), paired for round 1."""
    title = f"livetb demo open {seed}"
    setup, live = split(with_names(swiss_events(players, rounds, seed), seed, title))
    writes, store, n = app[COMMITS], app[STORE], 2
    while await asyncio.to_thread(store.head, f"demo-{n}"):
        n += 1
    tid = f"demo-{n}"
    for event in setup:
        await writes.execute(tid, as_command(event), actor="demo")
    token = await asyncio.to_thread(app[TOKENS].create, tid)
    return Demo(tid, token, live)


async def run_forever(
    app: web.Application,
    demo: Demo,
    interval: float,
    generator: tuple[int, int, int],
    started: Callable[[Demo], None],
) -> None:
    """Replay `demo`; when it ends, start the next tournament (a new seed) and replay it."""
    players, rounds, seed = generator
    while await replay(app, demo, interval):
        seed += 1
        demo = await start_next(app, players, rounds, seed)
        started(demo)


def replay_ctx(
    demo: Demo,
    interval: float,
    generator: tuple[int, int, int],
    started: Callable[[Demo], None] = lambda _: None,
) -> Callable[[web.Application], AsyncIterator[None]]:
    """A cleanup context running the demo while the server is up: tournament after
    tournament (`generator`: players, rounds and the first seed)."""

    async def ctx(app: web.Application) -> AsyncIterator[None]:
        task = asyncio.create_task(run_forever(app, demo, interval, generator, started))
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    return ctx
