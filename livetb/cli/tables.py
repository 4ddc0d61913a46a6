"""What the file and database standings commands share: the tie-break list an invocation
asks for, the table computed from a tournament (or its teams), and the live document printed
as JSON, CSV or a table."""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Sequence
from typing import NamedTuple

import msgspec

from livetb import i18n
from livetb.cli.output import TableRow, emit, language, print_table
from livetb.cli.parsers import SYSTEMS
from livetb.engine.context import Context
from livetb.engine.editions import Edition
from livetb.engine.model import Code, Tournament
from livetb.engine.spec import parse_list
from livetb.engine.standings import rank
from livetb.engine.teams import TeamEvent
from livetb.errors import Said, UsageError
from livetb.projections.categories import UnknownCategory, document_view
from livetb.projections.document import to_json
from livetb.projections.standings import StandingsProjection


def default_tiebreaks(t: Tournament) -> str:
    if t.tiebreaks:
        return ",".join(t.tiebreaks)
    from livetb.events.schema import DEFAULT_TIEBREAKS

    return ",".join(DEFAULT_TIEBREAKS[t.system])


def preset(args: argparse.Namespace, team: bool = False) -> str | None:
    """--tiebreaks, or the --system preset's list; both at once is refused."""
    if args.system is None:
        tiebreaks: str | None = args.tiebreaks  # argparse's attributes are untyped
        return tiebreaks
    if args.tiebreaks:
        raise UsageError.of("cli.usage.system_list", system=args.system)
    if team:
        raise UsageError.of("cli.usage.system_individual", system=args.system)
    return SYSTEMS[args.system]


def write(
    projection: StandingsProjection,
    fmt: str,
    out: io.TextIOBase,
    lang: str = "en",
    category: str | None = None,
    rating_change: bool = False,
) -> None:
    """The live document as JSON, CSV or a table; only `category`'s rows (ranks counted
    inside it) and/or each row's rating change (a `Δ` column) when asked."""
    data = to_json(projection)
    try:
        document_view(data, projection.state, category, rating_change)
    except UnknownCategory as err:
        raise UsageError.of("cli.usage.category", reason=err.said()) from None
    if fmt == "json":
        out.write(msgspec.json.encode(data).decode() + "\n")
        return
    if fmt == "csv":
        from livetb.interchange.export import standings_csv

        out.write(standings_csv(data))
        return
    created = projection.state.created
    assert created is not None  # as `to_json` asserts: the document is a created tournament's
    title = i18n.text(lang, "cli.db_title", name=created.name, seq=data.seq)
    if data.round_in_progress is not None:
        title = i18n.text(lang, "cli.db_running", title=title, round=data.round_in_progress)
    if category is not None:
        title = i18n.text(lang, "cat.cli_title", title=title, category=category)
    table = _Document(data.edition, data.after_round, data.tiebreaks, data.standings)
    extra = []
    if rating_change:
        extra.append(("Δ", [getattr(r, "rating_change", None) for r in data.standings]))
    print_table(table, title, out, lang, extra)


class _Document(NamedTuple):
    """The live document as `print_table` draws it (its values already formatted)."""

    edition: str
    after_round: int
    tiebreaks: Sequence[str]
    rows: Sequence[TableRow]


def table(
    t: Tournament, team_event: TeamEvent | None, args: argparse.Namespace, out: io.TextIOBase
) -> int:
    """The standings of `t` (or of its teams) as every option asks: the tail shared by a TRF
    file and a tournament read back from the event log."""
    t, args = _complete_rounds(t, args)
    if team_event is not None:
        from livetb.cli.team import team_standings

        if args.unrated_rating is not None:
            raise UsageError.of("cli.usage.team_rating")
        preset(args, team=True)
        return team_standings(args, team_event, out)
    in_file = max((len(p.entries) for p in t.participants), default=0)
    upto = t.played_rounds if args.after_round is None else args.after_round
    if not 0 <= upto <= in_file:
        raise UsageError.of("cli.usage.after_round", round=upto, last=in_file)
    specs = parse_list(preset(args) or default_tiebreaks(t))
    ctx = Context(
        t,
        upto,
        edition=Edition(args.edition) if args.edition else None,
        as_final=args.as_final,
        unrated_rating=args.unrated_rating,
    )
    if args.explain is not None:
        from livetb.cli.explain import explain

        return explain(ctx, specs, args.explain, out, language(args))
    ctx.explain = False  # the values only: per-round explanations cost most of the time
    return emit(rank(ctx, specs), args, t.name, out)


def _complete_rounds(
    t: Tournament, args: argparse.Namespace
) -> tuple[Tournament, argparse.Namespace]:
    """A round paired but not finished (a mid-round export, or the log while a round runs) is
    the running round: the table stops before it, by default and at most."""
    running = t.running_round
    if running is None:
        return t, args
    n = sum(p.entry(running).code is Code.PENDING for p in t.participants) // 2
    games = Said(f"cli.standings.games_{'one' if n == 1 else 'other'}", count=n)
    if args.after_round is None:
        lang = language(args)
        note = Said("cli.standings.running", round=running, games=games, previous=running - 1)
        print(note.words(lang), file=sys.stderr)
        args = argparse.Namespace(**vars(args) | {"after_round": running - 1})
    elif args.after_round >= running:
        raise UsageError.of(
            "cli.usage.round_running",
            after=args.after_round,
            round=running,
            games=games,  # worded in the reader's language with the rest
            last=running - 1,
        )
    cut = [msgspec.structs.replace(p, entries=p.entries[: running - 1]) for p in t.participants]
    return msgspec.structs.replace(t, participants=tuple(cut)), args
