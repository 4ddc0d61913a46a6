"""Every command's arguments. Light on purpose: building the parser imports argparse and a few
constants, so that a command loads only the modules it runs (`livetb standings FILE` never
loads aiohttp or the event store)."""

from __future__ import annotations

import argparse
import os

from livetb.engine.editions import Edition
from livetb.engine.us_chess import USCF
from livetb.interchange.export import FORMATS
from livetb.web.config import DEFAULT_DB

TOKEN_ENV = "LIVETB_TOKEN"  # `livetb watch`'s token when --token is absent
DB_ENV = "LIVETB_DB"  # every command's --db when it is absent
STORE = "event store: a SQLite file or a postgresql:// URL"
# Presets: a system's recommended tie-break list, instead of --tiebreaks.
SYSTEMS = {"uscf": ",".join(USCF)}


def add_lang(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--lang",
        choices=["en", "it"],
        help="language of the table (default: $LIVETB_LANG, else en); JSON and CSV stay as "
        "they are",
    )


def build_parser(description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="livetb", description=description)
    sub = parser.add_subparsers(dest="command", required=True)
    _standings(sub)
    _store(sub)  # import, rebuild, replay
    _export(sub)
    _prizes(sub)
    _pgn(sub)
    _sync(sub)
    _server(sub)  # serve, demo, watch, token
    return parser


def _standings(sub: argparse._SubParsersAction) -> None:
    st = sub.add_parser(
        "standings", help="standings with tie-breaks from a TRF file, or from an event store"
    )
    st.add_argument("file", nargs="?", help="TRF-16 or TRF-2026 file (or use --db)")
    st.add_argument(
        "--db",
        help=f"read the standings from this {STORE} instead (default: ${DB_ENV}, without FILE)",
    )
    st.add_argument("--tournament", help="with --db: the tournament id (if several)")
    st.add_argument("--at-seq", type=int, metavar="N", help="with --db: as of log sequence N")
    st.add_argument(
        "--tiebreaks",
        help="comma-separated list, e.g. PTS,BH/C1,BH,SB (default: the file's own list, else "
        "the default for a Swiss or a round robin, see README)",
    )
    add_system(st)
    st.add_argument("--after-round", type=int, metavar="K", help="use rounds 1..K only")
    add_rounds(st)
    st.add_argument(
        "--as-final",
        action="store_true",
        help="treat round K as the last round (Fore-Buchholz prediction)",
    )
    st.add_argument(
        "--edition",
        choices=[e.value for e in Edition],
        help="unplayed-rounds rules (default: by the start date)",
    )
    st.add_argument(
        "--unrated-rating",
        type=int,
        metavar="N",
        help="rating used for unrated players in rating-based tie-breaks",
    )
    st.add_argument("--format", choices=["table", "json", "csv"], default="table")
    add_lang(st)
    st.add_argument(
        "--explain",
        type=int,
        metavar="START_NO",
        help="show each tie-break's per-round contributions for one participant",
    )
    st.add_argument(
        "--draw-lots",
        type=int,
        metavar="SEED",
        help="break the ties left after the whole list by a seeded drawing of lots",
    )
    add_views(st)


def _store(sub: argparse._SubParsersAction) -> None:
    imp = sub.add_parser(
        "import",
        help="turn a TRF file into the events that would have produced it; print the new id",
    )
    imp.add_argument("file", help="TRF-16 or TRF-2026 file (individual events)")
    add_db(imp, " (created if missing)")
    imp.add_argument(
        "--tiebreaks", help="comma-separated list (default: the file's own, else the system's)"
    )
    add_system(imp)
    imp.add_argument("--edition", choices=[e.value for e in Edition], help="C.07 edition")
    add_rounds(imp)
    imp.add_argument(
        "--unrated-rating", type=int, metavar="N", help="rating used for unrated players"
    )

    reb = sub.add_parser("rebuild", help="recompute standings from zero; save fresh snapshots")
    add_db(reb)
    reb.add_argument("--tournament", help="only this tournament")
    reb.add_argument("--format", choices=["text", "json"], default="text")

    rep = sub.add_parser(
        "replay",
        help="re-append a tournament's events to a new tournament, paced like the original",
    )
    add_db(rep)
    rep.add_argument("--tournament", required=True, metavar="ID", help="the log to replay")
    rep.add_argument(
        "--speed",
        type=float,
        default=1.0,
        metavar="N",
        help="divide the original gaps by N (equal timestamps: 1 s / N apart; 0: no waiting)",
    )
    rep.add_argument("--into", metavar="NEWID", help="id of the new tournament (default: fresh)")
    rep.add_argument(
        "--echo",
        action=argparse.BooleanOptionalAction,
        help="print every re-appended event (default: when paced, not with --speed 0, which "
        "prints the new id and the count)",
    )


