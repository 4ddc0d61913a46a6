"""A creation at an id the API's routes do not take ("my open!", 65 characters) is refused
naming the field, 422 `invalid_input` with `path: "id"`, not the router's bare 404; reading
such an id still finds nothing (404), and a good id is created as before."""

from __future__ import annotations

from typing import Any

import pytest

from livetb.web.keys import TOKENS
from tests.web.conftest import Api

CLUB = {"name": "Club", "rounds": 5}


def organiser(api: Api) -> str:
    return str(api.server.app[TOKENS].create_organiser(label="office"))


@pytest.mark.parametrize("tid", ["my open!", "my%20open", "à-la-carte", "x" * 65, "a:b"])
async def test_a_bad_id_is_refused_naming_the_field(api: Api, tid: str) -> None:
    status, body = await api.call("PUT", f"/api/tournaments/{tid}", CLUB, token=organiser(api))
    assert status == 422, body
    assert (body["code"], body["path"]) == ("invalid_input", "id")
    assert "1 to 64 letters, digits" in body["message"]
    assert api.store.tournaments() == []
    status, body = await api.call("GET", f"/api/tournaments/{tid}", token=None)
    assert (status, body["code"]) == (404, "not_found")


async def test_a_good_id_is_created_and_an_unknown_route_is_still_404(api: Api) -> None:
    org = organiser(api)
    status, body = await api.call("PUT", "/api/tournaments/open.2025_A-1", CLUB, token=org)
    assert status == 201, body
    missing: Any = await api.call("PUT", "/api/tournaments/open.2025_A-1/nothing", CLUB, token=org)
    assert missing[0] == 404
