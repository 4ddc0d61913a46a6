"""Categories: membership by each criterion and their conjunction, the category standings
(ranks counted inside, shared main ranks shared), and the `DefineCategories` command's checks."""

from __future__ import annotations

import datetime as dt
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from livetb.client import LocalStandings
from livetb.engine.model import Participant
from livetb.errors import InvalidInput, UnknownParticipant
from livetb.events.categories import CategorySpec
from livetb.events.commands import DefineCategories, UpdateParticipant, decide
from livetb.events.schema import (
    AnyEvent,
    Board,
    CategoriesDefined,
    Category,
    GameResult,
    ParticipantKSet,
    ParticipantRegistered,
    PlayoffDecided,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    TournamentCreated,
)
from livetb.events.state import fold
from livetb.projections.categories import (
    Memberships,
    UnknownCategory,
    belongs,
    birth_span,
    category_rows,
    document_view,
    members,
)
from livetb.projections.category_order import MainOrder
from livetb.projections.document import to_json
from livetb.projections.standings import StandingsProjection
from livetb.web.feed.messages import delta_message, snapshot_message
from livetb.web.feed.views import Filter, View
from livetb.wire.messages import decode_message, encode
from livetb.wire.standings import Row
from tests.projections.test_incremental import recorded, tournaments

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


# --- the feed's category views: snapshot + deltas == GET ?category= after every event ---

CRITERIA = st.fixed_dictionaries(
    {},
    optional={
        "rating_max": st.sampled_from([1800, 2000, 2300]),
        "rating_min": st.sampled_from([1500, 2000]),
        "unrated": st.booleans(),
        "sex": st.sampled_from(["m", "w"]),
        "federations": st.sampled_from([("ITA",), ("RUS", "SMR")]),
        "born_from": st.sampled_from([dt.date(2000, 1, 1), dt.date(2010, 6, 1)]),
        "members": st.lists(st.integers(1, 9), min_size=1, max_size=5, unique=True).map(tuple),
    },
)


@st.composite
def with_categories(draw: st.DrawFn) -> list[AnyEvent]:
    """A generated tournament whose players have federations, sexes and birth dates, with the
    categories A and B defined, redefined and removed at random points after the creation."""
    events = draw(tournaments())
    out: list[AnyEvent] = []
    for event in events:
        if isinstance(event, ParticipantRegistered):
            event = msgspec.structs.replace(
                event,
                federation=draw(st.sampled_from(["ITA", "RUS", "SMR", ""])),
                sex=draw(st.sampled_from(["m", "w", ""])),
                birth_date=draw(st.sampled_from(["1990/01/01", "2010", "2012-05-05", ""])),
            )
        out.append(event)
        registered = {e.start_no for e in out if isinstance(e, ParticipantRegistered)}
        if len(out) > 1 and draw(st.integers(0, 7)) == 0:
            defined = []
            for code in draw(st.lists(st.sampled_from(["A", "B"]), unique=True)):
                criteria: dict[str, Any] = draw(CRITERIA)
                if "members" in criteria:
                    criteria["members"] = tuple(n for n in criteria["members"] if n in registered)
                    if not criteria["members"]:
                        del criteria["members"]
                defined.append(Category(code=code, name=f"Cat {code}", **criteria))
            out.append(CategoriesDefined(categories=tuple(defined)))
    return out


def category_doc(projection: StandingsProjection, code: str, top: int | None) -> object:
    """What GET …/standings?category=CODE answers (no rows once it is not defined)."""
    doc = to_json(projection)
    try:
        document_view(doc, projection.state, code, False)
    except UnknownCategory:
        doc.standings = []
    doc.standings = doc.standings[:top]
    return msgspec.json.decode(encode(doc))


