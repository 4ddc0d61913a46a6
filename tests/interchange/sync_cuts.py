"""A finished tournament cut into the files a pairing program writes over the event: the
players only; then per round the pairing with blank results, about half the results (the
first half of the boards in publication order), the whole round.

Late entrants. In a Swiss, a participant whose first rounds are absences (`Z`, then maybe
half-point byes `H`) registered late: the files show them from the round they first play or
get a PAB in, with those `Z` and `H` for the rounds before, as a pairing program writes a late
registration. One absent throughout is shown from the start; so is one whose first round is
a half-point bye (requested when registering). Besides, the two players of round 1's last
board who both play (or get the PAB) in round 2 become late entrants, absent in round 1 and
first seen in round 2's files, where there is such a board: a Swiss of two rounds or more,
two boards or more in round 1. A round robin has no late entrants (a leading `Z` is a rest).

One wrong result: round 2's half file (round 1's in a one-round event; else the first round
that has one) shows the first board of its shown half with a game result (1-0, 0-1, =)
entered otherwise; the round's whole file corrects it.

Every file keeps the source's own header lines as they are (name, dates, `XXR`/`142` if
the source declares a round count, else none: a file that declares none stays without one),
before and after the `001` lines as in the source; the `001` lines are written anew.
`undeclared` drops the round count (`XXR`, `142`), for a file as JaVaFo or Vega may write
it without one. A source holding rounds not played yet (byes entered ahead) is cut up to
its last paired round."""

from __future__ import annotations

from pathlib import Path

import msgspec

from livetb.engine.model import Code, Entry, Participant, Tournament
from livetb.interchange.trf_commands import round_boards
from livetb.trf import load_trf
from livetb.trf.writer import write_trf

SWISSES = sorted(Path("tests/data/conformance/individual-swiss").glob("*.trf"))
# the real events, team events left out (sync follows individual tournaments only)
REAL = sorted(p for p in Path("tests/data/real").glob("*.trf") if not load_trf(p).is_team)
FLIP = {Code.WIN: Code.LOSS, Code.LOSS: Code.WIN, Code.DRAW: Code.WIN}
GAME_RESULTS = {(Code.WIN, Code.LOSS), (Code.LOSS, Code.WIN), (Code.DRAW, Code.DRAW)}
ROUND_COUNT = ("XXR", "142")
MISSED = {Code.ZERO_BYE, Code.HALF_BYE}  # a late entrant's rounds before they entered


class Cut(msgspec.Struct, frozen=True):
    label: str
    text: str


class Event(msgspec.Struct, frozen=True):
    """An event's files in order, its round count, whether the files declare it, the round
    with the wrong result (None: no board had one to get wrong), and its late entrants (start
    number -> the round whose files first show them)."""

    cuts: list[Cut]
    rounds: int
    declared: bool
    wrong_round: int | None
    late: dict[int, int]


def late_pair(t: Tournament) -> tuple[int, int]:
    """The late pair of an event that has one (every conformance Swiss has)."""
    pair = late_board(t)
    assert pair is not None, t.name
    return pair


def late_board(t: Tournament) -> tuple[int, int] | None:
    """Round 1's last board whose two players both play or get the PAB in round 2 (see the
    module's docstring); None where the event has no such board."""
    if t.system == "roundrobin" or t.played_rounds < 2:
        return None
    boards, _ = round_boards(t, 1)
    if len(boards) < 2:
        return None
    by_no = {p.start_no: p for p in t.participants}
    for b in reversed(boards):
        if all(by_no[no].entry(2).code not in MISSED for no in (b.white, b.black)):
            return b.white, b.black
    return None


def finished(path: Path) -> Tournament:
    """The tournament with round 1's late pair (if any) turned into two absences."""
    t = load_trf(path).tournament
    late = late_board(t)
    played = t.played_rounds
    people = tuple(
        msgspec.structs.replace(
            p,
            entries=(
                (Entry(Code.ZERO_BYE), *p.entries[1:played])
                if late and p.start_no in late
                else p.entries[:played]
            ),
        )
        for p in t.participants
    )
    return msgspec.structs.replace(t, participants=people)


