"""What categories, a prize table and rating change cost a result, at 2,000 players.

    .venv/bin/python -m bench.extras                          # 2000 x 11, 3 passes
    .venv/bin/python -m bench.extras --players 500 --repeat 2 --rule shared

A result's cost is everything the server does for it on the event loop (`Service._apply`):
the projection's apply and the feed's publish (`Hub.publish`: the delta message, each
filtered view's delta, every frame written to its viewers). The prize list is not computed
there: it is sent at most once every 50 ms (`livetb/web/feed/prizes.py`), so it is timed
apart, as the recompute each result would cost if it came alone (the list read, compared with
the last one sent, sent when it differs). The same generated Swiss is run in five variants:

- `without`: no categories, no prizes; one viewer of the full standings.
- `categories`: 5 categories (U2000, U1800, women, juniors by birth date, a federation); one
  viewer of the full standings and one of each category's view (`category=CODE`).
- `prizes`: the same categories and 30 prizes (main 1-10, 4 categories x 5); one viewer of
  the full standings, which is what the prizes page follows (the list rides in its messages).
- `both`: the categories, the prizes, and every viewer above.
- `rating`: no categories, no prizes; one viewer of the full standings and one of the full
  standings with each row's rating change (`with=rating_change`: the standings page's and
  the overlay's `Δ` column), whose totals are read at every event.

The generator's participants carry no sex, birth date or federation: this bench gives them
some, deterministically, before the log is applied. The viewers are the hub's own subscribers
on sockets that take every frame at once (a viewer keeping up), so a frame costs the write
call the server makes and nothing of the network.

Rating change is computed only when asked: per event while a `with=rating_change` viewer
watches (the `rating` variant), and for the GET `?with=rating_change`, whose document is
timed apart, built at results spread over the run, against the same document without it.

As `bench.projection`: every event's time is its best of `--repeat` passes (the passes of
the variants interleaved, so that the machine's drift reaches them alike), the
projection is settled between events as a quiet server settles it, and a reference loop is
timed before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import gc
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

import msgspec

from bench.generate import as_log, swiss_events
from bench.projection import TIEBREAKS, percentile, reference_ms
from livetb.app.collector import Collector
from livetb.app.service import settle_for
from livetb.engine.prizes import Prize, Rule
from livetb.events.schema import (
    AnyEvent,
    CategoriesDefined,
    Category,
    ParticipantRegistered,
    PrizesDefined,
    Recorded,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
)
from livetb.projections.categories import document_view
from livetb.projections.document import to_json
from livetb.projections.standings import StandingsProjection
from livetb.web.feed.hub import Hub, Subscriber
from livetb.web.feed.views import Filter

TOURNAMENT = "bench"
FEDERATIONS = ("ITA", "ITA", "ITA", "GER", "FRA", "ESP", "IND", "USA", "NED", "SRB")
CATEGORIES = (
    Category(code="U2000", name="Under 2000", rating_max=1999),
    Category(code="U1800", name="Under 1800", rating_max=1799),
    Category(code="W", name="Women", sex="w"),
    # Under 18 on 1 January of the tournament's year (2026).
    Category(code="U18", name="Juniors", born_from=dt.date(2008, 1, 1)),
    Category(code="ITA", name="Italy", federations=("ITA",)),
)
MAIN_PRIZES = (1000, 800, 600, 500, 400, 300, 250, 200, 150, 100)
CATEGORY_PRIZES = (150, 100, 80, 60, 50)
PRIZED = ("U2000", "U1800", "W", "U18")
VARIANTS = ("without", "categories", "prizes", "both", "rating")


def prizes(rule: Rule) -> PrizesDefined:
    table = [Prize("main", place, Decimal(amount)) for place, amount in enumerate(MAIN_PRIZES, 1)]
    table += [
        Prize(code, place, Decimal(amount))
        for code in PRIZED
        for place, amount in enumerate(CATEGORY_PRIZES, 1)
    ]
    return PrizesDefined(rule=rule, currency="EUR", prizes=tuple(table))


def with_details(events: list[AnyEvent], seed: int = 7) -> list[AnyEvent]:
    """The participants with a sex, a birth date and a federation: a fifth women, birth
    years 1950-2017 (about a tenth juniors), a third Italian."""
    rng = random.Random(seed)
    out: list[AnyEvent] = []
    for e in events:
        if isinstance(e, ParticipantRegistered):
            born = dt.date(1950, 1, 1) + dt.timedelta(days=rng.randrange(68 * 365))
            e = msgspec.structs.replace(
                e,
                sex="w" if rng.random() < 0.2 else "m",
                birth_date=born.isoformat(),
                federation=rng.choice(FEDERATIONS),
            )
        out.append(e)
    return out


def variant_log(base: list[AnyEvent], variant: str, rule: Rule) -> list[Recorded]:
    """The log with the variant's definitions right before the first pairing."""
    first = next(i for i, e in enumerate(base) if isinstance(e, RoundPaired))
    defined: list[AnyEvent] = []
    if variant not in ("without", "rating"):
        defined.append(CategoriesDefined(categories=CATEGORIES))
    if variant in ("prizes", "both"):
        defined.append(prizes(rule))
    return as_log([*base[:first], *defined, *base[first:]], TOURNAMENT)


