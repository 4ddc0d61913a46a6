"""What the arbiter console adds to the write path (`livetb/web/api.py`'s `writer`):

- `?dry_run=1` on every write: the command is decided against the live state as a real write
  would be (same rejections), nothing is appended, and the answer is the events it would add;
- a TRF player list (`Content-Type: text/plain` on `POST …/participants`): its 001 lines become
  one `RegisterParticipants`, registered in one append or not at all.

Kept apart from `api.py` (and free of imports from it) so the reads in `console_api.py` can
import `api` without a cycle.
"""

from __future__ import annotations

import re

import msgspec
from aiohttp import web

from livetb.errors import InvalidInput, TrfError, TrfIssue
from livetb.events.commands import RegisterParticipant, RegisterParticipants
from livetb.events.schema import AnyEvent
from livetb.trf import parse_trf

_LINE_END = re.compile(r"\r\n|\r|\n")
_BEFORE_POINTS = 80  # columns 81- of a 001 line are points, rank and round blocks


class DryRun(msgspec.Struct, kw_only=True):
    """A write's answer under `?dry_run=1`: what it would append, nothing appended."""

    dry_run: bool = True
    events: list[AnyEvent]


def dry_run(request: web.Request) -> bool:
    """`?dry_run=1` asks for a dry run; any other value is a mistake worth a 422, not a write."""
    text = request.query.get("dry_run")
    if text is None:
        return False
    if text != "1":
        raise InvalidInput(f"dry_run={text!r}: expected 1 (or leave it out)", path="dry_run")
    return True


def participants_from_trf(data: bytes, source: str = "players.trf") -> RegisterParticipants:
    """The 001 lines of a TRF as one batch registration: start number, name, rating, title,
    federation and FIDE id. Other records, points, ranks and round blocks are ignored; every
    issue is reported with the file's own line and columns (422 `trf_invalid`)."""
    text = data.decode("utf-8", errors="surrogateescape").removeprefix("\ufeff")
    lines = _LINE_END.split(text)
    # Blank lines keep every 001 line at its own number (the parser skips blanks), and the
    # cut at column 80 leaves points and rounds out: a list checks no results.
    kept = [raw[:_BEFORE_POINTS] if raw.startswith("001") else "" for raw in lines]
    # The parser takes a blank name; a registration needs one: reported with the parser's own.
    nameless = [
        TrfIssue(n, (15, 47), f"001 #{raw[4:8].strip()}, name", "", "the player's name")
        for n, raw in enumerate(kept, start=1)
        if raw and not raw[14:47].strip()
    ]
    try:
        parsed = parse_trf("\n".join(kept).encode(errors="surrogateescape"), source)
    except TrfError as err:
        issues = sorted([*err.issues, *nameless], key=lambda i: (i.line, i.columns or (0, 0)))
        raise TrfError(source, issues) from None
    if nameless:
        raise TrfError(source, nameless)
    return RegisterParticipants(
        participants=tuple(
            RegisterParticipant(
                start_no=p.start_no,
                name=p.name,
                rating=p.rating,
                title=p.title,
                federation=p.federation,
                fide_id=p.fide_id,
            )
            for p in parsed.tournament.participants
        )
    )
