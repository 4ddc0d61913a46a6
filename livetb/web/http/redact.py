"""No token in any log line: a filter on every logger the server writes through.

aiohttp logs what a client sent: the access log has the request line (`?access_token=…` of a
browser's websocket), and a malformed request is logged with the raw line in its exception's
text. `install()` puts `Redact` on those loggers (and livetb's own), so each record is
rewritten before any handler sees it, whatever the request looked like. A malformed request's
record is also cut to one line without its traceback.
"""

from __future__ import annotations

import logging
import re
import traceback

from aiohttp.http_exceptions import HttpProcessingError

REDACTED = "[redacted]"

# `access_token=` also percent-encoded (yarl decodes the name), a bearer credential (also the
# pages' `bearer.<token>` websocket subprotocol), an Authorization header's value, and
# anything shaped like one of our tokens (`ltb_…`).
_SECRETS = re.compile(
    r"(?i)(access(?:_|%5f)token(?:=|%3d))[^&\s'\"\\]*"
    r"|(bearer(?:\s|%20|\+|\.)+)[^\s,'\"\\]+"
    r"|(authorization\s*[:=]\s*)[^\r\n'\"\\]+"
    r"|()ltb(?:_|%5f)[A-Za-z0-9_%-]+"
)

LOGGERS = (
    "aiohttp.access",
    "aiohttp.client",
    "aiohttp.internal",
    "aiohttp.server",
    "aiohttp.web",
    "aiohttp.websocket",
    "asyncio",
    "livetb.client",
    "livetb.demo",
    "livetb.web.app",
    "livetb.web.feed.hub",
    "",  # the root logger, for records logged on it directly
)

# LogRecord's own attributes; any other string attribute came in through `extra=` (the access
# logger passes the request line that way) and is redacted too.
_PLAIN = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message"}


def redact(text: str) -> str:
    """`text` with every token-like value replaced by `[redacted]`."""
    return _SECRETS.sub(lambda m: (m[1] or m[2] or m[3] or "") + REDACTED, text)


class Redact(logging.Filter):
    """Formats the record's message (and traceback) now, redacted; never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage())
        record.args = None
        if record.exc_info and isinstance(record.exc_info[1], HttpProcessingError):
            # A client's malformed request (its 400 is answered): one line, no traceback, so
            # a client cannot grow the log by more than a line per request.
            err = record.exc_info[1]
            said = " ".join(f"{type(err).__name__}: {err}".split())
            record.msg = redact(f"{record.msg}: {said}")
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        if record.exc_info:
            text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
            record.exc_text = redact(text)
            record.exc_info = None  # formatters print exc_text; nothing formats the original
        elif record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        for name, value in vars(record).items():
            if name not in _PLAIN:  # the access logger's extras: strings, and dicts of headers
                setattr(record, name, _redacted(value))
        return True


def _redacted(value: object) -> object:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: _redacted(v) for k, v in value.items()}
    return value


_FILTER = Redact()


def install() -> None:
    """Idempotent: adding the same filter object twice is a no-op in `logging`."""
    for name in LOGGERS:
        logging.getLogger(name).addFilter(_FILTER)
