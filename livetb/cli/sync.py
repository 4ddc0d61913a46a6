"""`livetb sync FILE.trf`: the log follows the pairing program's file (`livetb.interchange.sync`
plans what the file adds), appended in one go with the head it was planned on; `--watch`
syncs again each time the file is saved, and after a refusal also when the file is touched or
the tournament's log changes (a conflict settled in the console), until it is back in step.

Exit codes: 0 synced (or nothing to do), 2 refused: a file that is not TRF or cannot be
followed (its errors located), one older than the files synced before, another tournament's,
or a round count missing or disagreeing (nothing written); 3 results entered in the log that
the file contradicts (each board named, nothing written; `--prefer` settles them).
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from livetb import i18n
from livetb.backends import open_store
from livetb.cli.output import error_line, language, warn
from livetb.engine.spec import parse_list
from livetb.errors import ConcurrencyConflict, LivetbError, SyncConflict, TrfError
from livetb.interchange import sync
from livetb.projections import stored
from livetb.trf import parse_trf

CONFLICT = 3
SETTLE = 0.15  # seconds a saved file must stay the same before it is read
RETRIES = 20  # reads of a file still being written (a parse error right after a change)
RETRY_AFTER = 0.1
LOG_POLL_MS = 1000  # after a refusal, how often --watch looks whether the log moved


@dataclass
class Outcome:
    events: int
    seq: int
    lines: list[str]


def sync_command(args: argparse.Namespace, out: io.TextIOBase) -> int:
    tiebreaks = None
    if args.tiebreaks:
        tiebreaks = [code.strip() for code in args.tiebreaks.split(",") if code.strip()]
        parse_list(tiebreaks)  # a bad code is refused before anything is read
    lang = language(args)
    if args.watch:
        return _watch(args, tiebreaks, lang, out)
    try:
        outcome = sync_file(args, Path(args.file).read_bytes(), tiebreaks, lang)
    except SyncConflict as err:
        return _conflict(err, lang)
    for line in outcome.lines:
        print(line, file=out)
    print(_summary(args, outcome, lang), file=out)
    return 0


def sync_file(
    args: argparse.Namespace, data: bytes, tiebreaks: list[str] | None, lang: str
) -> Outcome:
    """Plan the file against the log and append the difference (nothing with --dry-run)."""
    source = Path(args.file).name
    imported = parse_trf(data, source=str(args.file))
    warn(args.file, imported.warnings, lang)
    with open_store(args.db) as store:
        head = store.head(args.tournament)
        records = list(store.read(args.tournament))
        made = sync.plan(
            records,
            imported,
            source,
            sync.player_lines(data),
            tiebreaks=tiebreaks,
            prefer=args.prefer,
            rounds=args.rounds,
            force=args.force,
        )
        lines = [line for step in made.steps for line in sync.describe(step, lang, made)]
        lines += [i18n.text(lang, "sync.kept", **_fields(c)) for c in made.kept]
        lines += [
            i18n.text(lang, "sync.not_applied", no=no, fields=", ".join(fields))
            for no, fields in made.unchanged_details
        ]
        events = made.events
        if not events or args.dry_run:
            return Outcome(len(made.steps), head, lines)
        stored.readable([r.event for r in records] + events)  # the log stays readable
        seq = store.append(args.tournament, head, events, actor=sync.ACTOR)
    # A file that only records what it showed (the log said it all already) adds nothing.
    return Outcome(len(events) if made.steps else 0, seq, lines)


def _fields(c: sync.BoardConflict) -> dict[str, object]:
    return {"round": c.round, "board": c.board, "log": c.log, "file": c.file}


def _summary(args: argparse.Namespace, outcome: Outcome, lang: str) -> str:
    name = Path(args.file).name
    if not outcome.events:
        return i18n.text(lang, "sync.nothing", file=name, seq=outcome.seq)
    key = "sync.dry_summary" if args.dry_run else "sync.summary"
    return i18n.text(lang, key, file=name, events=outcome.events, seq=outcome.seq)


def _conflict(err: SyncConflict, lang: str) -> int:
    conflicts = i18n.text(lang, "sync.conflicts", count=len(err.conflicts))
    print(i18n.text(lang, "cli.error", message=conflicts), file=sys.stderr)
    for c in err.conflicts:
        print(f"  {c.words(lang)}", file=sys.stderr)
    return CONFLICT


@dataclass
class _Follow:
    """What --watch knows between two reads of the file."""

    synced: bytes | None = None  # the content last synced (or found in step)
    refused: bool = False  # the last read was refused
    refused_at: int | None = None  # the log's head then (None: unknown)


def _watch(
    args: argparse.Namespace, tiebreaks: list[str] | None, lang: str, out: io.TextIOBase
) -> int:
    """Sync now, then after every save: one line per sync. A file caught half-written (a parse
    error right after a change) is read again shortly, never synced in part. After a refusal
    the same content is tried again when the file is touched or the log moves, and one line
    says when the log and the file are back in step."""
    import watchfiles

    path = Path(args.file).resolve()

    def ours(_: watchfiles.Change, changed: str) -> bool:
        return Path(changed) == path

    follow = _Follow()
    saves = watchfiles.watch(
        path.parent,
        watch_filter=ours,
        debounce=100,
        step=20,
        rust_timeout=LOG_POLL_MS,
        yield_on_timeout=True,
    )
    try:
        _watched_sync(args, path, follow, tiebreaks, lang, out)
        for changes in saves:
            # a save or a touch; or, after a refusal, the log moved (settled in the console)
            moved = follow.refused and _head(args) not in (None, follow.refused_at)
            if changes or moved:
                _watched_sync(args, path, follow, tiebreaks, lang, out)
    except KeyboardInterrupt:
        print(i18n.text(lang, "sync.stopped"), file=out, flush=True)
    finally:
        # Ctrl-C between two waits leaves the watcher suspended: stopped here, not at the
        # interpreter's exit, where closing its thread can hang.
        saves.close()
    return 0


def _head(args: argparse.Namespace) -> int | None:
    """The log's head; None while the store cannot say (busy, away): asked again next time."""
    try:
        with open_store(args.db) as store:
            return store.head(args.tournament)
    except LivetbError:
        return None


