"""A generated Swiss tournament's whole event log (score-group pairings, requested byes,
pairing-allocated byes, forfeits, double forfeits, withdrawals), deterministic per seed, and
each event as the command that asks for it. `bench/` and the tests use it too."""

from __future__ import annotations

import datetime as dt
import logging
import random

import msgspec

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
from livetb.events.schema import (
    DEFAULT_TIEBREAKS,
    AnyEvent,
    Board,
    ByeRequested,
    GameResult,
    ParticipantRegistered,
    ParticipantWithdrawn,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    TournamentCreated,
)

log = logging.getLogger(__name__)

RESULTS: tuple[GameResult, ...] = ("1-0", "0-1", "1/2-1/2")
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
            tiebreaks=tiebreaks or DEFAULT_TIEBREAKS["swiss"],  # the event's default
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
            result: GameResult
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


FIRST: tuple[str, ...]  # each list is written over two lines
LAST: tuple[str, ...]
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
