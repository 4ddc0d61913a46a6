"""The markers stay true: every test conftest marks `slow` by name still exists, and the
folder markers are registered (pytest runs with --strict-markers)."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from tests.conftest import FOLDER_MARKERS, SLOW

ROOT = Path(__file__).resolve().parent.parent


def test_every_slow_name_is_a_test() -> None:
    missing = []
    for name in sorted(SLOW):
        path, _, test = name.partition("::")
        function = test.split("[", 1)[0]
        source = ROOT / path
        tree = ast.parse(source.read_text(encoding="utf-8")) if source.exists() else None
        defined = tree is not None and any(
            isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == function
            for node in tree.body
        )
        if not defined:
            missing.append(name)
    assert missing == [], "renamed or removed: update SLOW in tests/conftest.py"


def test_the_markers_are_registered() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    registered = {m.split(":")[0] for m in config["tool"]["pytest"]["ini_options"]["markers"]}
    assert registered == {*FOLDER_MARKERS.values(), "postgres", "slow"}
