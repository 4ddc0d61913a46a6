"""Commands read from a pairing program's files: a round's pairings (`PairRound`, from a TRF
or the pairing engine's output) and a player list (`RegisterParticipants`). TRF problems are
reported with the file's own line and columns.
"""

from __future__ import annotations

import re
from decimal import Decimal

from livetb.engine.model import Code, Colour, Tournament
from livetb.errors import InvalidInput, Said, TrfError, TrfIssue
from livetb.events.commands import PairRound, RegisterParticipant, RegisterParticipants
from livetb.events.schema import Board
from livetb.interchange.engine_pairs import looks_like_engine_output, pairing_from_engine
from livetb.pairing.berger import MAX_PLAYERS, MIN_PLAYERS, berger
from livetb.projections.categories import birth_span
from livetb.trf import parse_trf

_LINE_END = re.compile(r"\r\n|\r|\n")
_BEFORE_POINTS = 80  # columns 81- of a 001 line are points, rank and round blocks


def pairing_from_text(data: bytes, rnd: int) -> PairRound:
    """A round posted as `text/plain`: the pairing engine's own output (a first line holding
    only the number of pairs, see `engine_pairs`), kept in its order; else a TRF."""
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:  # UTF-16 and other TRF encodings: the TRF reader decodes them
        return pairing_from_trf(data, rnd)
    if looks_like_engine_output(text):
        return pairing_from_engine(text, rnd)
    return pairing_from_trf(data, rnd)


def pairing_from_trf(data: bytes, rnd: int) -> PairRound:
    """Round `rnd` of a pairing program's TRF: its games as boards in publication order
    (`round_boards`; results, if any, are ignored) and its `U` as the PAB (several: the first
    as `bye`, the others as `more_byes`). Requested byes (H, F, Z) are not pairings: send them
    as byes. TRF errors are 422 with their line and columns."""
    imported = parse_trf(data, "pairings.trf", pending_round=rnd)
    boards, byes = round_boards(imported.tournament, rnd)
    return PairRound(round=rnd, boards=boards, bye=byes[0] if byes else None, more_byes=byes[1:])


def round_boards(tournament: Tournament, rnd: int) -> tuple[tuple[Board, ...], tuple[int, ...]]:
    """Round `rnd`'s boards, numbered as the pairings are published, and its pairing-allocated
    byes (not boards), by start number: one, as a rule; a file from merged sections has one
    `U` per section (the reader warns), and each is a PAB all the same.

    Each pair is one board. White is the side whose block says `w` (or whose opponent's says
    `b`); when the two blocks give one colour, or none, the lower start number (the reader
    gives a game not played yet White that way, with a warning).

    Swiss: FIDE's publication order (Handbook C.04, the pairing sorted before it is made
    public: the former C.04.1 F.1), boards by, in turn,
      1. the higher of the pair's two scores, descending;
      2. the sum of both scores, descending;
      3. the rank of the pair's higher player (higher score, else smaller start number): the
         smaller start number first.
    The scores are those before the round, summed from the file's rounds 1..rnd-1 under the
    file's scoring (the points column may already hold the round's results, or not).

    Round robin (a 092/192 record naming one): the Berger table's board order (C.05 Annex 1)
    when the round's pairs are the table's round `rnd` for this field, single or double cycle;
    the file's colours are kept. A round robin paired otherwise (another table, renumbered
    players) falls back to the Swiss order, which needs no table."""
    people = tournament.participants
    width = max((len(p.entries) for p in people), default=0)
    if rnd > width:
        raise InvalidInput(Said("input.trf_round", width=width, round=rnd), path="round")
    by_no = {p.start_no: p for p in people}
    pairs: list[tuple[int, int]] = []
    pabs: list[int] = []
    seated: set[int] = set()
    for p in people:
        e = p.entries[rnd - 1]
        if e.code is Code.PAB:
            pabs.append(p.start_no)
        elif e.opponent is not None and p.start_no not in seated:
            other = by_no.get(e.opponent)
            back = other.entry(rnd).colour if other is not None else None
            seated |= {p.start_no, e.opponent}
            pairs.append(_white_first(p.start_no, e.colour, e.opponent, back))
    table = berger_order(pairs, len(people), rnd) if tournament.system == "roundrobin" else None
    if table is None:
        table = publication_order(pairs, scores_before(tournament, rnd))
    boards = tuple(Board(board=i, white=w, black=b) for i, (w, b) in enumerate(table, start=1))
    return boards, tuple(sorted(pabs))


def _white_first(me: int, mine: Colour | None, them: int, theirs: Colour | None) -> tuple[int, int]:
    """(white, black) of a pair from the colours its two blocks give (see `round_boards`)."""
    if mine == theirs:  # one colour on both sides, or none
        return min(me, them), max(me, them)
    return (me, them) if mine == "w" or theirs == "b" else (them, me)


def scores_before(tournament: Tournament, rnd: int) -> dict[int, Decimal]:
    """Each participant's points after rounds 1..rnd-1, under the tournament's scoring."""
    scoring = tournament.scoring
    return {
        p.start_no: sum((scoring.points(e.code) for e in p.entries[: rnd - 1]), Decimal(0))
        for p in tournament.participants
    }


def publication_order(
    pairs: list[tuple[int, int]], scores: dict[int, Decimal]
) -> list[tuple[int, int]]:
    """(white, black) pairs sorted as C.04 publishes them (see `round_boards`)."""

    def key(pair: tuple[int, int]) -> tuple[Decimal, Decimal, int]:
        a, b = (scores.get(no, Decimal(0)) for no in pair)
        top = min(pair, key=lambda no: (-scores.get(no, Decimal(0)), no))
        return (-max(a, b), -(a + b), top)

    return sorted(pairs, key=key)


def berger_order(
    pairs: list[tuple[int, int]], players: int, rnd: int
) -> list[tuple[int, int]] | None:
    """The pairs in the Berger table's board order, or None if they are not its round `rnd`."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        return None
    by_set = {frozenset(pair): pair for pair in pairs}
    table = berger(players, double=True)  # its first cycle is the single round robin
    if rnd > len(table):
        return None
    ordered = [frozenset((b.white, b.black)) for b in table[rnd - 1].boards]
    if set(ordered) != set(by_set):
        return None
    return [by_set[seats] for seats in ordered]


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
        TrfIssue.of(
            n,
            (15, 47),
            Said("trf.where.player_name", no=raw[4:8].strip()),
            "",
            Said("trf.expected.name"),
        )
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
                sex="m" if p.sex == "m" else "w" if p.sex == "w" else "",
                # A birth date the registration cannot read (e.g. `120242`) is left out.
                birth_date=p.birth_date if birth_span(p.birth_date) else "",
            )
            for p in parsed.tournament.participants
        )
    )
