"""Every command's arguments. Light on purpose: building the parser imports argparse and a few
constants, so that a command loads only the modules it runs (`livetb standings FILE` never
loads aiohttp or the event store).

Every help is a catalog message (`cli.help.*`) in the reader's language, given to
`build_parser`; argparse's own words are worded in `livetb.cli.argparsing`."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable

from livetb import i18n
from livetb.cli.argparsing import Parser, help_text, words
from livetb.engine.editions import Edition
from livetb.engine.us_chess import USCF
from livetb.interchange.export import FORMATS
from livetb.web.config import DEFAULT_DB

TOKEN_ENV = "LIVETB_TOKEN"  # `livetb watch`'s token when --token is absent
DB_ENV = "LIVETB_DB"  # every command's --db when it is absent
PORT = 8080  # `livetb serve`'s port; `livetb demo` takes a free one if it is taken
# Presets: a system's recommended tie-break list, instead of --tiebreaks.
SYSTEMS = {"uscf": ",".join(USCF)}


class Commands:
    """A parser's subcommands, each with its catalog help (`cli.help.command.PREFIX.NAME`) and
    the parser's language."""

    def __init__(self, parser: Parser, dest: str, prefix: str = "") -> None:
        self.lang = parser.lang
        self._prefix = prefix
        self._sub = parser.add_subparsers(dest=dest, required=True, parser_class=Parser)

    def add(self, name: str) -> Parser:
        said = help_text(self.lang, f"command.{self._prefix}{name}")
        return self._sub.add_parser(name, help=said, lang=self.lang)


def _help(parser: Parser, key: str, /, **params: object) -> str:
    return help_text(parser.lang, key, **params)


def add_lang(p: Parser) -> None:
    p.add_argument("--lang", choices=i18n.LANGUAGES, help=_help(p, "lang", env=i18n.LANG_ENV))


def build_parser(lang: str = i18n.DEFAULT) -> Parser:
    """`livetb`'s parser in `lang`."""
    parser = Parser(prog="livetb", description=i18n.text(lang, "cli.help.livetb"), lang=lang)
    sub = Commands(parser, "command")
    _standings(sub)
    _store(sub)  # import, rebuild, replay
    _export(sub)
    _prizes(sub)
    _pgn(sub)
    _sync(sub)
    _server(sub)  # serve, demo, watch, token
    return parser


def _standings(sub: Commands) -> None:
    st = sub.add("standings")
    st.add_argument("file", nargs="?", help=_help(st, "trf_file"))
    st.add_argument("--db", help=_help(st, "db_instead", env=DB_ENV))
    st.add_argument("--tournament", help=_help(st, "db_tournament"))
    st.add_argument("--at-seq", type=int, metavar="N", help=_help(st, "at_seq"))
    st.add_argument("--tiebreaks", help=_help(st, "tiebreaks"))
    add_system(st)
    st.add_argument("--after-round", type=int, metavar="K", help=_help(st, "after_round"))
    add_rounds(st)
    st.add_argument("--as-final", action="store_true", help=_help(st, "as_final"))
    st.add_argument("--edition", choices=[e.value for e in Edition], help=_help(st, "edition"))
    st.add_argument("--unrated-rating", type=int, metavar="N", help=_help(st, "unrated_rating"))
    st.add_argument("--format", choices=["table", "json", "csv"], default="table")
    add_lang(st)
    st.add_argument("--explain", type=int, metavar="START_NO", help=_help(st, "explain"))
    st.add_argument("--draw-lots", type=int, metavar="SEED", help=_help(st, "draw_lots"))
    add_views(st)


