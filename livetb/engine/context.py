"""The state every tie-break reads: a tournament seen after round K, with the per-participant
facts of C.07 2024 Art. 16 (2023: Art. 14) computed once and cached.

A `Context` is immutable input plus memoised derived values, so computing one tie-break for a
few participants (the live projections' need) only touches those participants and their
opponents.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from functools import cached_property

import msgspec

from livetb.engine.editions import Edition, edition_for
from livetb.engine.model import NOT_PAIRED, PLAYED, Code, Colour, Participant, Tournament

ZERO = Decimal(0)
# BH-family terms: scores, voluntary, points scored (None when every round is a term: the
# rounds' own points). Tuples of plain values, which the garbage collector stops tracking, as
# the caches live long.
Terms = tuple[tuple[Decimal, ...], tuple[bool, ...], tuple[Decimal, ...] | None]
# Where a row's BH-family terms come from (`Context.term_plan`): the opponents whose scores
# are terms, and per own unplayed round the opponent whose score caps it (0: none).
Plan = tuple[tuple[int, ...], tuple[int, ...]]


class Round(msgspec.Struct, frozen=True, gc=False):
    """One participant's round as the tie-breaks see it."""

    rnd: int
    code: Code
    opponent: int | None  # the scheduled opponent, also for forfeits; None for byes
    colour: Colour | None
    points: Decimal

    @property
    def played(self) -> bool:
        """Played over the board (C.07 2024 16.1: every other round is unplayed)."""
        return self.code.played

    @property
    def available(self) -> bool:
        """2024 16.2.1 / 2023 14.1.3: played, PAB, forfeit win or full-point bye."""
        return not self.voluntary

    @property
    def voluntary(self) -> bool:
        """Requested byes, absences and forfeit losses: the rounds cut first (2024 16.5)."""
        return self.code in _VOLUNTARY


_VOLUNTARY = frozenset({Code.HALF_BYE, Code.ZERO_BYE, Code.FORFEIT_LOSS})


def _paired(code: Code, opponent: int | None) -> bool:
    """A round with a pairing: an opponent, or a PAB."""
    return opponent is not None or code is Code.PAB


