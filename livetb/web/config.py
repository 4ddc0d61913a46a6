"""The server's settings: one frozen value, built by the CLI, the demo or a test."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_DB = "livetb.sqlite"


@dataclass(frozen=True, kw_only=True)
class Config:
    db_path: str = DEFAULT_DB  # a SQLite file, or a postgresql:// URL
    max_body: int = 64 * 1024  # bytes of a request body (413 beyond), but for pairings:
    pairings_max_body: int = 4 << 20  # pairings, player lists: 9,998 players as TRF, ~2-3 MB
    body_timeout: float = 10.0  # seconds for a whole request body to arrive (408 beyond)
    header_timeout: float = 15.0  # seconds for a request's headers, or idle between requests
    # Seconds of silence before a viewer gets {"type": "ping"}: pages leave "live" after twice
    # this without a frame, so a frozen server is seen within 10 s.
    heartbeat: float = 3.0
    # Seconds between the websocket's own pings, which find viewers gone without a word (no
    # pong within half of it closes the socket): longer than `heartbeat`, so that a phone on
    # a slow Wi-Fi is not dropped for a pong late by a second or two.
    ws_heartbeat: float = 20.0
    queue_size: int = 64  # frames a viewer may lag behind before it is stale
    ring_size: int = 1024  # recent deltas kept per tournament for `since=` resumes
    ring_bytes: int = 8 << 20  # and at most about this many bytes of them
    send_timeout: float = 10.0  # a viewer that takes longer to accept one frame is dropped
    ws_compress: bool = False  # per-socket deflate costs CPU per viewer: off by default
    # Seconds between checks of SQLite's change counter for other nodes' writes (PostgreSQL
    # notifies instead); 0: never follow other writers.
    poll_interval: float = 0.01
    replays: int = 2  # time-travel replays (`?at_seq=`) running at once
    replay_processes: bool = True  # in worker processes (threads would share the loop's GIL)
    replay_cache: int = 32  # past standings kept, by (tournament, seq)
    # Cards and exports: built in one low-priority worker process (with `replay_processes`),
    # and kept, by (tournament, seq, what), within this many bytes.
    offload_cache: int = 32 << 20
    # Per client address, for cards, exports, time travel and the log's pages (a live token
    # is not limited): reads running at once, more waiting their turn, and reads a second in
    # bursts of `reads_burst` (429 with Retry-After beyond). `reads_per_second` 0: no limits.
    reads_in_flight: int = 2
    reads_waiting: int = 16
    reads_per_second: float = 5.0
    reads_burst: int = 20
