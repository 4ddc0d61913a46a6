"""A round read from a pairing program's file is numbered as the program publishes it: a TRF in
FIDE's order for Swiss pairings (higher score, sum of scores, the higher player's rank), a round
robin by its Berger table, the pairing engine's own output in the order it lists the boards."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from livetb.errors import InvalidInput, TrfError
from livetb.events.schema import Board
from livetb.interchange.engine_pairs import looks_like_engine_output, pairing_from_engine
from livetb.interchange.trf_commands import (
    pairing_from_text,
    pairing_from_trf,
    publication_order,
    scores_before,
)
from livetb.trf import parse_trf

DATA = Path(__file__).parents[1] / "data" / "conformance"
SWISS = DATA / "individual-swiss" / "swiss-1003.trf"  # 30 players, 9 rounds
ROBIN = DATA / "individual-rr" / "rr-1101.trf"  # 6 players, Berger tables
BLOCKS = 91  # a 001 line's round blocks: opponent at 92-95, colour 97, result 99; ten columns


def paired(path: Path, rnd: int) -> bytes:
    """The file as the pairing program writes it once round `rnd` is paired: rounds after it
    cut, the round's games with a blank result (byes and absences kept)."""
    out = []
    for line in path.read_text().splitlines():
        if line.startswith("001"):
            head, rest = line[:BLOCKS], line[BLOCKS:]
            blocks = [rest[i : i + 10] for i in range(0, 10 * rnd, 10)]
            if blocks[-1][:4].strip() != "0000":
                blocks[-1] = blocks[-1][:7] + " " + blocks[-1][8:]
            line = head + "".join(blocks)
        out.append(line)
    return ("\n".join(out) + "\n").encode()


def file_pairs(path: Path, rnd: int) -> set[tuple[int, int]]:
    """(white, black) of every game of round `rnd`, straight from the finished file."""
    t = parse_trf(path.read_bytes()).tournament
    return {
        (p.start_no, e.opponent)
        for p in t.participants
        if (e := p.entries[rnd - 1]).opponent is not None and e.colour == "w"
    }


def test_a_swiss_round_is_numbered_in_fides_publication_order() -> None:
    pairing = pairing_from_trf(paired(SWISS, 5), 5)
    boards = [(b.white, b.black) for b in pairing.boards]
    assert [b.board for b in pairing.boards] == list(range(1, 14))
    assert set(boards) == file_pairs(SWISS, 5) and len(boards) == 13
    assert pairing.bye == 13  # the file's `0000 - U`: not a board
    # Scores before round 5, summed by hand from the file's rounds 1-4: 12 (1 = 1 1) and 2
    # (1 1 = 1) have 3.5 each; 7 (= = 1 1) has 3, its opponent 3 (1 = = =) 2.5; then three
    # pairs of 2.5 + 2.5, whose higher players are 9, 10 (opponent of 15) and 11.
    assert boards[:5] == [(12, 2), (3, 7), (9, 14), (15, 10), (11, 16)]
    # Numbered by White's start number, 12-2 was board 7 and 15-10 board 8.
    assert sorted(boards).index((12, 2)) == 6 and sorted(boards).index((15, 10)) == 7
    # The bottom: 30 (= 1 0 0) and 20 (0 1 0 0) is 1.5 + 1, below 17 (0 1 0 0) - 22 (= 0 = =),
    # 1 + 1.5, on the third criterion (22 before 30); 24 - 29 is 1 + 1, the last board.
    assert boards[10:] == [(17, 22), (30, 20), (24, 29)]


def test_the_scores_are_the_files_own_earlier_rounds() -> None:
    t = parse_trf(paired(SWISS, 5), pending_round=5).tournament
    scores = scores_before(t, 5)
    assert scores[12] == scores[2] == Decimal("3.5")
    assert scores[25] == Decimal("1.5")  # 0 1 H 0: the half-point bye counts
    assert scores[13] == Decimal("0.5")  # 0 = 0 0; the PAB of round 5 does not count yet
    assert scores[4] == Decimal("1.5")  # = 1, then absent (Z): zero


