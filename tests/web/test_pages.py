"""The pages' shells: routes, language, 404 pages, static files (the browser tests in
`tests/browser` drive them in Chromium)."""

from __future__ import annotations

import json
import re

from tests.web.conftest import TID, Api


async def text(api: Api, path: str, **headers: str) -> tuple[int, str]:
    async with api.session.get(api.base + path, headers=headers) as resp:
        return resp.status, await resp.text()


def config(page: str) -> dict[str, object]:
    found = re.search(r'<script id="config" type="application/json">(.*?)</script>', page)
    assert found is not None
    return json.loads(found.group(1))  # type: ignore[no-any-return]


# What every tournament page is told besides its own settings: the feed's ping interval (the
# test server's), the tie-break codes' other spellings and the group tie-breaks (a dash when
# nobody is tied).
PAGE_SETTINGS = {
    "heartbeat": 5.0,
    "tiebreak_aliases": {"HARK": "MED", "POINTS": "PTS", "RBT": "DE", "REP": "GE"},
    "group_tiebreaks": ["DE", "EDE", "TBR", "BBE"],
}


async def test_each_page_is_served_in_the_negotiated_language(api: Api) -> None:
    await api.start()
    for path in ["/", f"/t/{TID}", f"/t/{TID}/player/3", f"/t/{TID}/overlay", f"/t/{TID}/screen"]:
        status, page = await text(api, path)
        assert status == 200, path
        assert '<html lang="en">' in page
        status, page = await text(api, path + "?lang=it")
        assert '<html lang="it">' in page and "Cerca per nome o numero" in page
        status, page = await text(api, path, **{"Accept-Language": "it-IT,it;q=0.9"})
        assert '<html lang="it">' in page
    assert config((await text(api, f"/t/{TID}/player/3"))[1]) == {
        "page": "player", "lang": "en", "tournament": TID, "start_no": 3, **PAGE_SETTINGS
    }  # fmt: skip


async def test_unknown_and_private_tournaments_get_the_same_404_page(api: Api) -> None:
    """Both pages ask for a token in the browser: nothing tells a private one from a missing
    one without it."""
    body = {"name": "Closed", "rounds": 3, "private": True}
    assert (await api.call("PUT", f"/api/tournaments/{TID}", body))[0] == 201
    status, private = await text(api, f"/t/{TID}?lang=it")
    assert status == 404
    assert config(private) == {
        "page": "standings", "lang": "it", "tournament": TID, **PAGE_SETTINGS
    }  # fmt: skip
    status, unknown = await text(api, "/t/nope?lang=it")
    assert status == 404 and unknown == private.replace(f'"{TID}"', '"nope"')
    status, page = await text(api, f"/t/{TID}/player/x1")
    assert status == 404 and config(page)["message"] == "error.player_not_found"


async def test_the_scripts_and_styles_come_from_the_package(api: Api) -> None:
    for name, kind in [("standings.js", "javascript"), ("style.css", "text/css")]:
        async with api.session.get(f"{api.base}/static/{name}") as resp:
            assert resp.status == 200 and kind in resp.content_type
    _, page = await text(api, "/")
    assert "http://" not in page and "https://" not in page  # nothing from elsewhere
