"""TRF to events: the log that would have produced an imported tournament.

Order of the log (each round's events only after the previous round is closed):

    TournamentCreated
    ParticipantRegistered             one per participant, by start number
    TeamRegistered                    team tournaments: one per team, by number
    per round r = 1 .. last played round:
        ParticipantWithdrawn(from_round=r)   for players absent from r to the end (see below)
        ByeRequested(r)                      H -> half, F -> full, Z -> zero; by start number
        RoundPaired(r)                       boards 1..n in publication order (`round_boards`:
                                             C.04's for a Swiss, the Berger table's for a round
                                             robin; team rounds by the pair's lower start
                                             number); white is the `w` side; a forfeit or double
                                             forfeit is a board; the `U` player is the bye
                                             (several `U`: the first, then `more_byes`)
        ResultRecorded(r, board)             one per board, in board order
        RoundClosed(r)
    then, for rounds after the last played one: ByeRequested for the file's H and F, and for
    the byes and absences announced for them (`announced`: 240 lines, `0000 - Z` written ahead)

A `Z` with no opponent is a requested zero-point bye, except:
- a trailing run of `Z` up to the last played round is a withdrawal (one `ParticipantWithdrawn`
  from the run's first round) when it is at least two rounds long, or (Swiss) when it reaches
  the tournament's final round;
- in a round robin a lone `Z` is the rest round: no event, the player is simply not paired.
Either way the folded state gives that round `Z` again, so entries round-trip exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

from livetb.engine.model import Code, Participant, Tournament
from livetb.engine.teams import Roster, build_team_event
from livetb.errors import ImportUnsupported
from livetb.events.schema import (
    DEFAULT_TEAM_TIEBREAKS,
    DEFAULT_TIEBREAKS,
    AnyEvent,
    Board,
    ByePoints,
    ByeRequested,
    EditionName,
    GameResult,
    ParticipantRegistered,
    ParticipantWithdrawn,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    ScoringSpec,
    TeamRegistered,
    TournamentCreated,
)
from livetb.events.state import CODES
from livetb.interchange.trf_commands import berger_order, publication_order, scores_before
from livetb.trf import TrfImport

RESULTS: dict[tuple[Code, Code], GameResult] = {codes: result for result, codes in CODES.items()}
_BYES: dict[Code, ByePoints] = {Code.HALF_BYE: "half", Code.FULL_BYE: "full", Code.ZERO_BYE: "zero"}


def events_from_tournament(
    t: Tournament,
    *,
    tiebreaks: Sequence[str] | None = None,
    edition: EditionName | None = None,
    unrated_rating: int | None = None,
    teams: Sequence[Roster] = (),
    announced: Sequence[tuple[int, int, Code]] = (),
) -> list[AnyEvent]:
    """The events that replay to `t`: same participants, and per round the same entries;
    with `teams`, a team tournament (a TeamRegistered per team after the players).

    `tiebreaks` overrides the file's list (default: the file's, else the system's default).
    `announced`: byes requested for rounds after the last played one (round, start number,
    H/F/Z code), logged after the last round's events; one already in `t`'s entries once.
    Raises `ImportUnsupported` for what no event expresses (short games W/D/L, unknown X, a
    game without colours, pairing-allocated byes of two teams in one round)."""
    if t.rounds < 1:
        raise ImportUnsupported.of("import.no_rounds")
    participants = sorted(t.participants, key=lambda p: p.start_no)
    played = t.played_rounds
    width = max((len(p.entries) for p in participants), default=0)
    withdrawn = {p.start_no: r for p in participants if (r := withdrawal(t, p, played))}
    s = t.scoring
    defaults = DEFAULT_TEAM_TIEBREAKS if teams else DEFAULT_TIEBREAKS
    events: list[AnyEvent] = [
        TournamentCreated(
            name=t.name or "Untitled tournament",
            rounds=t.rounds,
            system=t.system,
            kind="team" if teams else "individual",
            scoring=ScoringSpec(win=s.win, draw=s.draw, loss=s.loss, absent=s.absent, pab=s.pab),
            tiebreaks=tuple(tiebreaks or t.tiebreaks or defaults[t.system]),
            edition=edition,
            unrated_rating=unrated_rating,
            start_date=t.start_date,
        )
    ]
    events += [
        ParticipantRegistered(
            start_no=p.start_no,
            name=p.name or f"Player {p.start_no}",
            rating=p.rating,
            title=p.title,
            federation=p.federation,
            fide_id=p.fide_id,
            sex=p.sex,
            birth_date=p.birth_date,
        )
        for p in participants
    ]
    events += [TeamRegistered(number=r.number, name=r.name, members=r.members) for r in teams]
    team_of = {no: r.number for r in teams for no in r.members}
    for rnd in range(1, width + 1):
        if rnd <= played:
            events += [
                ParticipantWithdrawn(start_no=no, from_round=rnd)
                for no, since in withdrawn.items()
                if since == rnd
            ]
        events += _byes(t, participants, rnd, played, withdrawn)
        if rnd <= played:
            events += _round(t, participants, rnd, team_of)
    logged = {(e.round, e.start_no) for e in events if isinstance(e, ByeRequested)}
    for rnd, no, code in announced:
        if not played < rnd <= t.rounds:
            raise ImportUnsupported.of(
                "import.bye_round", round=rnd, no=no, played=played, rounds=t.rounds
            )
        gone = code is Code.ZERO_BYE and rnd >= withdrawn.get(no, rnd + 1)  # implied by it
        if (rnd, no) not in logged and not gone:
            logged.add((rnd, no))
            events.append(ByeRequested(start_no=no, round=rnd, points=_BYES[code]))
    return events


def withdrawal(t: Tournament, p: Participant, played: int) -> int | None:
    """The round a trailing run of unpaired `Z` (up to the last played round) starts, if it
    reads as a withdrawal."""
    start = played + 1
    while start > 1 and p.entry(start - 1).code is Code.ZERO_BYE:
        start -= 1
    length = played + 1 - start
    if length >= 2 or (length == 1 and t.system == "swiss" and played == t.rounds):
        return start
    return None


def _byes(
    t: Tournament, participants: list[Participant], rnd: int, played: int, withdrawn: dict[int, int]
) -> list[AnyEvent]:
    byes: list[AnyEvent] = []
    for p in participants:
        code = p.entry(rnd).code
        if code not in _BYES or rnd >= withdrawn.get(p.start_no, rnd + 1):
            continue
        if code is Code.ZERO_BYE and (rnd > played or t.system == "roundrobin"):
            continue  # not paired (yet), or a round robin's rest round
        byes.append(ByeRequested(start_no=p.start_no, round=rnd, points=_BYES[code]))
    return byes


def _round(
    t: Tournament, participants: list[Participant], rnd: int, team_of: dict[int, int]
) -> list[AnyEvent]:
    by_no = {p.start_no: p for p in participants}
    seated: set[int] = set()
    boards: list[Board] = []
    results: list[AnyEvent] = []
    pabs = [p.start_no for p in participants if p.entry(rnd).code is Code.PAB]
    team_bye: tuple[int, ...] = ()
    if len(pabs) > 1 and len({team_of.get(no) for no in pabs}) == 1 and pabs[0] in team_of:
        team_bye, pabs = tuple(pabs), []  # a whole team's bye: players of one team only
    if len(pabs) > 1 and team_of:  # a team's bye is the whole team's: not two teams' players
        listed = ", ".join(f"#{no}" for no in pabs)
        raise ImportUnsupported.of("import.pabs", round=rnd, count=len(pabs), listed=listed)
    pairs: list[tuple[int, int]] = []
    for p in participants:
        mine = p.entry(rnd)
        if mine.opponent is None or p.start_no in seated:
            continue
        theirs = by_no[mine.opponent].entry(rnd)
        if mine.colour is None or theirs.colour is None:
            raise ImportUnsupported.of(
                "import.no_colours", round=rnd, white=p.start_no, black=mine.opponent
            )
        me, them = p.start_no, mine.opponent
        seated |= {me, them}
        pairs.append((me, them) if mine.colour == "w" else (them, me))
    if not team_of:  # an individual round as the pairing program publishes it
        pairs = [(b.white, b.black) for b in _published(t, pairs, rnd)]
    for white, black in pairs:
        w_code, b_code = by_no[white].entry(rnd).code, by_no[black].entry(rnd).code
        board = len(boards) + 1
        if w_code is Code.PENDING and b_code is Code.PENDING:
            boards.append(Board(board, white, black))  # paired, being played: no result yet
            continue
        result = RESULTS.get((w_code, b_code))
        if result is None:
            raise ImportUnsupported.of(
                "import.result_codes",
                round=rnd,
                white=white,
                black=black,
                codes=f"{w_code.value}/{b_code.value}",
            )
        boards.append(Board(board, white, black))
        results.append(ResultRecorded(round=rnd, board=board, result=result))
    bye, more = (pabs[0], tuple(pabs[1:])) if pabs else (None, ())
    paired = RoundPaired(
        round=rnd, boards=tuple(boards), bye=bye, team_bye=team_bye, more_byes=more
    )
    if len(results) < len(boards):
        return [paired, *results]  # the running round: the arbiter closes it (CloseRound)
    return [paired, *results, RoundClosed(round=rnd)]


def _published(t: Tournament, pairs: list[tuple[int, int]], rnd: int) -> list[Board]:
    """The pairs numbered as a pairing program publishes them (`round_boards`'s order)."""
    table = berger_order(pairs, len(t.participants), rnd) if t.system == "roundrobin" else None
    if table is None:
        table = publication_order(pairs, scores_before(t, rnd))
    return [Board(i, w, b) for i, (w, b) in enumerate(table, start=1)]


def team_rosters(imported: TrfImport, file: str) -> tuple[Roster, ...]:
    """The teams of a team file, when its matches follow from the rosters and the board games
    alone (what the log records); the records that say more are refused by number."""
    if not imported.is_team:
        return ()
    rosters = tuple(Roster(t.number, t.name, t.members) for t in imported.teams)
    if imported.team_event != build_team_event(imported.tournament, rosters):
        raise ImportUnsupported.of("import.team_records", file=file)
    return rosters
