"""The order of every row: sorted a piece at a time (`sorting`) as at once, and built from
rows already sorted (`sorted_list`) as `SortedList` builds it."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st
from sortedcontainers import SortedList

from livetb.projections.delta import Changes
from livetb.projections.lines import NULL, Line, part_of
from livetb.projections.ranking import Ranking, placing, sorted_list, sorting
from livetb.projections.steps import finish

# Keys as `placing` makes them: small ints (hundredths, best first), then the start number.
entries = st.lists(
    st.tuples(st.tuples(st.integers(-2600, 0), st.integers(-9000, 0)), st.integers(1, 9999)),
    unique_by=lambda e: e[1],
)


@settings(max_examples=60)
@given(entries, st.sampled_from([0, 1, 999, 1000, 1001, 2500]), st.data())
def test_an_order_built_from_sorted_rows_is_the_one_sorted_list_builds(
    drawn: list[tuple[tuple[int, int], int]], pad: int, data: st.DataObject
) -> None:
    # Past the load factor (1,000) too: the sublists, not one list.
    rows = sorted(drawn + [((-3000, -k), 10_000 + k) for k in range(pad)])
    built, expected = sorted_list(list(rows)), SortedList(rows)
    built._check()  # sortedcontainers' own check of its sublists, maxes and index
    assert list(built) == list(expected) == rows
    assert built._lists == expected._lists and built._maxes == expected._maxes
    # Used as the live order: a row moved, one read by position and by key.
    if rows:
        gone = data.draw(st.sampled_from(rows))
        new = ((data.draw(st.integers(-3100, 0)), 0), gone[1])
        for order in (built, expected):
            order.remove(gone)
            order.add(new)
        built._check()
        assert list(built) == list(expected)
        at = len(rows) // 2
        assert built[at] == expected[at]
        assert built.bisect_left(new) == expected.bisect_left(new)
        assert built.index(new) == expected.index(new)


# Sort-key parts as `part_of` makes them: ints, a Decimal where hundredths are not exact, NULL.
parts = st.one_of(
    st.integers(0, 40).map(lambda k: part_of(Decimal(k) / 2)),
    st.sampled_from([part_of(Decimal("7.125")), part_of(Decimal("3.333")), NULL]),
)


@settings(max_examples=80)
@given(
    st.lists(
        st.tuples(st.tuples(parts, parts, parts), st.integers(1, 9999)),
        unique_by=lambda e: e[1],
        max_size=200,
    ),
    st.integers(1, 8),
    st.booleans(),
)
def test_rows_sorted_a_piece_at_a_time_are_sorted(
    rows: list[tuple[tuple[object, object, object], int]], chunk: int, nearly: bool
) -> None:
    # Mostly in order, as a pairing or a close leaves them, or in any order; with small
    # pieces, big buckets are bucketed again by the next part, down to the last one.
    keyed = sorted(rows) if nearly else rows
    if nearly and len(keyed) > 2:
        keyed[0], keyed[-1] = keyed[-1], keyed[0]
    assert finish(sorting(list(keyed), chunk)) == sorted(rows)


def _lines(keys: dict[int, tuple[int, ...]]) -> dict[int, Line]:
    return {no: Line((), key) for no, key in keys.items()}


def test_an_order_shared_with_a_fork_is_left_whole_when_the_fork_sorts_again() -> None:
    # A fork folds a round event while its base is read: the base's order stays as it was,
    # entries and all, however the fork's own sort frees the order it replaced.
    lines = _lines({no: (-(no % 7),) for no in range(1, 301)})
    base = Ranking()
    finish(placing(base, lines, list(lines), Changes(), True, 16))
    before = list(base._order)
    fork = base.copy(order=False)
    moved = _lines({no: (-(no % 5),) for no in range(1, 301)})
    ranks, after = finish(placing(fork, moved, list(moved), Changes(), True, 16)) or ([], [])
    base._order._check()
    assert list(base._order) == before
    assert after == [no for _, no in sorted((line.parts, no) for no, line in moved.items())]
    assert ranks[0] == 1 and len(ranks) == 300
    # Sorting again its own order (not shared): the replaced one is emptied, the new one whole.
    own = fork._order
    again = _lines({no: (-(no % 3),) for no in range(1, 301)})
    finish(placing(fork, again, list(again), Changes(), True, 16))
    assert len(own._lists) == 0 or all(not entries for entries in own._lists)
    fork._order._check()
    assert fork.nos() == [no for _, no in sorted((line.parts, no) for no, line in again.items())]