def assert_feeds_follow(events: list[AnyEvent], top: int | None) -> None:
    """Category feeds A and B (their first `top` rows): snapshot + deltas == GET after every
    event, both views following one main order as the hub has them."""
    log = recorded(events)
    live = StandingsProjection()
    live.apply(log[0])
    viewers = []
    main = MainOrder()  # the channel's, followed once per delta for both views (as the hub)
    for code in ("A", "B"):
        view = View(Filter(top=top, category=code), live, main)
        doc = to_json(live)
        doc.standings = view.rows(doc.standings, live)
        local = LocalStandings(filtered=True)
        local.apply(decode_message(encode(snapshot_message(doc, live))))
        viewers.append((code, view, local))
    for rec in log[1:]:
        delta = live.apply(rec)
        message = delta_message(delta, live)
        main.follow(message)
        for code, view, local in viewers:
            local.apply(decode_message(view.delta(message, live, live.standings())))
            assert local.as_builtins() == category_doc(live, code, top), (rec.seq, code)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(with_categories(), st.sampled_from([None, 2]))
def test_category_feeds_keep_snapshot_plus_deltas_equal_to_get(
    events: list[AnyEvent], top: int | None
) -> None:
    assert_feeds_follow(events, top)


def test_a_tie_broken_at_a_non_member_reranks_the_members_after_it() -> None:
    """A playoff parts 1 from 6 (outside the category: rated over 1800), 6 no longer sharing
    the rank above; members 7 and 8, tied with 6, leave 1's rank for their own (found by the
    property above)."""
    events: list[AnyEvent] = [
        TournamentCreated(name="t", rounds=1, tiebreaks=("PTS", "BH"), unrated_rating=1500)
    ]
    events += [
        ParticipantRegistered(start_no=no, name=f"P{no}", rating=1801 if no == 6 else None)
        for no in range(1, 10)
    ]
    pairs = [(1, 9), (3, 7), (5, 6), (4, 8)]
    boards = tuple(Board(board=b, white=w, black=k) for b, (w, k) in enumerate(pairs, 1))
    events += [
        RoundPaired(round=1, boards=boards, bye=2),
        ResultRecorded(round=1, board=2, result="1-0"),
        ResultRecorded(round=1, board=3, result="1-0"),
        CategoriesDefined(categories=(Category(code="A", name="A", rating_max=1800),)),
        ResultRecorded(round=1, board=1, result="0-1"),
        ResultRecorded(round=1, board=4, result="1-0"),
        RoundClosed(round=1),
        PlayoffDecided(order=(2, 1)),
    ]
    assert_feeds_follow(events, None)


def test_category_feeds_follow_a_first_round_of_one_large_tie() -> None:
    """64 players on 0 points, each result taking its winner out of that one tie group: a
    view's span holds hundreds of tied rows."""
    events: list[AnyEvent] = [TournamentCreated(name="t", rounds=5, tiebreaks=("PTS", "BH"))]
    events += [
        ParticipantRegistered(
            start_no=no, name=f"P{no}", rating=2500 - 10 * no, federation="ITA" if no % 3 else "SMR"
        )
        for no in range(1, 65)
    ]
    ita = Category(code="A", name="Italy", federations=("ITA",))
    few = Category(code="B", name="Five", members=(5, 17, 40, 41, 63))
    events.append(CategoriesDefined(categories=(ita, few)))
    boards = tuple(Board(board=b, white=b, black=b + 32) for b in range(1, 33))
    events.append(RoundPaired(round=1, boards=boards))
    results: tuple[GameResult, ...] = ("1-0", "0-1", "1/2-1/2")
    events += [
        ResultRecorded(round=1, board=b, result=results[b % 3])
        for b in (*range(32, 0, -2), *range(1, 33, 2))
    ]
    assert_feeds_follow(events, None)


def test_a_team_tournament_takes_no_categories() -> None:
    state = fold([TournamentCreated(name="t", rounds=3, kind="team")])
    command = DefineCategories(categories=(CategorySpec(code="A", name="a"),))
    with pytest.raises(InvalidInput, match="individual tournaments only"):
        decide(state, command)
    assert decide(state, DefineCategories(categories=())) == [CategoriesDefined()]


def test_an_unknown_category_is_said_in_the_readers_language() -> None:
    from livetb.events.state import TournamentState
    from livetb.projections.categories import UnknownCategory

    err = UnknownCategory("W", TournamentState())
    assert str(err) == "category 'W': no such category (defined: none is defined)"
    assert err.said().words("it") == "categoria 'W': non esiste (definite: nessuna è definita)"
