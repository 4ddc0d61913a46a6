"""The feed's `with=rating_change` views: on generated tournaments (rated and unrated players,
K set and reset by the arbiter at random points), a viewer's copy — rows from the snapshot and
the deltas, `rating_change` from the snapshot's rows and each delta's changed values — equals
GET `?with=rating_change` after every event, for every row and for the first N; and a delta
carries only the values that changed (or of rows that entered the view)."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from livetb.client import LocalStandings
from livetb.events.schema import AnyEvent, ParticipantKSet, ParticipantRegistered
from livetb.projections.category_order import MainOrder
from livetb.projections.document import to_json
from livetb.projections.ratings import RatedTotals, with_rating_change
from livetb.projections.standings import StandingsProjection
from livetb.web.feed.messages import delta_message, snapshot_message
from livetb.web.feed.views import Filter, View
from livetb.wire.messages import decode_message, encode
from tests.projections.test_incremental import recorded, tournaments


@st.composite
def with_k(draw: st.DrawFn) -> list[AnyEvent]:
    """A generated tournament with K set (or put back to the default) now and then."""
    out: list[AnyEvent] = []
    for event in draw(tournaments()):
        out.append(event)
        registered = [e.start_no for e in out if isinstance(e, ParticipantRegistered)]
        if registered and draw(st.integers(0, 5)) == 0:
            k = draw(st.sampled_from([None, 10, 20, 40]))
            out.append(ParticipantKSet(start_no=draw(st.sampled_from(registered)), k=k))
    return out


def expected(projection: StandingsProjection, top: int | None) -> list[tuple[int, Any]]:
    """(start no, rating_change) of GET …/standings?with=rating_change (its first `top`)."""
    rows = with_rating_change(to_json(projection).standings, projection.state)[:top]
    return [(r.start_no, msgspec.to_builtins(r)["rating_change"]) for r in rows]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(with_k(), st.sampled_from([None, 3]))
def test_rated_feeds_keep_snapshot_plus_deltas_equal_to_get(
    events: list[AnyEvent], top: int | None
) -> None:
    log = recorded(events)
    live = StandingsProjection()
    live.apply(log[0])
    main = MainOrder()  # the channel's, followed once per delta (as the hub does)
    view = View(Filter(top=top, rated=True), live, main)
    doc = to_json(live)
    doc.standings = with_rating_change(view.rows(doc.standings, live), live.state)
    snapshot = msgspec.json.decode(encode(snapshot_message(doc, live)))
    change = {r["start_no"]: r["rating_change"] for r in snapshot["standings"]["standings"]}
    local = LocalStandings(filtered=True)
    local.apply(decode_message(encode(snapshot_message(doc, live))))
    totals = RatedTotals.read(live, None)
    for rec in log[1:]:
        delta = live.apply(rec)
        before = {no: totals.text(no) for no in totals.totals}
        totals = RatedTotals.read(live, totals, delta.games)
        # Read from the totals before where only results changed: the same as read whole.
        assert totals.totals == RatedTotals.read(live, None).totals, rec.seq
        message = delta_message(delta, live)
        main.follow(message)
        frame = view.delta(message, live, live.standings(), totals)
        local.apply(decode_message(frame))
        sent = msgspec.json.decode(frame)
        for no in sent.get("drop", []):
            change.pop(no, None)
        entered = {r["start_no"] for r in sent.get("rows", [])} - change.keys()
        for no, value in sent.get("rating_change", []):
            # Sent: a value that changed, or a row's that entered the view.
            assert no in entered or before.get(no) != value, (rec.seq, no)
            change[no] = value
        got = [(r.start_no, change[r.start_no]) for r in local.rows()]
        assert got == expected(live, top), rec.seq
