"""`livetb serve`, `demo`, `watch` and `token`: the live server's subcommands.

Their arguments are in `livetb/cli/parsers.py`; `livetb/cli/__init__.py` hands them to `run`.
aiohttp and the client load only when one of these runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import os
import re
import signal
import socket
import sys
import tempfile
from pathlib import Path

from livetb import i18n
from livetb.cli.output import language
from livetb.cli.parsers import DB_ENV, TOKEN_ENV
from livetb.errors import LivetbError, UsageError

COMMANDS = ("serve", "demo", "watch", "token")
# Connections the kernel completes and holds while the event loop is busy: a node's audience
# reconnecting at once (a restart, another node gone) waits in the queue instead of having its
# handshakes dropped and retried by TCP 1, 3, 7 s later (aiohttp's default is 128; Linux caps
# it at net.core.somaxconn).
BACKLOG = 4096


def _free_port(host: str, wanted: int = 8080) -> int:
    """`wanted` if it can be bound now, else one the system picks."""
    for port in (wanted, 0):
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            try:
                s.bind((host, port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    return wanted


def run(args: argparse.Namespace, out: io.TextIOBase) -> int:
    match args.command:
        case "serve":
            return serve(args, out)
        case "demo":
            return demo(args, out)
        case "watch":
            return watch(args, out)
        case "token":
            return token(args, out)
    return 1


# --- token ------------------------------------------------------------------------------------


# A tournament id as the API's routes take it (`livetb.web.http.routing.TID`): a token made
# for any other id could never be used.
_TOURNAMENT_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def token(args: argparse.Namespace, out: io.TextIOBase) -> int:
    from livetb.backends import backend, open_store, open_tokens

    if args.action == "revoke" and not backend(args.db).exists(args.db):
        raise UsageError.of("cli.usage.no_store", store=args.db)
    tid = getattr(args, "tournament", None)
    if tid is not None and not _TOURNAMENT_ID.fullmatch(tid):
        raise UsageError.of("cli.usage.tournament_id", tournament=tid)
    lang = language(args)
    with open_tokens(args.db) as tokens:
        if args.action == "revoke":
            if not tokens.revoke(args.token):
                raise UsageError.of("cli.usage.no_live_token")
            print(i18n.text(lang, "cli.token.revoked"), file=out)
            return 0
        if args.organiser:
            print(i18n.text(lang, "cli.token.organiser_note"), file=sys.stderr)
            print(tokens.create_organiser(label=args.label), file=out)
            return 0
        with open_store(args.db) as store:
            if store.head(args.tournament) == 0:
                note = i18n.text(lang, "cli.token.no_events", tournament=args.tournament)
                print(note, file=sys.stderr)
        print(tokens.create(args.tournament, label=args.label), file=out)
    return 0


# --- serve and demo ---------------------------------------------------------------------------


def serve(args: argparse.Namespace, out: io.TextIOBase) -> int:
    """Serve until stopped; a store that cannot be opened or written (unreachable, a full
    disk, not a database) is one line and exit 2, not a traceback."""
    from livetb.backends import driver_fault

    try:
        return _serve(args, out)
    except Exception as err:
        named = driver_fault(args.db, err)
        if named is None:
            raise
        raise named from None


def _serve(args: argparse.Namespace, out: io.TextIOBase) -> int:
    from livetb.events.target import shown

    url = f"http://{args.host}:{args.port}"
    if args.workers != 1:
        return _serve_workers(args, out, url)
    _first_organiser(args, out)
    from livetb.web import Config, create_app

    app = create_app(Config(db_path=args.db))
    banner = i18n.text(language(args), "cli.serve.banner", store=shown(args.db), url=url)
    return _run_app(app, args, out, banner)


def _first_organiser(args: argparse.Namespace, out: io.TextIOBase) -> None:
    """On a store's first start, make its organiser token and print it, once, in the URL of
    /new: creating tournaments then needs no command on the server."""
    from livetb.backends import open_tokens

    with open_tokens(args.db) as tokens:
        organiser = tokens.create_first_organiser()
    if organiser is not None:
        page = f"{_browser_base(args.host, args.port)}/new#token={organiser}"
        print(i18n.text(language(args), "cli.serve.organiser", page=page), file=out, flush=True)


def _browser_base(host: str, port: int) -> str:
    """The address a browser on this machine opens for a server listening on `host`."""
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


def _serve_workers(args: argparse.Namespace, out: io.TextIOBase, url: str) -> int:
    from livetb.backends import backend
    from livetb.cli.workers import WorkersFailed, supervise
    from livetb.events.target import shown

    if not 2 <= args.workers <= 64:
        raise UsageError.of("cli.usage.workers", workers=args.workers)
    if not 1 <= args.port <= 65535:
        raise UsageError.of("cli.usage.workers_port", port=args.port)
    # The store reaches the workers in their environment: a URL's password stays out of the
    # process list.
    argv = ["serve", "--host", args.host, "--port", str(args.port), "--reuse-port"]
    lang = language(args)
    banner = i18n.text(
        lang, "cli.serve.workers_banner", store=shown(args.db), url=url, workers=args.workers
    )
    backend(args.db).checked(args.db)  # a malformed URL: refused now, not waited on

    def probe() -> str | None:
        return _store_away(args, out)

    try:
        return supervise(argv, args.workers, out, banner, {DB_ENV: args.db}, probe, lang)
    except WorkersFailed as err:
        raise UsageError.of("cli.usage.workers_failed", reason=str(err)) from None


def _store_away(args: argparse.Namespace, out: io.TextIOBase) -> str | None:
    """Why the store cannot be used now, if a wait may cure it (PostgreSQL away, SQLite's
    write lock held), else None once it answers; its first start's organiser token made on
    the way. A fault no wait cures (a malformed URL, a SQLite path that cannot be a store, a
    full disk) is raised."""
    from livetb.backends import backend, driver_fault

    try:
        _first_organiser(args, out)
    except Exception as err:
        named = err if isinstance(err, LivetbError) else driver_fault(args.db, err)
        if named is None:
            raise
        if backend(args.db).waitable(named):
            return str(named)
        raise named from None
    return None


def demo(args: argparse.Namespace, out: io.TextIOBase) -> int:
    from livetb.demo import replay as sample
    from livetb.events.target import shown
    from livetb.web import Config, create_app

    if args.players < 2 or not 1 <= args.rounds < args.players:
        raise UsageError.of("cli.usage.demo_size")
    db = args.db or str(Path(tempfile.mkdtemp(prefix="livetb-demo-")) / "demo.sqlite")
    if args.port is None:
        args.port = _free_port(args.host)
    made = sample.prepare(db, args.players, args.rounds, args.seed)
    app = create_app(Config(db_path=db))

    url = _browser_base(args.host, args.port)
    lang = language(args)
    names = ("standings", "card", "overlay", "screen", "terminal", "json", "console", "home")
    label = {name: i18n.text(lang, f"cli.demo.{name}") + ":" for name in names}
    width = max(map(len, label.values())) + 1  # the addresses in one column

    def link(name: str, address: str) -> str:
        return f"  {label[name].ljust(width)}{address}"

    def links(made: sample.Demo) -> list[str]:
        tid = made.tournament_id
        return [
            link("standings", f"{url}/t/{tid}"),
            link("card", f"{url}/t/{tid}/player/1"),
            link("overlay", f"{url}/t/{tid}/overlay?top=10"),
            link("screen", f"{url}/t/{tid}/screen"),
            link("terminal", f"livetb watch {url} --tournament {tid}"),
            link("json", f"{url}/api/tournaments/{tid}/standings"),
            link("console", f"{url}{made.console}"),
        ]

    def started(made: sample.Demo) -> None:
        lines = [i18n.text(lang, "cli.demo.new", tournament=made.tournament_id), *links(made)]
        print("\n".join(lines), file=out, flush=True)

    generator = (args.players, args.rounds, args.seed)
    app.cleanup_ctx.append(sample.replay_ctx(made, args.interval, generator, started))
    said = i18n.text(
        lang,
        "cli.demo.banner",
        players=args.players,
        rounds=args.rounds,
        interval=i18n.number(lang, f"{args.interval:g}"),
        store=shown(db),
    )
    banner = "\n".join(
        [said, *links(made), link("home", f"{url}/"), i18n.text(lang, "cli.demo.stop")]
    )
    return _run_app(app, args, out, banner)


def _run_app(app: object, args: argparse.Namespace, out: io.TextIOBase, banner: str) -> int:
    """Serve `app` until SIGINT or SIGTERM, then stop gracefully (the decided writes are
    committed); a second signal meanwhile stops at once. A signal during start-up stops it as
    quietly as one while it serves."""
    from aiohttp import web

    assert isinstance(app, web.Application)
    _raise_open_files()
    try:
        with asyncio.Runner(loop_factory=_event_loop) as runner:
            runner.run(_serve_app(app, args, out, banner))
    except OSError as err:
        reason = err.strerror or str(err)
        raise UsageError.of(
            "cli.usage.cannot_listen", host=args.host, port=args.port, reason=reason
        ) from None
    except KeyboardInterrupt:  # Ctrl-C where the loop cannot take signals (Windows)
        pass
    return 0


async def _serve_app(
    app: object, args: argparse.Namespace, out: io.TextIOBase, banner: str
) -> None:
    """aiohttp's `run_app` without its signal handlers: those raise `GracefulExit` inside a
    loop callback, and uvloop then keeps the callbacks queued after it for the next run, so a
    signal during start-up could stop the clean-up itself with a traceback. Here a signal only
    sets an event; a second one while the server stops ends the process at once (a store
    that does not answer holds the last commit): what was committed stays, what was not is
    not made, and its sender got no answer (the console sends it again with the same key)."""
    from aiohttp import web

    from livetb.web.keys import CONFIG

    assert isinstance(app, web.Application)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    signals = (signal.SIGINT, signal.SIGTERM)
    lang = language(args)

    def at_once() -> None:
        print(i18n.text(lang, "cli.serve.stopped_at_once"), file=sys.stderr, flush=True)
        os._exit(130)

    def stopping(signum: int) -> None:
        stop.set()
        # Told at a terminal's Ctrl-C once serving; a supervisor's SIGTERM (the workers'
        # parent, systemd) and a stop during start-up, as quick as it gets, stay quiet.
        if started and signum == signal.SIGINT:
            print(i18n.text(lang, "cli.serve.stopping"), file=sys.stderr, flush=True)
        for each in signals:
            loop.add_signal_handler(each, at_once)

    started = False
    for signum in signals:
        with contextlib.suppress(NotImplementedError):  # Windows: Ctrl-C interrupts instead
            loop.add_signal_handler(signum, stopping, signum)
    runner = web.AppRunner(
        app,
        # aiohttp counts it from the connection's start: also the deadline for headers
        keepalive_timeout=app[CONFIG].header_timeout,
        shutdown_timeout=5.0,
    )
    try:
        await runner.setup()
        if not stop.is_set():
            reuse_port = getattr(args, "reuse_port", False) or None
            site = web.TCPSite(runner, args.host, args.port, backlog=BACKLOG, reuse_port=reuse_port)
            await site.start()
            _listening(banner, out)
            started = True
            await stop.wait()
    finally:
        await runner.cleanup()
        for signum in signals:
            with contextlib.suppress(NotImplementedError):
                loop.remove_signal_handler(signum)


def _raise_open_files() -> None:
    """The soft limit of open files raised to the hard one: every viewer holds a socket, and
    the usual soft default (1,024, kept low by systemd for programs that use select()) would
    refuse a node's thousandth viewer. The hard limit (systemd's `LimitNOFILE=`, 524,288 by
    default) is the operator's. Windows has no such limit."""
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):  # macOS: an unlimited hard is refused
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _listening(banner: str, out: io.TextIOBase) -> None:
    """Once every socket listens: say so (and tell a supervisor)."""
    from livetb.cli.workers import tell_listening

    print(banner, file=out, flush=True)
    tell_listening()


