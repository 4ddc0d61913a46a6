"""The TRF importer: the worked example of TRF.md 11, the conformance corpus, malformed files."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

import pytest

from livetb.engine.model import NOT_PAIRED, Code, Entry, Scoring
from livetb.errors import TrfError
from livetb.trf import TeamRecord, TrfImport, load_trf, parse_trf

CORPUS = Path(__file__).parent.parent / "data" / "conformance"

# TRF.md 11: a 4-player, 3-round Swiss with a forfeit, a half-point bye and a PAB.
HEADER = [
    "012 Example Spring Rapid",
    "022 Sampleton",
    "032 NOR",
    "042 2025/03/01",
    "052 2025/03/02",
    "062 4",
    "072 4",
    "092 Individual: Swiss-System",
    "102 Jane Arbiter",
    "122 15 min + 10 s per move",
    "132" + " " * 85 + "25/03/01  25/03/01  25/03/02",
]
TRF26_HEADER = ["142 3", "152 W", "192 FIDE_DUTCH_2025", "212 PTS,BH/C1,SB"]
P1 = (
    "001    1 m FM Alder, Adam                       2250 NOR    99000011 1990/04/12  1.5    3"
    "     3 w 1     2 b =     4 w 0"
)
P2 = (
    "001    2 w    Birch, Berit                      2180 SWE    99000022 1985/11/30  2.0    2"
    "     4 b =     1 w =     3 b +"
)
P3 = (
    "001    3 m    Cedar, Carl                       2105 NOR    99000033 2001/07/01  0.5    4"
    "     1 b 0  0000 - H     2 w -"
)
P4 = (
    "001    4 w    Dogwood, Dina                     1990 DEN    99000044 1999/02/28  2.5    1"
    "     2 w =  0000 - U     1 b 1"
)
BYE_240 = "240 H   2    3"

TRF16 = "\r\n".join([*HEADER, P1, P2, P3, P4]) + "\r\n"
# lines 1-11 header, 12-15 the 142/152/192/212 lines, 16-19 players 1-4, 20 the 240 line
TRF26 = "\r\n".join([*HEADER, *TRF26_HEADER, P1, P2, P3, P4, BYE_240]) + "\r\n"


def edit(text: str, *changes: tuple[str, str], extra: tuple[str, ...] = ()) -> str:
    """`text` with each (old, new) replaced exactly once, and `extra` lines appended."""
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text + "".join(f"{line}\r\n" for line in extra)


def player(no: int, points: str, *blocks: str) -> str:
    """A 001 line with blank optional fields; each block like '3 w 1' or '0000 - U'."""
    fixed = f"001 {no:>4} m    {f'Player {no}':<33} 2000 NOR {'':>11} {'':>10} {points:>4} {'':>4}"
    return fixed + "".join(f"  {block:>8}" for block in blocks)


def team_013(name: str, *members: int) -> str:
    return f"013 {name:<32}" + " ".join(f"{m:>4}" for m in members)


def team_310(no: int, name: str, *members: int) -> str:
    fixed = f"310 {no:>3} {name:<32} {'':<5} {'':>6} {'':>6} {'':>6} {'':>3}  "
    return fixed + " ".join(f"{m:>4}" for m in members)


def scores(result: TrfImport) -> list[Decimal]:
    t = result.tournament
    return [sum((t.scoring.points(e.code) for e in p.entries), Decimal(0)) for p in t.participants]


# --- the worked example -----------------------------------------------------------------------


def test_worked_example_trf16() -> None:
    result = parse_trf(TRF16.encode())
    t = result.tournament
    assert result.warnings == ()
    assert (t.name, t.rounds, t.system, t.start_date) == (
        "Example Spring Rapid",
        3,
        "swiss",
        dt.date(2025, 3, 1),
    )
    assert (t.tiebreaks, t.initial_colour, t.scoring) == ((), None, Scoring())
    assert (result.is_team, result.teams, result.raw_system) == (
        False,
        (),
        "Individual: Swiss-System",
    )
    assert [p.start_no for p in t.participants] == [1, 2, 3, 4]
    alder = t.participants[0]
    assert (alder.name, alder.rating, alder.title, alder.federation, alder.sex) == (
        "Alder, Adam",
        2250,
        "FM",
        "NOR",
        "m",
    )
    assert (alder.fide_id, alder.birth_date, alder.declared_rank) == ("99000011", "1990/04/12", 3)
    assert t.participants[2].entries == (
        Entry(Code.LOSS, 1, "b"),
        Entry(Code.HALF_BYE),
        Entry(Code.FORFEIT_LOSS, 2, "w"),
    )
    assert t.participants[3].entries == (
        Entry(Code.DRAW, 2, "w"),
        Entry(Code.PAB),
        Entry(Code.WIN, 1, "b"),
    )
    assert t.participants[1].entries[2] == Entry(Code.FORFEIT_WIN, 3, "b")
    assert scores(result) == [Decimal("1.5"), Decimal("2.0"), Decimal("0.5"), Decimal("2.5")]
    assert [p.declared_points for p in t.participants] == scores(result)
    assert t.played_rounds == 3


def test_worked_example_trf2026() -> None:
    result = parse_trf(TRF26)
    t = result.tournament
    assert result.warnings == ()
    assert t.tiebreaks == ("PTS", "BH/C1", "SB")
    assert (t.rounds, t.initial_colour, result.raw_system) == (3, "w", "FIDE_DUTCH_2025")
    assert scores(result) == [Decimal("1.5"), Decimal("2.0"), Decimal("0.5"), Decimal("2.5")]
    assert t.participants == parse_trf(TRF16).tournament.participants


# --- the conformance corpus -------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*/*.trf")), ids=lambda p: p.stem)
def test_conformance_file_parses(path: Path) -> None:
    expected = json.loads(path.with_name(f"{path.stem}.expected.json").read_text())
    lines = path.read_text().splitlines()
    result = load_trf(path)
    t = result.tournament
    assert len(t.participants) == sum(line.startswith("001") for line in lines)
    assert t.rounds == expected["rounds"]
    assert t.system == expected["system"]
    assert result.is_team == (expected["kind"] == "team")
    assert len(result.teams) == sum(line.startswith("013") for line in lines)
    assert {len(p.entries) for p in t.participants} == {t.rounds}
    numbers = {p.start_no for p in t.participants}
    assert all(set(team.members) <= numbers for team in result.teams)
    assert all(p.declared_points == s for p, s in zip(t.participants, scores(result), strict=True))


# --- malformed files: one defect each ---------------------------------------------------------

R1 = "     3 w 1     2 b ="  # player 1, rounds 1-2
NAME2 = "Birch, Berit" + " " * 22 + "2180"  # player 2's name, separator column 48, rating
DEFECTS = [
    # (id, file, line, columns, fragment of the message)
    ("bad-result-code", edit(TRF26, (R1, "     3 w Q     2 b =")), 16, (99, 99), "one of 1 = 0"),
    ("bad-colour", edit(TRF26, (R1, "     3 x 1     2 b =")), 16, (97, 97), "w, b, - or blank"),
    ("opponent-not-numeric", edit(TRF26, (R1, "    3x w 1     2 b =")), 16, (92, 95), "digits"),
    (
        "opponent-not-in-file",
        edit(TRF26, (R1, "     9 w 1     2 b =")),
        16,
        (92, 95),
        "in the file",
    ),
    ("opponent-is-self", edit(TRF26, (R1, "     1 w 1     2 b =")), 16, (92, 95), "player's own"),
    (
        "duplicate-start-number",
        edit(TRF26, ("001    4 w", "001    3 w")),
        19,
        (5, 8),
        "line 18 has 3 too",
    ),
    ("bad-start-number", edit(TRF26, ("001    2 w", "001   2x w")), 17, (5, 8), "1 to 9999"),
    (
        "non-reciprocal-pairing",
        edit(TRF26, ("0000 - U     1 b 1", "   3 b 1     1 b 1")),
        19,
        (102, 105),
        "#3's round 2 block to name #4",
    ),
    (
        "same-colour-both-sides",
        edit(TRF26, ("     1 b 0  0000 - H", "     1 w 0  0000 - H")),
        16,
        (97, 97),
        "opposite colours",
    ),
    (
        "incompatible-results",
        edit(TRF26, ("     2 w =  0000 - U", "     2 w 1  0000 - U")),
        17,
        (99, 99),
        "results that pair up",
    ),
    (
        "bye-code-with-opponent",
        edit(TRF26, ("0000 - H     2 w -", "   4 - H     2 w -")),
        18,
        (102, 109),
        "opponent 0000 or blank for a bye",
    ),
    (
        "game-code-without-opponent",
        edit(TRF26, ("0000 - U     1 b 1", "0000 - 1     1 b 1")),
        19,
        (102, 109),
        "an opponent for a game result",
    ),
    (
        "colour-without-opponent",
        edit(TRF26, ("0000 - H     2 w -", "0000 w H     2 w -")),
        18,
        (102, 109),
        "colour '-' or blank",
    ),
    ("non-numeric-rating", edit(TRF26, ("2180 SWE", "21x0 SWE")), 17, (49, 52), "digits"),
    (
        "points-mismatch",
        edit(TRF26, ("1990/04/12  1.5", "1990/04/12  2.5")),
        16,
        (81, 84),
        "1.5, the sum of the results",
    ),
    ("142-xxr-disagree", edit(TRF26, extra=("XXR 4",)), 21, (5, 5), "3, as on the 142 line"),
    ("more-rounds-than-declared", edit(TRF26, ("142 3", "142 2")), 16, (112, 119), "2 declared"),
    ("bad-142", edit(TRF26, ("142 3", "142 three")), 12, (5, 9), "positive whole number"),
    (
        "tab-character",
        edit(TRF26, (NAME2, NAME2[:-5] + "\t2180")),
        17,
        (48, 48),
        "tabs are not expanded",
    ),
    (
        "misaligned-columns",
        edit(TRF26, (NAME2, NAME2[:-5] + "x2180")),
        17,
        (48, 48),
        "the line is misaligned",
    ),
    ("bad-152", edit(TRF26, ("152 W", "152 X")), 13, (5, 5), "W or B"),
    (
        "unknown-162-code",
        edit(TRF26, extra=("162  W 1.0    Q 0.5",)),
        21,
        (15, 19),
        "a code W D L A P X",
    ),
    (
        "unreadable-162-number",
        edit(TRF26, extra=("162  W 1.0    D 0.5    L ?.0",)),
        21,
        (24, 28),
        "a code W D L A P X",
    ),
    ("no-001-lines", "\r\n".join(HEADER), 1, None, "at least one player record"),
    (
        "013-unknown-member",
        edit(TRF16, extra=(team_013("Alders", 1, 2), team_013("Cedars", 3, 9))),
        17,
        (42, 45),
        "a player in the file",
    ),
    (
        "player-in-two-teams",
        edit(TRF16, extra=(team_013("Alders", 1, 2), team_013("Cedars", 3, 1))),
        17,
        (42, 45),
        "#1 is in team 1 'Alders' on line 16",
    ),
    (
        "310-duplicate-team-number",
        edit(TRF16, extra=(team_310(1, "Alders", 1, 2), team_310(1, "Cedars", 3, 4))),
        17,
        (5, 7),
        "line 16 has it too",
    ),
    (
        "240-disagrees",
        edit(TRF26, (BYE_240, "240 H   2    1")),
        20,
        (11, 14),
        "bye score disagrees",
    ),
    ("240-unknown-player", edit(TRF26, (BYE_240, "240 H   2    7")), 20, (11, 14), "in the file"),
    (
        "240-unknown-team",
        edit(TRF16, extra=(team_013("Alders", 1, 2), team_013("Cedars", 3, 4), "240 H   2    3")),
        18,
        (11, 14),
        "a team number",
    ),
    ("xxw-wide-ids", edit(TRF26, extra=("XXW 6",)), 21, (1, 3), "XXW wide layout"),
]


@pytest.mark.parametrize(
    ("text", "line", "columns", "fragment"),
    [pytest.param(*case[1:], id=case[0]) for case in DEFECTS],
)
def test_malformed_file_is_rejected(
    text: str, line: int, columns: tuple[int, int] | None, fragment: str
) -> None:
    with pytest.raises(TrfError) as caught:
        parse_trf(text, source="bad.trf")
    relevant = [issue for issue in caught.value.issues if fragment in str(issue)]
    assert relevant, str(caught.value)
    assert (relevant[0].line, relevant[0].columns) == (line, columns)
    assert f"bad.trf: {relevant[0]}" in str(caught.value)


def test_defects_are_distinct() -> None:
    assert len({case[0] for case in DEFECTS}) == len(DEFECTS) >= 16


def test_every_problem_is_reported_at_once() -> None:
    text = edit(TRF26, (R1, "     3 w Q     2 b ="), ("2180 SWE", "21x0 SWE"))
    with pytest.raises(TrfError) as caught:
        parse_trf(text)
    issues = caught.value.issues
    assert [(i.line, i.columns, i.where) for i in issues] == [
        (16, (99, 99), "001 #1, round 1 result"),
        (17, (49, 52), "001 #2, rating"),
    ]
    assert str(issues[0]) == (
        "line 16, column 99 (001 #1, round 1 result): found 'Q'; "
        "expected one of 1 = 0 W D L + - H F U Z or blank"
    )
    assert str(caught.value).startswith("<trf>: 2 problem(s), nothing imported")


def test_load_trf_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "broken.trf"
    path.write_bytes(edit(TRF26, ("152 W", "152 X")).encode())
    with pytest.raises(TrfError) as caught:
        load_trf(path)
    assert caught.value.source == str(path)
    assert str(caught.value).splitlines()[1].startswith(f"{path}: line 13, column 5")


# --- tolerated deviations ---------------------------------------------------------------------


def warnings_of(result: TrfImport) -> list[tuple[int, str]]:
    return [(w.line, w.expected) for w in result.warnings]


def test_line_ends_bom_comments_and_short_lines() -> None:
    lines = ["012 Mixed", "### a comment", "", "x", P1, P2, P3, P4]
    text = "\ufeff" + "\r".join(lines[:3]) + "\n" + "\r\n".join(lines[3:])
    result = parse_trf(text.encode())
    assert result.tournament.name == "Mixed"
    assert result.warnings == ()
    assert len(result.tournament.participants) == 4


def test_not_utf8_is_read_as_cp1252_with_a_warning() -> None:
    text = edit(TRF16, ("Birch, Berit", "Ødegård, Bea"))
    result = parse_trf(text.encode("cp1252"))
    assert result.tournament.participants[1].name == "Ødegård, Bea"
    assert [(w.line, w.where, w.found) for w in result.warnings] == [
        (13, "file encoding", "byte 0xD8")
    ]
    assert parse_trf(text.encode()).tournament.participants[1].name == "Ødegård, Bea"


def test_unknown_tag_and_repeated_header_warn() -> None:
    text = edit(TRF16, extra=("DAT    1 EMAIL adam@example.org", "012 Renamed"))
    result = parse_trf(text)
    assert result.tournament.name == "Renamed"
    assert [(w.line, w.where) for w in result.warnings] == [(16, "record tag"), (17, "012 header")]


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("2025-03-01", dt.date(2025, 3, 1)),
        ("25/03/01", dt.date(2025, 3, 1)),
        ("24/09/2010", dt.date(2010, 9, 24)),
        ("01/01/2025", dt.date(2025, 1, 1)),
        # the shapes exporters write: each gives the right edition, silently
        ("2020/05/29", dt.date(2020, 5, 29)),
        ("29.07.2005", dt.date(2005, 7, 29)),
        ("28. 07. 2005", dt.date(2005, 7, 28)),
        ("05.07.2024", dt.date(2024, 7, 5)),  # dots: always day first
        ("May 29, 2020", dt.date(2020, 5, 29)),
        ("Sep 4, 2020", dt.date(2020, 9, 4)),
        ("29 May 2020", dt.date(2020, 5, 29)),
        ("01/03/2025", dt.date(2025, 3, 1)),  # either reading is edition 2024: day first
    ],
)
def test_start_date_formats(text: str, date: dt.date) -> None:
    result = parse_trf(edit(TRF16, ("042 2025/03/01", f"042 {text}")))
    assert (result.tournament.start_date, result.warnings) == (date, ())


def test_ambiguous_start_date_across_editions_is_read_day_first_with_a_warning() -> None:
    # 01/08/2024: 1 August 2024 (edition 2024) or 8 January 2024 (edition 2023)
    result = parse_trf(edit(TRF16, ("042 2025/03/01", "042 01/08/2024")))
    assert result.tournament.start_date == dt.date(2024, 8, 1)
    (warning,) = result.warnings
    assert "read day first as 2024-08-01 (edition 2024), not 2024-01-08" in str(warning)


@pytest.mark.parametrize("text", ["2025/13/01", "Spring 2020", "Mai 29, 2020"])
def test_unreadable_start_date_is_a_warning(text: str) -> None:
    result = parse_trf(edit(TRF16, ("042 2025/03/01", f"042 {text}")))
    assert result.tournament.start_date is None
    assert [(w.line, w.columns, w.where) for w in result.warnings] == [
        (4, (5, 4 + len(text)), "042 start date")
    ]


def test_tiebreaks_from_202_and_212() -> None:
    only_202 = parse_trf(edit(TRF16, extra=("202 BH/C1, SB ,",)))
    assert only_202.tournament.tiebreaks == ("PTS", "BH/C1", "SB")
    both = parse_trf(edit(TRF26, extra=("202 WIN",)))
    assert both.tournament.tiebreaks == ("PTS", "BH/C1", "SB")


def test_an_unknown_tiebreak_is_located_at_its_file_line_and_columns(tmp_path: Path) -> None:
    path = tmp_path / "club.trf"
    path.write_bytes(edit(TRF26, ("212 PTS,BH/C1,SB", "212 PTS, BH/C1,XYZ, SB/Q")).encode())
    with pytest.raises(TrfError) as caught:
        load_trf(path)
    issues = [(i.line, i.columns, i.where, i.found) for i in caught.value.issues]
    assert issues == [
        (15, (16, 18), "212 tie-breaks", "XYZ"),
        (15, (21, 24), "212 tie-breaks", "SB/Q"),
    ]
    first = str(caught.value).splitlines()[1]
    assert first.startswith(f"{path}: line 15, columns 16-18 (212 tie-breaks): found 'XYZ'")
    assert "unknown tie-break 'XYZ'" in first
    old = edit(TRF16, extra=("202 BH, FOO",))  # TRF-16's list, without PTS
    with pytest.raises(TrfError) as caught:
        parse_trf(old)
    ((line, columns, where, found),) = [
        (i.line, i.columns, i.where, i.found) for i in caught.value.issues
    ]
    assert (columns, where, found) == ((9, 11), "202 tie-breaks", "FOO")
    assert old.splitlines()[line - 1] == "202 BH, FOO"


def test_xxr_sets_the_rounds_and_xxc_the_initial_colour() -> None:
    result = parse_trf(edit(TRF16, extra=("XXR 5", "XXC rank black1")))
    assert (result.tournament.rounds, result.tournament.initial_colour) == (5, "b")
    assert {len(p.entries) for p in result.tournament.participants} == {3}
    assert result.tournament.played_rounds == 3


def test_legacy_bye_forms_are_read_with_warnings() -> None:
    text = edit(
        TRF16,
        ("0000 - U     1 b 1", "0000 - +     1 b 1"),
        ("0000 - H", "0000 - ="),
        extra=(player(5, "0.0", "0000 - -", "       -"),),
    )
    result = parse_trf(text)
    t = result.tournament
    assert t.participants[3].entries[1] == Entry(Code.PAB)
    assert t.participants[2].entries[1] == Entry(Code.HALF_BYE)
    assert t.participants[4].entries == (NOT_PAIRED, NOT_PAIRED, NOT_PAIRED)
    assert [(w.line, w.columns) for w in result.warnings] == [
        (14, (102, 109)),
        (15, (102, 109)),
        (16, (92, 99)),
        (16, (102, 109)),
    ]
    assert all("legacy form" in w.expected for w in result.warnings)


def test_unknown_result_is_read_as_x_with_a_warning() -> None:
    text = edit(TRF16, ("     2 b =     4 w 0", "     2 b X     4 w 0"), ("1 w =", "1 w ?"))
    result = parse_trf(text)
    assert result.tournament.participants[0].entries[1] == Entry(Code.UNKNOWN, 2, "b")
    assert result.tournament.participants[1].entries[1] == Entry(Code.UNKNOWN, 1, "w")
    assert [(w.line, w.columns) for w in result.warnings] == [(12, (109, 109)), (13, (109, 109))]
    assert scores(result)[:2] == [Decimal("1.5"), Decimal("2.0")]


def test_forfeit_without_colour_warns() -> None:
    result = parse_trf(edit(TRF16, ("3 b +", "3 - +"), ("2 w -", "2 - -")))
    assert result.tournament.participants[1].entries[2] == Entry(Code.FORFEIT_WIN, 3, None)
    assert [w.line for w in result.warnings] == [13, 14]


def test_short_lines_and_trailing_blank_rounds_are_unpaired() -> None:
    text = edit(TRF16, extra=(player(5, "0.0"), player(6, "0.0", "", "0000 - Z")))
    t = parse_trf(text).tournament
    assert t.rounds == 3
    assert t.participants[4].entries == (NOT_PAIRED, NOT_PAIRED, NOT_PAIRED)
    assert t.participants[5].entries == (NOT_PAIRED, NOT_PAIRED, NOT_PAIRED)


def test_unrated_and_short_titles() -> None:
    text = edit(
        TRF16, ("m FM Alder", "m  g Alder"), ("1990 DEN", "   0 DEN"), ("2180 SWE", "     SWE")
    )
    t = parse_trf(text).tournament
    assert [(p.title, p.rating) for p in t.participants] == [
        ("GM", 2250),
        ("", None),
        ("", 2105),
        ("", None),
    ]


def test_more_than_one_pab_in_a_round_warns() -> None:
    lines = [player(1, "1.0", "0000 - U"), player(2, "1.0", "0000 - U")]
    result = parse_trf("\n".join(lines))
    assert [(w.line, w.columns, w.found) for w in result.warnings] == [
        (2, (92, 99), "U for #1, #2")
    ]


def test_scoring_grid() -> None:
    lines = [
        "162  W 3.0    D 1,0    L 0.0    A 0.0    P 1.0",
        player(1, "4.0", "2 w 1", "0000 - U"),
        player(2, "1.0", "1 b 0", "0000 - H"),
    ]
    result = parse_trf("\n".join(lines))
    scoring = Scoring(win=Decimal(3), draw=Decimal(1), pab=Decimal(1))
    assert (result.tournament.scoring, result.warnings) == (scoring, ())
    assert scores(result) == [Decimal(4), Decimal(1)]


def test_points_explained_by_one_common_system_warn() -> None:
    # player 4's PAB counted as a draw: 2.0 instead of 2.5, and no 162 line says so
    result = parse_trf(edit(TRF16, ("1999/02/28  2.5", "1999/02/28  2.0")))
    assert result.tournament.scoring == Scoring(pab=Decimal("0.5"))
    assert [(w.line, w.columns, w.found) for w in result.warnings] == [
        (15, (81, 84), "points that fit a pairing-allocated bye worth a draw")
    ]


def test_gaps_in_the_numbering_warn() -> None:
    result = parse_trf("\n".join([player(1, "0.0"), player(3, "0.0")]))
    assert [(w.line, w.found) for w in result.warnings] == [(2, "missing 2")]


# --- team records -----------------------------------------------------------------------------


# One match of two boards: #1 (w) beats #3, #4 (w) draws with #2. Lines 1-2 header, 3-6 players.
TEAM16 = (
    "\r\n".join(
        [
            "012 Example Team Match",
            "092 Team: Swiss-System",
            player(1, "1.0", "3 w 1"),
            player(2, "0.5", "4 b ="),
            player(3, "0.0", "1 b 0"),
            player(4, "0.5", "2 w ="),
        ]
    )
    + "\r\n"
)


def test_013_teams() -> None:
    text = edit(TEAM16, extra=(team_013("Alders and Birches", 1, 2), team_013("Cedars", 3, 4)))
    result = parse_trf(text)
    assert result.is_team
    assert result.teams == (
        TeamRecord(1, "Alders and Birches", (1, 2), 7),
        TeamRecord(2, "Cedars", (3, 4), 8),
    )
    assert result.team_event is not None
    alders = result.team_event.team(1).match(1)
    assert (alders.opponent, alders.colour) == (2, "w")
    assert (alders.mp, alders.gp) == (Decimal(2), Decimal("1.5"))


def test_310_wins_over_013() -> None:
    text = edit(
        TEAM16,
        extra=(team_013("Ignored", 1, 2), team_310(7, "Alders", 2, 1), team_310(9, "Cedars", 3, 4)),
    )
    result = parse_trf(text)
    assert result.teams == (
        TeamRecord(7, "Alders", (2, 1), 8),
        TeamRecord(9, "Cedars", (3, 4), 9),
    )
    assert [(w.line, w.where) for w in result.warnings] == [(7, "013 team")]


def test_team_event_from_type_code() -> None:
    result = parse_trf(edit(TRF26, (BYE_240, "192 FIDE_TEAM_TYPEA_MP")))
    assert (result.is_team, result.raw_system, result.teams) == (True, "FIDE_TEAM_TYPEA_MP", ())


def test_round_robin_from_type_code() -> None:
    result = parse_trf(edit(TRF26, ("FIDE_DUTCH_2025", "BERGER_ROUNDROBIN")))
    assert result.tournament.system == "roundrobin"


def test_two_pairing_allocated_byes_in_a_round_warn() -> None:
    """Merged sections (TRF.md 4.4.6): each round's U blocks are counted, once per round."""
    text = edit(
        TRF16,
        ("2001/07/01  0.5    4     1 b 0  0000 - H", "2001/07/01  1.0    4     1 b 0  0000 - U"),
    )
    result = parse_trf(text)
    assert [(w.line, w.where, w.found) for w in result.warnings] == [
        (15, "round 2", "U for #3, #4")
    ]
