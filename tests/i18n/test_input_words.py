"""Refusals of input and of the store are worded from the catalogs: the message (`str(err)`)
is the English words as they always were, `words("it")` the Italian an arbiter reads on the
command line, and the JSON body's `said` the key and values a page words itself."""

from __future__ import annotations

import datetime as dt
import sqlite3
from decimal import Decimal
from pathlib import Path

import pytest

import livetb
from livetb.engine.prizes import Prize
from livetb.engine.spec import parse_spec
from livetb.errors import (
    ConcurrencyConflict,
    InvalidInput,
    LivetbError,
    StoreBusy,
    StoreUnavailable,
    TournamentUnreadable,
)
from livetb.events.categories import CategorySpec
from livetb.events.commands import DefineCategories, DefinePrizes, UpdateParticipant, decide
from livetb.events.postgres import PostgresStore
from livetb.events.schema import ParticipantRegistered, TournamentCreated
from livetb.events.sqlite import SqliteStore
from livetb.events.state import TournamentState, fold
from livetb.events.store import MemoryStore
from livetb.interchange.engine_pairs import pairing_from_engine
from livetb.projections.stored import unreadable

FILE = Path("tests/data/conformance/individual-swiss/swiss-1001.trf")
CREATED = TournamentCreated(name="Open", rounds=5)


def state() -> TournamentState:
    players = [ParticipantRegistered(start_no=n, name=f"P{n}", rating=2000) for n in (1, 2)]
    return fold([CREATED, *players])


def said(err: LivetbError) -> dict[str, object]:
    body = err.as_dict()
    assert body["message"] == str(err)
    found = body["said"]
    assert isinstance(found, dict)
    return found


def test_a_category_band_out_of_order() -> None:
    spec = CategorySpec(code="U", name="Under", rating_min=2000, rating_max=1800)
    with pytest.raises(InvalidInput) as caught:
        decide(state(), DefineCategories(categories=(spec,)))
    err = caught.value
    assert str(err) == "categories[0].rating_max 1800: below rating_min 2000"
    assert err.words("it") == "categories[0].rating_max 1800: inferiore a rating_min 2000"
    assert said(err) == {
        "key": "input.category_rating",
        "params": {"at": "categories[0]", "rating_max": 1800, "rating_min": 2000},
    }
    assert err.path == "$.categories[0].rating_max"


def test_a_category_born_to_before_born_from() -> None:
    spec = CategorySpec(
        code="U", name="U", born_from=dt.date(2012, 1, 1), born_to=dt.date(2011, 6, 30)
    )
    with pytest.raises(InvalidInput) as caught:
        decide(state(), DefineCategories(categories=(CategorySpec(code="A", name="A"), spec)))
    err = caught.value
    assert str(err) == "categories[1].born_to 2011-06-30: before born_from 2012-01-01"
    assert err.words("it") == "categories[1].born_to 2011-06-30: precede born_from 2012-01-01"
    assert said(err)["key"] == "input.category_born"


def test_an_update_with_nothing_to_update() -> None:
    with pytest.raises(InvalidInput) as caught:
        decide(state(), UpdateParticipant(start_no=2))
    err = caught.value
    fields = "('name', 'rating', 'title', 'federation', 'fide_id', 'sex', 'birth_date', 'k')"
    assert str(err) == f"start_no 2: nothing to update (give one of {fields})"
    assert err.words("it") == f"start_no 2: niente da aggiornare (indica uno tra {fields})"
    assert said(err)["key"] == "input.nothing_to_update"


def test_a_prize_of_a_list_nobody_defined_nests_the_problem() -> None:
    prizes = (Prize("main", 1, Decimal(100)), Prize("U1800", 1, Decimal(50)))
    with pytest.raises(InvalidInput) as caught:
        decide(state(), DefinePrizes(prizes=prizes))
    err = caught.value
    assert str(err) == "$.prizes[1].list: list 'U1800' is not defined (lists: main)"
    assert err.words("it") == (
        "$.prizes[1].list: la classifica 'U1800' non è definita (classifiche: main)"
    )
    assert said(err) == {
        "key": "input.prizes.at",
        "params": {
            "path": "$.prizes[1].list",
            "problem": {
                "key": "input.prizes.unknown_list",
                "params": {"list": "'U1800'", "lists": "main"},
            },
        },
    }


def test_the_library_after_a_round_the_file_lacks() -> None:
    with pytest.raises(InvalidInput) as caught:
        livetb.standings(FILE, after_round=42)
    err = caught.value
    width = livetb.read_trf(FILE).tournament.played_rounds
    assert str(err) == f"after_round 42: the tournament has complete rounds 0..{width}"
    assert err.words("it") == f"after_round 42: il torneo ha i turni completi 0..{width}"
    assert said(err) == {"key": "input.after_round", "params": {"round": 42, "width": width}}


