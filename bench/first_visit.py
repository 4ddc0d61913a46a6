"""What a phone downloads to open the standings page: a first visit, then a return visit.

    .venv/bin/python -m bench.first_visit [--players 40] [--runs 2]
    .venv/bin/python -m bench.first_visit --ref /tmp/base   # another checkout, interleaved

Starts `livetb demo` (from this checkout, and with `--ref` from another one, their runs
interleaved), opens `/t/demo` at 390×844 in Debian's Chromium through Playwright and reads
Chromium's network log (CDP): for each request its URL and the bytes that came over the wire
(`encodedDataLength`: headers and the body as sent, compressed or not). The return visit is
another tab of the same browser a few seconds later, with its cache and service worker. The
feed's frames (the standings themselves) are not counted: they are the same on both sides.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playwright.sync_api import ViewportSize, sync_playwright

from bench.server import free_port, wait_ready

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
PHONE: ViewportSize = {"width": 390, "height": 844}


@contextlib.contextmanager
def demo(checkout: Path, players: int) -> Iterator[str]:
    """`livetb demo` of `checkout` on a free port: its base URL while it runs."""
    port = free_port()
    env = os.environ | {"PYTHONPATH": str(checkout)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "livetb", "demo", "--port", str(port), "--players", str(players)],
        cwd=checkout, env=env, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        asyncio.run(wait_ready(base, proc))
        yield base
    finally:
        proc.terminate()
        proc.wait(30)


def visit(context: Any, url: str) -> tuple[int, int, int]:
    """(bytes over the wire, requests, requests that reached the server) of opening `url`."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    sizes: dict[str, int] = {}
    served: set[str] = set()  # answered by the server, not by a cache or the service worker
    responses: dict[str, dict[str, Any]] = {}
    cdp.on("Network.responseReceived", lambda e: responses.__setitem__(e["requestId"], e))
    cdp.on(
        "Network.loadingFinished",
        lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])),
    )
    page.goto(url)
    page.wait_for_selector("tr[data-start-no]", timeout=60_000)
    time.sleep(1.5)  # the page's late requests (the service worker's registration)
    for rid, e in responses.items():
        r = e["response"]
        if not (r.get("fromDiskCache") or r.get("fromServiceWorker") or r.get("fromPrefetchCache")):
            served.add(rid)
    files = [rid for rid in sizes if rid in responses]
    page.close()
    return sum(sizes[rid] for rid in files), len(files), len(served & set(files))


def measure(checkout: Path, players: int) -> dict[str, tuple[int, int, int]]:
    with demo(checkout, players) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        context = browser.new_context(viewport=PHONE, locale="it")
        first = visit(context, f"{base}/t/demo")
        time.sleep(2)
        again = visit(context, f"{base}/t/demo")
        browser.close()
    return {"first": first, "return": again}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--ref", type=Path, help="another checkout, measured interleaved")
    args = parser.parse_args()
    sides = [("ref", args.ref)] if args.ref else []
    sides.append(("this", ROOT))
    print("| side | visit | KB over the wire | requests | reaching the server |")
    print("|---|---|---:|---:|---:|")
    for _ in range(args.runs):
        for name, checkout in sides:
            for kind, (size, requests, served) in measure(checkout, args.players).items():
                line = f"| {name} | {kind} | {size / 1000:.1f} | {requests} | {served} |"
                print(line, flush=True)


if __name__ == "__main__":
    main()
