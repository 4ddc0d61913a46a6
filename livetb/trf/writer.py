"""TRF writer: a `Tournament` (and its teams) as a TRF-16 or TRF-2026 file (TRF.md 9).

Every `001` line is padded to `89 + 10·R` columns and every block written explicitly: a game as
opponent, colour and code; a bye or absence as `0000 - H|F|U|Z`; a game being played (the
running round) with a blank result, which `livetb.trf.reader` reads back as the running round.
Rounds after a withdrawal are `Z`, as the importer expects them.

What the header carries, per version:

| record | TRF-16 | TRF-2026 |
|--------|--------|----------|
| 012 name, 042 start date (YYYY/MM/DD), 062 players, 092 type | yes | yes |
| number of rounds | `XXR` (JaVaFo) | `142` |
| initial colour | `XXC white1/black1` | `152` |
| scoring grid | `162` when not 1/½/0 | `162` when not 1/½/0 |
| tie-break list | `212` | `212` |
| byes | the `001` blocks | the `001` blocks and `240` (individual events) |
| byes for rounds not yet paired | `240` | `240` |
| teams | `013` (numbered by order) | `310` (numbered) |

TRF-16 has no record for the tie-break list, a scoring grid or a bye requested for a later round:
`212`, `162` and `240` are written there too, since readers skip tags they do not know. What no
record holds is refused, never cut: numbers over 9999, points over 99.9 or with more than one
decimal, a name over 33 characters.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Literal

from livetb.engine.model import DEFAULT_SCORING, Code, Entry, Participant, Tournament
from livetb.engine.teams import Roster
from livetb.errors import ExportUnsupported, Num, Param, Said

Version = Literal["trf16", "trf26"]
_BYE_LETTERS = {Code.HALF_BYE: "H", Code.FULL_BYE: "F", Code.ZERO_BYE: "Z"}
_ONE_PLACE = Decimal("0.1")


def write_trf(
    t: Tournament,
    version: Version = "trf26",
    *,
    teams: Sequence[Roster] = (),
    ranks: Mapping[int, int] | None = None,
    announced: Sequence[tuple[int, int, Code]] = (),
) -> str:
    """The whole file, CRLF line ends (TRF.md 9.1). `ranks`: start number -> place (86-89);
    `announced`: byes requested for rounds not yet paired, (round, start number, H/F/Z)."""
    width = max((len(p.entries) for p in t.participants), default=0)
    lines = _header(t, version, width, bool(teams))
    lines += [_player(p, t, width, (ranks or {}).get(p.start_no)) for p in t.participants]
    if teams:
        lines += _teams_016(teams) if version == "trf16" else _teams_310(teams)
    if version == "trf26" and not teams:  # a team event's 240 lines name teams
        lines += _byes_240(t, width)
    if announced:  # TRF-16 has no record for them: 240 there too, as readers skip what they
        lines += _announced_240(announced)  # do not know
    return "".join(line.rstrip() + "\r\n" for line in lines)


def _header(t: Tournament, version: Version, width: int, is_team: bool) -> list[str]:
    kind = "Team" if is_team else "Individual"
    system = "Round-Robin" if t.system == "roundrobin" else "Swiss-System"
    lines = [f"012 {t.name}"]
    if t.start_date is not None:
        lines.append(f"042 {_date(t.start_date)}")
    lines += [f"062 {len(t.participants)}", f"092 {kind}: {system}"]
    rounds = max(t.rounds, width)
    if version == "trf26":
        lines.append(f"142 {rounds}")
        if t.initial_colour is not None:
            lines.append(f"152 {t.initial_colour.upper()}")
    else:
        lines.append(f"XXR {rounds}")
        if t.initial_colour is not None:
            lines.append(f"XXC {'white1' if t.initial_colour == 'w' else 'black1'}")
    if t.scoring != DEFAULT_SCORING:
        lines.append(_scoring_162(t))
    if t.tiebreaks:
        lines.append("212 " + ",".join(t.tiebreaks))
    return lines


def _date(day: dt.date) -> str:
    return f"{day.year:04}/{day.month:02}/{day.day:02}"


def _scoring_162(t: Tournament) -> str:
    s = t.scoring
    cells = [("W", s.win), ("D", s.draw), ("L", s.loss), ("A", s.absent)]
    if s.pab is not None:
        cells.append(("P", s.pab))
    if s.unknown is not None:
        cells.append(("X", s.unknown))
    return "162 " + "".join(f" {code}{_points(v, 'score', code=code):>4}   " for code, v in cells)


# A field's place is worded (`export.at.<where>`) only when it does not fit: not per field.
def _points(v: Decimal, where: str, **at: Param) -> str:
    if v != v.quantize(_ONE_PLACE) or not Decimal("-9.9") <= v <= Decimal("99.9"):
        raise ExportUnsupported.of(
            "export.points", where=Said(f"export.at.{where}", **at), value=Num(v)
        )
    return f"{v:.1f}"


def _fits(value: int | str, width: int, where: str, **at: Param) -> str:
    text = str(value)
    if len(text) > width:
        raise ExportUnsupported.of(
            "export.too_long", where=Said(f"export.at.{where}", **at), text=repr(text), width=width
        )
    return text


def _player(p: Participant, t: Tournament, width: int, rank: int | None) -> str:
    no = p.start_no
    points = sum(
        (t.scoring.points(e.code) for e in p.entries if e.code is not Code.PENDING), Decimal(0)
    )
    fields = (
        "001 "
        + f"{_fits(no, 4, 'player', no=no):>4} "
        + f"{p.sex[:1]:1}"
        + f"{_fits(p.title, 3, 'title', no=no):>3} "
        + f"{_fits(p.name, 33, 'name', no=no):<33} "
        + f"{_fits(p.rating or '', 4, 'rating', no=no):>4} "
        + f"{_fits(p.federation, 3, 'federation', no=no):<3} "
        + f"{_fits(p.fide_id, 11, 'fide_id', no=no):>11} "
        + f"{_fits(p.birth_date, 10, 'birth_date', no=no):<10} "
        + f"{_points(points, 'points', no=no):>4} "
        + f"{'' if rank is None else _fits(rank, 4, 'rank', no=no):>4}"
    )
    blocks = "".join("  " + _block(p.entry(r), no) for r in range(1, width + 1))
    return fields + blocks


def _block(e: Entry, no: int) -> str:
    if e.opponent is None:
        letter = "U" if e.code is Code.PAB else _BYE_LETTERS.get(e.code)
        if letter is None:
            raise ExportUnsupported.of("export.no_opponent", no=no, code=repr(e.code.value))
        return f"0000 - {letter}"
    result = " " if e.code is Code.PENDING else e.code.value
    colour = e.colour or "-"
    return f"{_fits(e.opponent, 4, 'opponent', no=no):>4} {colour} {result}"


def _teams_016(teams: Sequence[Roster]) -> list[str]:
    """TRF-16 numbers teams by the order of their `013` lines: numbers must be 1..n."""
    ordered = sorted(teams, key=lambda r: r.number)
    if [r.number for r in ordered] != list(range(1, len(ordered) + 1)):
        numbers = ", ".join(str(r.number) for r in ordered)
        raise ExportUnsupported.of("export.team_numbers", numbers=numbers)
    return [
        f"013 {_fits(r.name, 32, 'team_name', number=r.number):<32}"
        + " ".join(f"{no:>4}" for no in r.members)
        for r in ordered
    ]


def _teams_310(teams: Sequence[Roster]) -> list[str]:
    return [
        f"310 {_fits(r.number, 3, 'team_number'):>3} "
        + f"{_fits(r.name, 32, 'team_name', number=r.number):<32}"
        + " " * 33
        + " ".join(f"{no:>4}" for no in r.members)
        for r in sorted(teams, key=lambda r: r.number)
    ]


def _byes_240(t: Tournament, width: int) -> list[str]:
    """TRF-2026 repeats the requested full- and half-point byes on `240` lines (TRF.md 6.6);
    zero-point byes stay in the `001` blocks only, where absences and withdrawals are too."""
    lines = []
    for rnd in range(1, width + 1):
        for code in (Code.FULL_BYE, Code.HALF_BYE):
            nos = [p.start_no for p in t.participants if p.entry(rnd).code is code]
            if nos:
                cells = " ".join(f"{no:>4}" for no in nos)
                lines.append(f"240 {_BYE_LETTERS[code]} {rnd:>3} {cells}")
    return lines


def _announced_240(announced: Sequence[tuple[int, int, Code]]) -> list[str]:
    """Byes for rounds after the file's last (TRF.md 4.8): one 240 line per round and kind."""
    by_key: dict[tuple[int, str], list[int]] = {}
    for rnd, no, code in sorted(announced):
        by_key.setdefault((rnd, _BYE_LETTERS[code]), []).append(no)
    return [
        f"240 {letter} {rnd:>3} " + " ".join(f"{no:>4}" for no in nos)
        for (rnd, letter), nos in sorted(by_key.items())
    ]