def _export(sub: argparse._SubParsersAction) -> None:
    exp = sub.add_parser(
        "export", help="write a tournament of the store as TRF-16, TRF-2026, CSV or HTML"
    )
    add_served_db(exp)
    exp.add_argument("--tournament", metavar="ID", help="the tournament (if several)")
    exp.add_argument(
        "--format",
        choices=FORMATS,
        default="trf26",
        help="trf26 (default), trf16, csv (the standings), html (a printable standings page, "
        "with the prizes) or prizes (the prize list as CSV)",
    )
    exp.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    add_views(exp, " (csv, html)")


def _prizes(sub: argparse._SubParsersAction) -> None:
    pz = sub.add_parser(
        "prizes", help="the prize list now: provisional while rounds remain, final after the last"
    )
    add_db(pz)
    pz.add_argument("--tournament", metavar="ID", help="the tournament (if several)")
    pz.add_argument("--format", choices=["table", "json", "csv"], default="table")
    add_lang(pz)


def _pgn(sub: argparse._SubParsersAction) -> None:
    pgn = sub.add_parser(
        "pgn", help="record the final results of a PGN file or URL (DGT LiveChess, relays)"
    )
    pgn.add_argument("source", help="a PGN file, or an http(s) URL of one")
    add_db(pgn)
    pgn.add_argument("--tournament", metavar="ID", help="the tournament (if several)")
    pgn.add_argument(
        "--round",
        type=int,
        metavar="R",
        help="the round the games belong to (default: each game's Round tag, else the round "
        "last paired)",
    )
    pgn.add_argument(
        "--follow",
        type=float,
        metavar="SECONDS",
        help="read the source again every SECONDS until every board of the round has a result",
    )
    pgn.add_argument(
        "--corrections",
        action="store_true",
        help="a changed final result of a recorded game becomes a correction (default: refused)",
    )


def _round_count(text: str) -> int:
    try:
        rounds = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected a number of rounds, 1 to 99"
        ) from None
    if not 1 <= rounds <= 99:
        raise argparse.ArgumentTypeError(f"{rounds}: expected a number of rounds, 1-99")
    return rounds


def add_rounds(parser: argparse.ArgumentParser, more: str = "") -> None:
    parser.add_argument(
        "--rounds",
        type=_round_count,
        metavar="N",
        help="the number of rounds, for a file that declares none (no 142 or XXR: JaVaFo and "
        f"Vega often save none); a file declaring another is refused{more}",
    )


def _sync(sub: argparse._SubParsersAction) -> None:
    sy = sub.add_parser(
        "sync",
        help="bring a tournament's log to what the pairing program's TRF says (one append)",
    )
    sy.add_argument("file", help="the pairing program's TRF-16 or TRF-2026 file")
    add_served_db(sy)
    sy.add_argument(
        "--tournament", required=True, metavar="ID", help="the tournament (created if unknown)"
    )
    sy.add_argument(
        "--tiebreaks",
        help="a new tournament's list (default: the file's own, else the system's); an existing "
        "tournament's must be the same",
    )
    add_rounds(sy, "; an existing tournament's must be the same")
    sy.add_argument(
        "--dry-run", action="store_true", help="print the difference in words; write nothing"
    )
    sy.add_argument(
        "--force",
        action="store_true",
        help="sync a file refused as older than the files synced before, or as another "
        "tournament's",
    )
    sy.add_argument(
        "--prefer",
        choices=["file", "log"],
        help="a result entered in the log that the file contradicts: correct it to the file's "
        "(file) or keep it (log); default: refuse the sync (exit 3)",
    )
    sy.add_argument(
        "--watch", action="store_true", help="keep following the file: sync each time it is saved"
    )
    add_lang(sy)


