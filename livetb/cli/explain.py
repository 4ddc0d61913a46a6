"""`livetb standings --explain N`: one participant's (or team's) rounds and every tie-break's
contributions, the rounds cut and why, in the language of `--lang`. Every line is a catalog
message (`cli.explain.*`); the contributions are the engine's data put into words by
`livetb.i18n.explain`, as the pages' card does with the same keys."""

from __future__ import annotations

import io

import msgspec

from livetb.cli.output import format_value
from livetb.engine.catalogue import tiebreak_of
from livetb.engine.context import Context, Round
from livetb.engine.result import Number, Value, outcome
from livetb.engine.spec import Spec
from livetb.engine.standings import compute
from livetb.engine.team_boards import board_points
from livetb.engine.team_context import TeamView
from livetb.engine.team_standings import TEAM_GROUP, compute_team
from livetb.engine.teams import Match
from livetb.errors import UsageError
from livetb.i18n import number, text
from livetb.i18n.explain import cut_words, source_words


def explain(ctx: Context, specs: tuple[Spec, ...], no: int, out: io.TextIOBase, lang: str) -> int:
    """Per tie-break: every round's contribution, the cut rounds and why, and each round's
    unplayed-rounds category."""
    if no not in ctx.by_no:
        raise UsageError.of("cli.usage.explain_player", no=no)
    say = _Say(lang, out)
    p = ctx.by_no[no]
    say.line("cli.explain.head", no=no, name=p.name, round=ctx.upto, edition=ctx.edition)
    for r in ctx.rounds(no):
        opponent = (
            text(lang, "cli.explain.vs", no=r.opponent)
            if r.opponent
            else text(lang, "cli.explain.no_opponent")
        )
        say.line(
            "cli.explain.round",
            indent=True,
            round=r.rnd,
            outcome=text(lang, f"outcome.{outcome(r.code)}"),
            opponent=opponent,
            points=number(lang, r.points),
            category=_category(lang, ctx, no, r, "game"),
        )
    for spec in specs:
        if tiebreak_of(spec).group:
            say.line("cli.explain.group", code=spec.text)
            continue
        say.value(spec, compute(ctx, spec, no))
    return 0


def explain_team(
    view: TeamView, specs: tuple[Spec, ...], no: int, out: io.TextIOBase, lang: str
) -> int:
    """Team `no`: each round's match (MP, GP, boards), then each tie-break's contributions."""
    if no not in view.start_nos:
        raise UsageError.of("cli.usage.explain_team", no=no)
    say = _Say(lang, out)
    team = view.event.team(no)
    say.line(
        "cli.explain.team_head",
        no=no,
        name=team.name,
        round=view.upto,
        edition=view.edition,
        primary=view.primary,
    )
    # C.07 2023 14.3.n (2024 16.2.n) for the team's round holds for MP and GP alike.
    ctx = view.context("MP")
    for m, r in zip(team.matches, ctx.rounds(no), strict=False):
        say.match(m, _category(lang, ctx, no, r, "match"))
    for spec in specs:
        if spec.code in TEAM_GROUP:
            say.line("cli.explain.group", code=spec.text)
            if spec.code in ("TBR", "BBE"):
                boards = "  ".join(
                    text(lang, "cli.explain.board_points", board=i, points=say.num(v))
                    for i, v in enumerate(board_points(view, no), start=1)
                )
                say.line("cli.explain.by_board", indent=True, boards=boards)
            continue
        on = None if spec.code in _OWN_SCORE else view.kind_of(spec)
        say.value(spec, compute_team(view, spec, no), on)
    return 0


# Tie-breaks whose score is in their name (or is the boards' game points).
_OWN_SCORE = frozenset({"MPTS", "GPTS", "MPVGP", "EMMSB", "EMGSB", "EGMSB", "EGGSB", "BC"})


def _category(lang: str, ctx: Context, no: int, r: Round, unit: str) -> str:
    """C.07 2024 16.2.n (2023 14.3.n); round robins treat forfeits as games (2024 16.2).
    `unit` names what was forfeited: a game, or a team's match."""
    n = ctx.category(no, r)
    if n is None:
        return text(lang, "cli.explain.played")
    if ctx.rr:
        if not r.opponent:
            return text(lang, "cli.explain.rr_rest")
        return text(
            lang, "cli.explain.rr_forfeit" if unit == "game" else "cli.explain.rr_forfeit_match"
        )
    return text(lang, "cli.explain.unplayed", n=n, text=text(lang, f"cat.{n}"))


class _Say:
    """Catalog messages printed one a line, a round's under its heading indented."""

    def __init__(self, lang: str, out: io.TextIOBase) -> None:
        self.lang, self.out = lang, out

    def line(self, key: str, *, indent: bool = False, **params: object) -> None:
        print(("  " if indent else "") + text(self.lang, key, **params), file=self.out)

    def num(self, v: Number | None) -> str:
        return number(self.lang, format_value(v))

    def value(self, spec: Spec, v: Value, on: str | None = None) -> None:
        shown = text(self.lang, "cli.explain.undefined") if v.value is None else self.num(v.value)
        if on is None:
            self.line("cli.explain.value", code=spec.text, value=shown)
        else:
            self.line("cli.explain.value_on", code=spec.text, value=shown, points=on)
        cut = dict(v.cut)
        for part in v.parts:
            words = source_words(self.lang, msgspec.to_builtins(part.source))
            if part.rnd == 0:  # a total the value is built from, not a round
                self.line(
                    "cli.explain.total", indent=True, source=words, amount=self.num(part.amount)
                )
                continue
            line = text(
                self.lang,
                "cli.explain.part",
                round=part.rnd,
                amount=self.num(part.amount),
                source=words,
            )
            if part.rnd in cut:
                line += f"  [{cut_words(self.lang, cut[part.rnd])}]"
            print(f"  {line}", file=self.out)
        shown_rounds = {part.rnd for part in v.parts}
        for rnd, why in v.cut:
            if rnd not in shown_rounds:
                self.line(
                    "cli.explain.cut_round",
                    indent=True,
                    round=rnd,
                    reason=cut_words(self.lang, why),
                )

    def match(self, m: Match, category: str) -> None:
        lang = self.lang
        if m.opponent is None:
            opponent = text(lang, "cli.explain.no_opponent")
        else:
            colour = text(lang, "colour.w" if m.colour == "w" else "colour.b")
            opponent = text(lang, "cli.explain.vs_team", no=m.opponent, colour=colour)
        self.line(
            "cli.explain.match",
            indent=True,
            round=m.rnd,
            outcome=text(lang, f"outcome.{outcome(m.code)}"),
            opponent=opponent,
            mp=self.num(m.mp),
            gp=self.num(m.gp),
            boards=" ".join(self.num(b.points) for b in m.boards),
            category=category,
        )
