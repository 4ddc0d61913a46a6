"""A finished tournament cut into the files a pairing program writes over the event: the
players only; then per round the pairing with blank results, about half the results, the
whole round. Two players of round 1's last board become late entrants (absent in round 1,
first seen in round 2's files); round 2's half file carries a wrong result that its whole
file corrects."""

from __future__ import annotations

from pathlib import Path

import msgspec

from livetb.engine.model import Code, Entry, Participant, Tournament
from livetb.interchange.trf_commands import round_boards
from livetb.trf import load_trf
from livetb.trf.writer import write_trf

SWISSES = sorted(Path("tests/data/conformance/individual-swiss").glob("*.trf"))
FLIP = {Code.WIN: Code.LOSS, Code.LOSS: Code.WIN, Code.DRAW: Code.WIN}


class Cut(msgspec.Struct, frozen=True):
    label: str
    text: str


def late_pair(t: Tournament) -> tuple[int, int]:
    boards, _ = round_boards(t, 1)
    last = boards[-1]
    return last.white, last.black


def finished(path: Path) -> Tournament:
    """The tournament with round 1's last board turned into two absences (the late pair)."""
    t = load_trf(path).tournament
    late = late_pair(t)
    people = tuple(
        msgspec.structs.replace(p, entries=(Entry(Code.ZERO_BYE), *p.entries[1:]))
        if p.start_no in late
        else p
        for p in t.participants
    )
    return msgspec.structs.replace(t, participants=people)


def cuts(path: Path) -> list[Cut]:
    t = finished(path)
    late = set(late_pair(load_trf(path).tournament))
    rounds = t.played_rounds
    files = [Cut("players", _file(t, 0, late, set()))]
    for rnd in range(1, rounds + 1):
        boards, _ = round_boards(t, rnd)
        half = {no for b in boards[: len(boards) // 2] for no in (b.white, b.black)}
        files.append(Cut(f"round {rnd} paired", _file(t, rnd, late, set())))
        wrong = {boards[0].white} if rnd == 2 else set()
        files.append(Cut(f"round {rnd} half", _file(t, rnd, late, half, wrong)))
        files.append(Cut(f"round {rnd} whole", _file(t, rnd, late, None)))
    return files


def _file(
    t: Tournament, rnd: int, late: set[int], shown: set[int] | None, wrong: set[int] = frozenset()
) -> str:
    """Rounds 1..rnd; round rnd's results only for `shown` (None: all); `wrong`'s game flipped."""
    people: list[Participant] = []
    opp_of = {p.start_no: p.entry(rnd).opponent for p in t.participants} if rnd else {}
    flipped = wrong | {opp_of[no] for no in wrong if opp_of.get(no)}
    for p in t.participants:
        if p.start_no in late and rnd < 2:
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
    return write_trf(msgspec.structs.replace(t, participants=tuple(people), tiebreaks=()))
