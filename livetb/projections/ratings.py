"""Live rating change (`livetb/engine/rating.py`) read off the folded log: per participant, each
rated game's change and the total so far, and what the running game would give for each
result. The K used is the one the arbiter set (`ParticipantKSet`), else the default from the
rating and the birth date in the tournament's year (its start date's)."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

import msgspec

from livetb.engine import rating
from livetb.engine.model import Code
from livetb.events.state import Game, TournamentState
from livetb.projections.standings import StandingsProjection
from livetb.wire.standings import Row


class GameChange(msgspec.Struct, frozen=True):
    """One rated game: the round, the opponent and its rating, the expected score (exact
    decimal, e.g. "0.36"), the score and the change ("12.8")."""

    round: int
    opponent: int
    opponent_rating: int
    expected: str
    score: str
    change: str


class RatingChange(msgspec.Struct, frozen=True):
    """A participant's rating change so far: K, the rated games and their total (None: no
    rated game, or the participant is unrated), and for the running game (`running_round`)
    the change each result would give: `if_win`, `if_draw`, `if_loss`."""

    start_no: int
    rating: int | None
    k: int | None
    games: tuple[GameChange, ...]
    total: str | None
    running_round: int | None = None
    if_win: str | None = None
    if_draw: str | None = None
    if_loss: str | None = None


def k_of(state: TournamentState, no: int) -> int | None:
    """The K for participant `no`: the arbiter's, else 8.3.3's default; None if unrated."""
    p = state.participants[no]
    if p.rating is None:
        return None
    set_k = state.k.get(no)
    if set_k is not None:
        return set_k
    created = state.created
    year = created.start_date.year if created is not None and created.start_date else None
    return rating.default_k(p.rating, p.birth_date, year)


def totals(state: TournamentState) -> dict[int, Decimal | None]:
    """Each participant's total change over its rated games (None: none rated)."""
    return {no: None if h is None else Decimal(h).scaleb(-2) for no, h in hundredths(state).items()}


def hundredths(state: TournamentState) -> dict[int, int | None]:
    """Each participant's total change in hundredths (None: no rated game), read off the
    rounds' games once in integers, K × (100 × score − PD): every row's change of a GET at
    2,000 players in a few milliseconds."""
    games = (g for rnd in range(1, state.paired + 1) for g in state.rounds[rnd].games.values())
    sums = _sums(state, games, state.participants)
    return {no: sums.get(no) for no in state.participants}


def hundredths_of(state: TournamentState, nos: Iterable[int]) -> dict[int, int | None]:
    """`hundredths` of participants `nos` alone, from their own games only."""
    nos = set(nos)
    games = {
        (rnd, game.board): game
        for rnd in range(1, state.paired + 1)
        for no in nos
        if (game := state.rounds[rnd].seat.get(no)) is not None
    }
    players = nos.union(*((g.white, g.black) for g in games.values()))
    sums = _sums(state, games.values(), players)
    return {no: sums.get(no) for no in nos}


def _sums(state: TournamentState, games: Iterable[Game], players: Iterable[int]) -> dict[int, int]:
    """Each player's summed change in hundredths over `games`, whose players are among
    `players` (their ratings and K read once)."""
    own = {no: state.participants[no].rating for no in players}
    ks = {no: k_of(state, no) for no in own}
    sums: dict[int, int] = {}
    expected = rating.expected
    for game in games:
        scores = _SCORES.get(game.result) if game.result is not None else None
        if scores is None:
            continue  # unfinished or unplayed (a forfeit)
        white, black = own[game.white], own[game.black]
        if white is None or black is None:
            continue  # against an unrated opponent: no change for either
        kw, kb = ks[game.white], ks[game.black]
        assert kw is not None and kb is not None  # rated players have a K
        sums[game.white] = sums.get(game.white, 0) + kw * (scores[0] - expected(white, black))
        sums[game.black] = sums.get(game.black, 0) + kb * (scores[1] - expected(black, white))
    return sums


# A result's score for white and black in hundredths, when the game is rated.
_SCORES: dict[str, tuple[int, int]] = {
    "1-0": (100, 0),
    "0-1": (0, 100),
    "1/2-1/2": (50, 50),
    "0-0": (0, 0),  # played, lost by both
}


def _total(state: TournamentState, no: int) -> Decimal | None:
    games = list(_games(state, no))
    return sum((change for *_, change in games), Decimal(0)) if games else None


