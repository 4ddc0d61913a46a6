"""The venue screen's QR code (`GET /t/{id}/qr.svg`): an SVG made on the server that decodes to
the phone standings URL of the host the request came in by."""

from __future__ import annotations

import re

import zxingcpp

from tests.web.conftest import TID, Api

SCALE = 6  # pixels per module when the SVG is drawn for the decoder


def raster(svg: str) -> tuple[memoryview, int]:
    """Draw segno's SVG (one path of horizontal strokes of one module: `M x y.5 h n m dx dy`)
    as a grey image, `SCALE` pixels a module; the image and its side in pixels."""
    side = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))  # type: ignore[union-attr]
    d = re.search(r'<path[^>]*class="qrline"[^>]*d="([^"]+)"', svg).group(1)  # type: ignore[union-attr]
    size = side * SCALE
    pixels = bytearray(b"\xff" * size * size)
    x = y = 0.0
    for op, args in re.findall(r"([MmHh])([^MmHh]*)", d):
        nums = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", args)]
        if op == "M":
            x, y = nums
        elif op == "m":
            x, y = x + nums[0], y + nums[1]
        else:
            end = x + nums[0] if op == "h" else nums[0]
            row = int(y)  # a stroke of width 1 centred on y + 0.5
            for py in range(row * SCALE, (row + 1) * SCALE):
                start = py * size
                pixels[start + int(x) * SCALE : start + int(end) * SCALE] = b"\x00" * (
                    int(end - x) * SCALE
                )
            x = end
    return memoryview(pixels).cast("B", (size, size)), size


def decode(svg: str) -> str:
    image, _ = raster(svg)
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1, "one QR code in the image"
    return str(found[0].text)


async def get(api: Api, path: str, **headers: str) -> tuple[int, str, str]:
    async with api.session.get(api.base + path, headers=headers) as resp:
        return resp.status, resp.headers.get("Content-Type", ""), await resp.text()


async def test_the_qr_code_decodes_to_the_phone_standings_url(api: Api) -> None:
    await api.start()
    status, kind, svg = await get(api, f"/t/{TID}/qr.svg")
    assert status == 200 and kind == "image/svg+xml"
    assert svg.startswith("<svg") and "<script" not in svg
    assert decode(svg) == f"{api.base}/t/{TID}"
    status, _, svg = await get(api, f"/t/{TID}/qr.svg?lang=it")
    assert decode(svg) == f"{api.base}/t/{TID}?lang=it"


async def test_the_code_names_the_host_the_screen_was_opened_by(api: Api) -> None:
    """A screen opened as http://venue.local:8080 gives phones that address, not loopback."""
    await api.start()
    _, _, svg = await get(api, f"/t/{TID}/qr.svg", Host="venue.local:8080")
    assert decode(svg) == f"http://venue.local:8080/t/{TID}"


async def test_an_unknown_language_is_left_out_and_a_malformed_id_is_not_found(api: Api) -> None:
    await api.start()
    _, _, svg = await get(api, f"/t/{TID}/qr.svg?lang=xx")
    assert decode(svg) == f"{api.base}/t/{TID}"
    status, _, _ = await get(api, "/t/" + "x" * 65 + "/qr.svg")
    assert status == 404
    status, _, _ = await get(api, "/t/a%20b/qr.svg")
    assert status == 404


async def test_a_missing_tournament_gets_a_code_too(api: Api) -> None:
    """The code holds only the address its caller built: serving it for any id tells nobody
    whether a private tournament exists."""
    await api.start()
    status, _, svg = await get(api, "/t/nobody-here/qr.svg")
    assert status == 200
    assert decode(svg) == f"{api.base}/t/nobody-here"
