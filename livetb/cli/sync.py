"""`livetb sync FILE.trf`: the log follows the pairing program's file (`livetb.interchange.sync`
plans what the file adds), appended in one go with the head it was planned on; `--watch`
syncs again each time the file is saved.

Exit codes: 0 synced (or nothing to do), 2 a file that is not TRF or cannot be followed (its
errors located, nothing written), 3 results entered in the log that the file contradicts
(each board named, nothing written; `--prefer` settles them).
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from livetb import i18n
from livetb.cli.output import language
from livetb.engine.spec import parse_list
from livetb.errors import ConcurrencyConflict, LivetbError, TrfError
from livetb.events.open import open_store
from livetb.interchange import sync
from livetb.projections import stored
from livetb.trf import parse_trf

CONFLICT = 3
SETTLE = 0.15  # seconds a saved file must stay the same before it is read
RETRIES = 20  # reads of a file still being written (a parse error right after a change)
RETRY_AFTER = 0.1


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
    except sync.SyncConflict as err:
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
    for warning in imported.warnings:
        print(f"livetb: warning: {args.file}: {warning}", file=sys.stderr)
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
        )
        lines = [sync.describe(step, lang) for step in made.steps]
        lines += [i18n.text(lang, "sync.kept", **_fields(c)) for c in made.kept]
        lines += [
            i18n.text(lang, "sync.not_applied", no=no, fields=", ".join(fields))
            for no, fields in made.unchanged_details
        ]
        events = made.events
        if not events or args.dry_run:
            return Outcome(len(events), head, lines)
        stored.readable([r.event for r in records] + events)  # the log stays readable
        seq = store.append(args.tournament, head, events, actor=sync.ACTOR)
    return Outcome(len(events), seq, lines)


def _fields(c: sync.BoardConflict) -> dict[str, object]:
    return {"round": c.round, "board": c.board, "log": c.log, "file": c.file}


def _summary(args: argparse.Namespace, outcome: Outcome, lang: str) -> str:
    name = Path(args.file).name
    if not outcome.events:
        return i18n.text(lang, "sync.nothing", file=name, seq=outcome.seq)
    key = "sync.dry_summary" if args.dry_run else "sync.summary"
    return i18n.text(lang, key, file=name, events=outcome.events, seq=outcome.seq)


def _conflict(err: sync.SyncConflict, lang: str) -> int:
    print(f"livetb: {i18n.text(lang, 'sync.conflicts', count=len(err.conflicts))}", file=sys.stderr)
    for c in err.conflicts:
        print(f"  {c.words(lang)}", file=sys.stderr)
    return CONFLICT


def _watch(
    args: argparse.Namespace, tiebreaks: list[str] | None, lang: str, out: io.TextIOBase
) -> int:
    """Sync now, then after every save: one line per sync. A file caught half-written (a parse
    error right after a change) is read again shortly, never synced in part."""
    import watchfiles

    path = Path(args.file).resolve()

    def ours(_: watchfiles.Change, changed: str) -> bool:
        return Path(changed) == path

    last: bytes | None = None
    try:
        last = _watched_sync(args, path, last, tiebreaks, lang, out)
        for _ in watchfiles.watch(
            path.parent,
            watch_filter=ours,
            debounce=100,
            step=20,
            rust_timeout=0,
            yield_on_timeout=False,
        ):
            last = _watched_sync(args, path, last, tiebreaks, lang, out)
    except KeyboardInterrupt:
        print(i18n.text(lang, "sync.stopped"), file=out, flush=True)
    return 0


def _watched_sync(
    args: argparse.Namespace,
    path: Path,
    last: bytes | None,
    tiebreaks: list[str] | None,
    lang: str,
    out: io.TextIOBase,
) -> bytes | None:
    """One sync of the watched file; the bytes synced (or `last`, if none were)."""
    for attempt in range(RETRIES):
        data = _settled(path)
        if data is None or data == last:
            return last  # gone (being replaced), or a save that changed nothing
        try:
            outcome = sync_file(args, data, tiebreaks, lang)
        except (TrfError, ConcurrencyConflict) as err:
            if attempt + 1 < RETRIES:
                # The program is still writing it; or another writer appended meanwhile.
                time.sleep(RETRY_AFTER)
                continue
            print(f"livetb: {err}", file=sys.stderr, flush=True)
            return data
        except sync.SyncConflict as err:
            _conflict(err, lang)
            return data
        except LivetbError as err:
            print(f"livetb: {err}", file=sys.stderr, flush=True)
            return data
        print(_summary(args, outcome, lang), file=out, flush=True)
        return data
    return last  # pragma: no cover - the loop returns


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
