"""Run the FIDE reference corpus (`tests/data/conformance`) through the CLI, in-process."""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from livetb.cli import main

CORPUS = Path(__file__).parent / "data" / "conformance"
# DE/EDE values are the reference's internal encoding (null in the corpus): checked via ranks.
UNPUBLISHED = {"DE", "EDE"}


@dataclass
class Tally:
    agree: int = 0
    total: int = 0
    failures: list[str] = field(default_factory=list)

    def check(self, ok: bool, what: str) -> None:
        self.total += 1
        if ok:
            self.agree += 1
        elif len(self.failures) < 20:
            self.failures.append(what)


def expected_files(kind: str) -> list[Path]:
    return sorted(CORPUS.glob(f"{kind}/*.expected.json"))


def standings_json(trf: Path, check: dict[str, Any], unrated: int | None) -> dict[str, Any]:
    argv = ["standings", str(trf), "--format", "json", "--after-round", str(check["after_round"])]
    argv += ["--tiebreaks", ",".join(check["tiebreaks"])]
    if check.get("treat_round_as_final"):
        argv.append("--as-final")
    if unrated is not None:
        argv += ["--unrated-rating", str(unrated)]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    assert code == 0, f"livetb {' '.join(argv)} exited {code}: {err.getvalue()}"
    doc: dict[str, Any] = json.loads(out.getvalue())
    return doc


def same(expected: Any, got: Any) -> bool:
    if expected is None or got is None:
        return expected is got
    return Decimal(str(expected)) == Decimal(str(got))


def run_file(path: Path, tally: Tally) -> None:
    spec = json.loads(path.read_text())
    trf = path.with_name(spec["file"])
    for check in spec["checks"]:
        result = standings_json(trf, check, spec["unrated_rating"])
        where = f"{spec['file']} after round {check['after_round']}"
        tally.check(result["edition"] == spec["edition"], f"{where}: edition {result['edition']}")
        rows = {str(row["start_no"]): row for row in result["standings"]}
        for no, values in check["values"].items():
            got = rows[no]["values"]
            for tb, want, have in zip(check["tiebreaks"], values, got, strict=True):
                if tb not in UNPUBLISHED:
                    tally.check(same(want, have), f"{where} #{no} {tb}: want {want}, got {have}")
        for no, want in check.get("ranks", {}).items():
            have = rows[no]["rank"]
            tally.check(
                want == have, f"{where} #{no} rank by {check['tiebreaks']}: {want} != {have}"
            )
