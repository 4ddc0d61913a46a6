"""No test may fail because the machine is slow. A test waits for the event it expects, with
a timeout so generous that only something stuck reaches it; how fast things go is measured in
`bench/`, not asserted here. Read from every test module's syntax tree:

- no assertion bounds an elapsed wall-clock time from above (a clock's difference compared
  as less than a number, a name or a helper's return value computed so, or the distance
  between two readings of a clock). A lower bound stays
  allowed: "not before the broadcast delay" cannot fail on a loaded machine;
- no deadline shorter than `GENEROUS` seconds (`deadline = monotonic() + 2`);
- no positive wait shorter than `GENEROUS` seconds: a `timeout=` (Playwright's in
  milliseconds), `asyncio.wait_for(…, n)`, or a helper's `timeout`/`within` default. A short
  wait stays allowed where it expects nothing to come (inside `pytest.raises(TimeoutError)`)
  or is one attempt of a poll (inside a `try` that catches the timeout).

Processor-time budgets (`time.process_time`, `time.thread_time`) are not the wall clock: a
busy machine does not inflate them.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Iterator
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
GENEROUS = 30.0  # seconds: the shortest wait that is a "stuck" check and not a speed limit
WALL = {"monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns", "time", "time_ns"}
LOOPS = {"get_running_loop", "get_event_loop"}
# Playwright's waits take milliseconds; every other `timeout=` here is in seconds.
MILLISECONDS = {"goto", "reload", "click", "fill", "press", "type", "check", "select_option"}
# What a poll's attempt or a negative check catches when its short wait runs out.
TIMEOUTS = {"TimeoutError", "OSError", "URLError", "timeout", "Exception", "TimeoutExpired"}


def _is_clock_call(node: ast.AST, imported: set[str]) -> bool:
    """`time.monotonic()`, `monotonic()` (imported so), `loop.time()`, `….get_running_loop()
    .time()`."""
    if not isinstance(node, ast.Call) or node.args:
        return False
    f = node.func
    if isinstance(f, ast.Name):
        return f.id in imported
    if not isinstance(f, ast.Attribute):
        return False
    if isinstance(f.value, ast.Name) and f.value.id == "time":
        return f.attr in WALL
    if f.attr != "time":
        return False
    v = f.value
    return (isinstance(v, ast.Name) and v.id == "loop") or (
        isinstance(v, ast.Call)
        and (getattr(v.func, "attr", None) in LOOPS or getattr(v.func, "id", None) in LOOPS)
    )


class _Module:
    """One module's clock readings: the names and helpers that carry one, and which of them
    are elapsed times (a difference of readings)."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.imported = {
            alias.asname or alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "time"
            for alias in node.names
            if alias.name in WALL
        }
        self.clock: set[str] = set()  # names (any scope) bound to a reading
        self.elapsed: set[str] = set()  # … to an elapsed time
        self.helpers_clock: set[str] = set()  # functions returning a reading
        self.helpers_elapsed: set[str] = set()  # … an elapsed time
        changed = True
        while changed:  # to a fixed point: a name may be bound from a name bound later on
            changed = self._pass()

    def reads_clock(self, node: ast.AST) -> bool:
        return any(
            _is_clock_call(n, self.imported)
            or (isinstance(n, ast.Name) and n.id in self.clock)
            or (isinstance(n, ast.Call) and _name_of(n.func) in self.helpers_clock)
            for n in ast.walk(node)
        )

    def is_elapsed(self, node: ast.AST) -> bool:
        for n in ast.walk(node):
            if (
                isinstance(n, ast.BinOp)
                and isinstance(n.op, ast.Sub)
                and (self.reads_clock(n.left) or self.reads_clock(n.right))
            ):
                return True
            if isinstance(n, ast.Name) and n.id in self.elapsed:
                return True
            if isinstance(n, ast.Call) and _name_of(n.func) in self.helpers_elapsed:
                return True
        return False

    def _pass(self) -> bool:
        size = self._sizes()
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign) and node.value:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                values: list[ast.AST] = [node.value]
                names = [n for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
                # `a, b = x - s, y - s`: pair each name with its own value where they line up
                if (
                    len(targets) == 1
                    and isinstance(targets[0], ast.Tuple)
                    and isinstance(node.value, ast.Tuple)
                    and len(targets[0].elts) == len(node.value.elts)
                ):
                    pairs: list[tuple[ast.expr, ast.AST]] = list(
                        zip(targets[0].elts, node.value.elts, strict=True)
                    )
                else:
                    pairs = [(n, v) for n in names for v in values]
                for target, value in pairs:
                    if not isinstance(target, ast.Name):
                        continue
                    if self.reads_clock(value):
                        self.clock.add(target.id)
                    if self.is_elapsed(value):
                        self.elapsed.add(target.id)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for ret in ast.walk(node):
                    if isinstance(ret, ast.Return) and ret.value is not None:
                        if self.reads_clock(ret.value):
                            self.helpers_clock.add(node.name)
                        if self.is_elapsed(ret.value):
                            self.helpers_elapsed.add(node.name)
        return size != self._sizes()

    def _sizes(self) -> tuple[int, ...]:
        found = (self.clock, self.elapsed, self.helpers_clock, self.helpers_elapsed)
        return tuple(len(names) for names in found)


def _name_of(func: ast.AST) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


ARITHMETIC = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


def _number(node: ast.AST | None) -> float | None:
    """The value of a numeric literal, or of arithmetic on literals (`DELAY + 2` is not)."""
    if node is None:
        return None
    if isinstance(node, ast.Constant):
        value = node.value
        return (
            float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
        )
    if isinstance(node, ast.BinOp) and type(node.op) in ARITHMETIC:
        left, right = _number(node.left), _number(node.right)
        if left is not None and right is not None and (right or type(node.op) is not ast.Div):
            return float(ARITHMETIC[type(node.op)](left, right))
    return None


def _upper_bounds(module: _Module, test: ast.AST) -> Iterator[ast.Compare]:
    """The comparisons in `test` that bound an elapsed time from above."""
    for node in ast.walk(test):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, operands[:-1], operands[1:], strict=True):
            small = (
                left if isinstance(op, ast.Lt | ast.LtE) else right
                if isinstance(op, ast.Gt | ast.GtE) else None
            )  # fmt: skip
            if small is not None and module.is_elapsed(small):
                yield node
                break


