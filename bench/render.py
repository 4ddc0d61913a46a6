"""What a page's browser spends drawing the results of a large field as they arrive.

    .venv/bin/python -m bench.render [--players 500] [--results 20] [--gap 0.25] [--runs 2]
    .venv/bin/python -m bench.render --phone

Starts `livetb serve` on a temporary store, pairs round 1 of a tournament of `--players`, opens
the public standings page and the arbiters' console (1280×800; with `--phone` the standings
page alone at 390×844, one line a row), in Debian's Chromium through Playwright, posts
`--results` results `--gap` seconds apart and records Chromium's timeline (its tracing) from
the first POST until 2.5 s after the last one (the last highlight fades out). Reports per page
the renderer's paint, layout and style time, and the number of paints.
"""

from __future__ import annotations

import argparse
import collections
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from tests.browser.conftest import ARGS, CHROMIUM, Server

TIEBREAKS = ["PTS", "BH/C1", "BH", "WIN", "BWG"]
RESULTS = ("1-0", "1/2-1/2", "0-1")
MEASURED = {"Paint": "paint", "Layout": "layout", "UpdateLayoutTree": "style"}
DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}


def timeline(path: Path) -> dict[str, float]:
    """Paint, layout and style time (ms) and the number of paints in a Chromium trace."""
    data = json.loads(path.read_text())
    events = data["traceEvents"] if isinstance(data, dict) else data
    total: collections.Counter[str] = collections.Counter()
    for e in events:
        name = MEASURED.get(e.get("name", ""))
        if name is not None and e.get("ph") == "X":
            total[name] += e.get("dur", 0) / 1000
            total["paints"] += name == "paint"
    return {k: round(total[k], 1) for k in (*MEASURED.values(), "paints")}


def measure(browser: Any, page_path: str, args: argparse.Namespace) -> dict[str, float]:
    server = Server(Path(tempfile.mkdtemp()) / "bench.sqlite").start()
    try:
        token = server.tournament("bench", TIEBREAKS, args.players)
        page = browser.new_page(viewport=PHONE if args.phone else DESKTOP)
        page.goto(server.base + page_path.format(token=token))
        page.wait_for_selector("tbody tr >> nth=10")
        page.wait_for_timeout(1000)  # the first paint and the feed's snapshot are not measured
        trace = Path(tempfile.mkdtemp()) / "trace.json"
        browser.start_tracing(page=page, path=str(trace), categories=["devtools.timeline"])
        for board in range(1, args.results + 1):
            body = {"board": board, "result": RESULTS[board % 3]}
            server.call("POST", "/api/tournaments/bench/rounds/1/results", body, token)
            time.sleep(args.gap)
        time.sleep(2.5)
        browser.stop_tracing()
        page.close()
        return timeline(trace)
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--results", type=int, default=20)
    parser.add_argument("--gap", type=float, default=0.25)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--phone", action="store_true", help="the standings page at 390×844")
    args = parser.parse_args()
    pages = {"standings": "/t/bench", "console": "/t/bench/arbiter#token={token}"}
    if args.phone:
        del pages["console"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for run in range(1, args.runs + 1):
            for name, path in pages.items():
                got = measure(browser, path, args)
                per = {k: round(v / args.results, 1) for k, v in got.items() if k != "paints"}
                print(f"run {run} {name}: {got} ms for {args.results} results; per result {per}")
        browser.close()


if __name__ == "__main__":
    main()
