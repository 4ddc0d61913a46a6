"""Benchmark: `livetb standings FILE` on a large TRF, the whole process.

    .venv/bin/python -m bench.batch [--players 9999] [--rounds 13] [--repeat 3]

Writes a generated Swiss (`bench/generate.py`) as a TRF-16 file, then times the command in
its own process (start-up, loading, ranking, printing the JSON), best of `--repeat`, with and
without `--explain` for one player.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

from bench.generate import swiss_events
from bench.projection import TIEBREAKS
from livetb.engine.model import Code
from livetb.events.state import TournamentState

POINTS = {
    Code.WIN: Decimal(1),
    Code.FORFEIT_WIN: Decimal(1),
    Code.FULL_BYE: Decimal(1),
    Code.PAB: Decimal(1),
    Code.DRAW: Decimal("0.5"),
    Code.HALF_BYE: Decimal("0.5"),
}


def trf(players: int, rounds: int) -> str:
    """The generated tournament's TRF-16 text: one 001 record per player (TRF.md 4)."""
    state = TournamentState()
    for event in swiss_events(players, rounds):
        state.apply(event)
    t = state.tournament()
    lines = [
        f"012 {t.name}",
        f"062 {len(t.participants)}",
        f"XXR {rounds}",
        "092 Individual: Swiss-System",
    ]
    for p in t.participants:
        points = sum((POINTS.get(e.code, Decimal(0)) for e in p.entries), Decimal(0))
        rating = p.rating or 0
        head = (
            f"001 {p.start_no:>4} {p.sex or 'm':1}{p.title:>3} {p.name[:33]:<33} {rating:>4} "
            f"{p.federation[:3]:<3} {p.fide_id[:11]:>11} {p.birth_date[:10]:<10} "
            f"{points:>4.1f} {p.start_no:>4}"
        )
        blocks = "".join(
            f"  {e.opponent or 0:>4} {e.colour or '-'} {e.code.value}" for e in p.entries
        )
        lines.append(head + blocks)
    return "\n".join(lines) + "\n"


def timed(args: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=9999)
    parser.add_argument("--rounds", type=int, default=13)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "large.trf"
        path.write_text(trf(args.players, args.rounds), encoding="utf-8")
        command = [sys.executable, "-c", "from livetb.cli import run; run()", "standings"]
        tbs = ["--tiebreaks", ",".join(TIEBREAKS)]
        whole = timed([*command, str(path), *tbs, "--format", "json"], args.repeat)
        explain = timed([*command, str(path), *tbs, "--explain", "1"], args.repeat)
    print(
        f"`livetb standings` on {args.players} players x {args.rounds} rounds, best of "
        f"{args.repeat}: {whole:.2f} s (JSON); --explain 1: {explain:.2f} s"
    )


if __name__ == "__main__":
    main()
