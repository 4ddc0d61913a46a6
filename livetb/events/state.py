"""A tournament's state, folded from its events: what commands are checked against and what the
projections hand to the engine. `apply` returns the start numbers whose rounds it changed."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field

import msgspec

from livetb.engine.editions import Edition
from livetb.engine.model import Code, Colour, Entry, Participant, Scoring, Tournament
from livetb.events.schema import (
    AnyEvent,
    Board,
    ByeRequested,
    CategoriesDefined,
    Category,
    ColoursSwapped,
    FileSynced,
    GameResult,
    LotsDrawn,
    ParticipantKSet,
    ParticipantRegistered,
    ParticipantReinstated,
    ParticipantUpdated,
    ParticipantWithdrawn,
    PlayoffDecided,
    PrizesDefined,
    PublicDelaySet,
    ResultCorrected,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    TeamRegistered,
    TournamentCreated,
)

CODES: dict[GameResult, tuple[Code, Code]] = {
    "1-0": (Code.WIN, Code.LOSS),
    "0-1": (Code.LOSS, Code.WIN),
    "1/2-1/2": (Code.DRAW, Code.DRAW),
    "0-0": (Code.LOSS, Code.LOSS),  # played, lost by both: every tie-break sees a played loss
    "+-": (Code.FORFEIT_WIN, Code.FORFEIT_LOSS),
    "-+": (Code.FORFEIT_LOSS, Code.FORFEIT_WIN),
    "--": (Code.FORFEIT_LOSS, Code.FORFEIT_LOSS),
}

_DETAILS = ("name", "rating", "title", "federation", "fide_id", "sex", "birth_date")

BYE_CODES: dict[str, Code] = {"half": Code.HALF_BYE, "zero": Code.ZERO_BYE, "full": Code.FULL_BYE}


class Game(msgspec.Struct, gc=False):
    """A board of a round. Untracked by the garbage collector (it holds no containers):
    a 10,000-player event keeps tens of thousands, which full collections would walk."""

    board: int
    white: int
    black: int
    result: GameResult | None = None


Seated = tuple[dict[int, Game], dict[int, Game]]  # a round's games by board, by player


@dataclass
class RoundState:
    number: int
    games: dict[int, Game] = field(default_factory=dict)  # by board
    pab: int | None = None
    team_pab: tuple[int, ...] = ()  # a team's players, when a whole team has the bye
    closed: bool = False
    more_pabs: tuple[int, ...] = ()  # pairing-allocated byes after `pab` (`RoundPaired`)

    def __post_init__(self) -> None:
        # Not a field, so never stored: the same Game objects as `games`, by start number.
        self.seat = seats(self.games.values())

    @property
    def complete(self) -> bool:
        return all(g.result is not None for g in self.games.values())


def seats(games: Iterable[Game]) -> dict[int, Game]:
    """`games` by the start number of each of their players."""
    return {no: g for g in games for no in (g.white, g.black)}


@dataclass
class TournamentState:
    """Everything the log says about one tournament, ready for validation and projection."""

    created: TournamentCreated | None = None
    participants: dict[int, Participant] = field(default_factory=dict)
    teams: dict[int, TeamRegistered] = field(default_factory=dict)  # team tournaments: by number
    withdrawn: dict[int, int] = field(default_factory=dict)  # start no -> from round
    byes: dict[int, dict[int, Code]] = field(default_factory=dict)  # round -> no -> H/Z/F
    rounds: dict[int, RoundState] = field(default_factory=dict)
    playoffs: list[tuple[int, ...]] = field(default_factory=list)
    lots_seed: int | None = None
    public_delay: int = 0  # seconds: the broadcast delay (`PublicDelaySet`)
    prizes: PrizesDefined | None = None  # the prize table in force
    seq: int = 0
    categories: tuple[Category, ...] = ()
    k: dict[int, int] = field(default_factory=dict)  # start no -> the K the arbiter set
    # The seq of the last event that changed a participant's details or the categories: what
    # a category's members are read from (`livetb/projections/categories.py` caches by it).
    roster_seq: int = 0
    synced: FileSynced | None = None  # the last pairing-program file synced

    @property
    def paired(self) -> int:
        """The last round paired (0 before the first pairing)."""
        return max(self.rounds, default=0)

    @property
    def closed(self) -> int:
        """The last round closed."""
        return max((r.number for r in self.rounds.values() if r.closed), default=0)

    def entry(self, no: int, rnd: int, pending: Code = Code.PENDING) -> Entry:
        """Participant `no`'s round `rnd`; an unfinished game shows as `pending`."""
        state = self.rounds.get(rnd)
        if state is not None:
            game = state.seat.get(no)
            if game is not None:
                is_white = game.white == no
                opponent = game.black if is_white else game.white
                colour: Colour = "w" if is_white else "b"
                if game.result is None:
                    return Entry(pending, opponent, colour)
                white, black = CODES[game.result]
                return Entry(white if is_white else black, opponent, colour)
            if state.pab == no or no in state.team_pab or no in state.more_pabs:
                return Entry(Code.PAB)
        return Entry(self.byes.get(rnd, {}).get(no, Code.ZERO_BYE))

    def tournament(self, pending: Code = Code.PENDING) -> Tournament:
        """The engine's view of rounds 1..paired."""
        created = self.created
        assert created is not None, "no TournamentCreated yet"
        s = created.scoring
        rounds = range(1, self.paired + 1)
        participants = tuple(
            msgspec.structs.replace(p, entries=tuple(self.entry(no, r, pending) for r in rounds))
            for no, p in sorted(self.participants.items())
        )
        return Tournament(
            created.name,
            participants,
            created.rounds,
            created.system,
            Scoring(win=s.win, draw=s.draw, loss=s.loss, absent=s.absent, pab=s.pab),
            created.start_date,
            created.tiebreaks,
        )

    @property
    def edition(self) -> Edition | None:
        assert self.created is not None
        return Edition(self.created.edition) if self.created.edition else None

    def canonical(self, no: int) -> int:
        """Start number `no` as the registered participant's own int object (`no` itself if
        nobody has it). Events read back from a store bring a new int per mention: with one
        object per participant, every table keyed by start numbers matches by identity, not
        by comparing ints (a result at 10,000 players: 4 % of its time)."""
        p = self.participants.get(no)
        return no if p is None else p.start_no

    def make_canonical(self) -> None:
        """Every start number held as its participant's own object (`canonical`), as `apply` keeps
        them: for a state decoded from a snapshot, whose ints are new per mention."""
        canonical = self.canonical
        self.participants = {p.start_no: p for p in self.participants.values()}
        for played in self.rounds.values():
            for game in played.games.values():
                game.white, game.black = canonical(game.white), canonical(game.black)
            played.pab = None if played.pab is None else canonical(played.pab)
            played.team_pab = tuple(map(canonical, played.team_pab))
            played.more_pabs = tuple(map(canonical, played.more_pabs))
            played.__post_init__()  # the seats by the same objects
        self.byes = {
            rnd: {canonical(no): code for no, code in b.items()} for rnd, b in self.byes.items()
        }
        self.withdrawn = {canonical(no): rnd for no, rnd in self.withdrawn.items()}
        self.k = {canonical(no): k for no, k in self.k.items()}

    def fork(self) -> TournamentState:
        """A copy to fold a round event into while this state is still read: its own table
        of rounds, each round's own record (a close marks a copy closed); the games, the
        participants and the rest shared, as a pairing or a close leaves them."""
        twin = copy.copy(self)
        twin.rounds = {n: copy.copy(r) for n, r in self.rounds.items()}
        return twin

    def games_of(self, boards: Iterable[Board]) -> dict[int, Game]:
        """A pairing's `boards` as games, by board, with `canonical` start numbers."""
        canonical = self.canonical
        return {b.board: Game(b.board, canonical(b.white), canonical(b.black)) for b in boards}

    def apply(self, event: AnyEvent, seated: Seated | None = None) -> frozenset[int]:
        """Fold one event in; return the start numbers whose results or details changed.
        `seated`: a pairing's games by board and by player, made already (`games_of` and
        `seats`: a large field's, a piece at a time)."""
        self.seq += 1
        match event:
            case TournamentCreated():
                self.created = event
            case ParticipantRegistered():
                no = self.canonical(event.start_no)  # a registration replaced: the same key
                self.participants[no] = Participant(
                    no,
                    event.name,
                    event.rating,
                    event.title,
                    event.federation,
                    event.fide_id,
                    event.sex,
                    event.birth_date,
                )
                self.roster_seq = self.seq
                return frozenset({no})
            case TeamRegistered(number=number):
                self.teams[number] = event
            case ParticipantUpdated():
                no = self.canonical(event.start_no)
                changes = {
                    f: getattr(event, f) for f in _DETAILS if getattr(event, f) is not msgspec.UNSET
                }
                self.participants[no] = msgspec.structs.replace(self.participants[no], **changes)
                self.roster_seq = self.seq
                return frozenset({no})
            case ParticipantWithdrawn(from_round=rnd):
                self.withdrawn[self.canonical(event.start_no)] = rnd
            case ParticipantReinstated():
                self.withdrawn.pop(event.start_no, None)
            case FileSynced():
                self.synced = event
            case ByeRequested(round=rnd, points=points):
                no = self.canonical(event.start_no)
                self.byes.setdefault(rnd, {})[no] = BYE_CODES[points]
                return frozenset({no}) if rnd <= self.paired else frozenset()
            case RoundPaired(round=rnd):
                canonical = self.canonical
                bye = None if event.bye is None else canonical(event.bye)
                made = RoundState(
                    rnd,
                    self.games_of(event.boards) if seated is None else {},
                    bye,
                    tuple(map(canonical, event.team_bye)),
                    more_pabs=tuple(map(canonical, event.more_byes)),
                )
                if seated is not None:
                    made.games, made.seat = seated
                self.rounds[rnd] = made
                return frozenset(self.participants)
            case ColoursSwapped(round=rnd, board=board):
                game = self.rounds[rnd].games[board]
                game.white, game.black = game.black, game.white
                return frozenset({game.white, game.black})
            case ResultRecorded(round=rnd, board=board) | ResultCorrected(round=rnd, board=board):
                game = self.rounds[rnd].games[board]
                game.result = event.result
                return frozenset({game.white, game.black})
            case RoundClosed(round=rnd):
                self.rounds[rnd].closed = True
            case PlayoffDecided(order=order):
                self.playoffs.append(order)
            case LotsDrawn(seed=seed):
                self.lots_seed = seed
            case PublicDelaySet(seconds=seconds):
                self.public_delay = seconds
            case PrizesDefined():
                self.prizes = event
            case ParticipantKSet(k=k):
                no = self.canonical(event.start_no)
                if k is None:
                    self.k.pop(no, None)
                else:
                    self.k[no] = k
            case CategoriesDefined(categories=categories):
                self.categories = categories
                self.roster_seq = self.seq
        return frozenset()


def fold(events: list[AnyEvent]) -> TournamentState:
    state = TournamentState()
    for event in events:
        state.apply(event)
    return state