def test_a_pairing_engine_file_lists_every_bad_line() -> None:
    with pytest.raises(InvalidInput) as caught:
        pairing_from_engine("3\n1 2\nx\n4 4\n1 0\n", 1)
    err = caught.value
    assert str(err) == (
        "pairing engine output: line 1: announces 3 pairs; the file lists 4; "
        "line 3: found 'x'; expected `white black`, e.g. `12 5`; "
        "line 4: found '4 4'; two different players; "
        "line 5: player 1 is already seated on line 2"
    )
    assert err.words("it") == (
        "output del motore di abbinamento: riga 1: annuncia 3 coppie; il file ne elenca 4; "
        "riga 3: trovato 'x'; atteso `bianco nero`, ad es. `12 5`; "
        "riga 4: trovato '4 4'; servono due giocatori diversi; "
        "riga 5: il giocatore 1 ha già un posto alla riga 2"
    )
    assert said(err)["key"] == "input.engine.output"
    assert err.path == "line 1"


def test_a_pairing_engine_file_with_many_bad_lines_is_still_worded() -> None:
    bad = "\n".join(["2000", *("x" for _ in range(2000))])
    with pytest.raises(InvalidInput) as caught:
        pairing_from_engine(bad, 1)
    assert caught.value.words("it").count("; riga ") == 1999
    params = said(caught.value)["params"]
    assert isinstance(params, dict) and len(params["problems"]) == 2000  # a list, for a page


def test_a_stale_expected_seq() -> None:
    store = MemoryStore()
    store.append("t-1", 0, [CREATED], actor="a")
    with pytest.raises(ConcurrencyConflict) as caught:
        store.append("t-1", 0, [CREATED], actor="a")
    err = caught.value
    assert str(err) == "tournament t-1: expected_seq 0 is stale, the log is at 1"
    assert err.words("it") == "torneo t-1: expected_seq 0 non è più attuale, il registro è a 1"
    assert said(err) == {
        "key": "store.stale_seq",
        "params": {"tournament": "t-1", "expected": 0, "head": 1},
    }


def test_a_log_that_no_longer_folds_keeps_its_reason_worded() -> None:
    with pytest.raises(TournamentUnreadable) as caught, unreadable("t-1"):
        parse_spec("")
    err = caught.value
    assert str(err) == "tournament t-1: its event log cannot be read: empty tie-break code"
    assert err.words("it") == (
        "torneo t-1: il suo registro degli eventi non si può leggere: codice di spareggio vuoto"
    )
    assert said(err) == {
        "key": "store.unreadable",
        "params": {"tournament": "t-1", "reason": {"key": "tiebreak.empty", "params": {}}},
    }


def test_a_store_locked_by_another_process(tmp_path: Path) -> None:
    path = str(tmp_path / "t.sqlite")
    store = SqliteStore(path)
    store._conn.execute("PRAGMA busy_timeout = 0")  # busy at once, without waiting
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreBusy) as caught:
            store.append("t-1", 0, [CREATED], actor="a")
    finally:
        other.close()
        store.close()
    err = caught.value
    assert str(err) == (
        f"{path}: database is locked: another process holds the store's write lock; try again"
    )
    assert err.words("it") == (  # the driver's own words stay as they are
        f"{path}: database is locked: "
        "un altro processo tiene il blocco di scrittura dell'archivio; riprova"
    )
    assert said(err) == {
        "key": "store.unavailable",
        "params": {
            "target": path,
            "reason": {"key": "store.busy", "params": {"reason": "database is locked"}},
        },
    }


def test_an_unreachable_postgresql_store_is_named_in_the_readers_words() -> None:
    with pytest.raises(StoreUnavailable) as caught:
        PostgresStore("postgresql://nobody:secret@127.0.0.1:1/test")
    err = caught.value
    assert str(err).startswith("postgresql://nobody:***@127.0.0.1:1/test: ")
    assert str(err).endswith(
        " (PostgreSQL database test on 127.0.0.1:1, schema public, user nobody)"
    )
    assert err.words("it").endswith(
        " (database PostgreSQL test su 127.0.0.1:1, schema public, utente nobody)"
    )
    assert "secret" not in str(err) and "secret" not in err.words("it")
    reason = said(err)["params"]["reason"]  # type: ignore[index]
    assert reason["key"] == "store.named"
    assert reason["params"]["store"]["key"] == "store.pg.database_user"
