"""Campaign: websocket abuse while a normal viewer watches.

Garbage bytes instead of HTTP, garbage and oversized frames after a real handshake, 1,000 idle
sockets (half of them stuck in the middle of their headers), and viewers that never read: the
server keeps serving a normal viewer every delta, in order, none missed, and its memory stays
bounded (RSS sampled every 50 ms, reported).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import resource
import socket
from pathlib import Path

import aiohttp
import websockets

from tests.campaign.budget import size
from tests.campaign.server import Server, serving, tournament_steps

TID = "abuse"
PLAYERS = 60
IDLE = 1000
SILENT = size(ci=50, local=200)  # viewers that never read
GARBAGE = 20
RSS_GROWTH_MB = 150  # bound on the server's growth under all of it


def handshake() -> bytes:
    return (
        f"GET /ws?tournament={TID} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


def frame(payload: bytes, opcode: int = 0x1) -> bytes:
    """A client frame (masked, with a zero mask: the payload goes as is)."""
    n = len(payload)
    if n < 126:
        length = bytes([0x80 | n])
    elif n < 1 << 16:
        length = bytes([0x80 | 126]) + n.to_bytes(2, "big")
    else:
        length = bytes([0x80 | 127]) + n.to_bytes(8, "big")
    return bytes([0x80 | opcode]) + length + b"\0\0\0\0" + payload


class Abusers:
    def __init__(self, server: Server) -> None:
        self.server = server
        self.writers: list[asyncio.StreamWriter] = []
        self.closed_by_server = 0

    async def connect(
        self, first: bytes = b"", *, silent: bool = False
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        sock = socket.socket()
        if silent:  # a tiny receive window: the server's writes back up at once
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", self.server.port))
        reader, writer = await asyncio.open_connection(sock=sock)
        self.writers.append(writer)
        if first:
            writer.write(first)
            await writer.drain()
        return reader, writer

    async def garbage(self, rng: random.Random) -> None:
        junk = rng.randbytes(rng.randint(1, 2000)) + b"\r\n\r\n"  # a whole (bad) request
        reader, _ = await self.connect(junk)
        await self.until_closed(reader)

    async def bad_frames(self, rng: random.Random, oversized: bool) -> None:
        reader, writer = await self.connect(handshake())
        await reader.readuntil(b"\r\n\r\n")
        if oversized:
            writer.write(frame(b"x" * (1 << 20)))  # 1 MiB; viewers may send 4 KiB
        else:
            writer.write(bytes([0x8F, 0x85]) + rng.randbytes(64))  # reserved opcode, junk
        with contextlib.suppress(ConnectionError):
            await writer.drain()
        await self.until_closed(reader, websocket=True)

    async def until_closed(self, reader: asyncio.StreamReader, *, websocket: bool = False) -> None:
        """Until EOF, or the server's close frame (it then waits for ours, which never comes)."""
        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
            while websocket:
                head = await asyncio.wait_for(reader.readexactly(2), 30)
                n = head[1] & 0x7F
                if n >= 126:
                    n = int.from_bytes(await reader.readexactly(2 if n == 126 else 8), "big")
                await reader.readexactly(n)
                if head[0] & 0x0F == 0x8:
                    break
            while not websocket and await asyncio.wait_for(reader.read(65536), 30) != b"":
                pass
        self.closed_by_server += 1

    def close(self) -> None:
        for writer in self.writers:
            writer.transport.abort()


async def setup(server: Server, token: str) -> list[tuple[str, str, dict | None]]:
    """Create, register, pair round 1; return the writes still to come."""
    steps = tournament_steps(TID, PLAYERS, 2)
    async with aiohttp.ClientSession() as session:
        for method, path, body in steps[: PLAYERS + 2]:
            headers = {"Authorization": f"Bearer {token}"}
            async with session.request(method, server.base + path, json=body, headers=headers) as r:
                assert r.status in (200, 201), await r.text()
    return steps[PLAYERS + 2 :]