def _guarded(parents: list[ast.AST]) -> bool:
    """Inside `pytest.raises(TimeoutError)` or a `try` that catches a timeout: a negative
    check or one attempt of a poll."""
    for node in parents:
        if isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                call = item.context_expr
                if (
                    isinstance(call, ast.Call)
                    and _name_of(call.func) == "raises"
                    and any(_names(arg) & TIMEOUTS for arg in call.args)
                ):
                    return True
        if isinstance(node, ast.Try) and any(
            h.type is None or _names(h.type) & TIMEOUTS for h in node.handlers
        ):
            return True
    return False


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }


def _short_waits(tree: ast.Module) -> Iterator[tuple[ast.stmt | ast.expr, float]]:
    """Positive waits shorter than GENEROUS seconds (in seconds), outside a guard."""

    def visit(node: ast.AST, parents: list[ast.AST]) -> Iterator[tuple[ast.stmt | ast.expr, float]]:
        if isinstance(node, ast.Call) and not _guarded(parents):
            name = _name_of(node.func) or ""
            scale = 1000 if name.startswith("wait_for_") or name in MILLISECONDS else 1
            given = [k.value for k in node.keywords if k.arg == "timeout"]
            if name == "wait_for" and len(node.args) >= 2:
                given.append(node.args[1])
            for value in given:
                seconds = _number(value)
                if seconds is not None and seconds / scale < GENEROUS:
                    yield node, seconds / scale
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            defaults = [None] * (len(node.args.posonlyargs + node.args.args) - len(
                node.args.defaults
            )) + list(node.args.defaults) + list(node.args.kw_defaults)  # fmt: skip
            for arg, default in zip(args, defaults, strict=True):
                seconds = _number(default)
                if arg.arg in {"timeout", "within"} and seconds is not None and seconds < GENEROUS:
                    yield node, seconds
        for child in ast.iter_child_nodes(node):
            yield from visit(child, [*parents, node])

    yield from visit(tree, [])