def _event_loop() -> asyncio.AbstractEventLoop:
    """uvloop's where it is installed: its transports write to thousands of viewers about
    twice as fast as the standard loop's."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


# --- watch ------------------------------------------------------------------------------------


def watch(args: argparse.Namespace, out: io.TextIOBase) -> int:
    from websockets.exceptions import InvalidStatus, InvalidURI

    from livetb.client.watch import watch as live_view

    token = args.token or os.environ.get(TOKEN_ENV) or None
    lang = language(args)
    view = live_view(
        args.url, args.tournament, args.follow, args.top, args.count, out, token, lang,
        category=args.category,
    )  # fmt: skip
    try:
        asyncio.run(view)
    except InvalidStatus as err:
        status = err.response.status_code
        raise refusal(args.url, args.tournament, status, token) from None
    except InvalidURI as err:
        raise UsageError.of("cli.usage.bad_url", url=args.url, reason=str(err)) from None
    return 0


def refusal(url: str, tournament: str, status: int, token: str | None) -> UsageError:
    """Why the server refused the feed. A private tournament answers as an unknown one does
    (404) without one of its tokens, so a 404 says what to do about both."""
    if status != 404:
        return UsageError.of("cli.usage.feed_refused", url=url, status=status)
    if token is None:
        return UsageError.of(
            "cli.usage.feed_unknown", url=url, tournament=tournament, env=TOKEN_ENV, status=status
        )
    return UsageError.of(
        "cli.usage.feed_unknown_token", url=url, tournament=tournament, status=status
    )
