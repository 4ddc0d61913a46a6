"""A type-C value (one read from the opponents' scores) is final on the page only when it can
no longer move: while a round runs it is pending, after the close it is final again."""

from __future__ import annotations

from typing import Any

from livetb.engine.catalogue import tiebreak_of
from livetb.engine.spec import parse_spec
from tests.browser.conftest import TWELVE, Server

FULL_HD = {"width": 1920, "height": 1080}
TYPE_C = [code for code in TWELVE if tiebreak_of(parse_spec(code)).type_c]


def statuses(page: Any, codes: list[str]) -> set[str]:
    cells = page.locator("tbody.rows tr[data-start-no] td[data-tb]")
    found = cells.evaluate_all("(tds) => tds.map((td) => [td.dataset.tb, td.dataset.status])")
    return {status for code, status in found if code in codes}


def test_type_c_values_are_pending_while_a_round_runs_and_final_after_its_close(
    browser: Any, server: Server
) -> None:
    token = server.tournament("honest", TWELVE, players=4)
    assert {"BH", "BH/C1", "SB", "AOB"} <= set(TYPE_C)
    page = browser.new_page(viewport=FULL_HD)
    page.goto(f"{server.base}/t/honest")
    page.wait_for_selector("html[data-connection='live'] tbody.rows tr[data-start-no]")
    assert statuses(page, TYPE_C) == {"pending"}

    t = "/api/tournaments/honest/rounds"
    for board, result in ((1, "1-0"), (2, "1/2-1/2")):
        body = {"board": board, "result": result}
        assert server.call("POST", f"{t}/1/results", body, token)[0] == 201
    # Pending before the results too: read once the page shows the last one (3's draw).
    page.wait_for_function(
        "() => document.querySelector(\"tbody.rows tr[data-start-no='3'] td[data-tb='PTS'] .v\")"
        "?.textContent === '0.5'"
    )
    assert statuses(page, TYPE_C) == {"pending"}  # every game over, the round not closed
    assert server.call("POST", f"{t}/1/close", {}, token)[0] in (200, 201)
    page.wait_for_function(
        "(codes) => [...document.querySelectorAll('tbody.rows td[data-tb]')]"
        ".filter((td) => codes.includes(td.dataset.tb))"
        ".every((td) => td.dataset.status === 'final')",
        arg=TYPE_C,
    )
    assert statuses(page, TYPE_C) == {"final"}

    boards = {
        "boards": [{"board": 1, "white": 4, "black": 1}, {"board": 2, "white": 2, "black": 3}]
    }
    assert server.call("POST", f"{t}/2/pairings", boards, token)[0] == 201
    page.wait_for_function(
        "(codes) => [...document.querySelectorAll('tbody.rows td[data-tb]')]"
        ".filter((td) => codes.includes(td.dataset.tb))"
        ".every((td) => td.dataset.status === 'pending')",
        arg=TYPE_C,
    )
    page.close()
