"""What a sync checks before it plans: that the file has a round count, is not older than the
files synced before, and is this tournament's.

- **Round count.** A new tournament takes the file's (`142`, else `XXR`) or the caller's; a
  file that declares none and a caller that gives none is refused, never guessed. An existing
  tournament keeps its own: a file or a caller naming another is refused with both numbers.
- **Stale.** The log keeps what the last synced file showed (`FileSynced`): a file pairing
  fewer rounds, or showing fewer results in a round, is older; so is a file holding a result
  that a sync already corrected away, or one lacking a participant an earlier file brought.
- **Another tournament's.** Its `012` name differs from the last synced file's, or a start
  number of the log is another person in the file (one missing from it is a late entry the
  file predates, or the console's). A person is the same when the FIDE ids
  agree (a rating, a title or a name's typo may change); without FIDE ids, when the birth
  years do not differ and the names are the same up to a typo.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from difflib import SequenceMatcher

from livetb.engine.model import Code, Participant, Tournament
from livetb.errors import RoundsDiffer, RoundsRequired, Said
from livetb.events.schema import (
    FileSynced,
    GameResult,
    ParticipantRegistered,
    Recorded,
    ResultCorrected,
    ResultRecorded,
)
from livetb.events.state import TournamentState
from livetb.interchange.importer import RESULTS

# Two names of one person differing by a typo are this close (difflib's ratio): "Hansen,
# Dina" and "Hansen-Berg, Dina" are 0.83; two different people rarely pass 0.6.
_SAME_NAME = 0.8


def round_count(
    state: TournamentState, declared: int | None, given: int | None, width: int, source: str
) -> int:
    """The tournament's round count once the file is synced (see the module's docstring)."""
    created = state.created
    if created is not None:
        have = created.rounds
        if declared is not None and declared != have:
            raise RoundsDiffer.of("rounds.file_declares", file=source, declared=declared, have=have)
        if given is not None and given != have:
            raise RoundsDiffer.of("rounds.have_already", given=given, have=have)
        return have
    if declared is not None and given is not None and declared != given:
        declares = Said("rounds.given_declared", given=given, file=source, declared=declared)
        raise RoundsDiffer.of("rounds.nothing_written", reason=declares)
    count = given if given is not None else declared
    if count is None:
        raise RoundsRequired(source)
    if width > count:
        raise RoundsDiffer.of("rounds.wider", given=count, file=source, width=width)
    return count


def file_results(t: Tournament) -> dict[tuple[int, int, int], GameResult]:
    """(round, white, black) -> the result the file gives the game, for its games with one."""
    found: dict[tuple[int, int, int], GameResult] = {}
    by_no = {p.start_no: p for p in t.participants}
    for p in t.participants:
        for rnd, e in enumerate(p.entries, start=1):
            if e.opponent is None or e.colour != "w" or e.code is Code.PENDING:
                continue
            other = by_no.get(e.opponent)
            if other is None:
                continue
            result = RESULTS.get((e.code, other.entry(rnd).code))
            if result is not None:
                found[(rnd, p.start_no, e.opponent)] = result
    return found


def record(t: Tournament, source: str) -> FileSynced:
    """What the file shows: its name, paired rounds and results per round."""
    played = t.played_rounds
    counts = [0] * played
    for rnd, _white, _black in file_results(t):
        if rnd <= played:
            counts[rnd - 1] += 1
    return FileSynced(source=source, name=t.name, rounds=played, results=tuple(counts))


def same_showing(a: FileSynced | None, b: FileSynced) -> bool:
    """The same content under any file name: a re-read adds nothing."""
    return a is not None and (a.name, a.rounds, a.results) == (b.name, b.rounds, b.results)


def stale_reasons(
    state: TournamentState,
    records: Sequence[Recorded],
    mine: FileSynced,
    results: Mapping[tuple[int, int, int], GameResult],
    names: Mapping[int, str],
    people: Sequence[Participant],
) -> list[Said]:
    """Why the file is older than what the log took from files (none: it is not)."""
    reasons: list[Said] = []
    last = state.synced
    if last is not None:
        if mine.rounds < last.rounds:
            reasons.append(
                Said(
                    "sync.why.fewer_rounds",
                    rounds=mine.rounds,
                    source=last.source,
                    before=last.rounds,
                )
            )
        for rnd, (now, before) in enumerate(zip(mine.results, last.results, strict=False), 1):
            if now < before:
                said = Said(
                    "sync.why.fewer_results", round=rnd, now=now, source=last.source, before=before
                )
                reasons.append(said)
    theirs = {p.start_no for p in people}
    for rec in records:
        e = rec.event
        if isinstance(e, ParticipantRegistered) and by_sync(rec.actor) and e.start_no not in theirs:
            reasons.append(Said("sync.why.missing_entrant", start_no=e.start_no, name=e.name))
    for (rnd, board), (old, new, reason) in sync_corrections(records).items():
        game = state.rounds[rnd].games[board]
        if results.get((rnd, game.white, game.black)) == old:
            corrected = Said(
                "sync.why.corrected",
                round=rnd,
                board=board,
                white=names.get(game.white, "?"),
                black=names.get(game.black, "?"),
                old=f"{old}",
                new=f"{new}",
                reason=reason,
            )
            reasons.append(corrected)
    return reasons


def sync_corrections(
    records: Sequence[Recorded],
) -> dict[tuple[int, int], tuple[GameResult, GameResult, str]]:
    """(round, board) -> (result before, after, reason) of boards last changed by a sync's
    correction."""
    value: dict[tuple[int, int], GameResult] = {}
    corrected: dict[tuple[int, int], tuple[GameResult, GameResult, str]] = {}
    for rec in records:
        event = rec.event
        if isinstance(event, ResultRecorded | ResultCorrected):
            key = (event.round, event.board)
            before = value.get(key)
            value[key] = event.result
            corrected.pop(key, None)
            if isinstance(event, ResultCorrected) and before is not None and by_sync(rec.actor):
                corrected[key] = (before, event.result, event.reason)
    return corrected


ACTOR = "sync"  # the CLI's; the API's is "sync:" and the token's actor


def by_sync(actor: str | None) -> bool:
    return actor is not None and (actor == ACTOR or actor.startswith(ACTOR + ":"))


def foreign_differences(
    state: TournamentState, t: Tournament, people: Sequence[Participant]
) -> list[Said]:
    """How the file is another tournament's (none: it is this one's)."""
    differences: list[Said] = []
    last = state.synced
    if last is not None and last.name and t.name and _plain(last.name) != _plain(t.name):
        named = Said("sync.why.other_name", name=t.name, source=last.source, before=last.name)
        differences.append(named)
    theirs = {p.start_no: p for p in people}
    for no, known in sorted(state.participants.items()):
        p = theirs.get(no)  # one missing is a late entry the file predates, or the console's
        if p is not None and not same_person(known, p):
            who = Said("sync.why.other_person", start_no=no, log=_who(known), file=_who(p))
            differences.append(who)
    return differences


def same_person(a: Participant, b: Participant) -> bool:
    """Whether two records name one person (see the module's docstring)."""
    ida, idb = a.fide_id.strip().lstrip("0"), b.fide_id.strip().lstrip("0")
    if ida and idb:
        return ida == idb
    ya, yb = _year(a.birth_date), _year(b.birth_date)
    if ya and yb and ya != yb:
        return False
    x, y = _plain(a.name), _plain(b.name)
    return x == y or SequenceMatcher(None, x, y).ratio() >= _SAME_NAME


def _plain(name: str) -> str:
    """A name without accents, case, punctuation or repeated blanks."""
    bare = unicodedata.normalize("NFKD", name)
    kept = "".join(c for c in bare if c.isalnum() or c.isspace()).casefold()
    return " ".join(kept.split())


def _year(birth: str) -> str:
    text = birth.strip()
    return text[:4] if len(text) >= 4 and text[:4].isdigit() else ""


def _who(p: Participant) -> str:
    extra = [x for x in (f"FIDE {p.fide_id}" if p.fide_id else "", _year(p.birth_date)) if x]
    return f"“{p.name}”" + (f" ({', '.join(extra)})" if extra else "")
