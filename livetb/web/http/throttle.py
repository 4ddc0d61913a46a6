"""Per-client limits for the expensive anonymous reads: a participant's card, an export, the
standings at a past position (`?at_seq=`, `?after_round=`), the log page by page.

Each costs the server work that grows with the field, and anyone may ask; a handful of
clients asking in a loop delayed every viewer's deltas. So each client (its address) has
`in_flight` of them running at once, and up to `waiting` more wait their turn (a page asking
for several at once is served in turn); it may ask `per_second` of them on average, in
bursts of up to `burst` (a token bucket). Beyond either, the answer is 429
`too_many_requests` with `Retry-After`. A request with a live token (an arbiter's, an
organiser's) is not limited.

    async with limited(request):
        ...  # the read
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import AsyncIterator, Callable

from aiohttp import hdrs, web

from livetb.errors import Said, TooManyRequests
from livetb.web.keys import TOKENS

_SWEEP = 4096  # clients remembered before the idle ones are forgotten


class _Client:
    __slots__ = ("asked", "slots", "stamp", "tokens")

    def __init__(self, tokens: float, stamp: float, in_flight: int) -> None:
        self.tokens = tokens
        self.stamp = stamp
        self.asked = 0  # reads running or waiting
        self.slots = asyncio.Semaphore(in_flight)


class Throttle:
    """Admits a client's expensive read (`admit`, then `run` its turn) or refuses it."""

    def __init__(
        self,
        in_flight: int,
        per_second: float,
        burst: int,
        waiting: int = 16,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.in_flight = in_flight
        self.waiting = waiting
        self.per_second = per_second
        self.burst = burst
        self.clock = clock
        self.refused = 0
        self._clients: dict[str, _Client] = {}

    def admit(self, client: str) -> None:
        """Count one more read of `client`, or raise TooManyRequests (nothing counted)."""
        now = self.clock()
        state = self._clients.get(client)
        if state is None:
            if len(self._clients) >= _SWEEP:
                self._sweep(now)
            state = _Client(float(self.burst), now, self.in_flight)
            self._clients[client] = state
        state.tokens = min(float(self.burst), state.tokens + (now - state.stamp) * self.per_second)
        state.stamp = now
        if state.asked >= self.in_flight + self.waiting:
            self.refused += 1
            raise TooManyRequests(Said("api.reads_waiting", count=state.asked), 1)
        if state.tokens < 1:
            self.refused += 1
            wait = max(1, math.ceil((1 - state.tokens) / self.per_second))
            raise TooManyRequests(Said("api.reads_per_second", rate=f"{self.per_second:g}"), wait)
        state.tokens -= 1
        state.asked += 1

    @contextlib.asynccontextmanager
    async def turn(self, client: str) -> AsyncIterator[None]:
        """An admitted read of `client`: waits while `in_flight` of its reads run."""
        state = self._clients[client]
        try:
            async with state.slots:
                yield
        finally:
            state.asked -= 1

    def _sweep(self, now: float) -> None:
        """Forget the clients with nothing running whose bucket has filled up again."""
        full = self.burst / self.per_second
        for name in [
            name
            for name, state in self._clients.items()
            if state.asked == 0 and now - state.stamp >= full
        ]:
            del self._clients[name]


THROTTLE = web.AppKey("throttle", Throttle)


async def exempt(request: web.Request) -> bool:
    """Whether the request carries a live token (looked up in a thread, off the loop)."""
    scheme, _, token = request.headers.get(hdrs.AUTHORIZATION, "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return False
    return await asyncio.to_thread(request.app[TOKENS].grant, token) is not None


@contextlib.asynccontextmanager
async def limited(request: web.Request) -> AsyncIterator[None]:
    """The body runs as one of the client's expensive reads (429 beyond its limits)."""
    throttle = request.app.get(THROTTLE)
    if throttle is None or await exempt(request):
        yield
        return
    client = request.remote or "unknown"
    throttle.admit(client)
    async with throttle.turn(client):
        yield
