"""Public reads carry a validator and may be cached: `If-None-Match` with the current `ETag`
is 304 on each of them, a new event changes the `ETag`, a delayed tournament's `ETag` follows
the delayed seq, and nothing read with a token or of a private tournament is ever cacheable."""

from __future__ import annotations

import pytest
from multidict import CIMultiDict

from livetb.web.api.reads import LIVE_BODIES
from tests.web.conftest import TID, Api
from tests.web.test_private import private

T = f"/api/tournaments/{TID}"
HOUR = 3600
PUBLIC_READS = [
    T,  # the pages' first read (boot.js, common.js)
    f"{T}/standings",
    f"{T}/standings?with=rating_change",
    f"{T}/rounds/1",
    f"{T}/prizes",
    f"{T}/categories",
    f"{T}/participants/1",
    f"{T}/participants/1/categories",
    f"{T}/participants/1/rating",
    f"{T}/crosstable",
    f"{T}/export?format=trf26",
]


async def read(
    api: Api, path: str, *, etag: str | None = None, token: str | None = None
) -> tuple[int, CIMultiDict[str], bytes]:
    headers = {} if etag is None else {"If-None-Match": etag}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    async with api.session.get(api.base + path, headers=headers) as resp:
        return resp.status, CIMultiDict(resp.headers), await resp.read()


async def result(api: Api, board: int, score: str) -> int:
    status, body = await api.post(f"{T}/rounds/1/results", {"board": board, "result": score})
    assert status == 201, body
    return int(body["seq"])


@pytest.mark.parametrize("path", PUBLIC_READS)
async def test_a_public_read_is_304_while_its_etag_holds_and_200_once_an_event_lands(
    api: Api, path: str
) -> None:
    head = await api.start(players=8)
    status, headers, body = await read(api, path)
    assert status == 200 and body
    assert headers["ETag"] == f'"{head}"'
    assert headers["Cache-Control"] == "public, max-age=1"
    assert headers["Vary"] == "Authorization"

    status, again, body = await read(api, path, etag=headers["ETag"])
    assert (status, body, again["ETag"]) == (304, b"", f'"{head}"')
    assert again["Cache-Control"] == "public, max-age=1"
    # A list of validators, a weak one (a gzipping proxy weakens it) and `*` match too.
    for named in [f'"{head - 1}", "{head}"', f'W/"{head}"', "*"]:
        assert (await read(api, path, etag=named))[0] == 304, named

    seq = await result(api, 1, "1-0")
    status, fresh, body = await read(api, path, etag=headers["ETag"])
    assert status == 200 and body and fresh["ETag"] == f'"{seq}"'


async def test_a_304_is_answered_before_the_standings_are_encoded(api: Api) -> None:
    await api.start(players=8)
    seq = await result(api, 2, "0-1")
    kept = api.server.app[LIVE_BODIES]
    assert (await read(api, f"{T}/standings", etag=f'"{seq}"'))[0] == 304
    assert [key for key in kept if key[1] == seq] == []  # nothing encoded at this seq
    assert (await read(api, f"{T}/standings"))[0] == 200
    assert [key for key in kept if key[1] == seq] == [(TID, seq, None, False)]


async def test_a_past_positions_etag_is_its_own_seq_and_outlives_new_events(api: Api) -> None:
    head = await api.start(players=8)
    path = f"{T}/standings?at_seq={head}"
    await result(api, 1, "1-0")
    status, headers, _ = await read(api, path)
    assert (status, headers["ETag"]) == (200, f'"{head}"')
    await result(api, 2, "1-0")
    assert (await read(api, path, etag=f'"{head}"'))[0] == 304


async def test_a_delayed_tournaments_etag_is_the_public_seq(api: Api) -> None:
    head = await api.start(players=8)
    assert (await api.call("PATCH", T, {"public_delay": HOUR}))[1] == {"seq": head + 1}
    live = await result(api, 3, "1/2-1/2")

    # The public sees seq `head` (the delay's own event is held too): so do its validators.
    for path in [f"{T}/standings", f"{T}/rounds/1", f"{T}/prizes", f"{T}/participants/5"]:
        status, headers, _ = await read(api, path)
        assert (status, headers["ETag"]) == (200, f'"{head}"'), path
        assert (await read(api, path, etag=f'"{head}"'))[0] == 304, path
    # The tournament's details say the delay in force, which the public seq does not follow.
    status, headers, _ = await read(api, T)
    assert headers["ETag"] == f'"{head}-d{HOUR}"'
    assert (await read(api, T, etag=f'"{head}-d{HOUR}"'))[0] == 304
    assert (await api.call("PATCH", T, {"public_delay": HOUR // 2}))[0] == 200
    status, headers, _ = await read(api, T, etag=f'"{head}-d{HOUR}"')
    assert (status, headers["ETag"]) == (200, f'"{head}-d{HOUR // 2}"')

    # A token reads the live log: its seq, never kept by a cache.
    status, headers, _ = await read(api, f"{T}/standings", token=api.token)
    assert (status, headers["ETag"]) == (200, f'"{live + 1}"')
    assert headers["Cache-Control"] == "private, no-store"


async def test_a_private_tournaments_reads_are_never_cacheable(api: Api) -> None:
    await private(api)
    for path in [T, f"{T}/standings", f"{T}/rounds/1", f"{T}/participants/1", f"{T}/events"]:
        status, headers, _ = await read(api, path, token=api.token)
        assert status == 200, path
        assert headers["Cache-Control"] == "private, no-store", path


@pytest.mark.parametrize("path", [f"{T}/standings", T, f"{T}/events", f"{T}/audit"])
async def test_a_read_with_a_token_of_a_public_tournament_is_kept_by_no_cache(
    api: Api, path: str
) -> None:
    await api.start(players=4)
    status, headers, _ = await read(api, path, token=api.token)
    assert status == 200, path
    assert headers["Cache-Control"] == "private, no-store"


async def test_a_write_takes_a_reads_etag_as_its_if_match(api: Api) -> None:
    head = await api.start(players=4)
    _, headers, _ = await read(api, f"{T}/standings")
    game = {"board": 1, "result": "1-0"}
    status, body = await api.post(
        f"{T}/rounds/1/results", game, headers={"If-Match": headers["ETag"]}
    )
    assert (status, body) == (201, {"seq": head + 1})
