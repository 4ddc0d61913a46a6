"""A small language for writing tournaments in tests, round by round, the way arbiters speak.

    t = swiss(rounds=3, players="ABCD")
    t.round(1, beats("A", "B"), draws("C", "D"))
    t.round(2, forfeit_win("A", over="C"), half_bye("B"), pab("D"))
    ctx = t.context()

Players are named by letters (start numbers 1, 2, 3, … in the order given); rounds a player
has no entry in are zero-point byes (not paired).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable

from livetb.engine.context import Context
from livetb.engine.editions import Edition
from livetb.engine.model import Code, Entry, Participant, Scoring, System, Tournament

Pairing = Callable[["TournamentBuilder", int], None]


class TournamentBuilder:
    def __init__(
        self,
        rounds: int,
        players: Iterable[str],
        system: System = "swiss",
        ratings: dict[str, int | None] | None = None,
        scoring: Scoring | None = None,
    ) -> None:
        self.rounds = rounds
        self.names = list(players)
        self.no = {name: i for i, name in enumerate(self.names, start=1)}
        self.system = system
        self.ratings = ratings or {}
        self.scoring = scoring or Scoring()
        self.entries: dict[str, dict[int, Entry]] = {name: {} for name in self.names}

    def round(self, rnd: int, *pairings: Pairing) -> TournamentBuilder:
        for pairing in pairings:
            pairing(self, rnd)
        return self

    def set(self, name: str, rnd: int, entry: Entry) -> None:
        if rnd in self.entries[name]:
            raise ValueError(f"{name} already has round {rnd}")
        self.entries[name][rnd] = entry

    def build(self) -> Tournament:
        participants = tuple(
            Participant(
                self.no[name],
                name,
                rating=self.ratings.get(name, 2000),
                entries=tuple(
                    self.entries[name].get(r, Entry(Code.ZERO_BYE))
                    for r in range(1, self.rounds + 1)
                ),
            )
            for name in self.names
        )
        return Tournament(
            "test", participants, self.rounds, self.system, self.scoring, dt.date(2025, 1, 1)
        )

    def context(
        self,
        upto: int | None = None,
        edition: Edition = Edition.FIDE_2024,
        as_final: bool = False,
        unrated_rating: int | None = None,
    ) -> Context:
        return Context(
            self.build(),
            self.rounds if upto is None else upto,
            edition=edition,
            as_final=as_final,
            unrated_rating=unrated_rating,
        )


def swiss(rounds: int, players: Iterable[str], **kw: object) -> TournamentBuilder:
    return TournamentBuilder(rounds, players, "swiss", **kw)  # type: ignore[arg-type]


def round_robin(rounds: int, players: Iterable[str], **kw: object) -> TournamentBuilder:
    return TournamentBuilder(rounds, players, "roundrobin", **kw)  # type: ignore[arg-type]


def _game(white: str, black: str, w: Code, b: Code) -> Pairing:
    def apply(t: TournamentBuilder, rnd: int) -> None:
        t.set(white, rnd, Entry(w, t.no[black], "w"))
        t.set(black, rnd, Entry(b, t.no[white], "b"))

    return apply


def beats(white: str, black: str) -> Pairing:
    """White wins over the board."""
    return _game(white, black, Code.WIN, Code.LOSS)


def loses(white: str, black: str) -> Pairing:
    """Black wins over the board."""
    return _game(white, black, Code.LOSS, Code.WIN)


def draws(white: str, black: str) -> Pairing:
    return _game(white, black, Code.DRAW, Code.DRAW)


def both_lose(white: str, black: str) -> Pairing:
    """A game played and lost by both over the board (0-0, an arbiter's decision)."""
    return _game(white, black, Code.LOSS, Code.LOSS)


def forfeit_win(winner: str, over: str) -> Pairing:
    """`over` did not show up; `winner` was scheduled White."""
    return _game(winner, over, Code.FORFEIT_WIN, Code.FORFEIT_LOSS)


def double_forfeit(white: str, black: str) -> Pairing:
    return _game(white, black, Code.FORFEIT_LOSS, Code.FORFEIT_LOSS)


def _bye(code: Code) -> Callable[[str], Pairing]:
    def make(name: str) -> Pairing:
        def apply(t: TournamentBuilder, rnd: int) -> None:
            t.set(name, rnd, Entry(code))

        return apply

    return make


pab = _bye(Code.PAB)
half_bye = _bye(Code.HALF_BYE)
full_bye = _bye(Code.FULL_BYE)
zero_bye = _bye(Code.ZERO_BYE)
