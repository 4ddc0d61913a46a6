"""Real files as pairing programs write them: their extension records (JaVaFo's XX?, bbpPairings'
BB?, TRF-2026's records for pairing) read or summarised once per kind, and a round paired but
not played whose pairing gives both players one colour."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import msgspec
import pytest

from livetb.engine.model import Code, Entry, Scoring, Tournament
from livetb.errors import TrfError
from livetb.interchange.trf_commands import pairing_from_trf, round_boards
from livetb.trf import load_trf, parse_trf
from livetb.trf.writer import write_trf

REAL = Path("tests/data/real")
CUP_2025 = REAL / "hobsons-bay-cup-2025.trf"  # 32 players, 7 rounds, Vega
ASCID = REAL / "ascid-campionato-italiano-2025-r6-native.trf"  # Tornello: XXR, XXC, BBU 0.5


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def start_numbers(lines: list[str]) -> list[int]:
    return [int(line[4:8]) for line in lines if line.startswith("001")]


def xxa(no: int, *points: str) -> str:
    """JaVaFo's acceleration line (TRF.md 7.3): start number in 5-8, round r at 10+5(r-1)."""
    return f"XXA {no:>4}" + "".join(f" {p:>4}" for p in points)


# --- extension records -------------------------------------------------------------------------


def test_an_xxa_line_per_player_is_one_warning_and_changes_nothing() -> None:
    plain = lines_of(CUP_2025)
    players = start_numbers(plain)
    accelerated = [*plain, *(xxa(no, "1.0", "1.0", "0.5", "0.0") for no in players)]
    first = len(plain) + 1
    result = parse_trf("\n".join(accelerated) + "\n", "javafo.trf")
    assert [(w.line, w.columns, w.where, w.found, w.expected) for w in result.warnings] == [
        (
            first,
            (1, 3),
            "XXA records",
            f"32 XXA records on lines {first}-{first + 31} (acceleration)",
            "nothing: ignored, they change no standings",
        )
    ]
    assert result.tournament == load_trf(CUP_2025).tournament


def test_pairing_records_of_both_versions_are_one_warning_per_kind() -> None:
    plain = lines_of(CUP_2025)
    n = len(plain)
    extra = [
        "XXP 1 2",  # n+1
        "XXP 3 4",
        "XXZ 5 6",  # n+3
        "250      1.0   1   2    1   10",  # n+4
        "250      0.5   3   3    1   10",
        "260   1   7    1    2",  # n+6
        "299 -         -1.0   2    5",  # n+7
        "801 some team summary",
        "802 the short form",
        "DAT    1 EMAIL one@example.org",  # n+10
        "DAT    2 EMAIL two@example.org",
        "DAT    3 EMAIL three@example.org",
    ]
    result = parse_trf("\n".join([*plain, *extra]) + "\n", "extensions.trf")
    assert [(w.line, w.where, w.found) for w in result.warnings] == [
        (n + 1, "XXP records", f"2 XXP records on lines {n + 1}-{n + 2} (prohibited pairings)"),
        (n + 3, "XXZ records", "one XXZ record (players left out of the next pairing)"),
        (n + 4, "250 records", f"2 250 records on lines {n + 4}-{n + 5} (acceleration)"),
        (n + 6, "260 records", "one 260 record (prohibited pairings)"),
        (n + 7, "299 records", "one 299 record (point assignments)"),
        (n + 10, "record tag", f"DAT (3 DAT records on lines {n + 10}-{n + 12})"),
    ]
    by_where = {w.where: w.expected for w in result.warnings}
    assert by_where["299 records"] == (
        "nothing: not applied, the points come from the round results only"
    )
    assert by_where["record tag"] == "a known record tag; skipped"
    assert result.tournament == load_trf(CUP_2025).tournament


def test_national_ratings_named_by_172_are_one_warning() -> None:
    plain = lines_of(CUP_2025)
    players = start_numbers(plain)
    national = [f"AUS {no:>4} m    {'':<33} {1500 + no:>4} VIC" for no in players]
    text = "\n".join(["172 AUS FIDON", *plain, *national]) + "\n"
    first = len(plain) + 2
    result = parse_trf(text, "national.trf")
    assert [(w.line, w.where, w.found) for w in result.warnings] == [
        (first, "AUS records", f"32 AUS records on lines {first}-{first + 31} (national ratings)")
    ]


