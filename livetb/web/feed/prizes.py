"""The live prize list in the feed: computed at most once every 50 ms, not at every event.

A prize list reads the standings as far as its prizes reach, and a category's members may be
anywhere in the order: at 2,000 players with 5 categories and 30 prizes, 0.45 ms for a
result at the median and 1.3 ms at the 99th percentile, more than the result's whole work
besides. Results come in bursts (a round's boards within minutes, an import at once) and a
list 50 ms behind the standings misleads nobody. So an event only marks its channel's list
due; `PRIZES_AFTER` later the list is computed once for however many events came meanwhile,
and sent (a `prizes` message, `livetb/wire/messages.py`) only when it differs from the last
one the channel's viewers got.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from livetb.projections.prizes import PrizeFeed, prize_list
from livetb.projections.standings import StandingsProjection
from livetb.wire.messages import PrizesMessage, encode

PRIZES_AFTER = 0.05  # seconds from an event to its channel's prize list


class PrizeSender:
    """Per channel: the prize list last sent, and the projection whose list is due."""

    def __init__(self, send: Callable[[str, bytes], None], after: float = PRIZES_AFTER) -> None:
        self._send = send  # offers a frame to every viewer of a channel
        self._after = after
        self._feeds: dict[str, PrizeFeed] = {}
        self._due: dict[str, StandingsProjection] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}

    def changed(self, channel: str, projection: StandingsProjection, watched: bool) -> None:
        """`projection` applied an event on `channel` (`watched`: somebody follows it)."""
        feed = self._feeds.get(channel)
        if not watched:
            if feed is not None:
                feed.forget()  # nobody to tell: a new viewer's snapshot carries the list
            self.cancel(channel)
            return
        if feed is None:
            if projection.state.prizes is None:
                return  # no prize table, and none sent
            feed = self._feeds[channel] = PrizeFeed()
        self._due[channel] = projection
        if channel not in self._timers:
            loop = asyncio.get_running_loop()
            self._timers[channel] = loop.call_later(self._after, self.flush, channel)

    def flush(self, channel: str) -> None:
        """Send the channel's due list now, if it differs from the last one sent."""
        timer = self._timers.pop(channel, None)
        if timer is not None:
            timer.cancel()
        projection = self._due.pop(channel, None)
        feed = self._feeds.get(channel)
        if projection is None or feed is None:
            return
        prizes = feed.changed(projection)
        if prizes is not None:
            self._send(channel, encode(PrizesMessage(prizes=prizes)))

    def cancel(self, channel: str) -> None:
        """Nothing due on `channel` any more (its viewers left, or it is reused)."""
        timer = self._timers.pop(channel, None)
        if timer is not None:
            timer.cancel()
        self._due.pop(channel, None)

    def forget(self, channel: str) -> None:
        """The channel starts afresh: nothing due, nothing sent."""
        self.cancel(channel)
        self._feeds.pop(channel, None)

    @staticmethod
    def current(projection: StandingsProjection) -> bytes | None:
        """The list now as a message, for a viewer resuming with the deltas it missed (they
        do not carry it); None without a prize table."""
        if projection.state.prizes is None:
            return None
        return encode(PrizesMessage(prizes=prize_list(projection)))