def problems(source: str) -> list[str]:
    """Every wall-clock limit in one test module's source, as `line: what`."""
    tree = ast.parse(source)
    module = _Module(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            for compare in _upper_bounds(module, node.test):
                found.append(f"{compare.lineno}: an elapsed time bounded from above")
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            value = node.value
            if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
                added = _number(value.right)
                if module.reads_clock(value.left) and added is not None and added < GENEROUS:
                    found.append(f"{node.lineno}: a deadline {added:g} s away")
    for call, seconds in _short_waits(tree):
        found.append(f"{call.lineno}: a wait of {seconds:g} s for something to happen")
    return sorted(set(found), key=lambda p: int(p.split(":")[0]))


def test_no_test_asserts_a_wall_clock_limit() -> None:
    found = {
        str(path.relative_to(TESTS.parent)): bad
        for path in sorted(TESTS.rglob("*.py"))
        if (bad := problems(path.read_text(encoding="utf-8")))
    }
    assert found == {}, "\n".join(f"{p}:{line}" for p, bad in found.items() for line in bad)


def comparisons(source: str) -> str:
    """A sample with its comparisons written as placeholders, so that this file's own text
    holds none of the limits it looks for."""
    return source.format(lt="<", le="<=", gt=">")


@pytest.mark.parametrize(
    "source",
    [
        "import time\nstart = time.monotonic()\nassert time.monotonic() - start {lt} 2\n",
        "import time\ns = time.perf_counter()\nready = time.perf_counter() - s\n"
        "assert ready {lt} 2.0\n",
        "import time\ndef f():\n    s = time.monotonic()\n    return time.monotonic() - s\n"
        "assert f() {le} 1\n",
        "import time\na, b = time.monotonic(), time.monotonic()\nassert abs(a - b) {lt} 0.5\n",
        "import asyncio\nb = asyncio.get_running_loop().time()\n"
        "assert 0.3 {gt} asyncio.get_running_loop().time() - b\n",
        "from time import monotonic as now\nt = now()\nassert now() - t {lt} 9\n",
        "import time\ndeadline = time.monotonic() + 2\n",
        "async def f(ws):\n    await recv(ws, timeout=1)\n",
        "import asyncio\nasync def f(x):\n    await asyncio.wait_for(x, 2)\n",
        "def f(page):\n    page.wait_for_function('x', timeout=3_000)\n",
        "async def recv(ws, timeout: float = 5.0):\n    pass\n",
    ],
)
def test_the_scan_finds_a_limit(source: str) -> None:
    source = comparisons(source)
    assert problems(source), source


@pytest.mark.parametrize(
    "source",
    [
        "import time\ndeadline = time.monotonic() + 30\nassert time.monotonic() {lt} deadline\n",
        "import time\nasked = time.monotonic()\nassert time.monotonic() - asked >= 4.95\n",
        "import time\nt = time.process_time()\nassert time.process_time() - t {lt} 2\n",
        "import pytest\nasync def f(ws):\n    with pytest.raises(TimeoutError):\n"
        "        await recv(ws, timeout=0.3)\n",
        "def f(url):\n    try:\n        urlopen(url, timeout=1)\n    except OSError:\n"
        "        pass\n",
        "def f(page):\n    page.wait_for_selector('x', timeout=30_000)\n",
        "async def f(ws):\n    await recv(ws, timeout=DELAY + 2)\n",
        "x = 1\nassert x {lt} 2\n",
    ],
)
def test_the_scan_lets_a_generous_wait_be(source: str) -> None:
    source = comparisons(source)
    assert problems(source) == [], source
