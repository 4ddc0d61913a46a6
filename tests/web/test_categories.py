"""Categories and rating change over HTTP and the feed: PUT …/categories, GET …/standings with
`category=` and `with=rating_change`, PATCH …/participants/{no} `{"k": …}`, and `/ws?category=`
keeping snapshot + deltas equal to GET while results come in and the definition changes."""

from __future__ import annotations

import json
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from livetb.client import LocalStandings, feed_url
from livetb.wire.messages import decode_message
from tests.web.conftest import TID, Api, recv

T = f"/api/tournaments/{TID}"
PLAYERS = [
    # start no, name, rating, federation, sex, birth date
    (1, "Ann", 2450, "ITA", "w", "1995/02/01"),
    (2, "Bob", 2100, "RUS", "m", "2010/05/05"),
    (3, "Cid", 1990, "RUS", "m", "1980/01/01"),
    (4, "Dan", None, "ITA", "m", ""),
    (5, "Eve", 1850, "RUS", "w", "2012/07/07"),
    (6, "Fay", 2005, "ITA", "w", "1970"),
]
CONTRACT = {
    "categories": [
        {"code": "U2000", "name": "Under 2000", "rating_max": 1999},
        {"code": "RUS", "name": "Russia", "federations": ["RUS"]},
    ]
}


async def start(api: Api) -> None:
    body = {"name": "Open", "rounds": 3, "tiebreaks": ["PTS", "BH"], "start_date": "2026-06-01"}
    assert (await api.call("PUT", T, body))[0] == 201
    for no, name, rating, fed, sex, born in PLAYERS:
        person = {"start_no": no, "name": name, "rating": rating, "federation": fed}
        status, resp = await api.post(
            f"{T}/participants", person | {"sex": sex, "birth_date": born}
        )
        assert status == 201, resp
    boards = [{"board": 1, "white": 1, "black": 2}, {"board": 2, "white": 3, "black": 4}]
    boards.append({"board": 3, "white": 5, "black": 6})
    assert (await api.post(f"{T}/rounds/1/pairings", {"boards": boards}))[0] == 201


def ranks(doc: dict[str, Any]) -> list[tuple[int, int]]:
    return [(r["rank"], r["start_no"]) for r in doc["standings"]]


async def test_put_categories_then_category_standings_rank_inside(api: Api) -> None:
    await start(api)
    status, body = await api.call("PUT", f"{T}/categories", CONTRACT)
    assert status == 200, body
    listed = await api.get(f"{T}/categories")
    assert [(c["code"], c["start_nos"]) for c in listed["categories"]] == [
        ("U2000", [3, 4, 5]),  # the unrated count as 0
        ("RUS", [2, 3, 5]),
    ]
    for board, result in [(1, "0-1"), (2, "1/2-1/2"), (3, "1-0")]:
        status, _ = await api.post(f"{T}/rounds/1/results", {"board": board, "result": result})
        assert status == 201
    main = await api.standings()
    # 2 and 5 won; 3 and 4 drew (sharing 3rd); 1 and 6 lost.
    assert ranks(main)[:4] == [(1, 2), (1, 5), (3, 3), (3, 4)]
    u2000 = await api.get(f"{T}/standings?category=U2000")
    assert ranks(u2000) == [(1, 5), (2, 3), (2, 4)]  # 3 and 4 share the main 3rd: and here
    assert u2000["tiebreaks"] == main["tiebreaks"] and u2000["seq"] == main["seq"]
    by_no = {r["start_no"]: r for r in main["standings"]}
    for row in u2000["standings"]:  # the main rows, but for the rank
        assert row | {"rank": by_no[row["start_no"]]["rank"]} == by_no[row["start_no"]]
    rus = await api.get(f"{T}/standings?category=RUS")
    assert ranks(rus) == [(1, 2), (1, 5), (3, 3)]


async def test_unknown_category_and_bad_definitions_are_refused_writing_nothing(
    api: Api,
) -> None:
    await start(api)
    status, body = await api.call("GET", f"{T}/standings?category=U1800", token=None)
    assert status == 404 and "U1800" in body["message"]
    head = (await api.standings())["seq"]
    bad = [
        ({"code": "U2000", "name": "x", "rating_max": "low"}, "$.categories[0].rating_max"),
        ({"code": "U2000", "name": "x", "ratng_max": 1999}, "$.categories[0]"),
        ({"code": "U2000", "name": "x", "born_from": "2010-13-01"}, "$.categories[0].born_from"),
        ({"code": "W", "name": "x", "sex": "f"}, "$.categories[0].sex"),
        ({"code": "A", "name": "x", "members": [1, 99]}, "categories[0].members[1]"),
    ]
    for category, where in bad:
        status, body = await api.call("PUT", f"{T}/categories", {"categories": [category]})
        assert status == 422, body
        assert where in (body.get("path") or body.get("field") or body["message"]), body
    status, body = await api.call(
        "PUT", f"{T}/categories", {"categories": [CONTRACT["categories"][0]] * 2}
    )
    assert status == 422 and "defined twice" in body["message"]
    assert (await api.standings())["seq"] == head
    status, _ = await api.call("PUT", f"{T}/categories", CONTRACT, token=None)
    assert status == 401


