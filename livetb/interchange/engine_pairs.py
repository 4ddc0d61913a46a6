"""A round as a pairing engine writes it (JaVaFo's and bbpPairings' output file).

    3          the number of pairs (a bye line counts as one)
    12 5       white, black: one line per board, in board order
    7 1
    9 0        a start number against 0: the pairing-allocated bye

The boards keep the file's order: the engine (or the arbiter's program behind it) has already
put them in the order it publishes. Blank lines are skipped; every problem is reported with its
line, and nothing is read from a file that has one.
"""

from __future__ import annotations

import re

from livetb.errors import InvalidInput, Said
from livetb.events.commands import PairRound
from livetb.events.schema import Board

_LINE_END = re.compile(r"\r\n|\r|\n")
_COUNT = re.compile(r"\s*(\d+)\s*")
_PAIR = re.compile(r"\s*(\d+)\s+(\d+)\s*")


def looks_like_engine_output(text: str) -> bool:
    """The engine's file opens with a lone number; a TRF line opens with a record code and a
    field (`012 Name`, `001    1 ...`), so the first line tells them apart."""
    for raw in _LINE_END.split(text):
        if raw.strip():
            return _COUNT.fullmatch(raw) is not None
    return False


def pairing_from_engine(text: str, rnd: int) -> PairRound:
    """Round `rnd` from the engine's output: boards numbered 1.. in the file's order, `N 0` as
    the pairing-allocated bye. 422 (`invalid_input`, path `line N`) listing every bad line."""
    lines = [(n, raw) for n, raw in enumerate(_LINE_END.split(text), start=1) if raw.strip()]
    if not lines:
        raise InvalidInput(Said("input.engine.empty"), path="line 1")
    problems: list[tuple[int, Said]] = []
    first, head = lines[0]
    count = _COUNT.fullmatch(head)
    boards: list[Board] = []
    byes: list[int] = []
    seen: dict[int, int] = {}  # start number -> the line that seats it
    for n, raw in lines[1:]:
        pair = _PAIR.fullmatch(raw)
        if pair is None:
            problems.append((n, Said("input.engine.not_a_pair", found=repr(raw.strip()))))
            continue
        white, black = int(pair.group(1)), int(pair.group(2))
        if white == 0 or white == black:
            why = "input.engine.bye_form" if white == 0 else "input.engine.same_player"
            problems.append((n, Said(why, found=repr(raw.strip()))))
            continue
        for no in (white, black) if black else (white,):
            if no in seen:
                problems.append((n, Said("input.engine.seated", no=no, line=seen[no])))
            else:
                seen[no] = n
        if black == 0:
            byes.append(white)
        else:
            boards.append(Board(board=len(boards) + 1, white=white, black=black))
    if count is None:
        problems.insert(0, (first, Said("input.engine.no_count", found=repr(head.strip()))))
    elif int(count.group(1)) != len(lines) - 1:
        said = Said("input.engine.count", announced=count.group(1), listed=len(lines) - 1)
        problems.insert(0, (first, said))
    if len(byes) > 1:
        problems.append((lines[-1][0], Said("input.engine.byes", players=str(byes))))
    if problems:
        listed = tuple(Said("input.engine.line", line=n, problem=p) for n, p in problems)
        said = Said("input.engine.output", problems=listed)
        raise InvalidInput(said, path=f"line {problems[0][0]}")
    return PairRound(round=rnd, boards=tuple(boards), bye=byes[0] if byes else None)
