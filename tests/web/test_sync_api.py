"""`POST /api/tournaments/{id}/sync`: the pairing program's TRF as text/plain."""

from __future__ import annotations

from pathlib import Path

from livetb.events.schema import FileSynced, ResultCorrected, RoundClosed, RoundPaired
from livetb.interchange.trf_commands import round_boards
from livetb.trf import parse_trf
from livetb.web.keys import TOKENS
from tests.interchange.sync_cuts import SWISSES, cuts
from tests.web.conftest import Api

T = "/api/tournaments/{}/sync"
TEXT = {"Content-Type": "text/plain"}


async def post(api: Api, tid: str, text: str, query: str = "", **kw: object) -> tuple[int, dict]:
    return await api.post(T.format(tid) + query, data=text.encode(), headers=TEXT, **kw)


async def test_an_organiser_creates_by_syncing_and_an_arbiter_follows_the_event(api: Api) -> None:
    files = {c.label: c.text for c in cuts(SWISSES[2])}
    organiser = api.server.app[TOKENS].create_organiser()
    status, body = await post(api, "new", files["round 1 paired"], token=organiser)
    assert status == 200, body
    arbiter = body["token"]
    assert arbiter.startswith("ltb_") and body["events"] == body["seq"]
    status, dry = await post(api, "new", files["round 1 whole"], "?dry_run=1", token=arbiter)
    assert status == 200 and dry["dry_run"] is True
    assert dry["events"][-2] == {"type": "RoundClosed", "v": 1, "round": 1}
    assert dry["events"][-1] == {
        "type": "FileSynced",
        "v": 1,
        "source": "upload.trf",
        "name": "Generated individual swiss #1003",
        "rounds": 1,
        "results": [len(round_boards(parse_trf(files["round 1 whole"]).tournament, 1)[0])],
    }
    assert api.store.head("new") == body["seq"]  # the dry run wrote nothing
    status, done = await post(api, "new", files["round 1 whole"], token=arbiter)
    assert status == 200 and done["events"] == len(dry["events"])
    again = await post(api, "new", files["round 1 whole"], token=arbiter)
    assert again == (200, {"seq": done["seq"], "events": 0})
    standings = await api.standings("new")
    assert standings["seq"] == done["seq"]
    log = [r.event for r in api.store.read("new")]
    paired = next(e for e in log if isinstance(e, RoundPaired))
    truth = parse_trf(files["round 1 whole"]).tournament
    assert paired.boards == round_boards(truth, 1)[0]
    assert isinstance(log[-2], RoundClosed) and isinstance(log[-1], FileSynced)


async def test_a_result_entered_by_the_api_and_contradicted_is_a_409_naming_it(api: Api) -> None:
    files = {c.label: c.text for c in cuts(SWISSES[3])}
    status, body = await post(api, "t1", files["round 1 paired"])
    assert status == 200, body
    truth = parse_trf(files["round 1 whole"]).tournament
    board = round_boards(truth, 1)[0][0]
    white = next(p for p in truth.participants if p.start_no == board.white)
    told = white.entry(1).code.value
    other = {"1": "0-1", "0": "1-0", "=": "1-0"}[told]
    status, _ = await api.post(
        "/api/tournaments/t1/rounds/1/results", {"board": 1, "result": other}
    )
    assert status == 201
    head = api.store.head("t1")
    status, err = await post(api, "t1", files["round 1 whole"])
    assert status == 409 and err["code"] == "sync_conflict"
    assert [(b["round"], b["board"], b["log"]) for b in err["boards"]] == [(1, 1, other)]
    assert api.store.head("t1") == head
    status, err = await post(api, "t1", files["round 1 whole"], "?prefer=maybe")
    assert status == 422 and err["path"] == "prefer"
    status, body = await post(api, "t1", files["round 1 whole"], "?prefer=file&file=r1.trf")
    assert status == 200, body
    fixes = [r.event for r in api.store.read("t1", head) if isinstance(r.event, ResultCorrected)]
    assert [(e.round, e.board, e.reason.split(",")[0]) for e in fixes] == [(1, 1, "sync: r1.trf")]


async def test_a_file_that_is_not_trf_is_a_422_with_its_lines(api: Api) -> None:
    status, err = await post(api, "t1", "012 Club\n001 abc\n")
    assert status == 422 and err["code"] == "trf_invalid"
    assert api.store.head("t1") == 0


async def test_the_round_count_stale_and_foreign_refusals_write_nothing(api: Api) -> None:
    files = {c.label: c.text for c in cuts(SWISSES[0])}
    bare = {
        k: "".join(x for x in v.splitlines(True) if x[:3] not in ("XXR", "142"))
        for k, v in files.items()
    }
    status, err = await post(api, "t1", bare["players"])
    assert status == 422 and err["code"] == "rounds_required" and err["path"] == "rounds"
    assert "?rounds=N" in err["message"] and api.store.head("t1") == 0
    status, err = await post(api, "t1", bare["players"], "?rounds=100")
    assert status == 422 and err["path"] == "rounds"
    status, body = await post(api, "t1", bare["players"], "?rounds=7")
    assert status == 200, body
    for label in ("round 1 paired", "round 1 whole", "round 2 paired"):
        status, body = await post(api, "t1", bare[label])
        assert status == 200, (label, body)
    head = api.store.head("t1")
    status, err = await post(api, "t1", files["round 1 whole"])
    assert status == 409 and err["code"] == "sync_stale", err
    had = {p.start_no for p in parse_trf(files["round 1 whole"].encode()).tournament.participants}
    late = parse_trf(files["round 2 paired"].encode()).tournament.participants
    late = tuple(p for p in late if p.start_no not in had)
    assert err["reasons"] == [
        "it pairs rounds up to 1, upload.trf synced before paired up to 2",
        *(f"#{p.start_no} {p.name}, taken from an earlier file, is not in it" for p in late),
    ]
    other = {c.label: c.text for c in cuts(SWISSES[1])}
    status, err = await post(api, "t1", other["round 2 paired"])
    assert status == 409 and err["code"] == "sync_foreign" and err["differences"]
    status, err = await post(api, "t1", files["round 2 paired"], "?rounds=9")
    assert status == 409 and err["code"] == "rounds_differ"
    assert api.store.head("t1") == head
    status, body = await post(api, "t1", files["round 1 whole"], "?force=1")
    assert (status, body["events"]) == (200, 1)  # the record of what it showed, nothing else
    assert isinstance(list(api.store.read("t1"))[-1].event, FileSynced)


async def test_a_juniors_category_from_a_synced_file_has_its_members(api: Api) -> None:
    """The real Gros 2010 open (birth years on every 001 line): born 1990 or later."""
    text = Path("tests/data/real/gros-2010-trfkt.trf").read_text(encoding="utf-8")
    t = parse_trf(text.encode()).tournament
    juniors = sorted(p.start_no for p in t.participants if p.birth_date[:4] >= "1990")
    women = sorted(p.start_no for p in t.participants if p.sex == "w")
    assert juniors and women
    status, body = await post(api, "t1", text)
    assert status == 200, body
    spec = {
        "categories": [
            {"code": "U21", "name": "Juniors", "born_from": "1990-01-01"},
            {"code": "W", "name": "Women", "sex": "w"},
        ]
    }
    status, body = await api.call("PUT", "/api/tournaments/t1/categories", spec)
    assert status == 200, body
    listed = await api.get("/api/tournaments/t1/categories")
    assert [(c["code"], c["start_nos"]) for c in listed["categories"]] == [
        ("U21", juniors),
        ("W", women),
    ]
