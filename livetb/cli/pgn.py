"""`livetb pgn SOURCE`: final results from a PGN file or a growing http(s) URL into the log
(`livetb/interchange/pgn.py` matches the games to the boards)."""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

from livetb import i18n
from livetb.cli.db import existing_store, pick_tournament
from livetb.cli.output import language
from livetb.errors import LivetbError, UsageError


def pgn_command(args: argparse.Namespace, out: io.TextIOBase) -> int:
    from livetb.app.service import TournamentService
    from livetb.interchange import pgn

    if args.follow is not None and args.follow <= 0:
        raise UsageError.of("cli.usage.follow", seconds=args.follow)
    if args.round is not None and args.round < 1:
        raise UsageError.of("cli.usage.round", round=args.round)
    reported: set[str] = set()
    lang = language(args)
    with existing_store(args.db) as store:
        tid = pick_tournament(store, args.tournament)
        service = TournamentService(store)
        while True:
            state = service.catch_up(tid).state
            games = pgn.read_games(fetch(args.source, lang))
            made = pgn.plan(state, games, round_=args.round, corrections=args.corrections)
            for command in made.commands:
                verb = "corrected" if isinstance(command, pgn.CorrectResult) else "recorded"
                board = {"round": command.round, "board": command.board, "result": command.result}
                try:
                    service.execute(tid, command, actor="pgn")
                except LivetbError as err:
                    reason = err.words(lang)
                    said = i18n.text(lang, "cli.pgn.refused_result", **board, reason=reason)
                    _once(reported, said, out)
                    continue
                print(i18n.text(lang, f"cli.pgn.{verb}", **board), file=out, flush=True)
            for item in made.refused:
                said = i18n.text(lang, "cli.pgn.refused", game=item.game, reason=item.reason)
                _once(reported, said, out)
            for item in made.unmatched:
                said = i18n.text(lang, "cli.pgn.unmatched", game=item.game, reason=item.reason)
                _once(reported, said, out)
            if args.follow is None or _round_complete(service.catch_up(tid).state, args.round):
                return 0
            time.sleep(args.follow)


def _once(reported: set[str], line: str, out: io.TextIOBase) -> None:
    """Each refusal or unmatched game once, not at every reading of a followed source."""
    if line not in reported:
        reported.add(line)
        print(line, file=out, flush=True)


def _round_complete(state: object, rnd: int | None) -> bool:
    from livetb.events.state import TournamentState

    assert isinstance(state, TournamentState)
    paired = state.rounds.get(rnd or state.paired)
    return paired is not None and paired.complete


def fetch(source: str, lang: str) -> str:
    """The PGN's text: a URL read with the standard library, else a file (UTF-8, or Latin-1
    where it is not, said in `lang`)."""
    data: bytes  # what `urlopen` returns is untyped (Any) in typeshed
    if source.startswith(("http://", "https://")):
        import urllib.error
        import urllib.request

        try:
            with urllib.request.urlopen(source, timeout=30) as resp:
                data = resp.read()
        except urllib.error.HTTPError as err:
            raise UsageError.of(
                "cli.usage.http_status", source=source, status=err.code, reason=err.reason
            ) from None
        except urllib.error.URLError as err:
            raise UsageError.of(
                "cli.usage.unreachable", source=source, reason=str(err.reason)
            ) from None
    else:
        data = Path(source).read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        print(i18n.text(lang, "cli.pgn.latin1", source=source), file=sys.stderr)
        return data.decode("latin-1")
