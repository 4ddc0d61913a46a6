"""The feed's v2 messages applied the way a viewer applies them, for the property tests:
a snapshot, then every delta, must give exactly what `GET …/standings` returns."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from livetb.client import LocalStandings
from livetb.events.schema import Recorded
from livetb.projections.delta import Delta, content_changed
from livetb.projections.document import to_json
from livetb.projections.standings import StandingsProjection
from livetb.web.feed.messages import delta_message, round_info, snapshot_message
from livetb.wire.messages import decode_message, encode
from livetb.wire.standings import Row


class Viewer:
    """A client copy of one projection's standings, fed over the wire format (JSON)."""

    def __init__(self, projection: StandingsProjection) -> None:
        self.local = LocalStandings()
        self.local.apply(decode_message(encode(snapshot_message(to_json(projection), projection))))
        self.sizes: list[int] = []

    def take(self, delta: Delta, projection: StandingsProjection) -> None:
        """Apply `delta` as it goes on the wire; check the copy against the projection."""
        data = encode(delta_message(delta, projection))
        self.sizes.append(len(data))
        self.local.apply(decode_message(data))
        expected = msgspec.json.decode(encode(to_json(projection)))
        assert self.local.as_builtins() == expected, f"copy differs after seq {delta.seq}"
        state = projection.state
        running = round_info(state, state.paired) if state.paired else None
        assert self.local.round == running, f"round differs after seq {delta.seq}"


def changed_rows(before: dict[int, Row], after: list[Row]) -> set[int]:
    """Rows whose content (not rank or statuses, which the delta tells otherwise) changed."""
    return {r.start_no for r in after if content_changed(before.get(r.start_no), r)}


def follow_log(
    log: Sequence[Recorded], rebuilt_at: Callable[[int, Recorded], bool] = lambda k, rec: True
) -> None:
    """Apply `log` event by event to a live projection. After event k (1-based): its delta is
    seq k's and carries exactly the rows whose content changed, a viewer fed the wire messages
    has what GET would return, and where `rebuilt_at(k, record)` the standings equal a rebuild
    of the first k events from scratch."""
    live = StandingsProjection()
    live.apply(log[0])
    viewer = Viewer(live)
    before = {row.start_no: row for row in live.standings()}
    for k, rec in enumerate(log[1:], start=2):
        delta = live.apply(rec)
        after = live.standings()
        if rebuilt_at(k, rec):
            scratch = StandingsProjection.rebuild(log[:k])
            assert after == scratch.standings(), f"after event {k}: {rec.event}"
        assert {c.start_no for c in delta.changes} == changed_rows(before, after), f"event {k}"
        assert delta.seq == rec.seq
        viewer.take(delta, live)
        before = {row.start_no: row for row in after}