def _store(sub: Commands) -> None:
    imp = sub.add("import")
    imp.add_argument("file", help=_help(imp, "import_file"))
    add_db(imp, "db_created")
    imp.add_argument("--tiebreaks", help=_help(imp, "import_tiebreaks"))
    add_system(imp)
    imp.add_argument(
        "--edition", choices=[e.value for e in Edition], help=_help(imp, "import_edition")
    )
    add_rounds(imp)
    imp.add_argument(
        "--unrated-rating", type=int, metavar="N", help=_help(imp, "import_unrated_rating")
    )

    reb = sub.add("rebuild")
    add_db(reb)
    reb.add_argument("--tournament", help=_help(reb, "only_tournament"))
    reb.add_argument("--format", choices=["text", "json"], default="text")

    rep = sub.add("replay")
    add_db(rep)
    rep.add_argument(
        "--tournament", required=True, metavar="ID", help=_help(rep, "replay_tournament")
    )
    rep.add_argument("--speed", type=float, default=1.0, metavar="N", help=_help(rep, "speed"))
    rep.add_argument("--into", metavar="NEWID", help=_help(rep, "into"))
    rep.add_argument("--echo", action=argparse.BooleanOptionalAction, help=_help(rep, "echo"))


def _export(sub: Commands) -> None:
    exp = sub.add("export")
    add_served_db(exp)
    exp.add_argument("--tournament", metavar="ID", help=_help(exp, "some_tournament"))
    exp.add_argument("--format", choices=FORMATS, default="trf26", help=_help(exp, "export_format"))
    exp.add_argument("--output", "-o", metavar="FILE", help=_help(exp, "output"))
    add_views(exp, " (csv, html)")


def _prizes(sub: Commands) -> None:
    pz = sub.add("prizes")
    add_db(pz)
    pz.add_argument("--tournament", metavar="ID", help=_help(pz, "some_tournament"))
    pz.add_argument("--format", choices=["table", "json", "csv"], default="table")
    add_lang(pz)


def _pgn(sub: Commands) -> None:
    pgn = sub.add("pgn")
    pgn.add_argument("source", help=_help(pgn, "pgn_source"))
    add_db(pgn)
    pgn.add_argument("--tournament", metavar="ID", help=_help(pgn, "some_tournament"))
    pgn.add_argument("--round", type=int, metavar="R", help=_help(pgn, "pgn_round"))
    pgn.add_argument("--follow", type=float, metavar="SECONDS", help=_help(pgn, "pgn_follow"))
    pgn.add_argument("--corrections", action="store_true", help=_help(pgn, "corrections"))


def _round_count(lang: str) -> Callable[[str], int]:
    """--rounds' type: its refusal is argparse's message, so it is worded in `lang` here."""

    def round_count(text: str) -> int:
        try:
            rounds = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(words(lang, "rounds_number", text=text)) from None
        if not 1 <= rounds <= 99:
            raise argparse.ArgumentTypeError(words(lang, "rounds_range", rounds=rounds))
        return rounds

    return round_count


def add_rounds(parser: Parser, key: str = "rounds") -> None:
    parser.add_argument(
        "--rounds", type=_round_count(parser.lang), metavar="N", help=_help(parser, key)
    )


def _sync(sub: Commands) -> None:
    sy = sub.add("sync")
    sy.add_argument("file", help=_help(sy, "sync_file"))
    add_served_db(sy)
    sy.add_argument("--tournament", required=True, metavar="ID", help=_help(sy, "sync_tournament"))
    sy.add_argument("--tiebreaks", help=_help(sy, "sync_tiebreaks"))
    add_rounds(sy, "rounds_sync")
    sy.add_argument("--dry-run", action="store_true", help=_help(sy, "dry_run"))
    sy.add_argument("--force", action="store_true", help=_help(sy, "force"))
    sy.add_argument("--prefer", choices=["file", "log"], help=_help(sy, "prefer"))
    sy.add_argument("--watch", action="store_true", help=_help(sy, "sync_watch"))
    add_lang(sy)


def _server(sub: Commands) -> None:
    _serve(sub.add("serve"))
    _demo(sub.add("demo"))
    _watch(sub.add("watch"))
    _token(sub.add("token"))


