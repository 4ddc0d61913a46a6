"""The engine contexts a running tournament's standings are read through (`Contexts`), and
how each event moves them forward without building them again; DE's shortcuts for big groups.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable

import msgspec

from livetb.engine.context import Context
from livetb.engine.editions import Edition
from livetb.engine.model import Code, Entry, Participant, Tournament
from livetb.engine.spec import Spec
from livetb.events.state import TournamentState
from livetb.projections.steps import CHUNK, Steps, chunks
from livetb.projections.views import status_of, view_of
from livetb.wire.standings import Status

_NEVER = 10**9  # a group size never reached


class Contexts:
    """The engine contexts a tournament's state is read through.

    `live` (rounds 1..K, unfinished games 0), `done` (rounds 1..C; once K is closed, the
    same object as `live`, or as `projected` when no game is unfinished, reading the same
    entries), `fore` (round K as the last one) and `projected` (unfinished games as draws).
    A round event derives the next set from the previous one: a pairing only appends round
    K+1 to every entry list and leaves `done` as it is, a close keeps `live`, `fore` and
    `projected`, whose inputs it does not change.

    Right after a pairing whose earlier rounds are all closed, FB is read as BH on `projected`
    (`source`): with no result yet in round K, taking its games as drawn because it is the
    last round (FB) or because they are unfinished (the projected BH) gives every opponent the
    same score and every row the same terms, so FB's values are the projected BH's (with FB's
    cuts), computed once and cached there from the previous round, not on a context of their
    own. The first update (a result, which FB predictions do not read but the projected view
    does) ends it.
    """

    def __init__(
        self,
        state: TournamentState,
        live: Context,
        done: Context,
        fore: Context | None,
        projected: Context,
        fore_due: dict[int, Participant] | None = None,
        drawn_fore: bool = False,
        seeding: tuple[Context, list[int]] | None = None,
    ) -> None:
        self.paired, self.closed = state.paired, state.closed
        self.running = self.paired > self.closed
        self.live, self.done, self.projected = live, done, projected
        # `fore` is built when first read (a pairing's FB is read on `projected`, and the
        # running round's results are not read at all), from `live` as it is then.
        self._fore = fore
        # New entries `fore` has not taken yet: results of the running round's games, which
        # its values do not read (`update`); it takes them before anything reads it.
        self._fore_due = fore_due or {}
        self._drawn_fore = drawn_fore
        # `live`'s rows still to take from the context before the pairing (`seed`).
        self._seeding = seeding
        self.inseparable = inseparable(live)  # DE's, on `live`

    @property
    def fore(self) -> Context:
        fore = self._fore
        if fore is None:
            live = self.live
            current = tuple(live.by_no[no] for no in sorted(live.by_no))
            t = msgspec.structs.replace(live.tournament, participants=current)
            fore = self._fore = Context(
                t,
                live.upto,
                edition=live.edition,
                as_final=True,
                unrated_rating=live.unrated_rating,
            )
            fore.explain = False
            fore.seed_rounds(live)
        elif self._fore_due:
            fore.update(list(self._fore_due.values()))
        self._fore_due = {}
        return fore

    @classmethod
    def fresh(cls, state: TournamentState) -> Contexts:
        live = state.tournament()
        paired, closed = state.paired, state.closed
        live_ctx = _context(state, live, paired)
        done = live_ctx if closed == paired else _context(state, live, closed)
        return cls(state, live_ctx, done, None, _context(state, live, paired, drawn=True))

    def after_pairing(self, state: TournamentState, chunk: int = CHUNK) -> Steps[Contexts | None]:
        """Round K+1 paired: rounds 1..K and the closed rounds' context are unchanged (None
        when the event is anything else). In steps of `chunk` participants."""
        paired, live_by = state.paired, self.live.by_no
        if (
            paired != self.paired + 1
            or state.closed != self.closed
            or live_by.keys() != state.participants.keys()
        ):
            return None
        nos = sorted(live_by)
        yield
        live: list[Participant] = []
        replace = msgspec.structs.replace
        for part in chunks(nos, chunk):
            for no in part:
                p = live_by[no]
                if len(p.entries) != self.paired:
                    return None
                live.append(replace(p, entries=(*p.entries, state.entry(no, paired))))
            yield
        live_t = msgspec.structs.replace(self.live.tournament, participants=tuple(live))
        live_ctx = _context(state, live_t, paired)
        yield
        projected = _context(state, live_t, paired, drawn=True)
        yield
        for part in chunks(nos, chunk):
            projected.seed_rounds(self.projected, part)  # rounds 1..K as they were, K+1 added
            yield
        # `live`'s rows are taken when the pairing knows which it reads there (`seeding_now`),
        # the others later (`seed`), or built when first read.
        drawn = state.closed == paired - 1 and _drawn_is_fore(live_ctx)
        seeding = (self.live, nos)
        return Contexts(
            state, live_ctx, self.done, None, projected, drawn_fore=drawn, seeding=seeding
        )

    @property
    def drawn_fore(self) -> bool:
        """FB is read on `projected`, as the projected BH (`source`)."""
        return self._drawn_fore

    @property
    def seeding(self) -> bool:
        """Some of `live`'s rows are still to be taken from the context before the pairing."""
        return self._seeding is not None

    def seeding_now(self, nos: Collection[int], chunk: int) -> Steps[None]:
        """`live`'s rows `nos` taken now (those a pairing reads there), `chunk` at a time."""
        if self._seeding is None:
            return
        previous = self._seeding[0]
        for part in chunks(list(nos), chunk):
            self.live.seed_rounds(previous, part)
            yield

    def seed(self, count: int) -> Context | None:
        """Take `count` more of `live`'s rows from the context before the pairing (the
        server's work between events: one round added to the rounds built there, where a row
        first read is built from its entries); once every row is taken, that context, which
        nothing reads any more."""
        assert self._seeding is not None
        previous, nos = self._seeding
        self.live.seed_rounds(previous, nos[-count:])
        del nos[-count:]
        if nos:
            return None
        self._seeding = None
        return previous

    def after_close(self, state: TournamentState) -> Contexts | None:
        """A round closed: only the closed rounds' context moves (to `live` once K closes)."""
        if state.paired != self.paired:
            return None
        if state.closed == self.closed:
            done = self.done
        elif state.closed == state.paired:
            # With every game finished, counting unfinished games as draws changes nothing:
            # `projected` reads the same entries as `live`, and has most values cached.
            # A closed round is complete: closing one with a game unfinished is refused.
            finished = all(r.closed or r.complete for r in state.rounds.values())
            done = self.projected if finished else self.live
        else:
            current = tuple(self.live.by_no[no] for no in sorted(self.live.by_no))
            t = msgspec.structs.replace(self.live.tournament, participants=current)
            done = _context(state, t, state.closed)
        return Contexts(
            state,
            self.live,
            done,
            self._fore,
            self.projected,
            self._fore_due,
            seeding=self._seeding,
        )

    def enter(self, state: TournamentState, nos: Iterable[int]) -> None:
        """New or changed participants before the first pairing (no entries yet)."""
        assert self.paired == 0
        ps = [msgspec.structs.replace(state.participants[no], entries=()) for no in nos]
        views = (self.live, self.done, self._fore, self.projected)
        for ctx in {id(c): c for c in views if c is not None}.values():
            ctx.update(ps)

    def update(self, state: TournamentState, nos: Iterable[int], rnd: int) -> bool:
        """New entries for `nos` after a change in round `rnd` (the only round it changes);
        `fore` takes them when next read. Whether `projected` changed (not when a game counted
        as a draw ends in a draw)."""
        assert rnd <= self.paired
        self._drawn_fore = False
        live: list[Participant] = []
        drawn: list[Participant] = []
        replace = msgspec.structs.replace
        by_no, drawn_by = self.live.by_no, self.projected.by_no
        for no in nos:
            e, p = state.entry(no, rnd), by_no[no]
            p = replace(p, entries=(*p.entries[: rnd - 1], e, *p.entries[rnd:]))
            live.append(p)
            # `projected` reads the same participants, unfinished games as draws: it may hold
            # an earlier one, whose entries it reads the same way.
            if _draw(drawn_by[no].entries[rnd - 1]) != _draw(e):
                drawn.append(p)
        self.live.update(live, rnd)
        if self._fore is not None:  # taken when `fore` is next read
            self._fore_due.update((p.start_no, p) for p in live)
        if drawn:
            self.projected.update(drawn, rnd)
        if rnd <= self.closed and self.done is not self.live and self.done is not self.projected:
            self.done.update(live, rnd)  # the closed rounds' context never reads later rounds
        return bool(drawn)

    def source(self, spec: Spec) -> tuple[Context, Spec]:
        """The context one tie-break is computed on (once round K is closed, `done` reads what
        `live` reads), and as which tie-break: FB right after a pairing is the projected BH."""
        view = view_of(spec.code, self.running)
        if view == "fore" and self._drawn_fore:
            return self.projected, msgspec.structs.replace(spec, code="BH")
        return getattr(self, view), spec

    def status(self, spec: Spec) -> Status:
        return status_of(spec.code, self.running)


