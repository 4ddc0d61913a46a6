"""No token in any log line, whatever the request looks like."""

from __future__ import annotations

import asyncio
import logging

import pytest
from aiohttp.test_utils import TestServer

from livetb.web.http.redact import redact
from tests.web.conftest import TID, Api

SECRET = "ltb_SECRETsecret-123"
REQUESTS = [
    # malformed request lines: aiohttp logs the raw line inside its exception
    f"GET /ws?tournament={TID}&access_token={SECRET} HTTP/1.1 junk\r\n\r\n",
    f"GET /ws?access_token={SECRET}\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
    f"GET /api/tournaments?access%5Ftoken={SECRET[:-1]}\x7f HTTP/1.1\r\n\r\n",
    f"GET /api/tournaments HTTP/1.1\r\nAuthorization: Bearer {SECRET}\r\nBad Header\r\n\r\n",
    # well-formed: the access log has the request line
    f"GET /api/tournaments/{TID}?access_token={SECRET} HTTP/1.1\r\nHost: x\r\n"
    "Connection: close\r\n\r\n",
    f"GET /api/tournaments/{TID}/standings HTTP/1.1\r\nHost: x\r\n"
    f"Authorization: Bearer {SECRET}\r\nReferer: /?access_token={SECRET}\r\n"
    "Connection: close\r\n\r\n",
]


async def raw(server: TestServer, request: str) -> bytes:
    reader, writer = await asyncio.open_connection(server.host, server.port)
    writer.write(request.encode("latin-1"))
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 30)
    writer.close()
    return answer


async def test_no_token_reaches_the_log(api: Api, caplog: pytest.LogCaptureFixture) -> None:
    await api.start(players=2)
    caplog.set_level(logging.DEBUG)
    for request in REQUESTS:
        answer = await raw(api.server, request)
        assert answer.startswith(b"HTTP/1."), answer
    await asyncio.sleep(0.05)  # the access log is written after the response
    text = caplog.text
    assert "Bad status line" in text and "Invalid header token" in text  # still useful
    assert "access_token=[redacted]" in text and "GET /api/tournaments/t1/standings" in text
    assert "SECRET" not in text, text
    leaks = [(r.name, k) for r in caplog.records for k, v in vars(r).items() if "SECRET" in str(v)]
    assert leaks == []


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        (
            "/ws?tournament=a&access_token=ltb_x&since=3",
            "/ws?tournament=a&access_token=[redacted]&since=3",
        ),
        ("Authorization: Bearer abc.def", "Authorization: [redacted]"),
        ("b'GET /?ACCESS%5fTOKEN%3Dabc HTTP/1.1'", "b'GET /?ACCESS%5fTOKEN%3D[redacted] HTTP/1.1'"),
        ("token ltb_Ab-9_x in a message", "token [redacted] in a message"),
        ("bearer+abc", "bearer+[redacted]"),
        (
            "Sec-WebSocket-Protocol: livetb, bearer.abc",
            "Sec-WebSocket-Protocol: livetb, bearer.[redacted]",
        ),
    ],
)
def test_redact(line: str, shown: str) -> None:
    assert redact(line) == shown
