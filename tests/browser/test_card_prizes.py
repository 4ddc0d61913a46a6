"""The participant card's category ranks, prizes and rating change in a real browser against a
real server: categories and prizes defined with the arbiter's token, then the card shows the
rank inside the category, the provisional prize, the prize each result of the running game
leaves open (and in the last round the sentence), the rating change per game and in total;
a POSTed result updates them without closing what the reader opened; Italian too."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server, open_page, prize_table

PHONE = {"width": 390, "height": 844}
FULL_HD = {"width": 1920, "height": 1080}
SHOTS = Path("/tmp/shots/card2")  # looked at by people, not asserted on
T = "/api/tournaments/{}"
RATINGS = [2400, 2300, 2250, 2150, 2100, None]


def build(server: Server, tid: str) -> str:
    """Six players (the sixth unrated), two rounds: round 1 over (1-2 1-0, 3-4 drawn, 5 beat
    the unrated 6) and closed, round 2, the last, paired 1-3, 4-5, 6-2 with no result in.
    Category U2200 (4, 5 and the unrated 6); prizes by the ranking, one per player. Its token."""
    prizes = [
        {"list": "main", "place": 1, "amount": "300"},
        {"list": "main", "place": 2, "amount": "200"},
        {"list": "main", "place": 3, "amount": "100"},
        {"list": "U2200", "place": 1, "amount": "80"},
        {"list": "U2200", "place": 2, "amount": "50.50"},
    ]
    token = server.tournament(
        tid,
        ["PTS", "BH", "TPR"],
        rounds=2,
        ratings=RATINGS,
        categories=[{"code": "U2200", "name": "Under 2200", "rating_max": 2199}],
        prizes=prize_table("ranking", prizes),
        results=[(1, "1-0"), (2, "1/2-1/2"), (3, "1-0")],
    )
    steps: list[tuple[str, object]] = [
        ("rounds/1/close", {}),
        ("rounds/2/pairings", {"boards": boards((1, 3), (4, 5), (6, 2))}),
    ]
    for path, step in steps:
        status, answer = server.call("POST", f"{T.format(tid)}/{path}", step, token)
        assert status == 201, (path, answer)
    return token


def boards(*games: tuple[int, int]) -> list[dict[str, int]]:
    return [{"board": b, "white": w, "black": k} for b, (w, k) in enumerate(games, start=1)]


def money(amount: str, lang: str) -> str:
    """An amount as the page writes it in euros: €80, €50.50; 80 €, 50,50 € in Italian."""
    value = Decimal(amount)
    shown = f"{value:.0f}" if value == value.to_integral_value() else f"{value:.2f}"
    return f"€{shown}" if lang == "en" else f"{shown.replace('.', ',')} €"


def signed(change: str, lang: str) -> str:
    sign = "\u2212" if change.startswith("-") else "+"
    text = change.lstrip("-")
    return sign + (text if lang == "en" else text.replace(".", ","))


def text_of(locator: Any) -> str:
    return str(locator.inner_text()).replace("\xa0", " ").replace("\u202f", " ")


def open_card(
    browser: Any, server: Server, tid: str, no: int, size: dict[str, int], lang: str
) -> Any:
    url = f"{server.base}/t/{tid}/player/{no}?lang={lang}"
    return open_page(browser, size, url, "section.prizes:not([hidden]) .prize-goals li")


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_card_shows_category_rank_prize_ranges_and_rating_change(
    browser: Any, server: Server, lang: str
) -> None:
    tid = f"prizes-{lang}"
    token = build(server, tid)
    base = T.format(tid)
    card = server.get(f"{base}/participants/4")
    rating = server.get(f"{base}/participants/4/rating")
    page = open_card(browser, server, tid, 4, PHONE, lang)

    # U2200 is 4, 5 and 6: on 0.5 points 4 is behind 5 (1 point) and ahead of 6 (0).
    standings = server.get(f"{base}/standings?category=U2200")["standings"]
    mine = next(r for r in standings if r["start_no"] == 4)
    cat = page.locator(".cats [data-category='U2200']")
    assert cat.locator("dt").inner_text() == "U2200"
    ordinal = {"en": {1: "1st", 2: "2nd", 3: "3rd"}, "it": {1: "1º", 2: "2º", 3: "3º"}}[lang]
    of = {"en": "of", "it": "su"}[lang]
    assert cat.locator("dd").inner_text() == f"{ordinal[mine['rank']]} {of} 3"
    assert cat.locator("dt").get_attribute("title") == "Under 2200"

    # The prize section: provisional while round 2 runs, each award of the card in money.
    prizes = page.locator("section.prizes")
    badge = {"en": "provisional", "it": "provvisorio"}[lang]
    assert prizes.locator("h2 .badge").inner_text() == badge
    awards = prizes.locator(".awards li").all()
    assert len(awards) == len(card["prizes"])
    for line, award in zip(awards, card["prizes"], strict=True):
        assert money(award["amount"], lang) in text_of(line)
    # One line per result of the running game, each with its best and worst prize.
    outlook = card["prize_outlook"]
    assert outlook is not None and outlook["last_round"]
    goals = prizes.locator(".prize-goals li")
    assert goals.count() == 3
    words = {"en": ["Win", "Draw", "Loss"], "it": ["Vittoria", "Patta", "Sconfitta"]}[lang]
    nothing = {"en": "no prize", "it": "nessun premio"}[lang]
    for i, option in enumerate(outlook["options"]):
        line = text_of(goals.nth(i))
        assert line.startswith(words[i] + ":")
        for amount in (option["best"], option["worst"]):
            assert (money(amount, lang) if Decimal(amount) > 0 else nothing) in line
    # The last round's sentence, with the page's money.
    sentence = text_of(prizes.locator(".sentence"))
    assert ({"en": "guarantees", "it": "ti assicuri"}[lang] in sentence) or (
        {"en": "can reach", "it": "puoi ottenere"}[lang] in sentence
    )
    assert "€" in sentence

    # Rating change: round 1's draw against 3 is rated, the total is its change, and the
    # running game's change for each result.
    (game,) = rating["games"]
    assert game["round"] == 1 and game["opponent"] == 3
    delta = page.locator(".strip tr[data-round='1'] td.delta")
    assert text_of(delta) == signed(game["change"], lang)
    assert text_of(page.locator(".strip tr[data-round='2'] td.delta")) == "–"
    assert text_of(page.locator("[data-rating='total'] dd")) == signed(rating["total"], lang)
    assert page.locator("[data-rating='k'] dd").inner_text() == str(rating["k"])
    changes = page.locator(".rating-goals li")
    assert [changes.nth(i).get_attribute("data-change") for i in range(3)] == [
        rating["if_win"],
        rating["if_draw"],
        rating["if_loss"],
    ]
    assert signed(rating["if_win"], lang) in text_of(changes.nth(0))
    title = {"en": "Rating change", "it": "Variazione Elo"}[lang]
    assert page.locator("section.rating h2").inner_text() == title

    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    for size, name in ((PHONE, "390x844"), (FULL_HD, "1920x1080")):
        page.set_viewport_size(size)
        page.screenshot(path=SHOTS / f"card-prizes-{name}-{lang}.png", full_page=True)

    # The opened explanations stay open through a result: 4 beats 5.
    page.set_viewport_size(PHONE)
    page.locator("details.prize-method summary").click()
    page.locator("details.rating-method summary").click()
    page.locator("details.rating-method").evaluate("d => { d.reader = 'opened'; }")
    body = {"board": 2, "result": "1-0"}
    status, answer = server.call("POST", f"{base}/rounds/2/results", body, token)
    assert status == 201, answer
    page.wait_for_selector(f".card[data-seq='{answer['seq']}']", timeout=30_000)
    assert page.locator("details.rating-method").evaluate("d => d.open && d.reader === 'opened'")
    assert page.locator("details.prize-method").evaluate("d => d.open")

    after = server.get(f"{base}/participants/4/rating")
    assert len(after["games"]) == 2
    round2 = page.locator(".strip tr[data-round='2'] td.delta")
    assert text_of(round2) == signed(after["games"][1]["change"], lang)
    total = sum(Decimal(g["change"]) for g in after["games"])
    assert Decimal(after["total"]) == total
    assert text_of(page.locator("[data-rating='total'] dd")) == signed(after["total"], lang)
    assert page.locator(".rating-goals li").count() == 0  # the game is over
    # The card's one polite status says the prize changed.
    now = {"en": "Prize now: ", "it": "Premio ora: "}[lang]
    assert now in text_of(page.locator(".card [role='status']"))
    # The prize lines now say the game is over: one line, the win's range.
    card = server.get(f"{base}/participants/4")
    goals = page.locator(".prize-goals li")
    assert goals.count() == 1
    option = card["prize_outlook"]["options"][0]
    assert goals.first.get_attribute("data-best") == option["best"]
    assert {"en": "Game over", "it": "Partita finita"}[lang] in text_of(goals.first)
    assert page.locator(".cats [data-category='U2200'] dd").inner_text().startswith(ordinal[1])
    page.screenshot(path=SHOTS / f"card-prizes-after-win-390x844-{lang}.png", full_page=True)

    # The last round closed: the prize list is final and the ranges are gone.
    for board, result in ((1, "1/2-1/2"), (3, "0-1")):
        status, answer = server.call(
            "POST", f"{base}/rounds/2/results", {"board": board, "result": result}, token
        )
        assert status == 201, answer
    status, answer = server.call("POST", f"{base}/rounds/2/close", {}, token)
    assert status == 201, answer
    page.wait_for_selector(f".card[data-seq='{answer['seq']}']", timeout=30_000)
    final = {"en": "final", "it": "definitivo"}[lang]
    page.wait_for_function(
        "text => document.querySelector('section.prizes h2 .badge')?.textContent === text",
        arg=final,
    )
    assert page.locator(".prize-goals li").count() == 0
    final_awards = [a for a in server.get(f"{base}/prizes")["awards"] if a["start_no"] == 4]
    assert page.locator(".awards li").count() == len(final_awards)
    page.screenshot(path=SHOTS / f"card-prizes-final-1920x1080-{lang}.png", full_page=True)
    assert page.errors == []
    page.close()


def test_an_unrated_opponent_and_an_unrated_player_are_said_not_rated(
    browser: Any, server: Server
) -> None:
    build(server, "unrated")
    page = open_card(browser, server, "unrated", 5, PHONE, "en")
    # 5 beat the unrated 6 in round 1: no change, and no rated game so far.
    assert text_of(page.locator(".strip tr[data-round='1'] td.delta")) == "not rated"
    assert text_of(page.locator("[data-rating='total'] dd")) == "no rated game"
    six = open_card(browser, server, "unrated", 6, PHONE, "en")
    assert "no rating" in text_of(six.locator("section.rating"))
    assert six.locator(".rating-goals li").count() == 0
    assert page.errors == [] and six.errors == []
    page.close()
    six.close()


def test_categories_and_prizes_redefined_mid_event_reach_an_open_card(
    browser: Any, server: Server
) -> None:
    token = build(server, "redefined")
    base = T.format("redefined")
    page = open_card(browser, server, "redefined", 4, PHONE, "en")
    page.locator("details.prize-method summary").click()
    cats = {
        "categories": [
            {"code": "U2200", "name": "Under 2200", "rating_max": 2199},
            {"code": "RATED", "name": "Rated players", "unrated": False},
        ]
    }
    status, answer = server.call("PUT", f"{base}/categories", cats, token)
    assert status in (200, 201), answer
    page.wait_for_selector(".cats [data-category='RATED']", timeout=30_000)
    # Five rated players: 4 and 3 on 0.5 behind 1 and 5 and ahead of 2 (both 3rd of 5).
    assert page.locator(".cats [data-category='RATED'] dd").inner_text() == "3rd of 5, shared by 2"
    prizes = prize_table(
        "ranking",
        [
            {"list": "U2200", "place": 1, "amount": "120"},
            {"list": "U2200", "place": 2, "amount": "99.90"},
        ],
    )
    status, answer = server.call("PUT", f"{base}/prizes", prizes, token)
    assert status in (200, 201), answer
    # 5 leads the category on 1 point: 4 takes its 2nd prize.
    page.wait_for_function(
        "() => document.querySelector('section.prizes .awards')?.textContent.includes('€99.90')",
        timeout=30_000,
    )
    assert page.locator("details.prize-method").evaluate("d => d.open")
    assert page.errors == []
    page.close()


def test_an_exact_card_says_between_and_an_open_field_says_bounds(
    browser: Any, server: Server
) -> None:
    """`build`'s last round has three boards open: every range is exact, said "between", each
    line marked so. Forty players whose last round has twenty boards open, PTS and BH: a
    winner of round 1 drawing can end level with any of the twenty winners, and whose BH is
    above is read on nearly every board: too many outcomes to read, so the card says its
    bounds as bounds ("no higher than", "at most"), and the sentence never "can reach"."""
    build(server, "exact")
    page = open_card(browser, server, "exact", 4, PHONE, "en")
    card = server.get(f"{T.format('exact')}/participants/4")
    assert all(o["exact"] for o in card["prize_outlook"]["options"])
    assert all(o["exact"] for o in card["outlook"]["options"])
    goals = page.locator(".prize-goals li")
    assert [goals.nth(i).get_attribute("data-exact") for i in range(3)] == ["true"] * 3
    for i, option in enumerate(card["prize_outlook"]["options"]):
        if option["best"] != option["worst"]:
            assert "between" in text_of(goals.nth(i))
    page.close()

    tid = "open-field"
    token = server.tournament(
        tid, ["PTS", "BH"], players=40, rounds=2,
        prizes=prize_table("shared", [
            {"list": "main", "place": 1, "amount": "100"},
            {"list": "main", "place": 2, "amount": "60"},
            {"list": "main", "place": 3, "amount": "40"},
        ]),
        results=[(b, "1-0") for b in range(1, 21)],
    )  # fmt: skip
    base = T.format(tid)
    # Round 2: the winners (odd numbers) among themselves, the losers among themselves.
    pairs = [(w, w + 2) for w in range(1, 40, 4)] + [(k, k + 2) for k in range(2, 40, 4)]
    for path, step in (("rounds/1/close", {}), ("rounds/2/pairings", {"boards": boards(*pairs)})):
        status, answer = server.call("POST", f"{base}/{path}", step, token)
        assert status == 201, (path, answer)
    card = server.get(f"{base}/participants/1")
    draw = card["prize_outlook"]["options"][1]
    assert draw["result"] == "draw" and draw["exact"] is False
    page = open_card(browser, server, tid, 1, PHONE, "en")
    line = text_of(page.locator(".prize-goals li[data-result='draw']"))
    assert line.startswith("Draw: at most") and "between" not in line
    assert (
        page.locator(".prize-goals li[data-result='draw']").get_attribute("data-exact") == "false"
    )
    ranks = card["outlook"]["options"][1]
    assert ranks["exact"] is False
    rank_line = text_of(page.locator(".goals li[data-result='draw']"))
    assert "no higher than" in rank_line and "no lower than" in rank_line
    sentence = text_of(page.locator("section.prizes .sentence"))
    assert "can reach" not in sentence and "at most" in sentence
    page.screenshot(path=SHOTS / "card-prizes-bounds-390x844-en.png", full_page=True)
    assert page.errors == []
    page.close()
