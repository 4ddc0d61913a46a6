"""Sort-key parts of the live standings (`livetb/projections/lines.py`)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from livetb.projections.lines import NULL, part_of

# Values a tie-break can take: counts and ratings (ints), points in halves, averages to 0.01,
# and the products of a fractional scoring (SB with quarter points: 0.0625).
values = st.one_of(
    st.integers(-5000, 5000),
    st.integers(-400, 400).map(lambda n: Decimal(n) / 2),
    st.integers(-300000, 300000).map(lambda n: Decimal(n).scaleb(-2)),
    st.integers(-10000, 10000).map(lambda n: Decimal(n).scaleb(-4)),
)


def test_parts_of_the_usual_values_are_ints_in_hundredths() -> None:
    assert part_of(Decimal("6.5")) == -650 and type(part_of(Decimal("6.5"))) is int
    assert part_of(Decimal("0.25")) == -25
    assert part_of(2312) == -231200
    assert part_of(Decimal("1.0")) == part_of(Decimal("1.00")) == part_of(1) == -100
    assert part_of(Decimal("0.0625")) == Decimal("-6.25")  # exact, kept as a Decimal
    assert part_of(None) is NULL


@given(values, values)
def test_parts_order_values_best_first_and_ties_exactly(a: Decimal | int, b: Decimal | int) -> None:
    pa, pb = part_of(a), part_of(b)
    assert isinstance(pa, int | Decimal) and isinstance(pb, int | Decimal)
    assert (pa < pb) == (a > b)
    assert (pa == pb) == (a == b)
    assert pa < NULL
