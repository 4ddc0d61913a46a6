"""The pages: `/`, `/t/{id}`, `/t/{id}/player/{no}`, `/t/{id}/prizes`, `/t/{id}/crosstable`,
`/t/{id}/overlay`, `/t/{id}/screen`, the arbiters' console `/t/{id}/arbiter` and `/new`, which
creates a tournament.

Each page is one HTML shell (`static/page.html`) filled in the language negotiated from
`?lang=`, then `Accept-Language`, then English: `<html lang>`, the title, the language's
catalog (`livetb/i18n`, shared with the CLI: the messages a page of its audience shows,
`CONSOLE_ONLY`) and the page's settings as JSON; its ES module
(`static/<page>.js`) builds the page and follows the feed. No data is in the shell, so a
private tournament's page is served to anyone and asks for its token in the browser.
"""

from __future__ import annotations

import asyncio
import functools
import html
import json
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from urllib.parse import quote

import msgspec
from aiohttp import hdrs, web

from livetb import i18n
from livetb.engine.catalogue import ALIASES, TIEBREAKS
from livetb.engine.editions import Edition, in_force
from livetb.events.schema import DEFAULT_TEAM_TIEBREAKS, DEFAULT_TIEBREAKS
from livetb.web.api.console import BERGER_PLAYERS
from livetb.web.api.reads import public_creation
from livetb.web.keys import CONFIG, STORE
from livetb.web.pages.assets import Assets, Shells, accepts_gzip
from livetb.web.pages.columns import asked_columns

Handler = Callable[[web.Request], Awaitable[web.Response]]

STATIC = Path(str(resources.files("livetb.web.pages").joinpath("static")))


# The pages' files are served under their version: `/static/<VERSION>/<file>`, kept by any
# cache for good (`immutable`), so a returning viewer asks for none of them again. A page's
# modules import each other by relative URLs, so every module a page runs is of the version
# its shell names: after an upgrade a page never runs an old module beside a new one, even
# one that a slow network made the service worker take from its cache. The files are the
# ones this process read when it started (`assets.py`), whatever is on disk since.
ASSETS = Assets(STATIC)
VERSION = ASSETS.version
VERSIONED = f"/static/{VERSION}"
KEPT_FOR_GOOD = "public, max-age=31536000, immutable"
_SHELL = ASSETS.bodies["page.html"].decode("utf-8").replace("{{static}}", VERSIONED)


def language(request: web.Request) -> str:
    return i18n.negotiate(request.query.get("lang"), request.headers.get("Accept-Language"))


async def render(
    request: web.Request, page: str, title_key: str, status: int = 200, **settings: object
) -> web.Response:
    lang = language(request)
    config = json.dumps({"page": page, "lang": lang, **settings}).replace("</", "<\\/")
    body = (
        _SHELL.replace("{{lang}}", lang)
        .replace("{{title}}", html.escape(i18n.text(lang, title_key)))
        .replace("{{page}}", page)
        .replace("{{catalog}}", _catalog_json(lang, page in CONSOLE_PAGES))
        .replace("{{config}}", config)
    )
    headers = {hdrs.CONTENT_LANGUAGE: lang, hdrs.VARY: "Accept-Language, Accept-Encoding"}
    data = body.encode("utf-8")
    if accepts_gzip(request.headers.get(hdrs.ACCEPT_ENCODING, "")):
        headers[hdrs.CONTENT_ENCODING] = "gzip"
        data = await SHELLS.gzipped(body)
    return web.Response(
        body=data, status=status, headers=headers, content_type="text/html", charset="utf-8"
    )


# The console's pages; the others are the public ones, which a phone opens first.
CONSOLE_PAGES = frozenset({"arbiter", "setup"})
# What only the console shows: its forms and tabs, the audit trail, and what only its requests
# are refused for (a command, a body, a file to sync or import, a tie-break list). A public
# page's shell leaves them out: half the catalog (`tests/web/test_shell_catalog.py` checks that
# no public page's module names one).
CONSOLE_ONLY = tuple(
    f"{family}."
    for family in (
        *("arbiter", "audit", "catform", "changes", "correct", "ev", "grid", "ops", "pair"),
        *("players", "prizeform", "quick", "setup", "sync", "tab"),
        *("export", "import", "input", "rejected", "rounds", "tiebreak", "trf"),
    )
)


@functools.cache
def _catalog_json(lang: str, console: bool) -> str:
    """The language's catalog as the shell's JSON, written once per audience: every message
    but the command line's own (`cli.*`, which no page shows) and, for a public page, the
    console's (`CONSOLE_ONLY`)."""
    left_out = ("cli.",) if console else ("cli.", *CONSOLE_ONLY)
    pages = {k: v for k, v in i18n.catalog(lang).items() if not k.startswith(left_out)}
    return json.dumps(pages, ensure_ascii=False).replace("</", "<\\/")


SHELLS = Shells()