def _context(state: TournamentState, t: Tournament, upto: int, drawn: bool = False) -> Context:
    """A context of `t` after round `upto`; `drawn`: unfinished games counted as draws."""
    created = state.created
    assert created is not None
    ctx = Context(
        t,
        upto,
        edition=state.edition,
        unrated_rating=created.unrated_rating,
        unfinished=Code.DRAW if drawn else Code.PENDING,
    )
    ctx.explain = False
    return ctx


def _drawn_is_fore(ctx: Context) -> bool:
    """Whether FB's view of a round K with no result yet is the projected view (`Contexts`).
    Not under the legacy rules (virtual opponents); and an own unplayed round is worth the own
    score with round K's "absent" points replaced by a draw (`Context.own_score`), which is the
    projected score, exponent included, when those points have no more decimals than a draw."""
    if ctx.edition is Edition.LEGACY:
        return False
    absent, draw = ctx.scoring.points(Code.PENDING), ctx.draw
    return absent.as_tuple().exponent >= draw.as_tuple().exponent  # type: ignore[operator]


def _draw(e: Entry) -> Entry:
    """An unfinished game counted as a draw (as `projected` reads it)."""
    return Entry(Code.DRAW, e.opponent, e.colour) if e.code is Code.PENDING else e


def inseparable(ctx: Context) -> int:
    """The size from which DE (`direct_encounter`) cannot place anybody in a Swiss group.

    With K rounds nobody met more than K of the group nor scored more than K x P against
    it (P: the most a game gives), and everyone else still has at least `others - K` games
    to win, so the best-placed member is not bound to stay ahead as soon as
    K x P <= (others - K) x win: the whole group stays tied. Round robins, where everybody
    meets everybody, and scorings with negative points are always computed.
    """
    if ctx.rr:
        return _NEVER
    games = [ctx.scoring.points(code) for code in Code if code.played]
    most, win, k = max(games), ctx.win, ctx.upto
    if min(games) < 0 or win <= 0:
        return _NEVER
    others = k + 1
    while k * most > (others - k) * win:
        others += 1
    return others + 1


def met_inside(ctx: Context, members: set[int], among: Iterable[int] | None = None) -> bool:
    """Whether two of `members` played each other (DE counts nothing else: without such a
    game the whole group stays tied, as `direct_encounter` finds, unless a win is worth less
    than nothing); `among`: only the games of these members are looked at (those that can
    be new inside a group known to have none). Round robins count scheduled games too:
    always computed."""
    if ctx.rr or ctx.win < 0:
        return True
    # One pass over the opponents, stopping at the first inside (a close asks this of
    # thousands of groups).
    players = members if among is None else among
    return not members.isdisjoint(itertools.chain.from_iterable(map(ctx.met, players)))
