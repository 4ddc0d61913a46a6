"""A public page's shell carries the catalog without the console's messages (`CONSOLE_ONLY`):
no module a public page runs names one, the console gets every message a page shows, and a
refusal worded with a message a page lacks falls back to the server's English."""

from __future__ import annotations

import json
import re
from pathlib import Path

from livetb import i18n
from livetb.web.pages import shell
from livetb.web.pages.shell import CONSOLE_ONLY, CONSOLE_PAGES

STATIC = Path(shell.__file__).parent / "static"
PUBLIC = ("list", "standings", "player", "prizes", "crosstable", "overlay", "screen", "error")
_IMPORT = re.compile(r"""(?:from\s+|import\s*\(?\s*)["']\./([\w-]+\.js)["']""")


def modules(page: str) -> set[str]:
    """The modules page `page` runs: its own and every one it imports, statically or not."""
    seen: set[str] = set()
    todo = [f"{page}.js"]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += _IMPORT.findall((STATIC / name).read_text("utf-8"))
    return seen


def test_no_public_page_names_a_console_message() -> None:
    families = "|".join(map(re.escape, CONSOLE_ONLY))
    named = re.compile(rf"""["'`]({families})""")
    public = set().union(*map(modules, PUBLIC))
    assert {"standings-table.js", "common.js", "i18n.js", "words.js"} <= public
    assert not public & {"arbiter.js", "setup.js", "sync.js", "admin.js", "audit.js"}
    found = {
        (name, m.group(1))
        for name in sorted(public)
        for m in named.finditer((STATIC / name).read_text("utf-8"))
    }
    assert found == set()


def test_the_console_keeps_every_message_but_the_command_lines() -> None:
    for lang in i18n.LANGUAGES:
        everything = i18n.catalog(lang)
        console = json.loads(shell._catalog_json(lang, True))
        public = json.loads(shell._catalog_json(lang, False))
        assert set(console) == {k for k in everything if not k.startswith("cli.")}
        assert set(public) == {k for k in console if not k.startswith(CONSOLE_ONLY)}
        assert {"err.other", "api.no_participant", "store.unavailable", "tb.BH"} <= set(public)
        assert {"trf.invalid", "rejected.round_closed.result", "sync.refused"} <= set(console)
        assert not {"trf.invalid", "rejected.round_closed.result"} & set(public)
        assert len(public) < 0.7 * len(console)
    assert set(CONSOLE_PAGES) == {"arbiter", "setup"}


def test_every_page_is_public_or_the_consoles() -> None:
    pages = {p.stem for p in STATIC.glob("*.js")} & {
        page
        for page in re.findall(r'render\(\s*request,\s*"(\w+)"', Path(shell.__file__).read_text())
    }
    routed = set(re.findall(r'tournament_page\("(\w+)"', Path(shell.__file__).read_text()))
    assert pages | routed == set(PUBLIC) | CONSOLE_PAGES