def tournament_page(page: str, title_key: str) -> Handler:
    """A page of one tournament; a 404 page, in the reader's language, for an unknown id."""

    async def handle(request: web.Request) -> web.Response:
        tid = request.match_info["tid"]
        if page == "standings" and request.query.get("print") == "crosstable":
            # The notice board's crosstable is the crosstable page's, printed.
            query = request.query_string
            raise web.HTTPFound(f"/t/{quote(tid, safe='')}/crosstable?{query}")
        # An unknown and a private tournament get the same page, a 404 that asks for a token:
        # a visitor without one must not learn that a private tournament exists.
        created = await asyncio.to_thread(public_creation, request.app[STORE], tid)
        status = 200 if created is not None else 404
        settings: dict[str, object] = {
            "tournament": tid,
            # The feed's idle ping interval: a page not live for twice as long says so.
            "heartbeat": request.app[CONFIG].heartbeat,
            # For <standings-table columns="…">: the notations the API accepts, and the
            # tie-breaks that mean something only inside a tie (a dash elsewhere).
            "tiebreak_aliases": ALIASES,
            "group_tiebreaks": GROUP_TIEBREAKS,
        }
        if page == "arbiter":  # the console offers the Berger tables where the API has them
            settings["berger"] = list(BERGER_PLAYERS)
        if page == "overlay":  # ?columns= read as the API reads tie-break codes
            own = created.tiebreaks if created is not None else ()
            asked = asked_columns(request.query.get("columns"), own)
            settings["columns"] = msgspec.to_builtins(asked)
        if "no" in request.match_info:
            text = request.match_info["no"]
            if not text.isdigit() or not 1 <= int(text) <= 99999:
                return await render(
                    request, "error", "error.player_not_found", 404,
                    message="error.player_not_found",
                )  # fmt: skip
            settings["start_no"] = int(text)
        return await render(request, page, title_key, status, **settings)

    return handle


async def tournaments(request: web.Request) -> web.Response:
    return await render(request, "list", "list.title")


GROUP_TIEBREAKS = [code for code, tb in TIEBREAKS.items() if tb.group]


async def versioned(request: web.Request) -> web.Response:
    """A page's file at this version (the shell names it): the same bytes for as long as the
    URL exists, so kept for good. Any other version is not here (a 404)."""
    return ASSETS.answer(request, request.match_info["name"], KEPT_FOR_GOOD)


async def unversioned(request: web.Request) -> web.Response:
    """A page's file without a version, asked again at every use: for a page kept from before
    an upgrade, and for a `<standings-table>` embedded elsewhere."""
    return ASSETS.answer(request, request.match_info["name"])


async def service_worker(request: web.Request) -> web.Response:
    """static/sw.js at the root, so that its scope covers every page (`/t/…`); asked again
    at every use like every unversioned file, so that a new version is seen at the next
    visit."""
    return ASSETS.answer(request, "sw.js")


def tiebreak_catalogue() -> dict[str, object]:
    """What the tie-break picker offers: every code with the modifiers it offers for it and
    whether it is for team events only (the catalogue's records), and the lists livetb uses
    by default (FIDE's recommended ones) per system and kind."""
    return {
        "codes": {
            code: {"modifiers": list(tb.takes.offered), "team_only": tb.team_only}
            for code, tb in TIEBREAKS.items()
        },
        "presets": {
            "swiss": DEFAULT_TIEBREAKS["swiss"],
            "roundrobin": DEFAULT_TIEBREAKS["roundrobin"],
            "team_swiss": DEFAULT_TEAM_TIEBREAKS["swiss"],
            "team_roundrobin": DEFAULT_TEAM_TIEBREAKS["roundrobin"],
        },
    }


def editions() -> list[dict[str, str]]:
    """The editions of FIDE's unplayed-rounds rules as /new states them: each with the day it
    applies from (the engine's own dates), newest first, then the legacy rules before them."""
    dated = [{"edition": e.value, "from": day.isoformat()} for e, day in in_force()]
    return [*dated, {"edition": Edition.LEGACY.value, "before": dated[-1]["from"]}]


async def new_tournament(request: web.Request) -> web.Response:
    return await render(
        request, "setup", "setup.title", tiebreaks=tiebreak_catalogue(), editions=editions()
    )


def routes() -> list[web.AbstractRouteDef]:
    return [
        web.get("/", tournaments),
        web.get("/t/{tid}", tournament_page("standings", "nav.standings")),
        web.get("/t/{tid}/player/{no}", tournament_page("player", "nav.standings")),
        web.get("/t/{tid}/prizes", tournament_page("prizes", "prize.title")),
        web.get("/t/{tid}/crosstable", tournament_page("crosstable", "crosstable.title")),
        web.get("/t/{tid}/overlay", tournament_page("overlay", "overlay.label")),
        web.get("/t/{tid}/screen", tournament_page("screen", "nav.screen")),
        web.get("/t/{tid}/arbiter", tournament_page("arbiter", "arbiter.title")),
        web.get("/new", new_tournament),
        web.get("/sw.js", service_worker),
        web.get(VERSIONED + "/{name}", versioned),
        web.get("/static/{name}", unversioned),
    ]