def test_xxr_and_xxc_are_read_without_a_warning() -> None:
    # estascacchi: XXR 005, XXC white1 (Tornello's own export for bbpPairings)
    result = load_trf(REAL / "estascacchi-1-2025-r4-native.trf")
    assert [w for w in result.warnings if w.where[:2] in ("XX", "re")] == []
    assert (result.tournament.rounds, result.tournament.initial_colour) == (5, "w")


def test_bbu_is_the_scoring_of_a_half_point_pab() -> None:
    # Tornello writes its half-point PAB as `BBU  0.5`: read, the points fit with no guess
    result = load_trf(ASCID)
    assert result.tournament.scoring == Scoring(pab=Decimal("0.5"))
    assert [w.where for w in result.warnings if "title" not in w.where] == []


def test_xxs_gives_the_same_scoring_as_bbu() -> None:
    text = ASCID.read_text(encoding="utf-8")
    for xxs in ("XXS PAB=0.5", "XXS W=1.0 D=0.5\r\nXXS PAB=0.5", "XXS WW=1 BW=1 PAB=0,5"):
        result = parse_trf(text.replace("BBU  0.5", xxs), "xxs.trf")
        assert result.tournament.scoring == Scoring(pab=Decimal("0.5")), xxs
        assert [w.where for w in result.warnings if "title" not in w.where] == [], xxs


def test_scoring_lines_livetb_cannot_hold_or_read_are_located_errors() -> None:
    text = ASCID.read_text(encoding="utf-8")
    line = next(n for n, x in enumerate(text.splitlines(), 1) if x.startswith("BBU"))
    cases = {
        # a win with Black worth less than one with White: no single "win" value
        "XXS PAB=0.5 BW=0.5": (
            (5, 18),
            "XXS scoring",
            "WW=1, BW=0.5, FW=1, FPB=1",
            "one value for WW, BW, FW, FPB (livetb scores them alike)",
        ),
        "XXS PAB=0.5 Q=1": ((13, 15), "XXS scoring", "Q=1", None),
        "BBU  half": ((6, 9), "BBU scoring", "half", "a number such as 1.0"),
        "BBU  0.5\r\n162  W 1.0    D 0.5    L 0.0    A 0.0    P 1.0": (
            (6, 8),
            "BBU scoring",
            "win 1, draw 0.5, loss 0, absent 0, PAB 0.5",
            f"the same points as the 162 line on line {line + 1}",
        ),
    }
    for lines, (columns, where, found, expected) in cases.items():
        with pytest.raises(TrfError) as err:
            parse_trf(text.replace("BBU  0.5", lines), "scoring.trf")
        issue = next(i for i in err.value.issues if i.where == where)
        assert (issue.line, issue.columns, issue.found) == (line, columns, found), lines
        if expected is not None:
            assert issue.expected == expected


# --- a round paired, not played, one colour on both sides --------------------------------------


def paired_not_played(path: Path, rnd: int) -> Tournament:
    """The real event as a pairing program writes it once round `rnd` is paired: rounds before
    it as played, round `rnd`'s games without results, nothing after."""
    t = load_trf(path).tournament

    def cut(entries: tuple[Entry, ...]) -> tuple[Entry, ...]:
        e = entries[rnd - 1]
        pending = Entry(Code.PENDING, e.opponent, e.colour) if e.opponent is not None else e
        return (*entries[: rnd - 1], pending)

    people = tuple(msgspec.structs.replace(p, entries=cut(p.entries)) for p in t.participants)
    return msgspec.structs.replace(t, participants=people)


def one_colour(text: str, rnd: int, pair: tuple[int, int], colour: str) -> str:
    """`text` with both players of `pair` given `colour` in round `rnd` (column 87+10r)."""
    column = 87 + 10 * rnd
    out = []
    for line in text.split("\r\n"):
        if line.startswith("001") and int(line[4:8]) in pair:
            line = line[: column - 1] + colour + line[column:]
        out.append(line)
    return "\r\n".join(out)


