"""`GET /api/tournaments/{id}/export?format=…`: the tournament as an attachment."""

from __future__ import annotations

from livetb.engine.model import Code
from livetb.trf import parse_trf
from tests.web.conftest import TID, Api


async def test_export_is_an_attachment_that_reads_back(api: Api) -> None:
    await api.start(players=4)
    t = f"/api/tournaments/{TID}"
    assert (await api.post(f"{t}/rounds/1/results", {"board": 1, "result": "1-0"}))[0] == 201
    async with api.session.get(api.base + f"{t}/export?format=trf26") as resp:
        assert resp.status == 200
        assert resp.headers["Content-Disposition"] == f'attachment; filename="{TID}.trf"'
        body = await resp.read()
    back = parse_trf(body).tournament
    entries = {p.start_no: p.entries for p in back.participants}
    assert entries[1][0].code is Code.WIN and entries[2][0].code is Code.LOSS
    assert entries[3][0].code is Code.PENDING  # board 2 is still being played
    async with api.session.get(api.base + f"{t}/export?format=html") as resp:
        assert resp.status == 200 and resp.content_type == "text/html"
        assert "<table>" in await resp.text()


async def test_an_unknown_format_is_refused(api: Api) -> None:
    await api.start(players=4)
    status, body = await api.call("GET", f"/api/tournaments/{TID}/export?format=pdf", token=None)
    assert status == 422
    assert "format='pdf': expected one of trf16, trf26, csv, html" in body["message"]


def _game(white: str, black: str, result: str) -> str:
    return f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n\n1. d4 d5 {result}\n\n'


async def test_pgn_post_records_final_results_once(api: Api) -> None:
    await api.start(players=4)  # round 1: Ann-Bob, Cid-Dan
    path = f"/api/tournaments/{TID}/rounds/1/pgn"
    text = _game("Ann", "Bob", "1-0") + _game("Cid", "Dan", "*") + _game("Zed", "Yan", "0-1")
    headers = {"Content-Type": "text/plain"}
    status, body = await api.call("POST", path, data=text.encode(), headers=headers)
    assert status == 200, body
    assert body["recorded"] == [{"round": 1, "board": 1, "result": "1-0", "corrected": False}]
    assert (body["unfinished"], body["already"]) == (1, 0)
    assert body["unmatched"][0]["reason"].startswith("no registered player named 'Zed'")
    status, again = await api.call("POST", path, data=text.encode(), headers=headers)
    assert (status, again["recorded"], again["already"]) == (200, [], 1)
    changed = _game("Ann", "Bob", "0-1").encode()
    status, refused = await api.call("POST", path, data=changed, headers=headers)
    assert refused["recorded"] == [] and "has 1-0" in refused["refused"][0]["reason"]
    status, fixed = await api.call("POST", path + "?corrections=true", data=changed)
    assert fixed["recorded"] == [{"round": 1, "board": 1, "result": "0-1", "corrected": True}]
    status, _ = await api.call("POST", path, data=text.encode(), token=None)
    assert status == 401
