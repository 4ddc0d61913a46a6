"""The error tree in `livetb/errors/__init__.py`'s docstring is the package's classes: each
named once, under its base, with its code and the HTTP status the web layer gives it."""

from __future__ import annotations

import re

import livetb.errors as errors
from livetb.errors import LivetbError
from livetb.web.http.statuses import STATUS

_LINE = re.compile(r"^(?P<indent> *)[*x] (?P<name>\w+)\s+(?P<status>[\d/]+)?\s*(?P<code>\w+)?")


def tree() -> list[tuple[int, str, str | None, str | None]]:
    """(depth, class name, status, code) per line of the docstring's tree."""
    doc = errors.__doc__ or ""
    lines = doc[doc.index("* LivetbError") : doc.index("\n\n", doc.index("* LivetbError"))]
    found = []
    for line in lines.splitlines():
        m = _LINE.match(line)
        assert m, line
        depth = len(m["indent"]) // 2
        found.append((depth, m["name"], m["status"], m["code"]))
    return found


def test_every_error_of_the_package_is_in_the_tree_under_its_base_with_its_code() -> None:
    classes = {
        name: obj
        for name in errors.__all__
        if isinstance(obj := getattr(errors, name), type) and issubclass(obj, LivetbError)
    }
    listed = tree()
    assert sorted(name for _, name, _, _ in listed) == sorted(classes)
    parents: list[str] = []
    for depth, name, status, code in listed:
        cls = classes[name]
        parents[depth:] = [name]
        if depth:
            assert cls.__bases__ == (classes[parents[depth - 1]],), name
        if name == "LivetbError":  # the header: the columns' names
            continue
        assert code == cls.code, name
        if status is not None:
            inherited = next(STATUS[c] for c in cls.__mro__ if c in STATUS)
            assert inherited in {int(s) for s in status.split("/")}, name
        else:
            assert cls not in STATUS, name  # its base's status, as the tree's indent says
