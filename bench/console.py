"""The arbiters' console at speed: a 60-board round's results typed in by a scripted keyboard.

    .venv/bin/python -m bench.console [--boards 60] [--runs 3]

Starts `livetb serve` on a temporary store, pairs round 1 of a 2×boards-player tournament, opens
the console in Debian's Chromium (Playwright) and types every board's result (board number,
Space, result key, Enter) as fast as the page takes keys. Reports the time from the last key
to the last board shown as confirmed (the log's seq received), and the whole entry's time.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.browser.conftest import ARGS, CHROMIUM, Server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    tails, wholes = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for run in range(args.runs):
            server = Server(Path(tempfile.mkdtemp()) / "bench.sqlite").start()
            try:
                tid = f"bench{run}"
                tiebreaks = ["PTS", "BH/C1", "BH", "WIN", "BWG"]
                token = server.tournament(tid, tiebreaks, args.boards * 2)
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.goto(f"{server.base}/t/{tid}/arbiter#token={token}")
                page.wait_for_selector(f"[data-board='{args.boards}']")
                start = time.perf_counter()
                for board in range(1, args.boards + 1):
                    page.keyboard.type(str(board))
                    page.keyboard.press("Space")
                    page.keyboard.type("1=0"[board % 3])
                    page.keyboard.press("Enter")
                last_key = time.perf_counter()
                # A function, not an expression: the pages' CSP has no 'unsafe-eval'.
                page.wait_for_function(
                    "(n) => document.querySelectorAll('[data-state=\"confirmed\"]').length === n",
                    arg=args.boards,
                    polling="raf",
                    timeout=30000,
                )
                done = time.perf_counter()
                tails.append((done - last_key) * 1000)
                wholes.append(done - start)
                page.close()
            finally:
                server.stop()
        browser.close()
    print(f"{args.boards} boards typed, {args.runs} runs")
    print(
        f"last key to last confirmation: {', '.join(f'{x:.0f}' for x in tails)} ms "
        f"(median {statistics.median(tails):.0f} ms)"
    )
    print(f"whole round typed and confirmed: {', '.join(f'{x:.1f}' for x in wholes)} s")


if __name__ == "__main__":
    main()
