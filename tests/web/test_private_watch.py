"""`livetb watch` and `follow` on a private tournament: the token goes in a header, and a
missing or wrong one is a one-line usage error, not a retry loop or a traceback."""

from __future__ import annotations

import asyncio
import io

import pytest

from livetb.client import LocalStandings, follow
from livetb.client.watch import watch
from livetb.web.keys import TOKENS
from livetb.wire.messages import SnapshotMessage
from tests.cli.test_cli import run
from tests.web.conftest import TID, Api
from tests.web.test_private import private


def watch_argv(api: Api, *extra: str) -> tuple[str, ...]:
    """`livetb watch` of the private tournament, for one update."""
    return ("watch", api.base, "--tournament", TID, "--count", "1", *extra)


@pytest.fixture(autouse=True)
def no_env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """A LIVETB_TOKEN of the shell running the tests must not leak in."""
    monkeypatch.delenv("LIVETB_TOKEN", raising=False)


async def test_follow_with_the_token_yields_a_snapshot(api: Api) -> None:
    await private(api)
    local = LocalStandings()
    async for msg in follow(api.base, TID, local, token=api.token):
        assert isinstance(msg, SnapshotMessage)
        break
    assert [row.name for row in local.rows()] == ["Ann", "Bob"]


async def test_follow_passes_the_row_filters(api: Api) -> None:
    await private(api)
    local = LocalStandings()
    async for _ in follow(api.base, TID, local, token=api.token, participants=iter([2])):
        break
    assert [row.start_no for row in local.rows()] == [2]
    async for _ in follow(api.base, TID, local := LocalStandings(), token=api.token, top=1):
        break
    assert len(local.rows()) == 1


async def test_watch_with_the_token_draws_the_table(api: Api) -> None:
    await private(api)
    out = io.StringIO()
    local = await watch(api.base, TID, count=1, out=out, token=api.token)
    assert local.seq == (await api.call("GET", f"/api/tournaments/{TID}/standings"))[1]["seq"]
    assert "Ann" in out.getvalue()


async def test_the_cli_takes_the_token_from_the_flag(api: Api) -> None:
    await private(api)
    code, out, err = await asyncio.to_thread(run, *watch_argv(api, "--token", api.token))
    assert (code, err) == (0, "") and "Bob" in out


async def test_the_cli_takes_the_token_from_the_environment(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    await private(api)
    monkeypatch.setenv("LIVETB_TOKEN", api.token)
    code, out, err = await asyncio.to_thread(run, *watch_argv(api))
    assert (code, err) == (0, "") and "Bob" in out


async def test_the_flag_wins_over_the_environment(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = await private(api)
    monkeypatch.setenv("LIVETB_TOKEN", other)
    code, _, err = await asyncio.to_thread(run, *watch_argv(api, "--token", api.token))
    assert (code, err) == (0, "")


def one_line_error(err: str) -> str:
    """The CLI's error: exactly one line, no traceback."""
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err


async def test_without_a_token_the_cli_says_so_and_exits_2(api: Api) -> None:
    await private(api)
    code, _, err = await asyncio.to_thread(run, *watch_argv(api))
    assert code == 2
    assert f"tournament {TID} does not exist, or is private: give one of its tokens" in (
        one_line_error(err)
    )
    assert "LIVETB_TOKEN" in err and "(404)" in err


async def test_another_tournaments_token_is_refused_with_exit_2(api: Api) -> None:
    other = await private(api)
    code, _, err = await asyncio.to_thread(run, *watch_argv(api, "--token", other))
    assert code == 2
    assert f"tournament {TID} does not exist, or is private and the token given is not" in (
        one_line_error(err)
    )
    assert other not in err and "(404)" in err


async def test_a_revoked_token_is_refused_with_exit_2(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    await private(api)
    stale = api.server.app[TOKENS].create(TID)
    api.server.app[TOKENS].revoke(stale)
    monkeypatch.setenv("LIVETB_TOKEN", stale)
    code, _, err = await asyncio.to_thread(run, *watch_argv(api))
    assert code == 2
    assert f"tournament {TID} does not exist, or is private and the token given" in (
        one_line_error(err)
    )