def _server(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser("serve", help="run the live server (REST API, websocket feed)")
    _server_options(serve)
    add_served_db(serve, note="")
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="N server processes on one port over one store, so viewers use every core (default 1)",
    )
    serve.add_argument(
        "--reuse-port",
        action="store_true",
        help="share the port with other processes that set it (SO_REUSEPORT; --workers does)",
    )

    demo = sub.add_parser(
        "demo", help="run the server with a generated tournament replayed live, one result a second"
    )
    _server_options(demo, port=None)
    demo.add_argument(
        "--db",
        default=os.environ.get(DB_ENV) or None,
        help=f"{STORE} (default: ${DB_ENV}, else a fresh temporary SQLite file)",
    )
    demo.add_argument("--players", type=int, default=40, help="participants (default 40)")
    demo.add_argument("--rounds", type=int, default=7, help="rounds (default 7)")
    demo.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    demo.add_argument(
        "--interval", type=float, default=1.0, metavar="S", help="seconds between results"
    )

    watch = sub.add_parser("watch", help="live standings in the terminal, from a server's feed")
    watch.add_argument("url", help="the server, e.g. http://127.0.0.1:8080")
    watch.add_argument("--tournament", required=True, metavar="ID")
    watch.add_argument("--follow", type=int, metavar="START_NO", help="highlight this participant")
    watch.add_argument("--top", type=int, default=20, metavar="N", help="rows shown (default 20)")
    watch.add_argument("--count", type=int, metavar="N", help="exit after N updates")
    watch.add_argument(
        "--category", metavar="CODE", help="only this category's standings, ranks counted inside it"
    )
    add_lang(watch)
    watch.add_argument(
        "--token",
        metavar="TOKEN",
        help=f"a token of the tournament, if it is private (default: ${TOKEN_ENV}, which "
        "keeps it out of the process list)",
    )

    token = sub.add_parser("token", help="create or revoke arbiter and organiser tokens")
    actions = token.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create", help="print a new token (shown once, stored hashed)")
    add_served_db(create)
    scope = create.add_mutually_exclusive_group(required=True)
    scope.add_argument(
        "--tournament", metavar="ID", help="an arbiter token: writes to this tournament"
    )
    scope.add_argument(
        "--organiser",
        action="store_true",
        help="an organiser token: creates tournaments at /new (each creation hands back the "
        "new tournament's arbiter token)",
    )
    create.add_argument("--label", metavar="TEXT", help="who holds it, shown in the audit trail")
    revoke = actions.add_parser("revoke", help="revoke a token")
    add_served_db(revoke)
    revoke.add_argument("token")


def add_served_db(parser: argparse.ArgumentParser, note: str = ", as for serve") -> None:
    """--db defaulting as `livetb serve`'s does: the store a server started here uses."""
    parser.add_argument(
        "--db",
        default=os.environ.get(DB_ENV) or DEFAULT_DB,
        help=f"{STORE} (default: ${DB_ENV}, else {DEFAULT_DB}{note})",
    )


def add_views(parser: argparse.ArgumentParser, note: str = "") -> None:
    """--category and --rating-change: a category's standings, the rating change column."""
    parser.add_argument(
        "--category",
        metavar="CODE",
        help=f"only this category's standings, ranks counted inside it{note} (see "
        "docs/categories.md)",
    )
    parser.add_argument(
        "--rating-change",
        action="store_true",
        help=f"add each participant's FIDE rating change so far (Δ){note}",
    )


def add_db(parser: argparse.ArgumentParser, note: str = "") -> None:
    """--db, required unless $LIVETB_DB names the store."""
    default = os.environ.get(DB_ENV) or None
    help = f"{STORE}{note} (default: ${DB_ENV})"
    parser.add_argument("--db", default=default, required=default is None, help=help)


def add_system(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--system",
        choices=sorted(SYSTEMS),
        help="a preset list instead of --tiebreaks: uscf = "
        + SYSTEMS["uscf"]
        + " (US Chess's recommended order, seed 003)",
    )


def _server_options(p: argparse.ArgumentParser, port: int | None = 8080) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    fallback = "" if port else ", or a free one if that is taken"
    p.add_argument("--port", type=int, default=port, help=f"port (default 8080{fallback})")