async def test_rating_change_per_row_and_k_set_at_any_time(api: Api) -> None:
    await start(api)
    for board, result in [(1, "0-1"), (2, "1-0")]:
        await api.post(f"{T}/rounds/1/results", {"board": board, "result": result})
    doc = await api.get(f"{T}/standings?with=rating_change")
    change = {r["start_no"]: r["rating_change"] for r in doc["standings"]}
    # 2 (2100, born 2010: K 40 as a junior under 2300) beat 1 (2450: K 10); D = 350 -> 0.89.
    # 3 beat the unrated 4: no rated game for either; board 3 is unfinished.
    assert change == {1: "-8.9", 2: "35.6", 3: None, 4: None, 5: None, 6: None}
    status, _ = await api.call("PATCH", f"{T}/participants/2", {"k": 20})
    assert status == 200
    status, body = await api.call("PATCH", f"{T}/participants/2", {"k": 20, "rating": 2000})
    assert status == 409 or status == 422, body  # details stay frozen once round 1 is paired
    doc = await api.get(f"{T}/standings?with=rating_change")
    assert {r["start_no"]: r["rating_change"] for r in doc["standings"]}[2] == "17.8"
    card = await api.get(f"{T}/participants/5/rating")
    # 5 (1850, born 2012: K 40) plays 6 (2005): D = -155 -> 0.29.
    assert card["k"] == 40 and card["total"] is None and card["running_round"] == 1
    assert (card["if_win"], card["if_draw"], card["if_loss"]) == ("28.4", "8.4", "-11.6")
    plain = await api.standings()
    assert "rating_change" not in plain["standings"][0]
    status, body = await api.call("GET", f"{T}/standings?with=everything", token=None)
    assert status == 422


async def follow_one(ws: ClientConnection, local: LocalStandings) -> dict[str, Any]:
    msg = await recv(ws)
    local.apply(decode_message(json.dumps(msg)))
    return msg


async def test_a_category_feed_equals_get_through_results_and_redefinitions(api: Api) -> None:
    await start(api)
    await api.call("PUT", f"{T}/categories", CONTRACT)
    viewers = []
    for code, top in [("U2000", None), ("RUS", None), ("RUS", 2)]:
        ws = await connect(feed_url(api.base, TID, category=code, top=top))
        local = LocalStandings(filtered=True)
        await follow_one(ws, local)
        viewers.append((ws, local, code, top))

    async def check() -> None:
        for ws, local, code, top in viewers:
            await follow_one(ws, local)
            expected = await api.get(f"{T}/standings?category={code}")
            expected["standings"] = expected["standings"][:top]
            assert local.as_builtins() == expected, code

    for board, result in [(1, "0-1"), (2, "1/2-1/2"), (3, "1-0")]:
        await api.post(f"{T}/rounds/1/results", {"board": board, "result": result})
        await check()
    # Redefined mid-event: U2000 becomes U2050 (6 joins), RUS loses Cid by an explicit list.
    redefined = {
        "categories": [
            {"code": "U2000", "name": "Under 2050", "rating_max": 2049},
            {"code": "RUS", "name": "Russia", "federations": ["RUS"], "members": [2, 5]},
        ]
    }
    assert (await api.call("PUT", f"{T}/categories", redefined))[0] == 200
    await check()
    await api.call("PUT", f"{T}/categories", {"categories": []})  # gone: the views empty
    for ws, local, *_ in viewers:
        delta = await follow_one(ws, local)
        assert delta["drop"] and local.rows() == []
        await ws.close()


async def test_the_feed_refuses_an_unknown_category(api: Api) -> None:
    from websockets.exceptions import InvalidStatus

    await start(api)
    try:
        await connect(feed_url(api.base, TID, category="U1800"))
    except InvalidStatus as refused:
        assert refused.response.status_code == 404
    else:
        raise AssertionError("connected to an unknown category")


async def test_a_past_position_reads_its_own_categories_and_games(api: Api) -> None:
    await start(api)
    status, body = await api.call("PUT", f"{T}/categories", CONTRACT)
    then = body["seq"]
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "0-1"})
    await api.call("PUT", f"{T}/categories", {"categories": []})
    past = await api.get(f"{T}/standings?at_seq={then}&category=RUS&with=rating_change")
    assert [r["start_no"] for r in past["standings"]] == [2, 3, 5]
    assert all(r["rating_change"] is None for r in past["standings"])
    status, _ = await api.call("GET", f"{T}/standings?category=RUS", token=None)
    assert status == 404  # not defined any more


