"""`livetb prizes --db DB --tournament ID [--format table|json|csv]`: the prize list of a
stored tournament, as the API answers it, in a table (English and Italian), JSON and CSV."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from pathlib import Path

from livetb.cli.prizes import table
from livetb.engine.prizes import Prize
from livetb.events.schema import (
    AnyEvent,
    Board,
    CategoriesDefined,
    Category,
    ParticipantRegistered,
    PrizesDefined,
    ResultRecorded,
    RoundClosed,
    RoundPaired,
    TournamentCreated,
)
from livetb.events.sqlite import SqliteStore
from livetb.interchange.prize_export import prizes_html
from livetb.wire.prizes import AwardLine, ListInfo, PrizeLine, PrizeList
from tests.cli.test_cli import run


def stored(tmp_path: Path, close: bool) -> str:
    """4 players, 1 round: 1 beats 2, 3 and 4 draw. Prizes: main 100, 60 (shared rule);
    U (3 and 4) 70.50 with a cup."""
    db = str(tmp_path / "p.sqlite")
    events: list[AnyEvent] = [
        TournamentCreated(name="Cup", rounds=1, tiebreaks=("PTS",)),
        *(ParticipantRegistered(start_no=n, name=f"Player {n}") for n in range(1, 5)),
        CategoriesDefined(categories=(Category(code="U", name="Juniors", members=(3, 4)),)),
        PrizesDefined(
            rule="shared",
            prizes=(
                Prize("main", 1, Decimal(100)),
                Prize("main", 2, Decimal(60)),
                Prize("U", 1, Decimal("70.50"), "Cup"),
            ),
        ),
        RoundPaired(round=1, boards=(Board(1, 1, 2), Board(2, 3, 4))),
        ResultRecorded(round=1, board=1, result="1-0"),
        ResultRecorded(round=1, board=2, result="1/2-1/2"),
    ]
    if close:
        events.append(RoundClosed(round=1))
    with SqliteStore(db) as store:
        store.append("cup", 0, events, actor="test")
    return db


def test_json_is_the_api_document_and_final_after_the_last_close(tmp_path: Path) -> None:
    db = stored(tmp_path, close=True)
    code, out, err = run("prizes", "--db", db, "--tournament", "cup", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["status"] == "final" and doc["currency"] == "EUR"
    # 1 alone on 1 point: 100. 3 and 4, tied on ½, would share main 2nd and 3rd (60 / 2 =
    # 30 each) or U's 1st (70.50 / 2 = 35.25 each): they take the larger, U, and leave main
    # 2nd to its next participant, 2 (on 0).
    assert [(a["start_no"], a["list"], a["amount"]) for a in doc["awards"]] == [
        (1, "main", "100.00"), (3, "U", "35.25"), (4, "U", "35.25"),
        (2, "main", "60.00"),
    ]  # fmt: skip
    (tmp_path / "open").mkdir()
    db = stored(tmp_path / "open", close=False)
    code, out, _ = run("prizes", "--db", db, "--format", "json")
    assert code == 0 and json.loads(out)["status"] == "provisional"


def test_table_in_both_languages_and_csv(tmp_path: Path) -> None:
    db = stored(tmp_path, close=True)
    code, out, _ = run("prizes", "--db", db)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Prizes · Final"
    assert lines[3].split() == ["Overall", "1", "100.00", "EUR", "1", "Player", "1"]
    assert lines[4].split() == ["Overall", "2", "60.00", "EUR", "2", "Player", "2"]
    # 3 and 4 share U's one prize: the places their group occupies, 1-2.
    assert lines[5].split() == ["Juniors", "1-2", "35.25", "EUR", "3", "Player", "3", "(Cup)"]
    code, out, _ = run("prizes", "--db", db, "--lang", "it")
    assert out.splitlines()[0] == "Premi · Definitivi" and "35,25 EUR" in out
    code, out, _ = run("prizes", "--db", db, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["start_no"], r["list"], r["amount"], r["label"]) for r in rows] == [
        ("1", "main", "100.00", ""), ("3", "U", "35.25", "Cup"),
        ("4", "U", "35.25", ""), ("2", "main", "60.00", ""),
    ]  # fmt: skip


def test_exports_carry_the_prize_list(tmp_path: Path) -> None:
    db = stored(tmp_path, close=True)
    code, out, err = run("export", "--db", db, "--format", "prizes")
    assert code == 0, err
    _, listed, _ = run("prizes", "--db", db, "--format", "csv")
    assert out == listed and out.startswith("list,place,last_place,shared,amount,currency,")
    code, page, _ = run("export", "--db", db, "--format", "html")
    assert code == 0
    section = page[page.index("<h2>Prizes</h2>") : page.index("</body>")]
    assert "<p>Final</p>" in section
    assert '<td class="name">Juniors</td><td>1–2</td><td>35.25 EUR</td><td>3</td>' in section
    assert '<td class="name">Player 3 (Cup)</td>' in section
    code, _, err = run("export", "--db", db, "--format", "prizes", "--category", "U")
    assert code == 2 and "category" in err


def test_a_trophy_is_its_label_never_an_amount_of_zero() -> None:
    doc = PrizeList(
        seq=1, status="final", after_round=1, rule="ranking", one_prize_per_player=True,
        currency="EUR", lists=[ListInfo("main", None)],
        prizes=[PrizeLine("main", 1, "100.00", ""), PrizeLine("main", 2, "0.00", "Trophy"),
                PrizeLine("main", 3, "0.00", "Medal")],
        awards=[AwardLine(1, "Rossi", "main", 1, "100.00", (1, 1), 1, ""),
                AwardLine(2, "Bianchi", "main", 2, "0.00", (2, 2), 1, "Trophy")],
    )  # fmt: skip
    lines = table(doc, "en").splitlines()
    assert lines[4].split() == ["Overall", "2", "Trophy", "2", "Bianchi"]
    assert lines[5].split() == ["Overall", "3", "Medal", "not", "awarded"]
    assert " 0.00 EUR" not in table(doc, "en")


def test_every_sharer_of_a_trophy_is_shown_the_trophy() -> None:
    """Three tied for a trophy without an amount: the label is on the share's first line (the
    API's), and each line says the trophy, not 0.00, in the table and the HTML export."""
    doc = PrizeList(
        seq=1, status="final", after_round=1, rule="shared", one_prize_per_player=True,
        currency="EUR", lists=[ListInfo("main", None)],
        prizes=[PrizeLine("main", 1, "0.00", "Cup")],
        awards=[AwardLine(4, "Dvorak", "main", 1, "0.00", (1, 3), 3, "Cup"),
                AwardLine(6, "Fischer", "main", 1, "0.00", (1, 3), 3, ""),
                AwardLine(8, "Horvat", "main", 1, "0.00", (1, 3), 3, "")],
    )  # fmt: skip
    lines = table(doc, "en").splitlines()
    assert [line.split()[2] for line in lines[3:6]] == ["Cup", "Cup", "Cup"]
    assert "0.00" not in table(doc, "en")
    assert "0.00" not in prizes_html(doc, "en")
