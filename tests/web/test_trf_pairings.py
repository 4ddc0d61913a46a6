"""Pairings posted as the pairing program's TRF (`Content-Type: text/plain`)."""

from __future__ import annotations

from tests.web.conftest import TID, Api

T = f"/api/tournaments/{TID}"
NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve"]


def line(no: int, points: str, blocks: list[str]) -> str:
    head = f"001 {no:4d}      {NAMES[no - 1]}".ljust(48) + f"{2400 - 10 * no}"
    return head.ljust(80) + f"{points:>4} {no:>4}" + "".join(blocks)


def block(opponent: int, colour: str = "", result: str = " ") -> str:
    if not opponent:
        return f"  0000 - {result}"
    return f"  {opponent:4d} {colour} {result}"


ROUND_1 = {
    1: block(3, "w"),
    2: block(4, "b"),
    3: block(1, "b"),
    4: block(2, "w"),
    5: block(0, "", "U"),
}

PLAYED = {1: block(3, "w", "1"), 2: block(4, "b", "1"), 3: block(1, "b", "0"),
          4: block(2, "w", "0"), 5: block(0, "", "U")}  # fmt: skip


def trf(rounds: list[dict[int, str]], points: dict[int, str] | None = None) -> bytes:
    head = ["012 Club", "062 5", "072 5", "XXR 3"]
    body = [line(no, (points or {}).get(no, "0.0"), [r[no] for r in rounds]) for no in range(1, 6)]
    return ("\n".join(head + body) + "\n").encode()


async def setup(api: Api) -> None:
    assert (await api.call("PUT", T, {"name": "Club", "rounds": 3}))[0] == 201
    for no, name in enumerate(NAMES, start=1):
        assert (await api.post(f"{T}/participants", {"start_no": no, "name": name}))[0] == 201


async def post_trf(api: Api, rnd: int, data: bytes) -> tuple[int, object]:
    return await api.post(
        f"{T}/rounds/{rnd}/pairings", data=data, headers={"Content-Type": "text/plain"}
    )


async def test_a_rounds_blocks_become_boards_and_the_pab(api: Api) -> None:
    await setup(api)
    status, body = await post_trf(api, 1, trf([ROUND_1]))
    assert status == 201, body
    rnd = await api.get(f"{T}/rounds/1")
    games = [(g["board"], g["white"], g["black"], g["result"]) for g in rnd["games"]]
    assert games == [(1, 1, 3, None), (2, 4, 2, None)] and rnd["bye"] == 5
    # round 2 from a TRF that also carries round 1's results (ignored: only round 2 is read)
    for board, result in [(1, "1-0"), (2, "0-1")]:
        await api.post(f"{T}/rounds/1/results", {"board": board, "result": result})
    await api.post(f"{T}/rounds/1/close")
    second = {1: block(2, "b"), 2: block(1, "w"), 3: block(5, "w"), 4: block(0, "", "U"),
              5: block(3, "b")}  # fmt: skip
    pts = {1: "1.0", 2: "1.0", 5: "1.0"}
    status, body = await post_trf(api, 2, trf([PLAYED, second], pts))
    assert status == 201, body
    rnd = await api.get(f"{T}/rounds/2")
    games = [(g["board"], g["white"], g["black"]) for g in rnd["games"]]
    assert games == [(1, 2, 1), (2, 3, 5)] and rnd["bye"] == 4


async def test_located_trf_errors_are_422_and_append_nothing(api: Api) -> None:
    await setup(api)
    head = api.store.head(TID)
    broken = dict(ROUND_1)
    broken[3] = block(1, "x")  # not a colour
    status, body = await post_trf(api, 1, trf([broken]))
    assert status == 422 and body["code"] == "trf_invalid"  # type: ignore[index]
    assert "line 7, column 97" in body["message"]  # type: ignore[index]
    status, body = await post_trf(api, 2, trf([PLAYED]))
    assert status == 422, body
    assert body["path"] == "round"  # type: ignore[index]
    assert api.store.head(TID) == head


async def test_utf16_pairings_are_read_and_a_broken_bom_is_422(api: Api) -> None:
    """Issue 11 #4: a UTF-16 byte-order mark gave a 500."""
    await setup(api)
    head = api.store.head(TID)
    status, body = await post_trf(api, 1, b"\xff\xfe\n")
    assert status == 422 and body["code"] == "trf_invalid", body  # type: ignore[index]
    assert "UTF-16" in body["message"]  # type: ignore[index]
    assert api.store.head(TID) == head
    status, body = await post_trf(api, 1, trf([ROUND_1]).decode().encode("utf-16"))
    assert status == 201, body
