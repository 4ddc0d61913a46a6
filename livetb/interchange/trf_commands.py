"""Commands read from a pairing program's TRF: a round's pairings (`PairRound`) and a player
list (`RegisterParticipants`). TRF problems are reported with the file's own line and columns.
"""

from __future__ import annotations

import re

from livetb.engine.model import Code
from livetb.errors import InvalidInput, TrfError, TrfIssue
from livetb.events.commands import PairRound, RegisterParticipant, RegisterParticipants
from livetb.events.schema import Board
from livetb.trf import parse_trf

_LINE_END = re.compile(r"\r\n|\r|\n")
_BEFORE_POINTS = 80  # columns 81- of a 001 line are points, rank and round blocks


def pairing_from_trf(data: bytes, rnd: int) -> PairRound:
    """Round `rnd` of a pairing program's TRF: its games as boards (numbered in the order of
    the white players' start numbers; results, if any, are ignored) and its `U` as the PAB.
    Requested byes (H, F, Z) are not pairings: send them as byes. TRF errors are 422 with
    their line and columns."""
    imported = parse_trf(data, "pairings.trf", pending_round=rnd)
    people = imported.tournament.participants
    width = max((len(p.entries) for p in people), default=0)
    if rnd > width:
        raise InvalidInput(
            f"the TRF has round blocks 1..{width}: none for round {rnd}", path="round"
        )
    whites: list[tuple[int, int]] = []
    pabs: list[int] = []
    for p in people:
        e = p.entries[rnd - 1]
        if e.code is Code.PAB:
            pabs.append(p.start_no)
        elif e.opponent is not None and (
            e.colour == "w" or (e.colour is None and p.start_no < e.opponent)
        ):
            whites.append((p.start_no, e.opponent))
    if len(pabs) > 1:
        raise InvalidInput(f"round {rnd}: more than one pairing-allocated bye (U): {pabs}")
    boards = tuple(
        Board(board=i, white=w, black=b) for i, (w, b) in enumerate(sorted(whites), start=1)
    )
    return PairRound(round=rnd, boards=boards, bye=pabs[0] if pabs else None)


def participants_from_trf(data: bytes, source: str = "players.trf") -> RegisterParticipants:
    """The 001 lines of a TRF as one batch registration: start number, name, rating, title,
    federation and FIDE id. Other records, points, ranks and round blocks are ignored; every
    issue is reported with the file's own line and columns (422 `trf_invalid`)."""
    text = data.decode("utf-8", errors="surrogateescape").removeprefix("\ufeff")
    lines = _LINE_END.split(text)
    # Blank lines keep every 001 line at its own number (the parser skips blanks), and the
    # cut at column 80 leaves points and rounds out: a list checks no results.
    kept = [raw[:_BEFORE_POINTS] if raw.startswith("001") else "" for raw in lines]
    # The parser takes a blank name; a registration needs one: reported with the parser's own.
    nameless = [
        TrfIssue(n, (15, 47), f"001 #{raw[4:8].strip()}, name", "", "the player's name")
        for n, raw in enumerate(kept, start=1)
        if raw and not raw[14:47].strip()
    ]
    try:
        parsed = parse_trf("\n".join(kept).encode(errors="surrogateescape"), source)
    except TrfError as err:
        issues = sorted([*err.issues, *nameless], key=lambda i: (i.line, i.columns or (0, 0)))
        raise TrfError(source, issues) from None
    if nameless:
        raise TrfError(source, nameless)
    return RegisterParticipants(
        participants=tuple(
            RegisterParticipant(
                start_no=p.start_no,
                name=p.name,
                rating=p.rating,
                title=p.title,
                federation=p.federation,
                fide_id=p.fide_id,
            )
            for p in parsed.tournament.participants
        )
    )
