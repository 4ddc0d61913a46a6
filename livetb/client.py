"""A viewer of a livetb server's standings feed, with the `websockets` library.

    local = LocalStandings()
    async for message in follow("http://127.0.0.1:8080", "t-3f9c01ab", local):
        print(local.seq, [row.name for row in local.rows()[:3]])

`follow` reconnects on its own with `since=<the last seq it applied>`, so the server sends
exactly the deltas missed (or a fresh snapshot); `LocalStandings.apply` refuses a gap and
ignores a delta it already has, so the copy never misses or doubles an event. A private
tournament's feed needs one of its tokens: `follow(url, tid, local, token=TOKEN)`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterable
from urllib.parse import urlencode, urlsplit, urlunsplit

import msgspec
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from livetb.messages import AnyMessage, DeltaMessage, SnapshotMessage, decode_message
from livetb.projections.standings import Row
from livetb.standings_doc import DbStandings

log = logging.getLogger(__name__)


class Gap(Exception):
    """A delta that does not follow the copy's seq: resubscribe with since=."""


class LocalStandings:
    """A snapshot with every delta since applied: what the server's GET would return."""

    def __init__(self) -> None:
        self.doc: DbStandings | None = None
        self._rows: dict[int, Row] = {}

    @property
    def seq(self) -> int | None:
        return None if self.doc is None else self.doc.seq

    def apply(self, message: AnyMessage) -> tuple[Row, ...]:
        """Fold one message in; return the rows it changed (a snapshot: every row)."""
        match message:
            case SnapshotMessage(standings=doc):
                self.doc = doc
                self._rows = {row.start_no: row for row in doc.standings}
                return tuple(doc.standings)
            case DeltaMessage():
                return self._apply_delta(message)
        return ()

    def _apply_delta(self, delta: DeltaMessage) -> tuple[Row, ...]:
        doc = self.doc
        if doc is None:
            raise Gap(f"delta {delta.seq} before any snapshot")
        if delta.seq <= doc.seq:
            return ()  # already applied (a resume that overlapped)
        if delta.seq != doc.seq + 1:
            raise Gap(f"delta {delta.seq} after {doc.seq}")
        doc.seq = delta.seq
        doc.after_round = delta.after_round
        doc.round_in_progress = delta.round_in_progress
        for no in delta.drop:  # left a filtered view (top N)
            self._rows.pop(no, None)
        for row in delta.rows:
            self._rows[row.start_no] = row
        doc.standings = self.rows()
        return delta.rows

    def rows(self) -> list[Row]:
        return sorted(self._rows.values(), key=lambda r: (r.rank, r.start_no))

    def as_builtins(self) -> object:
        """The copy as plain JSON values, comparable with `GET …/standings`."""
        return msgspec.json.decode(msgspec.json.encode(self.doc))


def feed_url(
    url: str,
    tournament: str,
    since: int | None = None,
    *,
    top: int | None = None,
    participants: Iterable[int] | None = None,
) -> str:
    """`http://host:port` (or `ws://…`, with or without `/ws`) -> the feed's websocket URL
    (`top`, `participants`: only those rows)."""
    parts = urlsplit(url if "://" in url else f"http://{url}")
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    query = {"tournament": tournament} | ({} if since is None else {"since": str(since)})
    if top is not None:
        query["top"] = str(top)
    if participants is not None:
        query["participants"] = ",".join(map(str, participants))
    path = parts.path.rstrip("/")
    path = path if path.endswith("/ws") else f"{path}/ws"
    return urlunsplit((scheme, parts.netloc, path, urlencode(query), ""))


def auth_headers(token: str | None) -> dict[str, str] | None:
    """The handshake's `Authorization` header: a header, not `?access_token=`, so that the
    token stays out of URLs that servers and proxies log."""
    return None if token is None else {"Authorization": f"Bearer {token}"}


async def follow(
    url: str,
    tournament: str,
    local: LocalStandings | None = None,
    *,
    token: str | None = None,
    top: int | None = None,
    participants: Iterable[int] | None = None,
    retry: float = 0.5,
    max_retry: float = 10.0,
) -> AsyncIterator[AnyMessage]:
    """Every message of the feed, applied to `local` first; reconnects (with since=) forever.

    `token`: one of a private tournament's tokens. `top`, `participants`: only those rows.
    An unknown tournament (404), a refused token (401, 403) or another refusal of the server
    ends it with InvalidStatus: retrying would not change the answer."""
    local = local if local is not None else LocalStandings()
    chosen = None if participants is None else tuple(participants)  # an iterator is read once
    headers = auth_headers(token)
    delay = retry
    while True:
        url_now = feed_url(url, tournament, local.seq, top=top, participants=chosen)
        try:
            async with connect(url_now, additional_headers=headers, max_size=2**26) as ws:
                delay = retry
                async for raw in ws:
                    message = decode_message(raw)
                    local.apply(message)
                    yield message
        except InvalidStatus:
            raise
        except (OSError, ConnectionClosed, Gap, TimeoutError) as err:
            log.info("feed interrupted (%s); resuming after seq %s", err, local.seq)
        await asyncio.sleep(delay)
        delay = min(delay * 2, max_retry)