class Socket:
    """A viewer's socket that takes every frame at once (`livetb.web.feed.hub.Socket`)."""

    def __init__(self) -> None:
        self.frames = 0
        self.bytes = 0

    async def send(self, frame: bytes) -> None:
        self.frames += 1
        self.bytes += len(frame)

    def send_now(self, wire: bytes) -> bool:
        self.frames += 1
        self.bytes += len(wire)
        return True

    async def close(self) -> None:
        pass

    def abort(self) -> None:
        pass


@dataclass
class Pass:
    total_ms: list[float]  # apply + publish, per event
    apply_ms: list[float]
    frames: int
    rating_ms: list[float] = field(default_factory=list)  # ?with=rating_change's document
    plain_ms: list[float] = field(default_factory=list)  # the same document without it
    prizes_ms: list[float] = field(default_factory=list)  # the list once quiet, per result


async def run_pass(log: list[Recorded], variant: str, rating_every: int) -> Pass:
    """One pass over `log`: the setup applied untimed, the viewers subscribed before the
    first pairing, then every event applied and published, timed."""
    projection = StandingsProjection()
    hub = Hub()
    first = next(i for i, rec in enumerate(log) if isinstance(rec.event, RoundPaired))
    for rec in log[:first]:
        projection.apply(rec)
    filters: list[Filter | None] = [None]
    if variant in ("categories", "both"):
        filters += [Filter(category=c.code) for c in CATEGORIES]
    if variant == "rating":
        filters.append(Filter(rated=True))
    sockets, subs = [], []
    for wanted in filters:
        view = hub.view(TOURNAMENT, wanted, projection)
        socket = Socket()
        sub = Subscriber(
            socket,
            hub.opening(TOURNAMENT, projection, None, view),
            lambda: b"",
            queue_size=1024,
            heartbeat=3600.0,
            send_timeout=60.0,
            view=view,
        )
        hub.subscribe(TOURNAMENT, sub)
        sockets.append(socket)
        subs.append(sub)
    await asyncio.sleep(0)  # every sender sends its opening and waits, idle
    assert all(s.idle for s in subs)
    opened = sum(s.frames for s in sockets)
    total = [0.0] * len(log)
    applied = [0.0] * len(log)
    rating_ms: list[float] = []
    plain_ms: list[float] = []
    prizes_ms: list[float] = []
    results = 0
    clock = time.perf_counter
    collector = Collector()
    for i in range(first, len(log)):
        rec = log[i]
        t0 = clock()
        delta = projection.apply(rec)
        t1 = clock()
        hub.publish(TOURNAMENT, delta, projection)
        t2 = clock()
        applied[i] = (t1 - t0) * 1000
        total[i] = (t2 - t0) * 1000
        while projection.unsettled:
            settle_for(projection, collector)
        if variant in ("prizes", "both") and isinstance(rec.event, ResultRecorded):
            prizes_ms.append(_timed(lambda: hub.prizes.flush(TOURNAMENT)))
        if rating_every and isinstance(rec.event, ResultRecorded):
            results += 1
            if results % rating_every == 0:
                plain_ms.append(_timed(lambda: to_json(projection)))
                rating_ms.append(
                    _timed(lambda: document_view(to_json(projection), projection.state, None, True))
                )
    assert not any(s.stale for s in subs), "a viewer fell behind"
    frames = sum(s.frames for s in sockets) - opened
    for sub in subs:
        hub.unsubscribe(TOURNAMENT, sub)
        assert sub.task is not None
        sub.task.cancel()
    await asyncio.gather(*(s.task for s in subs if s.task is not None), return_exceptions=True)
    return Pass(total, applied, frames, rating_ms, plain_ms, prizes_ms)