class Context:
    """A tournament after round `upto`, under one edition's rules."""

    def __init__(
        self,
        tournament: Tournament,
        upto: int | None = None,
        *,
        edition: Edition | None = None,
        as_final: bool = False,
        unrated_rating: int | None = None,
        unfinished: Code = Code.PENDING,
    ) -> None:
        self.tournament = tournament
        self.upto = tournament.played_rounds if upto is None else upto
        self.edition = edition or edition_for(tournament.start_date)
        self.rr = tournament.system == "roundrobin"
        self.unrated_rating = unrated_rating
        # Per-round explanations (`--explain`) cost time; the live projections skip them.
        self.explain = True
        self.scoring = tournament.scoring
        self.win = tournament.scoring.win
        self.draw = tournament.scoring.draw
        # Fore-Buchholz treats round K as the last one: when asked, or when it really is.
        self.final = as_final or self.upto >= tournament.rounds
        self.by_no: dict[int, Participant] = {p.start_no: p for p in tournament.participants}
        self._points = {code: tournament.scoring.points(code) for code in Code}
        # What an entry's code counts as here: an unfinished game as `unfinished` (a draw in
        # the live projections' projected view), which reads the same entries as the others.
        self._as = {code: code for code in Code}
        self._as[Code.PENDING] = unfinished
        # Per-participant facts, each computed once; `update` forgets exactly what it changes.
        self._rounds: dict[int, tuple[Round, ...]] = {}
        self._score: dict[int, Decimal] = {}
        self._score_before_last: dict[int, Decimal] = {}  # rounds 1..K-1 (FB's adjustment)
        self._last_available: dict[int, int] = {}
        self._last_paired: dict[int, int] = {}
        self._met: dict[int, tuple[int, ...]] = {}
        # Scores as an opponent, without and with FB's adjustment (indexed by `fore`).
        self.adjusted_cache: tuple[dict[int, Decimal], dict[int, Decimal]] = ({}, {})
        # BH-family terms (buchholz.py), without and with FB's adjustment (indexed by `fore`):
        # shared by BH, its cuts, FB and SB.
        self.bh_terms: tuple[dict[int, Terms], dict[int, Terms]] = ({}, {})
        # Where a row's BH-family terms come from (`term_plan`), indexed by `fore`.
        self._plans: tuple[dict[int, Plan | None], dict[int, Plan | None]] = ({}, {})
        # ... and their totals, by cut and SB (`buchholz.total_of`'s key), then participant.
        self.bh_sums: tuple[dict[int, dict[int, Decimal]], dict[int, dict[int, Decimal]]] = (
            {},
            {},
        )
        # Values other tie-breaks read (AOB reads opponents' BH, APRO their TPR), by (code, no).
        self.memo: dict[tuple[str, int], object] = {}

    @property
    def start_nos(self) -> list[int]:
        return list(self.by_no)

    def update(self, participants: list[Participant], rnd: int | None = None) -> None:
        """Take new entries for some participants (a result, a correction, a bye) and forget
        exactly what depended on them: their rounds and scores, their TPR/PTP, and the BH of
        them and their opponents (which AOB reads). `rnd`: the only round whose entries
        changed (the caller's promise), where rounds already built are mended, not built
        again."""
        nos = [p.start_no for p in participants]
        for p in participants:
            self.by_no[p.start_no] = p
        touched = set(nos)
        memo, rounds = self.memo, self._rounds
        for no in nos:
            old = rounds.pop(no, None)
            if old is not None:
                touched.update(r.opponent for r in old if r.opponent is not None)
            self._score.pop(no, None)
            self._score_before_last.pop(no, None)
            self._last_available.pop(no, None)
            self._last_paired.pop(no, None)
            self._met.pop(no, None)
            self._plans[0].pop(no, None)
            self._plans[1].pop(no, None)
            self.adjusted_cache[0].pop(no, None)
            self.adjusted_cache[1].pop(no, None)
            memo.pop(("TPR", no), None)
            memo.pop(("PTP", no), None)
            if old is not None and rnd is not None and rnd <= len(old):
                e = self.by_no[no].entry(rnd)
                code = self._as[e.code]
                rounds[no] = (
                    *old[: rnd - 1],
                    Round(rnd, code, e.opponent, e.colour, self._points[code]),
                    *old[rnd:],
                )
                if e.opponent is not None:
                    touched.add(e.opponent)
            else:
                touched.update(r.opponent for r in self.rounds(no) if r.opponent is not None)
        plain, fore = self.bh_terms
        sums_by_cut = (*self.bh_sums[0].values(), *self.bh_sums[1].values())
        for no in touched:  # BH-type values read the opponents' scores
            memo.pop(("BH", no), None)
            plain.pop(no, None)
            fore.pop(no, None)
            for sums in sums_by_cut:
                sums.pop(no, None)
        self.__dict__.pop("rated", None)

    def seed_rounds(self, previous: Context, nos: Iterable[int] | None = None) -> None:
        """Take the rounds `previous` has built, and what is read from them (scores, opponents;
        for the same round K also the last available and paired rounds), when its
        participants' entries for rounds 1..previous.upto are this context's (the caller's
        promise: the same tournament, at most one round earlier). A round K+1 is read from
        this context's entries. `nos`: a round K+1 for these participants only (a large field
        seeded a part at a time), but those built here already (read, or changed by `update`,
        since) are left as they are."""
        assert self.upto - 1 <= previous.upto <= self.upto
        if previous.upto == self.upto:
            assert nos is None and not self._rounds
            self._rounds.update(previous._rounds)
            self._met.update(previous._met)
            self._score.update(previous._score)
            self._score_before_last.update(previous._score_before_last)
            self._last_available.update(previous._last_available)
            self._last_paired.update(previous._last_paired)
            if self.final == previous.final:  # the same terms: `fore` means the same
                self._plans[0].update(previous._plans[0])
                self._plans[1].update(previous._plans[1])
            return
        rnd, points, as_, by_no = self.upto, self._points, self._as, self.by_no
        rounds, met_of, score_of, before_of = (
            self._rounds,
            self._met,
            self._score,
            self._score_before_last,
        )
        scores, mets = previous._score, previous._met
        plans_before, (plain_plans, fore_plans) = previous._plans[0], self._plans
        rr, adjusted, usual = self.rr, self.adjusted_cache[0], self.edition is not Edition.LEGACY
        built = previous._rounds
        items = (
            built.items()
            if nos is None
            else [(no, built[no]) for no in nos if no in built and no not in rounds]
        )
        # The last available and paired rounds are left to be read again (`last_available`):
        # only unusual rows' opponents' scores ask for them.
        for no, old in items:
            p = by_no.get(no)
            if p is not None:
                e = p.entry(rnd)
                code, opp = as_[e.code], e.opponent
                got = points[code]
                rounds[no] = (*old, Round(rnd, code, opp, e.colour, got))
                met = mets.get(no)
                if met is not None:
                    met_of[no] = (*met, opp) if code in PLAYED and opp is not None else met
                # `score`'s sum goes on with one more term (the same Decimal).
                score = scores.get(no)
                if score is not None:
                    score_of[no] = total = score + got
                    before_of[no] = score
                    if usual and code not in _VOLUNTARY:  # `_adjusted_sum`'s first case
                        adjusted[no] = total
                # Rounds 1..K's terms stay what they were (round K no longer FB's final
                # round: the plain plan); round K+1 adds one (`term_plan`).
                if no in plans_before:
                    plan = plans_before[no]
                    if plan is None:
                        plain_plans[no] = fore_plans[no] = None
                    elif opp is not None and (code in PLAYED or rr):
                        opps, owns = plan
                        plain_plans[no] = fore_plans[no] = ((*opps, opp), owns)
                    elif rr:  # a round robin's rest round is no term
                        plain_plans[no] = fore_plans[no] = plan
                    elif not usual:  # a virtual opponent (legacy)
                        plain_plans[no] = fore_plans[no] = None
                    else:
                        opps, owns = plan
                        plain_plans[no] = (opps, (*owns, opp or 0))
                        # FB's final round: any pairing is a game against the opponent.
                        fore_plans[no] = ((*opps, opp), owns) if opp else plain_plans[no]

    def rounds(self, no: int) -> tuple[Round, ...]:
        """Rounds 1..K of participant `no`."""
        cached = self._rounds.get(no)
        if cached is None:
            entries = self.by_no[no].entries
            known, points, as_ = len(entries), self._points, self._as
            cached = tuple(
                Round(r, code, e.opponent, e.colour, points[code])
                for r in range(1, self.upto + 1)
                for e in (entries[r - 1] if r <= known else NOT_PAIRED,)
                for code in (as_[e.code],)
            )
            self._rounds[no] = cached
        return cached

    def term_plan(self, no: int, fore: bool) -> Plan | None:
        """Where the BH-family terms of rounds 1..K come from (`buchholz._term`): the
        opponents whose adjusted scores are terms (a game played, any paired round of a round
        robin, or FB's final round), and for each own unplayed round the scheduled opponent
        whose score may cap the own score (2026 16.4; 0: no opponent). None under the legacy
        rules when a round is unplayed (a virtual opponent). `fore`: FB's adjustment in the
        final round (`fore and self.final`)."""
        cache = self._plans[fore]
        if no in cache:
            return cache[no]
        last = self.upto if fore else 0
        rr, legacy = self.rr, self.edition is Edition.LEGACY
        opps: list[int] = []
        owns: list[int] = []
        for r in self.rounds(no):
            opp = r.opponent
            if opp is not None and (r.code in PLAYED or rr or r.rnd == last):
                opps.append(opp)
            elif legacy and not rr:
                cache[no] = None
                return None
            elif not rr:  # a round robin's rest round is no term
                owns.append(opp or 0)
        found = cache[no] = (tuple(opps), tuple(owns))
        return found

    def term_opponents(self, no: int, fore: bool) -> tuple[int, ...] | None:
        """The opponents of rounds 1..K when each round's BH-family term is the opponent's
        adjusted score (`term_plan` with a term per round, none an own unplayed round; a round
        robin's rest round is no term); None otherwise."""
        plan = self.term_plan(no, fore)
        if plan is None or plan[1] or len(plan[0]) != self.upto:
            return None
        return plan[0]

    def met(self, no: int) -> tuple[int, ...]:
        """The opponents played over the board in rounds 1..K (a tuple of ints, which the
        garbage collector stops tracking: a set per participant would stay tracked)."""
        cached = self._met.get(no)
        if cached is None:
            cached = tuple([r.opponent for r in self.rounds(no) if r.played])  # type: ignore[misc]
            self._met[no] = cached
        return cached

    def score(self, no: int) -> Decimal:
        """Standings points after round K."""
        cached = self._score.get(no)
        if cached is None:
            cached = self._score[no] = sum([r.points for r in self.rounds(no)], ZERO)
        return cached

    def score_before_last(self, no: int) -> Decimal:
        """Standings points after round K-1 (the same sum as `score`'s, one term shorter)."""
        cached = self._score_before_last.get(no)
        if cached is None:
            rounds = self.rounds(no)[:-1]
            cached = self._score_before_last[no] = sum([r.points for r in rounds], ZERO)
        return cached

    def last_available(self, no: int) -> int:
        """Last round that is available-to-play (0 if none): later requested byes are draws."""
        cached = self._last_available.get(no)
        if cached is None:
            cached = max([r.rnd for r in self.rounds(no) if r.code not in _VOLUNTARY], default=0)
            self._last_available[no] = cached
        return cached

    def last_paired(self, no: int) -> int:
        """Last round with an opponent or a PAB, i.e. with a pairing."""
        cached = self._last_paired.get(no)
        if cached is None:
            cached = max([r.rnd for r in self.rounds(no) if _paired(r.code, r.opponent)], default=0)
            self._last_paired[no] = cached
        return cached

    def fore_adjusts(self, no: int) -> bool:
        """FB (2024 9.4): the final round's game of this participant is taken as a draw."""
        if not self.final or self.upto == 0:
            return False
        return self.rounds(no)[-1].opponent is not None

    def own_score(self, no: int, fore: bool) -> Decimal:
        """The score an own unplayed round is worth before any cap (2024 16.4)."""
        score = self.score(no)
        if fore and self.fore_adjusts(no):
            score += self.draw - self.rounds(no)[-1].points
        return score

    def adjusted(self, no: int, fore: bool = False) -> Decimal:
        """The participant's score as an opponent (2024 16.3, 2023 14.4)."""
        fore = fore and self.final  # `fore` only matters when round K is the last one
        cache = self.adjusted_cache[fore]
        cached = cache.get(no)
        if cached is None:
            cached = cache[no] = self._adjusted_sum(no, fore)
        return cached

    def _adjusted_sum(self, no: int, fore: bool) -> Decimal:
        """The sum of `adjusted_round` over rounds 1..K. The usual cases add the same amounts
        in the same order without asking round by round (so the same Decimal, exponent
        included): available up to round K, or FB's round K game taken as a draw."""
        rounds = self.rounds(no)
        if rounds and self.edition is not Edition.LEGACY:
            # Round K alone tells the usual cases (rounds are in order): it is the last paired
            # one exactly when it is paired, the last available one when it is available.
            last = rounds[-1]
            if fore and last.rnd == self.upto and _paired(last.code, last.opponent):
                if last.opponent is not None:
                    return self.score_before_last(no) + self.draw
                return self.score(no)  # every round up to K counts as followed
            if last.code not in _VOLUNTARY:
                return self.score(no)
        return sum((self.adjusted_round(no, r, fore) for r in rounds), ZERO)

    def adjusted_round(self, no: int, r: Round, fore: bool) -> Decimal:
        """What round `r` of participant `no` adds to its score as an opponent."""
        if self.edition is Edition.LEGACY:
            # Seed 004, principle 2: every unplayed game is a draw for the opponents.
            return r.points if r.played else self.draw
        last = self.last_available(no)
        if fore and self.final and self.last_paired(no) == self.upto:
            last = self.upto  # a pairing in the final round makes every earlier round "followed"
            if r.rnd == self.upto and r.opponent is not None:
                return self.draw
        if r.rnd <= last:
            return r.points
        if r.opponent is not None:
            if self.edition.final_forfeit_loss_is_draw and not self.rr:
                return self.draw  # 2023 14.3.5: forfeit loss not followed by an available round
            return r.points  # 2024/2026: a forfeit loss stays a loss
        # Requested byes and absences to the end (2024 16.3.2); a round robin's rest round is 0.
        return ZERO if self.rr else self.draw

    def category(self, no: int, r: Round) -> int | None:
        """The unplayed-round category n of 2024 16.2.n (= 2023 14.3.n); None when played.

        1: PAB, forfeit win, full-point bye; 2/4: requested bye followed / not followed by an
        available round; 3/5: forfeit loss followed / not followed.
        """
        if r.played:
            return None
        if r.available:
            return 1
        followed = r.rnd < self.last_available(no)
        if r.code is Code.FORFEIT_LOSS:
            return 3 if followed else 5
        return 2 if followed else 4

    @cached_property
    def rated(self) -> bool:
        """Rating-based tie-breaks are defined (2024 4.5): everyone rated, or a default given."""
        return self.unrated_rating is not None or all(
            p.rating is not None for p in self.by_no.values()
        )

    def rating(self, no: int) -> int | None:
        r = self.by_no[no].rating
        return self.unrated_rating if r is None else r
