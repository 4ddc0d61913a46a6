"""The live page at `/`: its script, run in node against the server, shows what GET shows."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from importlib import resources
from pathlib import Path

import pytest

from tests.web.conftest import TID, Api

T = f"/api/tournaments/{TID}"
NODE = shutil.which("node")


def node_has_websocket() -> bool:
    if NODE is None:
        return False
    probe = [
        NODE,
        "--experimental-websocket",
        "-e",
        "process.exit(typeof WebSocket == 'function' ? 0 : 1)",
    ]
    return subprocess.run(probe, capture_output=True).returncode == 0


async def test_the_page_is_served(api: Api) -> None:
    async with api.session.get(api.base + "/") as resp:
        assert resp.status == 200 and resp.content_type == "text/html"
        assert "/ws?tournament=" in await resp.text()


@pytest.mark.skipif(not node_has_websocket(), reason="needs node with a WebSocket global")
async def test_the_page_applies_deltas_to_what_a_get_returns(api: Api) -> None:
    head = await api.start()
    page = resources.files("livetb.web").joinpath("static/index.html")
    harness = Path(__file__).with_name("page_harness.js")
    proc = await asyncio.create_subprocess_exec(
        NODE, "--experimental-websocket", str(harness), str(page), api.base, TID, str(head + 3),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    await asyncio.sleep(0.5)  # let it take its snapshot first
    await api.post(f"{T}/rounds/1/results", {"board": 1, "result": "1-0"})
    await api.post(f"{T}/rounds/1/results", {"board": 2, "result": "1/2-1/2"})
    await api.call("PUT", f"{T}/rounds/1/results", {"board": 1, "result": "0-1", "reason": "r"})
    out, err = await asyncio.wait_for(proc.communicate(), 10)
    assert proc.returncode == 0, err.decode()
    shown = json.loads(out)
    fresh = await api.standings()
    assert shown["status"] == f"after round 0, round 1 in progress · log seq {head + 3}"
    expected = [
        [[str(r["rank"]), ""], [str(r["start_no"]), ""], [r["name"], "name"]]
        + [
            ["-" if v is None else str(v), s]
            for v, s in zip(r["values"], r["statuses"], strict=True)
        ]
        for r in fresh["standings"]
    ]
    assert shown["rows"] == expected