def _timed(build: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    build()
    return (time.perf_counter() - t0) * 1000


def _least(kept: list[float], new: list[float]) -> list[float]:
    """Each event's best time over the passes so far."""
    return [min(x, y) for x, y in zip(kept, new, strict=True)] if kept else new


@dataclass
class Best:
    total_ms: list[float] = field(default_factory=list)
    apply_ms: list[float] = field(default_factory=list)
    frames: int = 0
    rating_ms: list[float] = field(default_factory=list)
    plain_ms: list[float] = field(default_factory=list)
    prizes_ms: list[float] = field(default_factory=list)

    def keep(self, p: Pass) -> None:
        self.total_ms = _least(self.total_ms, p.total_ms)
        self.apply_ms = _least(self.apply_ms, p.apply_ms)
        self.frames = p.frames
        self.rating_ms = _least(self.rating_ms, p.rating_ms)
        self.plain_ms = _least(self.plain_ms, p.plain_ms)
        self.prizes_ms = _least(self.prizes_ms, p.prizes_ms)


def stats(xs: list[float]) -> str:
    return f"{percentile(xs, 50):.3f} | {percentile(xs, 99):.3f} | {max(xs):.3f}"


async def run(args: argparse.Namespace) -> None:
    base = with_details(swiss_events(args.players, args.rounds, tiebreaks=TIEBREAKS))
    logs = {v: variant_log(base, v, args.rule) for v in VARIANTS}
    # The logs are the input (a server reads them from its store): out of the collector's
    # sight, as in bench.projection.
    gc.collect()
    gc.freeze()
    before = reference_ms()
    best = {v: Best() for v in VARIANTS}
    for _ in range(args.repeat):
        for v in VARIANTS:
            every = args.rating_every if v == "both" else 0
            best[v].keep(await run_pass(logs[v], v, every))
            gc.collect()
    after = reference_ms()
    print(
        f"{args.players:,} players x {args.rounds} rounds, tie-breaks {', '.join(TIEBREAKS)}; "
        f"prize rule {args.rule}; each event's best of {args.repeat} passes, settled between "
        "events"
    )
    print()
    print(
        "| variant | viewers | result p50 | result p99 | result max "
        "| of which apply p50 / p99 | close mean / max | pairing mean / max |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for v in VARIANTS:
        log, b = logs[v], best[v]
        kinds = [type(rec.event) for rec in log]

        def of(kind: type, xs: list[float], kinds: list[type] = kinds) -> list[float]:
            return [ms for ms, k in zip(xs, kinds, strict=True) if k is kind]

        res, app = of(ResultRecorded, b.total_ms), of(ResultRecorded, b.apply_ms)
        close, pair = of(RoundClosed, b.total_ms), of(RoundPaired, b.total_ms)
        viewers = {"categories": 6, "both": 6, "rating": 2}.get(v, 1)
        print(
            f"| {v} | {viewers} | {percentile(res, 50):.3f} ms | {percentile(res, 99):.3f} ms "
            f"| {max(res):.3f} ms | {percentile(app, 50):.3f} / {percentile(app, 99):.3f} ms "
            f"| {statistics.fmean(close):.0f} / {max(close):.0f} ms "
            f"| {statistics.fmean(pair):.0f} / {max(pair):.0f} ms |"
        )
    print()
    print(
        "the prize list apart (`livetb/web/feed/prizes.py`: at most once every 50 ms, here "
        "after every result), p50 | p99 | max ms: "
        + "; ".join(f"{v} {stats(best[v].prizes_ms)}" for v in ("prizes", "both"))
    )
    b = best["both"]
    if b.rating_ms:
        print()
        print(
            f"the `?with=rating_change` standings document (a GET builds it once per seq), at "
            f"{len(b.rating_ms)} results of the 'both' run, p50 | p99 | max ms: "
            f"with it {stats(b.rating_ms)}; without it {stats(b.plain_ms)}"
        )
    print(f"reference loop: {before:.0f} ms before, {after:.0f} ms after")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--repeat", type=int, default=3, help="passes over each variant's log")
    parser.add_argument("--rule", choices=("ranking", "shared", "hort"), default="ranking")
    parser.add_argument(
        "--rating-every", type=int, default=100, help="time ?with=rating_change every N results"
    )
    args = parser.parse_args()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