def test_the_rule_itself_on_the_issues_shape() -> None:
    """Rizzo (17) - Bianchi (2), the only pair on the top score, is board 1 whatever White's
    start number; equal pairs follow the better rank of their higher player."""
    scores = {no: Decimal(0) for no in range(1, 19)}
    scores.update({17: Decimal(2), 2: Decimal(2), 1: Decimal("1.5"), 6: Decimal("1.5")})
    scores.update({3: Decimal(1), 9: Decimal("1.5")})
    pairs = [(1, 6), (3, 9), (5, 4), (17, 2), (8, 7)]
    assert publication_order(pairs, scores) == [(17, 2), (1, 6), (3, 9), (5, 4), (8, 7)]
    # 3-9 (max 1.5, sum 2.5) goes below 1-6 (1.5, 3); 5-4 before 8-7: higher player 4 < 7.


def test_a_round_robin_keeps_the_berger_tables_order() -> None:
    pairing = pairing_from_trf(paired(ROBIN, 2), 2)
    # C.05 Annex 1, 6 players, round 2: 6-4, 5-3, 1-2. By scores 1-2 (1 + 1 after round 1)
    # would be board 1.
    assert [(b.white, b.black) for b in pairing.boards] == [(6, 4), (5, 3), (1, 2)]
    assert pairing.bye is None
    first = pairing_from_trf(paired(ROBIN, 1), 1)  # the table's round 1: 1-6, 2-5, 3-4
    assert [(b.white, b.black) for b in first.boards] == [(1, 6), (2, 5), (3, 4)]


def test_a_round_robin_not_from_the_table_falls_back_to_the_swiss_order() -> None:
    # Round 1 paired 5-1, 2-6, 4-3 (the table has 1-6, 2-5, 3-4): all on 0 points, so the
    # boards follow the smaller start number of each pair, White's colour as the file says.
    games = {1: (5, "b"), 5: (1, "w"), 2: (6, "w"), 6: (2, "b"), 3: (4, "b"), 4: (3, "w")}
    lines = [
        line[:BLOCKS] + f"{games[int(line[4:8])][0]:4d} {games[int(line[4:8])][1]}  "
        if line.startswith("001")
        else line
        for line in paired(ROBIN, 1).decode().splitlines()
    ]
    pairing = pairing_from_trf("\n".join(lines).encode(), 1)
    assert [(b.white, b.black) for b in pairing.boards] == [(5, 1), (2, 6), (4, 3)]


ENGINE = "4\n12 2\n3 7\n9 14\n13 0\n"


def test_the_engines_output_keeps_its_order_and_its_bye() -> None:
    pairing = pairing_from_engine(ENGINE, 5)
    assert pairing.boards == (
        Board(board=1, white=12, black=2),
        Board(board=2, white=3, black=7),
        Board(board=3, white=9, black=14),
    )
    assert pairing.bye == 13 and pairing.round == 5
    # The same text through the text/plain entry point, with Windows line ends and a BOM.
    crlf = ("\ufeff" + ENGINE.replace("\n", "\r\n")).encode()
    assert pairing_from_text(crlf, 5) == pairing
    # Ordered as listed, not sorted: the engine's order is the published one.
    assert [b.white for b in pairing_from_engine("2\n30 1\n2 29\n", 1).boards] == [30, 2]


def test_a_trf_is_not_taken_for_the_engines_output() -> None:
    assert not looks_like_engine_output(paired(SWISS, 5).decode())
    assert looks_like_engine_output("\n 3 \n1 2\n")
    assert pairing_from_text(paired(SWISS, 5), 5) == pairing_from_trf(paired(SWISS, 5), 5)


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ("3\n12 2\n3 x7\n9 0\n", "line 3", "'3 x7'"),
        ("3\n12 2\n\n3 7 1\n9 0\n", "line 4", "'3 7 1'"),
        ("3\n12 2\n0 9\n3 7\n", "line 3", "a bye is written `N 0`"),
        ("2\n12 2\n2 7\n", "line 3", "player 2 is already seated on line 2"),
        ("2\n4 4\n3 7\n", "line 2", "two different players"),
        ("3\n12 2\n3 7\n", "line 1", "announces 3 pairs; the file lists 2"),
        ("3\n12 0\n3 7\n9 0\n", "line 4", "more than one bye"),
    ],
)
def test_a_malformed_engine_file_names_its_line(text: str, where: str, what: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        pairing_from_engine(text, 1)
    assert caught.value.path == where and what in str(caught.value)
    assert f"{where}: " in str(caught.value)


def test_a_round_the_file_has_not_paired_is_refused() -> None:
    with pytest.raises(InvalidInput, match=r"round blocks 1\.\.9: none for round 10"):
        pairing_from_trf(SWISS.read_bytes(), 10)
    with pytest.raises(TrfError):
        pairing_from_text(b"012 x\n001 garbage\n", 1)
