"""What a sync refuses before it plans (round count, an older file, another tournament's file),
what it no longer reads into a file (withdrawals), and how it names what it does."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from livetb.engine.model import Code, Entry
from livetb.errors import (
    ParticipantNotWithdrawn,
    RoundAlreadyPaired,
    RoundsDiffer,
    RoundsRequired,
    SyncForeign,
    SyncStale,
)
from livetb.events.commands import (
    CorrectResult,
    ReinstateParticipant,
    SwapColours,
    WithdrawParticipant,
    decide,
)
from livetb.events.schema import (
    AnyEvent,
    ByeRequested,
    ColoursSwapped,
    FileSynced,
    ParticipantReinstated,
    ParticipantWithdrawn,
    Recorded,
    RoundPaired,
)
from livetb.events.state import fold
from livetb.interchange import sync
from livetb.interchange.sync_checks import same_person
from livetb.interchange.trf_commands import round_boards
from livetb.trf import parse_trf
from livetb.trf.writer import write_trf
from tests.interchange.sync_cuts import SWISSES, cuts
from tests.interchange.test_sync import AT, recorded, synced
from tests.wire import follow_log

_COUNT = re.compile(rb"^(XXR|142) .*\r?\n", re.MULTILINE)


def files(path: Path = SWISSES[0]) -> dict[str, bytes]:
    return {c.label: c.text.encode() for c in cuts(path)}


def without_count(data: bytes) -> bytes:
    """The file as JaVaFo and Vega often write it: no XXR, no 142."""
    return _COUNT.sub(b"", data)


def log_of(*datas: bytes, **kw: object) -> list[Recorded]:
    """The log after syncing `datas` in order."""
    log: list[Recorded] = []
    for data in datas:
        log = recorded([r.event for r in log] + synced(data, log, **kw).events)
        kw.pop("rounds", None)  # an existing tournament keeps its count
    return log


def appended(log: list[Recorded], events: list[AnyEvent], actor: str) -> list[Recorded]:
    return [
        *log,
        *(
            Recorded(tournament_id="t", seq=len(log) + i, at=AT, actor=actor, event=e)
            for i, e in enumerate(events, start=1)
        ),
    ]


# --- the round count ---------------------------------------------------------------------------


def test_a_file_without_a_round_count_is_refused_until_the_count_is_given() -> None:
    cut = files()
    rounds = parse_trf(cut["players"]).tournament.rounds
    bare = {label: without_count(data) for label, data in cut.items()}
    assert parse_trf(bare["players"]).declared_rounds is None
    with pytest.raises(RoundsRequired, match=r"--rounds N .* \?rounds=N") as refused:
        synced(bare["players"])
    assert refused.value.as_dict()["path"] == "rounds"
    log = log_of(*bare.values(), rounds=rounds)  # every file of the event, none with a count
    state = fold([r.event for r in log])
    assert state.created is not None and state.created.rounds == rounds
    assert state.closed == parse_trf(cut[list(cut)[-1]]).tournament.played_rounds


def test_an_existing_tournament_keeps_its_count() -> None:
    cut = files()
    log = log_of(cut["players"])
    rounds = parse_trf(cut["players"]).tournament.rounds
    with pytest.raises(RoundsDiffer, match=f"declares 4 rounds, the tournament has {rounds}"):
        synced(re.sub(rb"(?m)^(XXR|142) .*$", rb"\1 4", cut["round 1 paired"]), log)
    with pytest.raises(RoundsDiffer, match=f"rounds 12: the tournament has {rounds} already"):
        synced(without_count(cut["round 1 paired"]), log, rounds=12)
    assert synced(without_count(cut["round 1 paired"]), log, rounds=rounds).events
    with pytest.raises(RoundsDiffer, match=r"rounds 5: f\.trf declares"):
        synced(cut["players"], rounds=5)


# --- absences are not withdrawals; reinstatement -------------------------------------------------


def test_a_missed_round_is_an_absence_and_the_player_is_paired_after_it() -> None:
    """Two players of a round 4 board who both play round 5 miss round 4 (`0000 - Z`)."""
    path = SWISSES[0]
    t = parse_trf(path.read_bytes()).tournament
    fifth = {no for b in round_boards(t, 5)[0] for no in (b.white, b.black)}
    board = next(b for b in round_boards(t, 4)[0] if {b.white, b.black} <= fifth)
    away = {board.white, board.black}
    people = tuple(
        msgspec.structs.replace(p, entries=(*p.entries[:3], Entry(Code.ZERO_BYE), *p.entries[4:]))
        if p.start_no in away
        else p
        for p in t.participants
    )
    changed = msgspec.structs.replace(t, participants=people)

    def upto(rnd: int) -> bytes:
        cut = tuple(msgspec.structs.replace(p, entries=p.entries[:rnd]) for p in people)
        return write_trf(msgspec.structs.replace(changed, participants=cut)).encode()

    log = log_of(upto(4))
    events = [r.event for r in log]
    assert not [e for e in events if isinstance(e, ParticipantWithdrawn)]
    assert {e.start_no for e in events if isinstance(e, ByeRequested) and e.round == 4} >= away
    made = synced(upto(5), log)
    paired = next(e for e in made.events if isinstance(e, RoundPaired))
    assert away <= {no for b in paired.boards for no in (b.white, b.black)}
    assert not [e for e in made.events if isinstance(e, ParticipantWithdrawn)]


def test_a_file_pairing_a_withdrawn_player_reinstates_them_and_says_so() -> None:
    cut = files()
    log = log_of(cut["players"], cut["round 1 paired"], cut["round 1 whole"])
    boards = round_boards(parse_trf(cut["round 2 paired"]).tournament, 2)[0]
    no = boards[0].white
    gone = decide(fold([r.event for r in log]), WithdrawParticipant(start_no=no, from_round=2))
    log = appended(log, gone, "arbiter:1a2b")
    made = synced(cut["round 2 paired"], log)
    back = [s for s in made.steps if isinstance(s.command, ReinstateParticipant)]
    assert [s.events for s in back] == [[ParticipantReinstated(start_no=no, from_round=2)]]
    name = fold([r.event for r in log]).participants[no].name
    assert sync.describe(back[0], "en", made) == [f"reinstate {name} (#{no}): back from round 2"]
    assert fold([r.event for r in log] + made.events).withdrawn == {}


def test_a_reinstatement_keeps_the_rounds_between_as_absences() -> None:
    cut = files()
    state = fold([r.event for r in log_of(cut["players"], cut["round 1 paired"])])
    one, other = sorted(state.participants)[:2]
    for e in decide(state, WithdrawParticipant(start_no=one, from_round=2)):
        state.apply(e)
    assert decide(state, ReinstateParticipant(start_no=one, from_round=4)) == [
        ParticipantReinstated(start_no=one, from_round=4),
        ByeRequested(start_no=one, round=2, points="zero"),
        ByeRequested(start_no=one, round=3, points="zero"),
    ]
    with pytest.raises(RoundAlreadyPaired):
        decide(state, ReinstateParticipant(start_no=one, from_round=1))
    with pytest.raises(ParticipantNotWithdrawn, match=f"start_no {other}: not withdrawn"):
        decide(state, ReinstateParticipant(start_no=other, from_round=2))


# --- an older file -------------------------------------------------------------------------------


def test_an_older_file_is_stale_naming_what_makes_it_older() -> None:
    cut = files()
    labels = list(cut)
    upto = labels.index("round 3 whole")
    log = log_of(*(cut[label] for label in labels[: upto + 1]))
    head = len(log)
    with pytest.raises(SyncStale) as stale:
        synced(cut["round 2 half"], log)
    reasons = stale.value.reasons
    assert reasons[0] == "it pairs rounds up to 2, f.trf synced before paired up to 3"
    # round 2's half file held the wrong result its whole file corrected
    assert any("which a later file corrected to" in r for r in reasons)
    assert len(log) == head  # nothing planned is written by a refusal
    assert synced(cut["round 3 whole"], log).events == []  # the same content: nothing


def test_fewer_results_in_a_round_is_stale_and_force_takes_it() -> None:
    cut = files()
    log = log_of(cut["players"], cut["round 1 paired"], cut["round 1 whole"])
    whole = parse_trf(cut["round 1 whole"]).tournament
    boards = len(round_boards(whole, 1)[0])
    with pytest.raises(SyncStale, match=f"round 1: {boards // 2} results, f.trf had {boards}"):
        synced(cut["round 1 half"], log)
    # forced: the file's results stand where they differ (none here), nothing is undone
    forced = synced(cut["round 1 half"], log, force=True)
    assert not [s for s in forced.steps if isinstance(s.command, CorrectResult)]
    assert forced.record == FileSynced(
        source="f.trf",
        name=whole.name,
        rounds=1,
        results=(boards // 2,),
    )


def test_a_correction_is_not_reverted_by_the_file_it_corrected() -> None:
    cut = files()
    labels = list(cut)
    log = log_of(*(cut[label] for label in labels[: labels.index("round 2 whole") + 1]))
    corrected = [r for r in log if r.event.__class__.__name__ == "ResultCorrected"]
    assert len(corrected) == 1  # the wrong result of round 2's half file
    with pytest.raises(SyncStale, match=r"round 2, board 1 .*which a later file corrected"):
        synced(cut["round 2 half"], log)
    back = synced(cut["round 2 half"], log, force=True)
    assert [type(s.command) for s in back.steps] == [CorrectResult]


# --- another tournament's file --------------------------------------------------------------------


def test_another_tournaments_file_is_refused_with_the_differences() -> None:
    mine, theirs = files(SWISSES[0]), files(SWISSES[1])
    log = log_of(mine["players"])
    with pytest.raises(SyncForeign) as foreign:
        synced(theirs["players"], log)
    differences = foreign.value.differences
    a = parse_trf(mine["players"]).tournament
    b = parse_trf(theirs["players"]).tournament
    assert differences[0] == f"its name is “{b.name}”, f.trf synced before was “{a.name}”"
    first = a.participants[0]
    assert any(d.startswith(f"#{first.start_no} is “{first.name}”") for d in differences[1:])
    # the same file with its name alone changed is another tournament's too
    renamed = mine["players"].replace(a.name.encode(), b"Another Open")
    with pytest.raises(SyncForeign, match="its name is “Another Open”"):
        synced(renamed, log)
    assert synced(renamed, log, force=True).events  # forced: taken
    with pytest.raises(RoundsDiffer):  # but never a round count the tournament does not have
        synced(theirs["players"], log, force=True)


def test_a_person_is_the_same_through_a_new_rating_title_or_typo() -> None:
    p = parse_trf(files()["players"]).tournament.participants[0]
    assert p.fide_id  # the conformance files carry FIDE ids
    typo = msgspec.structs.replace(p, name=p.name + "x", rating=(p.rating or 0) + 50, title="FM")
    assert same_person(p, typo)
    assert not same_person(p, msgspec.structs.replace(p, fide_id="999999999"))
    plain = msgspec.structs.replace(p, fide_id="")
    assert same_person(plain, msgspec.structs.replace(plain, name=p.name.upper()))
    assert not same_person(plain, msgspec.structs.replace(plain, name="Somebody Else"))
    born = msgspec.structs.replace(plain, birth_date="1990")
    assert not same_person(born, msgspec.structs.replace(born, birth_date="1991/02/03"))


# --- in words ------------------------------------------------------------------------------------


def test_a_dry_run_names_the_boards_it_pairs_and_the_players_of_each_result() -> None:
    cut = files()
    log = log_of(cut["players"])
    made = synced(cut["round 1 half"], log)
    names = {p.start_no: p.name for p in parse_trf(cut["players"]).tournament.participants}
    pair = next(s for s in made.steps if s.command.__class__.__name__ == "PairRound")
    lines = sync.describe(pair, "en", made)
    boards, byes = round_boards(parse_trf(cut["round 1 half"]).tournament, 1)
    pab = "".join(f", pairing-allocated bye {names[no]} (#{no})" for no in byes)
    assert lines[0] == f"round 1: pair {len(boards)} boards{pab}:"
    assert len(lines) == 1 + len(boards)
    b = boards[0]
    assert lines[1] == f"  board 1: {names[b.white]} (#{b.white}) – {names[b.black]} (#{b.black})"
    result = next(s for s in made.steps if s.command.__class__.__name__ == "RecordResult")
    said = sync.describe(result, "it", made)[0]
    assert said.startswith("turno 1, scacchiera ") and " (#" in said


def test_a_board_given_one_colour_takes_the_colours_its_result_comes_with() -> None:
    """Round 2 saved paired with both players of a board as White (the reader takes the lower
    start number as White); the file with the round's results gives the colours: the log's
    board is turned round, then its result recorded, and the standings are the file's."""
    cut = files()
    whole = parse_trf(cut["round 2 whole"]).tournament
    board = next(b for b in round_boards(whole, 2)[0] if b.white > b.black)
    paired = parse_trf(cut["round 2 paired"]).tournament
    people = tuple(
        msgspec.structs.replace(p, entries=(*p.entries[:1], Entry(Code.PENDING, board.white, "w")))
        if p.start_no == board.black
        else p
        for p in paired.participants
    )
    one_colour = write_trf(msgspec.structs.replace(paired, participants=people)).encode()
    said = [str(w) for w in parse_trf(one_colour).warnings]
    assert sum("colours are fixed when a result comes" in w for w in said) == 1
    log = log_of(cut["players"], cut["round 1 paired"], cut["round 1 whole"], one_colour)
    state = fold([r.event for r in log])
    logged = next(
        g
        for g in state.rounds[2].games.values()
        if {g.white, g.black} == {board.white, board.black}
    )
    assert (logged.white, logged.black) == (board.black, board.white)  # lower number White
    made = synced(cut["round 2 whole"], log)
    swaps = [s for s in made.steps if isinstance(s.command, SwapColours)]
    assert [s.events for s in swaps] == [[ColoursSwapped(round=2, board=logged.board)]]
    after = fold([r.event for r in log] + made.events)
    assert (
        after.tournament().participants
        == fold(
            [
                r.event
                for r in log_of(
                    cut["players"],
                    cut["round 1 paired"],
                    cut["round 1 whole"],
                    cut["round 2 whole"],
                )
            ]
        )
        .tournament()
        .participants
    )
    follow_log(recorded([r.event for r in log] + made.events))  # live == rebuild, each event