async def watch(url: str, seqs: list[int], snapshots: list[int], ready: asyncio.Event) -> None:
    async with websockets.connect(url, max_size=None) as ws:
        async for message in ws:
            data = json.loads(message)
            if data["type"] == "snapshot":
                snapshots.append(data["seq"])
                ready.set()
            elif data["type"] == "delta":
                seqs.append(data["seq"])


async def test_the_server_keeps_serving_a_viewer_through_abuse(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 2 * IDLE + 4 * SILENT + 500  # both ends of every socket live in this test's tree
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, wanted)), hard))
    idle = min(IDLE, (resource.getrlimit(resource.RLIMIT_NOFILE)[0] - 500) // 2 - SILENT)
    rng = random.Random(7)
    with serving(tmp_path / "abuse.sqlite") as server:
        token = server.token(TID)
        await server.start()
        rest = await setup(server, token)
        seqs: list[int] = []
        snapshots: list[int] = []
        ready = asyncio.Event()
        viewer = asyncio.ensure_future(
            watch(f"ws://127.0.0.1:{server.port}/ws?tournament={TID}", seqs, snapshots, ready)
        )
        await asyncio.wait_for(ready.wait(), 30)
        baseline = peak = server.rss_mb()

        async def sample() -> None:
            nonlocal peak
            while True:
                peak = max(peak, server.rss_mb())
                await asyncio.sleep(0.05)

        sampler = asyncio.ensure_future(sample())
        abusers = Abusers(server)
        for n in range(idle):  # half send nothing, half stop in the middle of their headers
            await abusers.connect(b"" if n % 2 else b"GET /ws?tournament=abuse HTTP/1.1\r\nHo")
        silent = [await abusers.connect(handshake(), silent=True) for _ in range(SILENT)]
        assert len(silent) == SILENT
        bad = [abusers.garbage(rng) for _ in range(GARBAGE)]
        bad += [abusers.bad_frames(rng, oversized=False) for _ in range(GARBAGE)]
        bad += [abusers.bad_frames(rng, oversized=True) for _ in range(GARBAGE // 2)]
        abuse = asyncio.gather(*bad)
        # The rest of the tournament, written while all of that hangs on.
        async with aiohttp.ClientSession() as session:
            headers = {"Authorization": f"Bearer {token}"}
            for method, path, body in rest:
                async with session.request(
                    method, server.base + path, json=body, headers=headers
                ) as r:
                    assert r.status in (200, 201), await r.text()
                    head = (await r.json())["seq"]
        await asyncio.wait_for(abuse, 30)
        for _ in range(200):
            if seqs and seqs[-1] == head:
                break
            await asyncio.sleep(0.05)
        during = peak
        abusers.close()
        await asyncio.sleep(0.5)
        sampler.cancel()
        after = server.rss_mb()
        viewer.cancel()
        server.stop()
        tracebacks = server.tracebacks()
    expected = list(range(snapshots[0] + 1, head + 1))
    print(
        f"\nwebsocket abuse: {idle} idle sockets, {SILENT} viewers that never read, "
        f"{GARBAGE} garbage connections, {GARBAGE} bad-frame and {GARBAGE // 2} 1-MiB-frame "
        f"sockets ({abusers.closed_by_server} closed by the server); the normal viewer got "
        f"{len(seqs)}/{len(expected)} deltas, {len(snapshots)} snapshot(s); server RSS "
        f"{baseline:.0f} MB before, {during:.0f} MB peak, {after:.0f} MB after; "
        f"{tracebacks} tracebacks"
    )
    assert seqs == expected and len(snapshots) == 1  # every delta, in order, no fall-back
    assert abusers.closed_by_server == GARBAGE * 2 + GARBAGE // 2
    assert during - baseline < RSS_GROWTH_MB
    assert tracebacks == 0