def first_pair(t: Tournament, rnd: int) -> tuple[int, int]:
    p = next(p for p in t.participants if p.entry(rnd).opponent is not None)
    other = p.entry(rnd).opponent
    assert other is not None
    return min(p.start_no, other), max(p.start_no, other)


def test_one_colour_on_both_sides_of_a_game_not_played_is_one_warning() -> None:
    t = paired_not_played(CUP_2025, 7)
    low, high = first_pair(t, 7)
    text = one_colour(write_trf(t, "trf16"), 7, (low, high), "b")
    lines = text.split("\r\n")
    at = {int(x[4:8]): n for n, x in enumerate(lines, 1) if x.startswith("001")}
    result = parse_trf(text, "round7.trf")
    (warning,) = result.warnings
    assert (warning.line, warning.columns, warning.where) == (
        at[low],
        (157, 157),
        f"001 #{low}, round 7",
    )
    assert (
        warning.found
        == f"#{low} '{high} b' on line {at[low]}, #{high} '{low} b' on line {at[high]}"
    )
    assert warning.expected == (
        f"opposite colours (w and b); round 7 is not played yet, so #{low} (the lower start "
        f"number) is read as White and #{high} as Black: colours are fixed when a result comes"
    )
    by_no = {p.start_no: p for p in result.tournament.participants}
    assert by_no[low].entry(7) == Entry(Code.PENDING, high, "w")
    assert by_no[high].entry(7) == Entry(Code.PENDING, low, "b")
    # every other round block reads as its source's
    pair = {low, high}
    assert [p.entries for p in result.tournament.participants if p.start_no not in pair] == [
        p.entries for p in t.participants if p.start_no not in pair
    ]


def test_the_pair_is_one_board_with_the_lower_start_number_white() -> None:
    t = paired_not_played(CUP_2025, 7)
    low, high = first_pair(t, 7)
    games = sum(1 for p in t.participants if p.entry(7).opponent is not None) // 2
    for colour in ("w", "b"):
        text = one_colour(write_trf(t, "trf16"), 7, (low, high), colour)
        boards, byes = round_boards(parse_trf(text).tournament, 7)
        assert len(boards) == games
        assert [(b.white, b.black) for b in boards if low in (b.white, b.black)] == [(low, high)]
        paired = pairing_from_trf(text.encode(), 7)
        assert paired.boards == boards and paired.bye == (byes[0] if byes else None)


def test_round_boards_gives_a_same_colour_pair_once_whatever_built_it() -> None:
    # a Tournament built by hand (not read): both `b`, then both `w`; one board each time
    t = paired_not_played(CUP_2025, 7)
    low, high = first_pair(t, 7)
    for colour in ("w", "b"):
        people = tuple(
            msgspec.structs.replace(
                p,
                entries=(
                    *p.entries[:6],
                    msgspec.structs.replace(p.entries[6], colour=colour),
                ),
            )
            if p.start_no in (low, high)
            else p
            for p in t.participants
        )
        boards, _ = round_boards(msgspec.structs.replace(t, participants=people), 7)
        assert [(b.white, b.black) for b in boards if low in (b.white, b.black)] == [(low, high)]


def test_a_result_on_a_one_colour_board_is_still_refused() -> None:
    t = paired_not_played(CUP_2025, 7)
    low, high = first_pair(t, 7)
    text = one_colour(write_trf(t, "trf16"), 7, (low, high), "w")
    lines = text.split("\r\n")
    at = {int(x[4:8]): n for n, x in enumerate(lines, 1) if x.startswith("001")}
    for no, result in ((low, "1"), (high, "0")):
        line = lines[at[no] - 1].ljust(159)
        lines[at[no] - 1] = line[:158] + result + line[159:]
    with pytest.raises(TrfError) as err:
        parse_trf("\r\n".join(lines), "round7.trf")
    issue = next(i for i in err.value.issues if i.columns == (157, 157))
    assert (issue.line, issue.where, issue.expected) == (
        at[low],
        f"001 #{low}, round 7",
        "opposite colours (w and b)",
    )
