"""A generated Swiss tournament as an event log: score-group pairings, requested byes,
pairing-allocated byes, forfeits, double forfeits and withdrawals. Deterministic per seed."""

from __future__ import annotations

import datetime as dt
import random

from livetb.events.schema import (
    AnyEvent,
    Board,
    ByeRequested,
    ParticipantRegistered,
    ParticipantWithdrawn,
    Recorded,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    TournamentCreated,
)

RESULTS = ("1-0", "0-1", "1/2-1/2")


def swiss_events(
    players: int, rounds: int, seed: int = 1, tiebreaks: tuple[str, ...] = ()
) -> list[AnyEvent]:
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
            w = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5, "+-": 1.0, "-+": 0.0, "--": 0.0}[result]
            b_ = {"1-0": 0.0, "0-1": 1.0, "1/2-1/2": 0.5, "+-": 0.0, "-+": 1.0, "--": 0.0}[result]
            score[board.white] += w
            score[board.black] += b_
        events.append(RoundClosed(round=rnd))
        for no in sorted(active):
            if rnd < rounds and rng.random() < 0.005:
                active.discard(no)
                events.append(ParticipantWithdrawn(start_no=no, from_round=rnd + 1))
    return events


def as_log(events: list[AnyEvent], tournament_id: str = "bench") -> list[Recorded]:
    at = dt.datetime(2026, 7, 1, tzinfo=dt.UTC)
    return [
        Recorded(tournament_id=tournament_id, seq=i, at=at, actor="bench", event=e)
        for i, e in enumerate(events, start=1)
    ]
