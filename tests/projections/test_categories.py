"""Categories: membership by each criterion and their conjunction, the category standings
(ranks counted inside, shared main ranks shared), and the `DefineCategories` command's checks."""

from __future__ import annotations

import datetime as dt

import pytest

from livetb.engine.model import Participant
from livetb.errors import InvalidInput, UnknownParticipant
from livetb.events.commands import CategorySpec, DefineCategories, UpdateParticipant, decide
from livetb.events.schema import (
    CategoriesDefined,
    Category,
    ParticipantKSet,
    ParticipantRegistered,
    TournamentCreated,
)
from livetb.events.state import fold
from livetb.projections.categories import (
    Memberships,
    belongs,
    birth_span,
    category_rows,
    members,
)
from livetb.wire.standings import Row

PEOPLE = {
    1: Participant(1, "Anna", 2150, federation="ITA", sex="w", birth_date="2010/03/04"),
    2: Participant(2, "Boris", 1980, federation="RUS", sex="m", birth_date="1990-01-01"),
    3: Participant(3, "Carla", None, federation="rus", sex="w", birth_date="2011"),
    4: Participant(4, "Dario", 1999, federation="ITA", sex="m", birth_date=""),
    5: Participant(5, "Elena", 2000, federation="RUS", sex="w", birth_date="2009/12/31"),
}


def cat(**criteria: object) -> Category:
    return Category(code="C", name="C", **criteria)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("criteria", "expected"),
    [
        ({}, {1, 2, 3, 4, 5}),
        ({"rating_max": 1999}, {2, 3, 4}),  # the unrated count as 0
        ({"rating_min": 2000}, {1, 5}),
        ({"rating_max": 1999, "unrated": False}, {2, 4}),
        ({"unrated": True}, {3}),
        ({"sex": "w"}, {1, 3, 5}),
        ({"federations": ("RUS",)}, {2, 3, 5}),
        ({"federations": ("RUS", "ITA"), "sex": "m"}, {2, 4}),
        ({"born_from": dt.date(2010, 1, 1)}, {1, 3}),  # a year only: its whole year inside
        ({"born_from": dt.date(2011, 6, 1)}, set()),
        ({"born_to": dt.date(2009, 12, 31)}, {2, 5}),
        ({"born_from": dt.date(2009, 1, 1), "born_to": dt.date(2010, 12, 31)}, {1, 5}),
        ({"members": (1, 2, 4)}, {1, 2, 4}),
        ({"members": (1, 2, 4), "rating_max": 1999}, {2, 4}),
    ],
)
def test_a_category_is_the_conjunction_of_its_criteria(
    criteria: dict[str, object], expected: set[int]
) -> None:
    assert {no for no, p in PEOPLE.items() if belongs(cat(**criteria), p)} == expected


def test_birth_dates_as_files_write_them() -> None:
    assert birth_span("2010/03/04") == (dt.date(2010, 3, 4),) * 2
    assert birth_span("2010.03.04") == (dt.date(2010, 3, 4),) * 2
    assert birth_span("1978") == (dt.date(1978, 1, 1), dt.date(1978, 12, 31))
    assert birth_span("") is None and birth_span("120242") is None
    assert birth_span("2010/02/30") is None


def row(rank: int, no: int) -> Row:
    return Row(rank, no, f"P{no}", (), ())


def test_category_ranks_count_inside_and_shared_main_ranks_stay_shared() -> None:
    main = [row(1, 1), row(2, 2), row(2, 3), row(4, 4), row(5, 5), row(5, 6), row(7, 7)]
    got = category_rows(reversed(main), {2, 3, 5, 6, 7})
    assert [(r.rank, r.start_no) for r in got] == [(1, 2), (1, 3), (3, 5), (3, 6), (5, 7)]
    got = category_rows(main, {3, 4, 6})
    assert [(r.rank, r.start_no) for r in got] == [(1, 3), (2, 4), (3, 6)]
    assert category_rows(main, set()) == []


def created_with_players() -> list[object]:
    events: list[object] = [
        TournamentCreated(name="t", rounds=3, start_date=dt.date(2026, 5, 1)),
    ]
    for p in PEOPLE.values():
        events.append(
            ParticipantRegistered(
                start_no=p.start_no,
                name=p.name,
                rating=p.rating,
                federation=p.federation,
                sex=p.sex,
                birth_date=p.birth_date,
            )
        )
    return events


def test_define_categories_and_memberships_follow_each_version() -> None:
    state = fold(created_with_players())  # type: ignore[arg-type]
    command = DefineCategories(
        categories=(
            CategorySpec(code="U2000", name="Under 2000", rating_max=1999),
            CategorySpec(code="RUS", name="Russia", federations=("rus",)),
        )
    )
    (event,) = decide(state, command)
    assert isinstance(event, CategoriesDefined)
    assert event.categories[1].federations == ("RUS",)
    cache = Memberships()
    assert cache.of(state) == {}
    state.apply(event)
    assert cache.of(state) == {"U2000": {2, 3, 4}, "RUS": {2, 3, 5}}
    assert members(state.categories, state.participants) == cache.of(state)
    state.apply(CategoriesDefined(categories=(Category(code="W", name="Women", sex="w"),)))
    assert cache.of(state) == {"W": {1, 3, 5}}


@pytest.mark.parametrize(
    ("spec", "path"),
    [
        (CategorySpec(code="main", name="x"), "$.categories[1].code"),
        (CategorySpec(code="A", name="x"), "$.categories[1].code"),
        (CategorySpec(code="B", name="x", rating_min=2000, rating_max=1999), "rating_max"),
        (
            CategorySpec(
                code="B", name="x", born_from=dt.date(2012, 1, 1), born_to=dt.date(2011, 1, 1)
            ),
            "born_to",
        ),
        (CategorySpec(code="B", name="x", federations=("RU",)), "federations[0]"),
        (CategorySpec(code="B c", name="x"), "code"),
    ],
)
def test_bad_categories_are_refused_naming_the_field(spec: CategorySpec, path: str) -> None:
    state = fold(created_with_players())  # type: ignore[arg-type]
    command = DefineCategories(categories=(CategorySpec(code="A", name="a"), spec))
    with pytest.raises(InvalidInput) as refused:
        decide(state, command)
    assert refused.value.path is not None and refused.value.path.endswith(path)


def test_a_member_must_be_registered() -> None:
    state = fold(created_with_players())  # type: ignore[arg-type]
    command = DefineCategories(categories=(CategorySpec(code="A", name="a", members=(1, 9)),))
    with pytest.raises(UnknownParticipant, match=r"categories\[0\]\.members\[1\] 9"):
        decide(state, command)


def test_k_may_change_after_round_one_the_details_may_not() -> None:
    from livetb.errors import TournamentStarted
    from livetb.events.schema import Board, RoundPaired

    state = fold([*created_with_players(), RoundPaired(round=1, boards=(Board(1, 1, 2),))])  # type: ignore[list-item]
    assert decide(state, UpdateParticipant(start_no=2, k=40)) == [ParticipantKSet(start_no=2, k=40)]
    assert decide(state, UpdateParticipant(start_no=2, k=None)) == [ParticipantKSet(start_no=2)]
    with pytest.raises(TournamentStarted):
        decide(state, UpdateParticipant(start_no=2, k=40, rating=2000))
    with pytest.raises(InvalidInput, match="k"):
        decide(state, UpdateParticipant(start_no=2, k=0))
