"""A viewer of a livetb server's standings feed, with the `websockets` library.

    local = LocalStandings()
    async for message in follow("http://127.0.0.1:8080", "t-3f9c01ab", local):
        print(local.seq, [row.name for row in local.rows()[:3]])

`follow` reconnects on its own with `since=<the last seq it applied>`, so the server sends
exactly the deltas missed (or a fresh snapshot); `LocalStandings.apply` refuses a gap and
ignores a delta it already has, so the copy never misses or doubles an event, and it never
steps back to a snapshot older than itself (it follows that one aside until it catches up).
It reconnects after anything that may pass (a refused or dropped connection, a server
restarting or shedding load: 1001/1011 closes, 5xx, 408, 429), with backoff, and stops only
on an answer that would not change (404: no such tournament; 401/403: the token; other 4xx).
A private tournament's feed needs one of its tokens: `follow(url, tid, local, token=TOKEN)`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterable
from urllib.parse import urlencode, urlsplit, urlunsplit

import msgspec
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from livetb.wire.messages import (
    AnyMessage,
    DeltaMessage,
    PrizesMessage,
    RoundInfo,
    SnapshotMessage,
    decode_message,
)
from livetb.wire.prizes import PrizeList
from livetb.wire.standings import (
    BH_CELL,
    FB_CELL,
    DbStandings,
    Row,
    RowChange,
    Status,
    Value,
    ties_of,
)

log = logging.getLogger(__name__)


class Gap(Exception):
    """A delta that does not follow the copy's seq: resubscribe with since=."""


class LocalStandings:
    """A snapshot with every delta since applied: what the server's GET would return.

    `filtered`: the feed is a `top=`/`participants=` view, whose deltas give ranks outright
    (`follow` sets it); a full feed's ranks follow from the order and the tie flags.

    A snapshot older than the copy (from a node that has not reached it, or a store whose
    log started again) does not replace it: it is followed aside, with the deltas after it,
    and becomes the copy once it reaches the copy's seq. The copy never goes back."""

    def __init__(self, filtered: bool = False) -> None:
        self.filtered = filtered
        self.doc: DbStandings | None = None
        self.round: RoundInfo | None = None  # the last round paired, results filling in
        self.prizes: PrizeList | None = None  # the live prize list, when there is a table
        self._rows: dict[int, Row] = {}
        self._order: list[int] = []  # start numbers, best first
        self._shares: set[int] = set()  # rows sharing the rank of the row above
        self._statuses: tuple[Status, ...] = ()
        self._behind: LocalStandings | None = None  # an older snapshot, catching up

    @property
    def seq(self) -> int | None:
        return None if self.doc is None else self.doc.seq

    def apply(self, message: AnyMessage) -> tuple[int, ...]:
        """Fold one message in; return the start numbers of the rows whose content it changed
        (a snapshot: every row)."""
        match message:
            case SnapshotMessage(standings=doc):
                if self.doc is not None and doc.seq < self.doc.seq:
                    self._behind = LocalStandings(self.filtered)
                    self._behind.apply(message)
                    return ()
                self._behind = None
                self.doc, self.round, self.prizes = doc, message.round, message.prizes
                self._rows = {row.start_no: row for row in doc.standings}
                self._order = [row.start_no for row in doc.standings]
                self._shares = {no for no, tied in ties_of(doc.standings) if tied}
                self._statuses = doc.standings[0].statuses if doc.standings else ()
                return tuple(self._order)
            case DeltaMessage():
                return self._apply_delta(message)
            case PrizesMessage(prizes=prizes):
                if self._behind is not None:  # the list of the node that is behind
                    self._behind.prizes = prizes
                else:
                    self.prizes = prizes
        return ()

    def _apply_delta(self, delta: DeltaMessage) -> tuple[int, ...]:
        doc = self.doc
        if doc is None:
            raise Gap(f"delta {delta.seq} before any snapshot")
        behind = self._behind
        if behind is not None and behind.doc is not None and delta.seq == behind.doc.seq + 1:
            behind.apply(delta)
            return self._overtaken(behind) if delta.seq >= doc.seq else ()
        if delta.seq <= doc.seq:
            return ()  # already applied (a resume that overlapped)
        if delta.seq != doc.seq + 1:
            raise Gap(f"delta {delta.seq} after {doc.seq}")
        self._behind = None
        doc.seq = delta.seq
        doc.after_round = delta.after_round
        doc.round_in_progress = delta.round_in_progress
        rows, order = self._rows, self._order
        if delta.statuses is not None:
            self._statuses = delta.statuses
        for no in delta.drop:  # left a filtered view (ordered by rank, not kept in `order`)
            rows.pop(no, None)
        for change in delta.rows:
            rows[change.start_no] = _changed(rows.get(change.start_no), change)
        if delta.order is not None:
            order[:] = delta.order
        for no, at in delta.moves:
            if no in rows and no in order:
                order.remove(no)
            order.insert(at, no)
        self._shares.update(delta.tied)
        self._shares.difference_update(delta.untied)
        doc.standings = self._ranked(dict(delta.ranks))
        self._take_games(delta)
        return tuple(change.start_no for change in delta.rows)

    def _overtaken(self, behind: LocalStandings) -> tuple[int, ...]:
        """Become `behind`, which has caught up with the copy (its prize list unless the
        copy's counts more events); every row, as for a snapshot."""
        prizes = self.prizes
        if prizes is None or (behind.prizes is not None and behind.prizes.seq >= prizes.seq):
            prizes = behind.prizes
        self.doc, self.round, self.prizes = behind.doc, behind.round, prizes
        self._rows, self._order = behind._rows, behind._order
        self._shares, self._statuses = behind._shares, behind._statuses
        self._behind = None
        return tuple(self._order)

    def _ranked(self, ranks: dict[int, int]) -> list[Row]:
        """Every row with its rank and the current statuses, best first."""
        rows, statuses, replace = self._rows, self._statuses, msgspec.structs.replace
        out: list[Row] = []
        if self.filtered:
            for no, row in rows.items():
                out.append(replace(row, rank=ranks.get(no, row.rank), statuses=statuses))
            out.sort(key=lambda r: (r.rank, r.start_no))
        else:
            shares, rank = self._shares, 0
            for position, no in enumerate(self._order, 1):
                rank = rank if no in shares else position
                out.append(replace(rows[no], rank=rank, statuses=statuses))
        self._rows = {row.start_no: row for row in out}
        return out

    def _take_games(self, delta: DeltaMessage) -> None:
        if delta.round is not None:
            self.round = delta.round
        current = self.round
        if current is not None and current.round <= delta.after_round:
            current.closed = True  # a close is told by `after_round`, not by the round again
        for rnd, board, result in delta.games:
            if current is not None and current.round == rnd:
                for game in current.games:
                    if game.board == board:
                        game.result = result

    def rows(self) -> list[Row]:
        return list(self.doc.standings) if self.doc is not None else []

    def as_builtins(self) -> object:
        """The copy as plain JSON values, comparable with `GET …/standings`."""
        return msgspec.json.decode(msgspec.json.encode(self.doc))