def entered(t: Tournament) -> dict[int, int]:
    """Start number -> the first round whose files show the participant (see the module's
    docstring)."""
    first: dict[int, int] = {}
    for p in t.participants:
        rnd = 1
        if t.system != "roundrobin" and p.entry(1).code is Code.ZERO_BYE:
            rnd = next((r for r, e in enumerate(p.entries, 1) if e.code not in MISSED), 1)
        first[p.start_no] = rnd
    return first


def wrong_game(t: Tournament) -> tuple[int, int] | None:
    """(round, white) of the game entered wrongly in its round's half file, if any."""
    by_no = {p.start_no: p for p in t.participants}
    played = t.played_rounds
    for rnd in (r for r in (2, 1, *range(3, played + 1)) if r <= played):
        boards, _ = round_boards(t, rnd)
        for b in boards[: len(boards) // 2]:
            codes = (by_no[b.white].entry(rnd).code, by_no[b.black].entry(rnd).code)
            if codes in GAME_RESULTS:
                return rnd, b.white
    return None


def event(path: Path, *, undeclared: bool = False) -> Event:
    """The files of `path`'s event in order (see the module's docstring)."""
    source = load_trf(path)
    t = finished(path)
    first = entered(t)
    wrong = wrong_game(t)
    head, tail = _header(path, undeclared)
    files = [Cut("players", _file(head, tail, t, 0, first, set()))]
    for rnd in range(1, t.played_rounds + 1):
        boards, _ = round_boards(t, rnd)
        half = {no for b in boards[: len(boards) // 2] for no in (b.white, b.black)}
        mistaken = {wrong[1]} if wrong is not None and wrong[0] == rnd else set()
        files.append(Cut(f"round {rnd} paired", _file(head, tail, t, rnd, first, set())))
        files.append(Cut(f"round {rnd} half", _file(head, tail, t, rnd, first, half, mistaken)))
        files.append(Cut(f"round {rnd} whole", _file(head, tail, t, rnd, first, None)))
    declared = source.declared_rounds is not None and not undeclared
    late = {no: rnd for no, rnd in first.items() if rnd > 1}
    return Event(files, t.rounds, declared, None if wrong is None else wrong[0], late)


def cuts(path: Path, *, undeclared: bool = False) -> list[Cut]:
    return event(path, undeclared=undeclared).cuts


def _header(path: Path, undeclared: bool) -> tuple[list[str], list[str]]:
    """The source's lines other than `001`: those before its first `001` line, and after."""
    head: list[str] = []
    tail: list[str] = []
    players = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("001"):
            players = True
        elif line.strip() and not (undeclared and line[:3] in ROUND_COUNT):
            (tail if players else head).append(line)
    return head, tail


def _file(
    head: list[str],
    tail: list[str],
    t: Tournament,
    rnd: int,
    first: dict[int, int],
    shown: set[int] | None,
    wrong: set[int] = frozenset(),  # type: ignore[assignment]
) -> str:
    """Rounds 1..rnd; round rnd's results only for `shown` (None: all); `wrong`'s game
    flipped; the participants entered by round rnd only."""
    people: list[Participant] = []
    opp_of = {p.start_no: p.entry(rnd).opponent for p in t.participants} if rnd else {}
    flipped = wrong | {opp_of[no] for no in wrong if opp_of.get(no)}
    for p in t.participants:
        if first[p.start_no] > max(rnd, 1):
            continue
        entries = list(p.entries[:rnd])
        if rnd:
            e = entries[-1]
            if e.opponent is not None and shown is not None and p.start_no not in shown:
                entries[-1] = Entry(Code.PENDING, e.opponent, e.colour)
            elif p.start_no in flipped and e.code in FLIP:
                code = FLIP[e.code]
                if e.code is Code.DRAW and p.start_no not in wrong:
                    code = Code.LOSS
                entries[-1] = Entry(code, e.opponent, e.colour)
        people.append(msgspec.structs.replace(p, entries=tuple(entries)))
    written = write_trf(
        msgspec.structs.replace(t, participants=tuple(people), tiebreaks=()), "trf16"
    )
    players = [line for line in written.splitlines() if line.startswith("001")]
    return "".join(line + "\r\n" for line in [*head, *players, *tail])