async def test_under_a_broadcast_delay_the_public_sees_no_held_rating_change(api: Api) -> None:
    await start(api)
    assert (await api.call("PATCH", T, {"public_delay": 3600}))[0] == 200
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "0-1"})
    public = await api.get(f"{T}/standings?with=rating_change")
    assert all(r["rating_change"] is None for r in public["standings"])
    assert (await api.get(f"{T}/participants/2/rating"))["games"] == []
    status, live = await api.call("GET", f"{T}/standings?with=rating_change")  # the token
    assert status == 200
    assert {r["start_no"]: r["rating_change"] for r in live["standings"]}[2] == "35.6"


async def test_a_participants_ranks_in_its_categories(api: Api) -> None:
    await start(api)
    await api.call("PUT", f"{T}/categories", CONTRACT)
    for board, result in [(1, "0-1"), (2, "1/2-1/2"), (3, "1-0")]:
        await api.post(f"{T}/rounds/1/results", {"board": board, "result": result})
    three = await api.get(f"{T}/participants/3/categories")
    # Cid shares the main 3rd with Dan: 2nd of U2000 (after Eve), 3rd of RUS (after Bob, Eve).
    assert three == {
        "start_no": 3,
        "categories": [
            {"code": "U2000", "name": "Under 2000", "rank": 2, "members": 3},
            {"code": "RUS", "name": "Russia", "rank": 3, "members": 3},
        ],
    }
    assert (await api.get(f"{T}/participants/1/categories"))["categories"] == []


async def test_the_participants_carry_sex_and_birth_date_that_the_bands_read(api: Api) -> None:
    """GET …/{id} gives each participant's sex and birth date as registered to a token of the
    tournament (the console's edit form shows them), the birth year to the public; a band by
    sex and birth date picks its members from them."""
    await start(api)
    status, body = await api.call("GET", T)  # the arbiter's token: the dates as registered
    assert status == 200, body
    assert [(p["start_no"], p["sex"], p["birth_date"]) for p in body["participants"]] == [
        (no, sex, born) for no, _, _, _, sex, born in PLAYERS
    ]
    people = (await api.get(T))["participants"]  # the public: the year only
    assert [(p["start_no"], p["birth_date"]) for p in people] == [
        (no, born[:4]) for no, _, _, _, _, born in PLAYERS
    ]
    assert any(len(born) > 4 for *_, born in PLAYERS)
    bands = [
        {"code": "U18W", "name": "Girls U18", "sex": "w", "born_from": "2008-01-01"},
        {"code": "S50", "name": "Seniors", "born_to": "1976-12-31"},
    ]
    assert (await api.call("PUT", f"{T}/categories", {"categories": bands}))[0] == 200
    listed = (await api.get(f"{T}/categories"))["categories"]
    # Eve (w, 2012) is a girl under 18; Cid (1980) is not a senior, Fay (a year, 1970) is.
    assert [(c["code"], c["start_nos"]) for c in listed] == [("U18W", [5]), ("S50", [6])]


async def test_watch_shows_one_category(api: Api) -> None:
    import io

    from livetb.client.watch import watch

    await start(api)
    await api.call("PUT", f"{T}/categories", CONTRACT)
    out = io.StringIO()
    local = await watch(api.base, TID, top=10, count=1, out=out, category="RUS")
    assert [r.start_no for r in local.rows()] == [2, 3, 5]
    assert "Cid" in out.getvalue() and "Ann" not in out.getvalue()


async def test_exports_of_a_category_with_the_rating_change(api: Api) -> None:
    await start(api)
    await api.call("PUT", f"{T}/categories", CONTRACT)
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "0-1"})
    url = f"{api.base}{T}/export?format=csv&category=RUS&with=rating_change"
    async with api.session.get(url) as resp:
        assert resp.status == 200
        assert 'filename="t1-RUS.csv"' in resp.headers["Content-Disposition"]
        lines = (await resp.text()).splitlines()
    assert lines[0] == "rank,start_no,name,PTS,BH,rating_change"
    assert lines[1].startswith("1,2,Bob,") and lines[1].endswith(",35.6")
    assert [line.split(",")[1] for line in lines[1:]] == ["2", "3", "5"]
    for query, status in [("format=trf26&category=RUS", 422), ("format=csv&category=X", 404)]:
        async with api.session.get(f"{api.base}{T}/export?{query}") as resp:
            assert resp.status == status, query


async def test_the_public_log_gives_birth_years_a_token_the_dates(api: Api) -> None:
    await start(api)
    status, body = await api.call("GET", f"{T}/events")  # the arbiter's token
    assert status == 200, body
    registered = [
        e["event"] for e in body["events"] if e["event"]["type"] == "ParticipantRegistered"
    ]
    assert [e["birth_date"] for e in registered] == [born for *_, born in PLAYERS]
    public = (await api.get(f"{T}/events"))["events"]
    registered = [e["event"] for e in public if e["event"]["type"] == "ParticipantRegistered"]
    assert [e["birth_date"] for e in registered] == [born[:4] for *_, born in PLAYERS]
