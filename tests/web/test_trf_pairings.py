"""Pairings posted as the pairing program's TRF (`Content-Type: text/plain`)."""

from __future__ import annotations

from typing import Any

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


async def post_trf(api: Api, rnd: int, data: bytes) -> tuple[int, Any]:
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
    boards = [(g["board"], g["white"], g["black"]) for g in rnd["games"]]
    assert boards == [(1, 2, 1), (2, 3, 5)] and rnd["bye"] == 4


async def test_located_trf_errors_are_422_and_append_nothing(api: Api) -> None:
    await setup(api)
    head = api.store.head(TID)
    broken = dict(ROUND_1)
    broken[3] = block(1, "x")  # not a colour
    status, body = await post_trf(api, 1, trf([broken]))
    assert status == 422 and body["code"] == "trf_invalid"
    assert "line 7, column 97" in body["message"]
    status, body = await post_trf(api, 2, trf([PLAYED]))
    assert status == 422, body
    assert body["path"] == "round"
    assert api.store.head(TID) == head


async def test_utf16_pairings_are_read_and_a_broken_bom_is_422(api: Api) -> None:
    """A UTF-16 byte-order mark gave a 500."""
    await setup(api)
    head = api.store.head(TID)
    status, body = await post_trf(api, 1, b"\xff\xfe\n")
    assert status == 422 and body["code"] == "trf_invalid", body
    assert "UTF-16" in body["message"]
    assert api.store.head(TID) == head
    status, body = await post_trf(api, 1, trf([ROUND_1]).decode().encode("utf-16"))
    assert status == 201, body


# The 18-player shape: Rizzo (17) beat a higher-rated player in round 1 and is White
# against Bianchi (2) in round 2. Round 1 (White first); the White players named win, except
# 11-2 and 17-8 (Black 2 and White 17 win): nine players on 1 point.
ROUND_1_PAIRS = [(1, 10), (11, 2), (3, 12), (13, 4), (5, 14), (15, 6), (7, 16), (17, 8), (9, 18)]
WINNERS = {1, 2, 3, 4, 5, 6, 7, 9, 17}
# Round 2 as a pairing program made it, listed here by White's start number.
ROUND_2_PAIRS = [(3, 7), (5, 10), (6, 1), (8, 12), (9, 4), (13, 11), (14, 16), (17, 2), (18, 15)]
FIELD = {no: f"Player {no}" for no in range(1, 19)} | {2: "Bianchi, Anna", 17: "Rizzo, Marco"}


def field_trf() -> bytes:
    first = {w: (b, "w") for w, b in ROUND_1_PAIRS} | {b: (w, "b") for w, b in ROUND_1_PAIRS}
    second = {w: (b, "w") for w, b in ROUND_2_PAIRS} | {b: (w, "b") for w, b in ROUND_2_PAIRS}
    rows = []
    for no, name in FIELD.items():
        (opp1, c1), (opp2, c2) = first[no], second[no]
        won = "1" if no in WINNERS else "0"
        head = f"001 {no:4d}      {name}".ljust(48) + f"{2500 - 10 * no}"
        points = "1.0" if no in WINNERS else "0.0"
        rows.append(
            head.ljust(80) + f"{points:>4} {no:>4}" + block(opp1, c1, won) + block(opp2, c2)
        )
    header = ["012 Open", "062 18", "072 18", "092 Individual: Swiss-System", "XXR 5"]
    return ("\n".join(header + rows) + "\n").encode()


async def play_round_1_of_the_field(api: Api) -> None:
    assert (await api.call("PUT", T, {"name": "Open", "rounds": 5}))[0] == 201
    for no, name in FIELD.items():
        assert (await api.post(f"{T}/participants", {"start_no": no, "name": name}))[0] == 201
    boards = [{"board": i, "white": w, "black": b} for i, (w, b) in enumerate(ROUND_1_PAIRS, 1)]
    assert (await api.post(f"{T}/rounds/1/pairings", {"boards": boards}))[0] == 201
    for i, (w, _) in enumerate(ROUND_1_PAIRS, start=1):
        result = "1-0" if w in WINNERS else "0-1"
        assert (await api.post(f"{T}/rounds/1/results", {"board": i, "result": result}))[0] == 201
    assert (await api.post(f"{T}/rounds/1/close"))[0] == 201


async def test_board_1_is_the_top_score_pair_not_whites_start_number(api: Api) -> None:
    await play_round_1_of_the_field(api)
    status, body = await post_trf(api, 2, field_trf())
    assert status == 201, body
    rnd = await api.get(f"{T}/rounds/2")
    games = [(g["board"], g["white"], g["black"]) for g in rnd["games"]]
    # C.04 publication order: the four 1 + 1 pairs by their higher player (1, 2, 3, 4), then
    # 5-10 (1 + 0), then the 0 + 0 pairs by their smaller start number (8, 11, 14, 15).
    assert games == [
        (1, 6, 1), (2, 17, 2), (3, 3, 7), (4, 9, 4), (5, 5, 10),
        (6, 8, 12), (7, 13, 11), (8, 14, 16), (9, 18, 15),
    ]  # fmt: skip
    # Numbered by White's start number, Rizzo - Bianchi was board 8.
    assert ROUND_2_PAIRS.index((17, 2)) + 1 == 8


async def test_the_engines_output_keeps_its_board_order(api: Api) -> None:
    await play_round_1_of_the_field(api)
    head = api.store.head(TID)
    engine = "9\n17 2\n6 1\n3 7\n9 4\n5 10\n8 12\n13 11\n14 16\n18 15\n"
    broken = engine.replace("9 4\n", "9 - 4\n")
    status, body = await post_trf(api, 2, broken.encode())
    assert status == 422 and body["code"] == "invalid_input", body
    assert body["path"] == "line 5" and "line 5: found '9 - 4'" in body["message"]
    assert api.store.head(TID) == head
    status, body = await post_trf(api, 2, engine.encode())
    assert status == 201, body
    rnd = await api.get(f"{T}/rounds/2")
    assert [(g["white"], g["black"]) for g in rnd["games"]][:3] == [(17, 2), (6, 1), (3, 7)]
    assert [g["board"] for g in rnd["games"]] == list(range(1, 10))


async def test_the_engines_bye_is_the_pab(api: Api) -> None:
    await setup(api)
    status, body = await post_trf(api, 1, b"3\n4 2\n1 3\n5 0\n")
    assert status == 201, body
    rnd = await api.get(f"{T}/rounds/1")
    assert [(g["board"], g["white"], g["black"]) for g in rnd["games"]] == [(1, 4, 2), (2, 1, 3)]
    assert rnd["bye"] == 5


async def test_a_json_body_keeps_its_board_numbers(api: Api) -> None:
    await setup(api)
    boards = [{"board": 2, "white": 1, "black": 3}, {"board": 1, "white": 4, "black": 2}]
    status, body = await api.post(f"{T}/rounds/1/pairings", {"boards": boards, "bye": 5})
    assert status == 201, body
    rnd = await api.get(f"{T}/rounds/1")
    assert [(g["board"], g["white"], g["black"]) for g in rnd["games"]] == [(1, 4, 2), (2, 1, 3)]