def _text(value: Value) -> str | None:
    """An FB or BH cell: a decimal, sent as text (None: no value)."""
    assert not isinstance(value, int)
    return value


def _changed(row: Row | None, change: RowChange) -> Row:
    """`row` with `change`'s cells (a new row: made from them; its rank comes later)."""
    values = list(row.values) if row is not None else []
    fb = row.fb_prediction if row is not None else None
    bh = row.bh_projected if row is not None else None
    for column, value in change.cells:
        if column == FB_CELL:
            fb = _text(value)
        elif column == BH_CELL:
            bh = _text(value)
        else:
            assert isinstance(column, int)
            if column >= len(values):  # a new row's cells come in column order
                values.extend([None] * (column + 1 - len(values)))
            values[column] = value
    name = change.name if change.name is not None else row.name if row is not None else ""
    start_no = change.start_no
    return Row(row.rank if row else 0, start_no, name, tuple(values), (), fb, bh)


def feed_url(
    url: str,
    tournament: str,
    since: int | None = None,
    *,
    top: int | None = None,
    participants: Iterable[int] | None = None,
    category: str | None = None,
) -> str:
    """`http://host:port` (or `ws://…`, with or without `/ws`) -> the feed's websocket URL
    (`top`, `participants`: only those rows; `category`: that category's standings)."""
    parts = urlsplit(url if "://" in url else f"http://{url}")
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    query = {"tournament": tournament} | ({} if since is None else {"since": str(since)})
    if top is not None:
        query["top"] = str(top)
    if participants is not None:
        query["participants"] = ",".join(map(str, participants))
    if category is not None:
        query["category"] = category
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
    category: str | None = None,
    retry: float = 0.5,
    max_retry: float = 10.0,
) -> AsyncIterator[AnyMessage]:
    """Every message of the feed, applied to `local` first; reconnects (with since=) forever,
    waiting `retry` seconds at first, twice as long after each failed attempt up to
    `max_retry` (or as long as a 503's `Retry-After` says, within that).

    `token`: one of a private tournament's tokens. `top`, `participants`: only those rows;
    `category`: that category's standings (its first `top` rows with `top`).
    An unknown tournament (404), a refused token (401, 403) or another refusal of the server
    (a 4xx but 408 and 429) ends it with InvalidStatus: retrying would not change the answer."""
    local = local if local is not None else LocalStandings()
    local.filtered = top is not None or participants is not None or category is not None
    chosen = None if participants is None else tuple(participants)  # an iterator is read once
    headers = auth_headers(token)
    delay = retry
    while True:
        url_now = feed_url(
            url, tournament, local.seq, top=top, participants=chosen, category=category
        )
        try:
            async with connect(url_now, additional_headers=headers, max_size=2**26) as ws:
                delay = retry
                async for raw in ws:
                    message = decode_message(raw)
                    local.apply(message)
                    yield message
        except InvalidStatus as err:
            status = err.response.status_code
            if status not in TRANSIENT and status < 500:
                raise
            log.info("feed refused for now (%s); retrying after seq %s", status, local.seq)
            delay = max(delay, min(_retry_after(err), max_retry))
        except InvalidURI:
            raise
        except (OSError, ConnectionClosed, InvalidHandshake, Gap, TimeoutError) as err:
            log.info("feed interrupted (%s); resuming after seq %s", err, local.seq)
        await asyncio.sleep(delay)
        delay = min(delay * 2, max_retry)


TRANSIENT = frozenset({408, 429})  # the 4xx answers that may pass (and every 5xx)


def _retry_after(err: InvalidStatus) -> float:
    """A refusal's `Retry-After` in seconds (0: none, or a date)."""
    value = err.response.headers.get("Retry-After", "")
    try:
        return max(0.0, float(value))
    except ValueError:
        return 0.0
