"""`livetb demo`: a generated Swiss tournament, replayed live through the service.

`swiss_events` generates a whole tournament's event log (score-group pairings, requested
byes, pairing-allocated byes, forfeits, double forfeits, withdrawals), deterministic per seed;
`bench/` uses it too. The demo stores the log up to round 1's pairing, then replays the rest
as commands, one result every `interval` seconds, so every viewer sees standings move.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import msgspec
from aiohttp import web

from livetb.events.commands import (
    AnyCommand,
    CloseRound,
    CreateTournament,
    PairRound,
    RecordResult,
    RegisterParticipant,
    RequestBye,
    WithdrawParticipant,
)
from livetb.events.open import open_store
from livetb.events.schema import (
    AnyEvent,
    Board,
    ByeRequested,
    ParticipantRegistered,
    ParticipantWithdrawn,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    TournamentCreated,
)
from livetb.tokens.open import open_tokens
from livetb.web.keys import COMMITS, SERVICE, TOKENS

log = logging.getLogger(__name__)

RESULTS = ("1-0", "0-1", "1/2-1/2")
POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}
POINTS |= {"+-": (1.0, 0.0), "-+": (0.0, 1.0), "--": (0.0, 0.0)}


def swiss_events(
    players: int, rounds: int, seed: int = 1, tiebreaks: tuple[str, ...] = ()
) -> list[AnyEvent]:
    """A Swiss tournament's whole log: rated players, pairings by score group, results."""
    rng = random.Random(seed)
    events: list[AnyEvent] = [
        TournamentCreated(
            name=f"Generated open, {players} players",
            rounds=rounds,
            start_date=dt.date(2026, 7, 1),
            **({"tiebreaks": tiebreaks} if tiebreaks else {}),
        )
    ]
    ratings = sorted((rng.randint(1200, 2700) for _ in range(players)), reverse=True)
    for no, rating in enumerate(ratings, start=1):
        events.append(ParticipantRegistered(start_no=no, name=f"Player {no:04d}", rating=rating))
    score = dict.fromkeys(range(1, players + 1), 0.0)
    active = set(score)
    for rnd in range(1, rounds + 1):
        byes = {no for no in active if rng.random() < 0.02}
        for no in sorted(byes):
            half = rng.random() < 0.7
            events.append(ByeRequested(start_no=no, round=rnd, points="half" if half else "zero"))
            score[no] += 0.5 if half else 0
        pool = sorted(active - byes, key=lambda no: (-score[no], no))
        pab = pool.pop() if len(pool) % 2 else None
        if pab is not None:
            score[pab] += 1
        boards = []
        for b in range(len(pool) // 2):
            a, c = pool[2 * b], pool[2 * b + 1]
            white, black = (a, c) if (rnd + b) % 2 else (c, a)
            boards.append(Board(b + 1, white, black))
        events.append(RoundPaired(round=rnd, boards=tuple(boards), bye=pab))
        for board in boards:
            roll = rng.random()
            if roll < 0.015:
                result = rng.choice(("+-", "-+"))
            elif roll < 0.02:
                result = "--"
            else:
                result = rng.choice(RESULTS)
            events.append(ResultRecorded(round=rnd, board=board.board, result=result))
            score[board.white] += POINTS[result][0]
            score[board.black] += POINTS[result][1]
        events.append(RoundClosed(round=rnd))
        for no in sorted(active):
            if rnd < rounds and rng.random() < 0.005:
                active.discard(no)
                events.append(ParticipantWithdrawn(start_no=no, from_round=rnd + 1))
    return events


FIRST = ("Ana", "Boris", "Chen", "Dina", "Emil", "Fatima", "Goran", "Hana", "Ivan", "Judit")
FIRST += ("Kenji", "Lena", "Magnus", "Nodira", "Oscar", "Pia", "Radek", "Sofia", "Tigran", "Vera")
LAST = ("Adams", "Berg", "Costa", "Dvorak", "Eriksen", "Fischer", "Garcia", "Horvat", "Ito")
LAST += ("Jensen", "Kovacs", "Lopez", "Meier", "Novak", "Olsen", "Petrov", "Rossi", "Silva")


def unique_names(count: int, rng: random.Random) -> list[str]:
    """`count` different made-up names: "Last, First", then double-barrelled surnames, then
    numbered ones (a field larger than every combination)."""
    single = [f"{last}, {first}" for last in LAST for first in FIRST]
    double = [f"{a}-{b}, {first}" for a in LAST for b in LAST if a != b for first in FIRST]
    rng.shuffle(single)
    rng.shuffle(double)
    names = (single + double)[:count]
    names += [f"Player {n}, {FIRST[n % len(FIRST)]}" for n in range(len(names) + 1, count + 1)]
    return names


def with_names(
    events: list[AnyEvent], seed: int = 1, title: str = "livetb demo open"
) -> list[AnyEvent]:
    """The same log with made-up, unique player names instead of `Player 0001`."""
    rng = random.Random(seed)
    count = sum(isinstance(e, ParticipantRegistered) for e in events)
    names = iter(unique_names(count, rng))
    out: list[AnyEvent] = []
    for event in events:
        if isinstance(event, ParticipantRegistered):
            event = msgspec.structs.replace(event, name=next(names))
        elif isinstance(event, TournamentCreated):
            event = msgspec.structs.replace(event, name=title)
        out.append(event)
    return out


def as_command(event: AnyEvent) -> AnyCommand:
    """The command that produces `event` (the events the generator emits)."""
    match event:
        case TournamentCreated():
            fields = msgspec.structs.asdict(event)
            fields.pop("v")
            return CreateTournament(**fields)
        case ParticipantRegistered():
            no, name, rating = event.start_no, event.name, event.rating
            return RegisterParticipant(start_no=no, name=name, rating=rating)
        case ByeRequested():
            return RequestBye(start_no=event.start_no, round=event.round, points=event.points)
        case RoundPaired():
            return PairRound(round=event.round, boards=event.boards, bye=event.bye)
        case ResultRecorded():
            return RecordResult(round=event.round, board=event.board, result=event.result)
        case RoundClosed():
            return CloseRound(round=event.round)
        case ParticipantWithdrawn():
            return WithdrawParticipant(start_no=event.start_no, from_round=event.from_round)
    raise ValueError(f"no command for {type(event).__name__}")


def split(events: list[AnyEvent]) -> tuple[list[AnyEvent], list[AnyEvent]]:
    """The log up to round 1's pairing (stored at once), and the rest (replayed)."""
    first = next(i for i, e in enumerate(events) if isinstance(e, RoundPaired))
    return events[: first + 1], events[first + 1 :]


class Demo(msgspec.Struct, frozen=True):
    tournament_id: str
    token: str
    live: list[AnyEvent]


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
    writes, store, n = app[COMMITS], app[SERVICE].store, 2
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
