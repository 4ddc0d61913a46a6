"""The HTTP API's refusals are worded from the catalogs (`api.*`): the body's message is the
English, word for word, and its `said` the key and values a page words in its own language."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from pytest_aiohttp import AiohttpServer

from livetb import i18n
from livetb.errors import Said, TooManyRequests
from livetb.web import Config, create_app
from livetb.web.http.throttle import Throttle
from tests.web.conftest import TID, Api

T = f"/api/tournaments/{TID}"


@pytest.fixture
async def api(aiohttp_server: AiohttpServer, tmp_path: Path) -> AsyncIterator[Api]:
    config = Config(db_path=str(tmp_path / "live.sqlite"), heartbeat=5.0, poll_interval=0)
    server = await aiohttp_server(create_app(config))
    async with aiohttp.ClientSession() as session:
        yield Api(server, session)


def italian(said: dict[str, Any]) -> str:
    """A body's `said` in Italian, as the Said it was sent from words it (nested ones too)."""

    def rebuilt(said: dict[str, Any]) -> Said:
        params = {k: rebuilt(v) if isinstance(v, dict) else v for k, v in said["params"].items()}
        return Said(said["key"], **params)

    return rebuilt(said).words("it")


async def test_a_participant_not_there_is_said_in_both_languages(api: Api) -> None:
    await api.start(players=4)
    for path in (f"{T}/participants/99", f"{T}/participants/99/rating"):
        status, body = await api.call("GET", path, token=None)
        assert (status, body["code"]) == (404, "not_found"), path
        assert body["message"] == "start_no 99: no participant with that start number"
        assert body["said"] == {"key": "api.no_participant", "params": {"no": 99}}
        assert italian(body["said"]) == (
            "start_no 99: nessun partecipante ha questo numero di partenza"
        )


async def test_query_refusals_carry_their_key_and_values(api: Api) -> None:
    await api.start(players=4)
    status, body = await api.call("GET", f"{T}/standings?at_seq=2&after_round=1", token=None)
    assert (status, body["code"], body["path"]) == (422, "invalid_input", "at_seq")
    assert body["message"] == "give at_seq or after_round, not both"
    params = {"first": "at_seq", "second": "after_round"}
    assert body["said"] == {"key": "api.not_both", "params": params}
    assert i18n.text("it", "api.not_both", **params) == "indica at_seq o after_round, non entrambi"

    status, body = await api.call("GET", f"{T}/standings?at_seq=x", token=None)
    assert (status, body["path"]) == (422, "at_seq")
    assert body["message"] == f"at_seq='x': expected an integer 1..{2**63 - 1}"
    ranged = {"name": "at_seq", "value": "'x'", "low": 1, "high": 2**63 - 1}
    assert body["said"] == {"key": "api.integer_range", "params": ranged}
    assert italian(body["said"]) == f"at_seq='x': atteso un numero intero 1..{2**63 - 1}"

    status, body = await api.call("GET", f"{T}/events?limt=5", token=None)
    assert (status, body["path"]) == (422, "limt")
    assert body["message"].startswith("unknown query parameter 'limt': this route takes ")
    assert body["said"]["key"] == "api.unknown_query"
    assert body["said"]["params"]["name"] == "'limt'"
    takes = body["said"]["params"]["takes"]
    assert body["message"].endswith(takes)
    assert italian(body["said"]) == (
        f"parametro di query sconosciuto 'limt': questo percorso accetta {takes}"
    )


async def test_a_nested_message_is_sent_as_its_key_and_values(api: Api) -> None:
    await api.start(players=4)
    status, body = await api.call("GET", f"{T}/standings?category=U9", token=None)
    assert (status, body["code"]) == (404, "not_found")
    assert body["message"] == "category 'U9': no such category (defined: none is defined)"
    none = {"key": "category.none_defined", "params": {}}
    assert body["said"] == {
        "key": "category.unknown",
        "params": {"code": "'U9'", "defined": none},
    }
    assert italian(body["said"]) == "categoria 'U9': non esiste (definite: nessuna è definita)"

    result = {"board": 1, "result": "1-0"}
    status, body = await api.post(f"{T}/rounds/1/results", result, token=None)
    assert (status, body["code"]) == (401, "not_authenticated")
    assert body["message"] == "writes need an arbiter token: Authorization: Bearer <token>"
    writes = {"key": "api.token_for.writes", "params": {}}
    assert body["said"] == {"key": "api.token_needed", "params": {"what": writes}}
    assert italian(body["said"]) == (
        "per le scritture serve un token arbitrale: Authorization: Bearer <token>"
    )
    status, body = await api.post(f"{T}/rounds/1/results", result, token="nonsense")
    assert (status, body["message"]) == (401, "unknown or revoked token")
    assert body["said"] == {"key": "api.token_unknown", "params": {}}
    assert i18n.text("it", "api.token_unknown") == "token sconosciuto o revocato"


async def test_a_feed_refusal_is_worded_too(api: Api) -> None:
    await api.start(players=4)
    status, body = await api.call("GET", f"/ws?tournament={TID}&top=3&participants=1", token=None)
    assert (status, body["path"]) == (422, "participants")
    assert body["message"] == "give top or participants, not both"
    params = {"first": "top", "second": "participants"}
    assert body["said"] == {"key": "api.not_both", "params": params}
    assert italian(body["said"]) == "indica top o participants, non entrambi"


def test_a_throttled_read_says_why_in_both_languages() -> None:
    now = [0.0]
    throttle = Throttle(in_flight=4, per_second=0.5, burst=1, clock=lambda: now[0])
    throttle.admit("a")
    with pytest.raises(TooManyRequests) as refused:
        throttle.admit("a")
    err = refused.value
    assert str(err) == "more than 0.5 expensive reads a second from this address; try again in 2 s"
    assert err.words("it") == (
        "più di 0.5 letture costose al secondo da questo indirizzo; riprova tra 2 s"
    )
    assert err.as_dict()["said"] == {
        "key": "access.too_many",
        "params": {
            "why": {"key": "api.reads_per_second", "params": {"rate": "0.5"}},
            "retry_after": 2,
        },
    }