def _serve(serve: Parser) -> None:
    _server_options(serve)
    add_served_db(serve, "serve_db")
    workers = 1
    said = _help(serve, "workers", workers=workers)
    serve.add_argument("--workers", type=int, default=workers, metavar="N", help=said)
    serve.add_argument("--reuse-port", action="store_true", help=_help(serve, "reuse_port"))


def _demo(demo: Parser) -> None:
    _server_options(demo, port=None)
    demo.add_argument(
        "--db", default=os.environ.get(DB_ENV) or None, help=_help(demo, "demo_db", env=DB_ENV)
    )
    players, rounds, seed = 40, 7, 1
    said = _help(demo, "players", players=players)
    demo.add_argument("--players", type=int, default=players, help=said)
    said = _help(demo, "demo_rounds", rounds=rounds)
    demo.add_argument("--rounds", type=int, default=rounds, help=said)
    demo.add_argument("--seed", type=int, default=seed, help=_help(demo, "seed", seed=seed))
    demo.add_argument(
        "--interval", type=float, default=1.0, metavar="S", help=_help(demo, "interval")
    )


def _watch(watch: Parser) -> None:
    watch.add_argument("url", help=_help(watch, "url"))
    watch.add_argument("--tournament", required=True, metavar="ID")
    watch.add_argument("--follow", type=int, metavar="START_NO", help=_help(watch, "watch_follow"))
    top = 20
    watch.add_argument(
        "--top", type=int, default=top, metavar="N", help=_help(watch, "top", top=top)
    )
    watch.add_argument("--count", type=int, metavar="N", help=_help(watch, "count"))
    watch.add_argument("--category", metavar="CODE", help=_help(watch, "watch_category"))
    add_lang(watch)
    watch.add_argument("--token", metavar="TOKEN", help=_help(watch, "token", env=TOKEN_ENV))


def _token(token: Parser) -> None:
    actions = Commands(token, "action", prefix="token.")
    create = actions.add("create")
    add_served_db(create)
    scope = create.add_mutually_exclusive_group(required=True)
    scope.add_argument("--tournament", metavar="ID", help=_help(create, "arbiter_token"))
    scope.add_argument("--organiser", action="store_true", help=_help(create, "organiser_token"))
    create.add_argument("--label", metavar="TEXT", help=_help(create, "label"))
    revoke = actions.add("revoke")
    add_served_db(revoke)
    revoke.add_argument("token")


def add_served_db(parser: Parser, key: str = "served_db") -> None:
    """--db defaulting as `livetb serve`'s does: the store a server started here uses."""
    parser.add_argument(
        "--db",
        default=os.environ.get(DB_ENV) or DEFAULT_DB,
        help=_help(parser, key, env=DB_ENV, default=DEFAULT_DB),
    )


def add_views(parser: Parser, note: str = "") -> None:
    """--category and --rating-change: a category's standings, the rating change column;
    `note`: the formats they apply to."""
    parser.add_argument("--category", metavar="CODE", help=_help(parser, "category", note=note))
    parser.add_argument(
        "--rating-change", action="store_true", help=_help(parser, "rating_change", note=note)
    )


def add_db(parser: Parser, key: str = "db") -> None:
    """--db, required unless $LIVETB_DB names the store."""
    default = os.environ.get(DB_ENV) or None
    said = _help(parser, key, env=DB_ENV)
    parser.add_argument("--db", default=default, required=default is None, help=said)


def add_system(parser: Parser) -> None:
    said = _help(parser, "system", uscf=SYSTEMS["uscf"])
    parser.add_argument("--system", choices=sorted(SYSTEMS), help=said)


def _server_options(p: Parser, port: int | None = PORT) -> None:
    """--host, --port; a port of None: the default one, else any free one (`livetb demo`)."""
    host = "127.0.0.1"
    p.add_argument("--host", default=host, help=_help(p, "host", host=host))
    said = _help(p, "port" if port else "port_free", port=PORT)
    p.add_argument("--port", type=int, default=port, help=said)