def _games(
    state: TournamentState, no: int
) -> Iterable[tuple[int, int, int, int, Decimal, Decimal]]:
    """(round, opponent, its rating, expected in hundredths, score, change) per rated game."""
    own = state.participants[no].rating
    k = k_of(state, no)
    if own is None or k is None:
        return
    for rnd in range(1, state.paired + 1):
        entry = state.entry(no, rnd)
        score = rating.RATED_SCORE.get(entry.code)
        if score is None or entry.opponent is None:
            continue  # unplayed, unfinished or not rated
        theirs = state.participants[entry.opponent].rating
        if theirs is None:
            continue  # against an unrated opponent: no change (8.3.1)
        pd = rating.expected(own, theirs)
        yield rnd, entry.opponent, theirs, pd, score, rating.game_change(k, own, theirs, score)


def of(state: TournamentState, no: int) -> RatingChange:
    """Participant `no`'s rating change: per game, total, and the running game's outcomes."""
    p = state.participants[no]
    k = k_of(state, no)
    games = tuple(
        GameChange(rnd, opp, theirs, rating.text(Decimal(pd) / 100), str(score), rating.text(d))
        for rnd, opp, theirs, pd, score, d in _games(state, no)
    )
    total = _total(state, no)
    change = RatingChange(no, p.rating, k, games, None if total is None else rating.text(total))
    running = state.paired if state.paired > state.closed else None
    if running is None or p.rating is None or k is None:
        return change
    entry = state.entry(no, running)
    if entry.code is not Code.PENDING or entry.opponent is None:
        return change
    theirs = state.participants[entry.opponent].rating
    if theirs is None:
        return change
    outcomes = {
        name: rating.text(rating.game_change(k, p.rating, theirs, Decimal(s)))
        for name, s in (("if_win", 1), ("if_draw", "0.5"), ("if_loss", 0))
    }
    return msgspec.structs.replace(change, running_round=running, **outcomes)


class RatedRow(Row, frozen=True, gc=False):
    """A standings row with the participant's rating change so far (`?with=rating_change`):
    an exact decimal string, or None with no rated game."""

    rating_change: str | None = None


def with_rating_change(rows: Iterable[Row], state: TournamentState) -> list[Row]:
    """`rows` each with its participant's `rating_change`."""
    out: list[Row] = []
    # A team tournament's rows are teams: no rating of their own.
    teams = state.created is not None and state.created.kind == "team"
    found = {} if teams else hundredths(state)
    for row in rows:
        total = found.get(row.start_no)
        fields = {f: getattr(row, f) for f in row.__struct_fields__}
        change = None if total is None else rating.hundredths_text(total)
        out.append(RatedRow(**fields, rating_change=change))
    return out


class RatedTotals:
    """Each row's rating change total (hundredths) at a seq, and the start numbers whose
    total differs from the totals before: what a `with=rating_change` feed sends.

    Read at every event while such a feed is watched, so read from the totals before where
    only results changed: a result changes its two players' totals and nobody else's, and
    their games are a few; the whole field's games, 8 ms at 2,000 players, are read again
    only when what else the totals depend on changed (`_basis`)."""

    def __init__(
        self, seq: int, totals: dict[int, int | None], changed: set[int], basis: object
    ) -> None:
        self.seq = seq
        self.totals = totals
        self.changed = changed
        self.basis = basis

    @classmethod
    def read(
        cls,
        projection: StandingsProjection,
        before: RatedTotals | None,
        games: Iterable[tuple[int, int]] = (),
    ) -> RatedTotals:
        """The totals after the event of seq `projection.seq`, whose results recorded or
        corrected are `games` ((round, board), `Delta.games`)."""
        state = projection.state
        basis = _basis(state)
        if state.created is not None and state.created.kind == "team":
            totals: dict[int, int | None] = {}
        elif before is not None and before.seq == projection.seq - 1 and before.basis == basis:
            played = [state.rounds[rnd].games[board] for rnd, board in games]
            nos = {no for g in played for no in (g.white, g.black)}
            totals = {**before.totals, **hundredths_of(state, nos)} if nos else before.totals
            changed = {no for no in nos if before.totals.get(no) != totals[no]}
            return cls(projection.seq, totals, changed, basis)
        else:
            totals = hundredths(state)
        if before is None:
            changed = set(totals)
        else:
            old = before.totals
            changed = {no for no, h in totals.items() if no not in old or old[no] != h}
        return cls(projection.seq, totals, changed, basis)

    def text(self, no: int) -> str | None:
        """`no`'s total as the API writes it ("7.2", "-3.6"), None without a rated game."""
        total = self.totals.get(no)
        return None if total is None else rating.hundredths_text(total)


def _basis(state: TournamentState) -> tuple[object, ...]:
    """What the totals depend on besides the results: the participants (their ratings, birth
    dates and set K), the tournament's year (a junior's K) and the rounds' pairings (the
    round objects themselves: a round paired again replaces its object)."""
    rounds = tuple(state.rounds[rnd] for rnd in range(1, state.paired + 1))
    return state.roster_seq, state.created, tuple(state.k.items()), rounds