def _watched_sync(
    args: argparse.Namespace,
    path: Path,
    follow: _Follow,
    tiebreaks: list[str] | None,
    lang: str,
    out: io.TextIOBase,
) -> None:
    """One sync of the watched file. The content synced last is not read again unless the
    last read was refused (`follow.refused`): then it may go through now."""
    name = Path(args.file).name
    for attempt in range(RETRIES):
        data = _settled(path)
        if data is None or (data == follow.synced and not follow.refused):
            return  # gone (being replaced), or a save that changed nothing
        # The head before the plan: a write landing while it is refused moves the log past it,
        # and the next poll tries again (a head read after the refusal could miss that write).
        head = _head(args)
        try:
            outcome = sync_file(args, data, tiebreaks, lang)
        except (TrfError, ConcurrencyConflict) as err:
            if attempt + 1 < RETRIES:
                # The program is still writing it; or another writer appended meanwhile.
                time.sleep(RETRY_AFTER)
                continue
            _refused(args, follow, data, head, lang, error_line(err, lang))
            return
        except SyncConflict as err:
            _conflict(err, lang)
            _refused(args, follow, data, head, lang, None)
            return
        except LivetbError as err:
            _refused(args, follow, data, head, lang, error_line(err, lang))
            return
        was_refused = follow.refused
        follow.synced, follow.refused, follow.refused_at = data, False, None
        if outcome.events or not was_refused:
            print(_summary(args, outcome, lang), file=out, flush=True)
        if was_refused:
            print(i18n.text(lang, "sync.in_step", file=name, seq=outcome.seq), file=out, flush=True)
        return


def _refused(
    args: argparse.Namespace,
    follow: _Follow,
    data: bytes,
    head: int | None,
    lang: str,
    message: str | None,
) -> None:
    """Say why (once per refusal), and wait for a save, a touch or the log to move."""
    if message is not None:
        print(message, file=sys.stderr, flush=True)
    print(i18n.text(lang, "sync.retry", file=Path(args.file).name), file=sys.stderr, flush=True)
    follow.synced, follow.refused, follow.refused_at = data, True, head


def _settled(path: Path) -> bytes | None:
    """The file's bytes once two reads `SETTLE` apart agree; None while it does not exist."""
    try:
        data = path.read_bytes()
        while True:
            time.sleep(SETTLE)
            again = path.read_bytes()
            if again == data:
                return data
            data = again
    except FileNotFoundError:
        return None
