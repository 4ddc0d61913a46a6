"""A viewer of a livetb server's standings feed (`follow`, `LocalStandings`) and the terminal
view built on it (`livetb.client.watch`). It speaks only the wire format (`livetb.wire`)."""

from livetb.client.follow import Gap, LocalStandings, auth_headers, feed_url, follow

__all__ = ["Gap", "LocalStandings", "auth_headers", "feed_url", "follow"]
