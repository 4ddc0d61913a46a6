"""Live results from PGN: a growing PGN served over HTTP on loopback, games
finishing one by one, one game's result changed later, one game for no board."""

from __future__ import annotations

import contextlib
import datetime as dt
import http.server
import io
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from livetb.cli import main
from livetb.events.schema import (
    AnyEvent,
    Board,
    ParticipantRegistered,
    ResultCorrected,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
)
from livetb.events.sqlite import SqliteStore
from livetb.events.state import fold
from livetb.interchange.pgn import plan, read_games

PLAYERS = [
    ("Carlsen, Magnus", "1503014"),
    ("Nakamura, Hikaru", "2016192"),
    ("Caruana, Fabiano", "2020009"),
    ("Ding, Liren", "8603677"),
    ("Gukesh D", "46616543"),
    ("Firouzja, Alireza", "12573981"),
]
# round 1: board 1 Carlsen-Nakamura, board 2 Caruana-Ding, board 3 Gukesh-Firouzja
EVENTS: list[AnyEvent] = [
    TournamentCreated(name="Loopback Open", rounds=3, start_date=dt.date(2026, 5, 1)),
    *(
        ParticipantRegistered(start_no=no, name=name, fide_id=fide)
        for no, (name, fide) in enumerate(PLAYERS, start=1)
    ),
    RoundPaired(round=1, boards=(Board(1, 1, 2), Board(2, 3, 4), Board(3, 5, 6))),
]


def game(white: str, black: str, result: str, **tags: str) -> str:
    head = {"Event": "Loopback Open", "White": white, "Black": black, "Result": result, **tags}
    lines = [f'[{k} "{v}"]' for k, v in head.items()]
    return "\n".join(lines) + f"\n\n1. e4 e5 2. Nf3 {result}\n\n"


# board 1 by its Round tag, board 2 by names written the other way round, board 3 by FIDE ids
B1 = lambda r: game("Carlsen, Magnus", "Nakamura, Hikaru", r, Round="1.1")  # noqa: E731
B2 = lambda r: game("Fabiano Caruana", "Liren Ding", r, Round="1")  # noqa: E731
B3 = lambda r: game("Gukesh, D.", "Alireza F.", r, WhiteFideId="46616543", BlackFideId="12573981")  # noqa: E731
STRAY = game("Somebody, Else", "Nobody, Atall", "1-0", Round="1")

# what the relay serves at each request: the games finish one by one, then board 1 changes
STAGES = [
    B1("*") + B2("*") + B3("*") + STRAY,
    B1("1-0") + B2("*") + B3("*") + STRAY,
    B1("1-0") + B2("*") + B3("*") + STRAY,
    B1("1-0") + B2("1/2-1/2") + B3("*") + STRAY,
    B1("1-0") + B2("1/2-1/2") + B3("0-1") + STRAY,
]
CHANGED = B1("0-1") + B2("1/2-1/2") + B3("0-1") + STRAY


class Relay:
    """A loopback HTTP server whose games.pgn grows by one stage per request."""

    def __init__(self, stages: list[str]) -> None:
        self.stages, self.served = stages, 0
        relay = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = relay.stages[min(relay.served, len(relay.stages) - 1)].encode()
                relay.served += 1
                self.send_response(200)
                self.send_header("Content-Type", "application/x-chess-pgn")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/games.pgn"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def relay() -> Iterator[Relay]:
    r = Relay(STAGES)
    yield r
    r.server.shutdown()
    r.server.server_close()


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "events.sqlite")
    with SqliteStore(path) as store:
        store.append("open", 0, EVENTS, actor="test")
    return path


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def results(db: str) -> list[object]:
    with SqliteStore(db) as store:
        return [
            rec.event
            for rec in store.read("open")
            if isinstance(rec.event, ResultRecorded | ResultCorrected)
        ]


def test_a_growing_pgn_over_http(relay: Relay, db: str) -> None:
    # followed until every board of round 1 has a result, one request per reading
    code, out, err = run("pgn", relay.url, "--db", db, "--round", "1", "--follow", "0.01")
    assert code == 0, err
    assert relay.served == len(STAGES)
    assert out.splitlines() == [
        "unmatched game 4: Somebody, Else - Nobody, Atall 1-0 (Round 1): no registered player "
        "named 'Somebody, Else' (and no Board tag)",
        "recorded round 1 board 1: 1-0",
        "recorded round 1 board 2: 1/2-1/2",
        "recorded round 1 board 3: 0-1",
    ]
    assert results(db) == [
        ResultRecorded(round=1, board=1, result="1-0"),
        ResultRecorded(round=1, board=2, result="1/2-1/2"),
        ResultRecorded(round=1, board=3, result="0-1"),
    ]
    # the same source again: nothing twice
    code, out, _ = run("pgn", relay.url, "--db", db)
    assert code == 0 and "recorded" not in out and len(results(db)) == 3
    # board 1's result changes at the source: refused without --corrections ...
    relay.stages = [CHANGED]
    code, out, _ = run("pgn", relay.url, "--db", db)
    assert code == 0
    assert (
        "refused game 1: Carlsen, Magnus - Nakamura, Hikaru 0-1 (Round 1.1): round 1 board 1 "
        "has 1-0; a change needs corrections allowed" in out
    )
    assert len(results(db)) == 3
    # ... and a correction with it
    code, out, _ = run("pgn", relay.url, "--db", db, "--corrections")
    assert code == 0 and "corrected round 1 board 1: 0-1" in out
    assert results(db)[-1] == ResultCorrected(
        round=1, board=1, result="0-1", reason="PGN game 1: 1-0 -> 0-1"
    )


def test_a_pgn_file_and_the_refusals(tmp_path: Path, db: str) -> None:
    path = tmp_path / "round1.pgn"
    path.write_text(STAGES[1])
    code, out, _ = run("pgn", str(path), "--db", db)
    assert code == 0 and out.count("recorded") == 1
    code, _, err = run("pgn", str(path), "--db", db, "--follow", "0")
    assert code == 2 and "--follow 0" in err
    code, _, err = run("pgn", "http://127.0.0.1:1/none.pgn", "--db", db)
    assert code == 2 and "http://127.0.0.1:1/none.pgn" in err


def test_games_that_fit_no_board_are_listed_never_guessed() -> None:
    state = fold(EVENTS)
    pgn = (
        game("Carlsen, Magnus", "Caruana, Fabiano", "1-0")  # not paired together
        + game("Nakamura, Hikaru", "Carlsen, Magnus", "1-0")  # colours reversed
        + game("A", "B", "1-0", Round="1.7")  # no board 7
        + game("A", "B", "1-0", Round="2.1")  # round 2 not paired
        + game("Caruana, Fabiano", "Ding, Liren", "1-0", Round="1.1")  # board 1 is #1 - #2
    )
    made = plan(state, read_games(pgn), round_=None)
    assert made.commands == []
    assert [u.reason for u in made.unmatched] == [
        "#1 and #3 are not paired together in round 1",
        "#2 has Black on board 1 in round 1",
        "round 1 has no board 7",
        "round 2 is not paired",
        "round 1 board 1 is #1 - #2, not #3 - #4",
    ]
