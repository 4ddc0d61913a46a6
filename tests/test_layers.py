"""The layout's rules (`docs/design.md`), read from the code's imports, those inside functions
included: no import circle, every layer imports only those below it, no module over 600 lines.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "livetb"
MAX_LINES = 600

# Each layer (a top-level module or package of livetb, or a room of `web/`) and the layers it
# may import, besides its own modules. Listed from the floor up.
FLOOR = {"errors", "i18n"}
MAY_IMPORT: dict[str, set[str]] = {
    "i18n": set(),
    "errors": {"i18n"},  # an error words itself in the reader's language
    "engine": {"errors"},
    "trf": {"engine", "errors"},
    "events": {"engine", "errors"},
    "pairing": {"events", *FLOOR},
    "tokens": {"events", *FLOOR},
    "backends": {"events", "tokens", *FLOOR},
    "wire": FLOOR,
    "projections": {"engine", "events", "wire", *FLOOR},
    "interchange": {"engine", "trf", "events", "pairing", "projections", "wire", *FLOOR},
    "app": {"engine", "events", "backends", "projections", "wire", *FLOOR},
    "web": {"web.app", "web.config"},  # the package's face: loads them on first use
    "web.config": set(),
    "web.keys": {"app", "events", "tokens", "web.config", "web.feed"},
    "web.http": {"projections", "tokens", "web.keys", *FLOOR},
    "web.feed": {"app", "events", "projections", "tokens", "wire", "web.http"}
    | {"web.keys", *FLOOR},
    "web.api": {"livetb", "engine", "trf", "pairing", "events", "projections", "wire"}
    | {"interchange", "web.http", "web.feed", "web.keys", *FLOOR},
    "web.pages": {"engine", "events", "web.api", "web.keys", *FLOOR},
    "web.app": {"app", "backends", "events", "tokens", "web.api", "web.feed", "web.http"}
    | {"web.pages"}
    | {"web.config", "web.keys", *FLOOR},
    "client": {"wire", *FLOOR},
    "demo": {"backends", "events", "tokens", "web", "web.keys", *FLOOR},
    "cli": {"engine", "trf", "events", "tokens", "backends", "projections", "interchange"}
    | {"app", "web"}
    | {"web.config", "web.keys", "client", "demo", *FLOOR},
    "library": {"engine", "trf", "events", *FLOOR},
    "__main__": {"cli"},
    # the library's names, loaded on first use (`livetb/__init__.py`)
    "livetb": {"library", "engine", "trf", *FLOOR},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def resolve(name: str) -> str:
    """The module of livetb that an imported name lives in (a submodule, else its package)."""
    known = modules()
    while name not in known:
        name = name.rpartition(".")[0]
    return name


def imports_of(source: str, package: str) -> Iterator[str]:
    """Every livetb module a module's `source` imports, anywhere in its code (`package`: the
    package relative imports start from)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (resolve(a.name) for a in node.names if a.name.startswith("livetb"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            if base.split(".")[0] != "livetb":
                continue
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield full if full in modules() else resolve(base)


@cache
def graph() -> dict[str, frozenset[str]]:
    out = {}
    for module, path in modules().items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        out[module] = frozenset(imports_of(path.read_text("utf-8"), package)) - {module}
    return out


def layer(module: str) -> str:
    parts = module.split(".")[1:]
    if not parts:
        return "livetb"
    if parts[0] == "web" and len(parts) > 1:
        return f"web.{parts[1]}"
    return parts[0]


def circles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while (w := stack.pop()) != v:
                on.discard(w)
                group.append(w)
            on.discard(v)
            if group:
                out.append(sorted([v, *group]))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle() -> None:
    assert circles(graph()) == []


def test_every_layer_is_listed() -> None:
    assert {layer(m) for m in modules()} <= set(MAY_IMPORT)


@pytest.mark.parametrize("module", sorted(modules()))
def test_imports_go_only_down(module: str) -> None:
    own = layer(module)
    wrong = sorted(
        f"{target} ({layer(target)})"
        for target in graph()[module]
        if layer(target) != own and layer(target) not in MAY_IMPORT[own]
    )
    assert wrong == [], f"{module} ({own}) may import only {sorted(MAY_IMPORT[own])}"


def test_the_issue_rules_hold() -> None:
    """The rules every layout must keep, stated once more without the table."""
    for module, targets in graph().items():
        mine = layer(module)
        for t in targets:
            top = layer(t).split(".")[0]
            if mine == "engine":
                assert top in ("engine", "errors"), (module, t)
            if mine in ("events", "tokens"):
                assert top not in ("web", "cli", "client", "demo"), (module, t)
            if top == "cli":
                assert mine in ("cli", "__main__", "demo"), (module, t)
            if top == "web":
                assert mine.split(".")[0] in ("web", "cli", "demo"), (module, t)
            if mine == "client":
                assert top in ("client", "wire", "errors", "i18n"), (module, t)


def test_one_factory_tells_the_backends_apart() -> None:
    """Which backend a target names is decided in `livetb/backends` only: no `is_url`, no
    scheme compared elsewhere."""
    for module, path in modules().items():
        if layer(module) == "backends":
            continue
        tree = ast.parse(path.read_text("utf-8"))
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert "is_url" not in names, module
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "startswith":
                literals = [a.value for a in ast.walk(node) if isinstance(a, ast.Constant)]
                assert not any("postgres" in str(v) for v in literals), module


def test_the_checks_see_a_circle_and_an_import_inside_a_function() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    source = "import os\n\ndef f():\n    from livetb.web.app import create_app\n"
    assert list(imports_of(source, "livetb.engine")) == ["livetb.web.app"]
    assert list(imports_of("from ..errors import TrfError\n", "livetb.trf")) == ["livetb.errors"]


@pytest.mark.parametrize("module", sorted(modules()))
def test_no_module_over_600_lines(module: str) -> None:
    lines = modules()[module].read_text("utf-8").count("\n")
    assert lines <= MAX_LINES
