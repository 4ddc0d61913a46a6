"""The console starts in the browser: from an empty server, the organiser token that
`livetb serve` printed opens /new, which creates a tournament and hands back its arbiter
token once, with a copy button and the link into the console. On a phone (390 px)."""

from __future__ import annotations

import sqlite3
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from livetb.tokens.sqlite import TokenStore
from tests.browser.conftest import LIVETB, _free_port

PHONE = {"width": 390, "height": 844}
# The copy button's fallback: a browser whose clipboard refuses (no permission, plain http on
# a LAN address) gets the token selected instead.
NO_CLIPBOARD = """
Object.defineProperty(navigator, "clipboard", {
  value: { writeText: () => Promise.reject(new DOMException("denied", "NotAllowedError")) },
});
"""


class Fresh:
    """`livetb serve` over a new store, with what it printed at its start."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.base = f"http://127.0.0.1:{_free_port()}"
        cmd = [LIVETB, "serve", "--db", str(db), "--port", self.base.rsplit(":", 1)[1]]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.printed: list[str] = []
        assert self.proc.stdout is not None
        for line in self.proc.stdout:  # the organiser's lines come first, then the banner
            self.printed.append(line)
            if line.startswith("livetb: serving"):
                break
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.base}/api/tournaments", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"livetb serve did not answer within 60 s: {self.printed}")

    def organiser_page(self) -> str:
        (url,) = [ln.strip() for ln in self.printed if "/new#token=" in ln]
        return url

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.communicate(timeout=30)


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Fresh]:
    server = Fresh(tmp_path / "new.sqlite")
    yield server
    server.stop()


def test_new_creates_a_tournament_and_opens_its_console(fresh: Fresh, browser: Any) -> None:
    url = fresh.organiser_page()
    assert url.startswith(f"{fresh.base}/new#token=ltb_")
    organiser = url.split("#token=")[1]
    context = browser.new_context(viewport=PHONE)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=fresh.base)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#app[aria-busy='false']")
    # The token came with the link: filled in, and out of the address bar.
    assert page.input_value("#token") == organiser and "#token" not in page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # The editions as the engine dates them, all four; a 2025 date gets the 2024 rules.
    editions = page.locator("#s-edition-help li").all_inner_texts()
    assert editions == [
        "2026 rules: from March 1, 2026",
        "2024 rules: from August 1, 2024",
        "2023 rules: from July 1, 2023",
        "earlier rules (legacy): before July 1, 2023",
    ]
    page.fill("#s-id", "rovigo-2025")
    page.fill("#s-name", "Open di Rovigo 2025")
    page.fill("#s-rounds", "7")
    page.fill("#s-date", "2025-05-10")
    assert page.locator("#s-edition option").first.inner_text() == "From the start date: 2024 rules"
    page.get_by_role("button", name="Create the tournament").click()

    shown = page.locator("#arbiter-token")
    shown.wait_for()
    token = shown.input_value()
    assert token.startswith("ltb_") and token != organiser
    assert page.get_by_role("heading", level=2).inner_text() == (
        "Tournament “Open di Rovigo 2025” created (id rovigo-2025)."
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_role("button", name="Copy the token").click()
    page.get_by_text("Copied.").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == token
    # Kept as its hash only, as the new tournament's arbiter token.
    with TokenStore(fresh.db) as tokens:
        assert tokens.scope(token) == "rovigo-2025"
    assert token not in "\n".join(sqlite3.connect(fresh.db).iterdump())

    console = page.get_by_role("link", name="Open the arbiters' console")
    assert console.get_attribute("href") == f"/t/rovigo-2025/arbiter?lang=en#token={token}"
    console.click()
    page.get_by_role("heading", level=1, name="Open di Rovigo 2025").wait_for()
    assert page.url == f"{fresh.base}/t/rovigo-2025/arbiter?lang=en"  # the token left the URL
    assert page.get_by_role("tab", name="Players").is_visible()
    context.close()

    # The home page links /new and the new tournament's console.
    home = browser.new_page(viewport=PHONE)
    home.goto(f"{fresh.base}/")
    home.wait_for_selector("#app[aria-busy='false']")
    assert home.get_by_role("link", name="New tournament").get_attribute("href") == "/new?lang=en"
    links = home.get_by_role("navigation", name="Open di Rovigo 2025")
    arbiter = links.get_by_role("link", name="Arbiters' console")
    assert arbiter.get_attribute("href") == "/t/rovigo-2025/arbiter?lang=en"
    home.close()


def test_without_the_clipboard_the_token_is_selected(fresh: Fresh, browser: Any) -> None:
    page = browser.new_page(viewport=PHONE)
    page.add_init_script(NO_CLIPBOARD)
    page.goto(fresh.organiser_page())
    page.wait_for_selector("#app[aria-busy='false']")
    page.fill("#s-id", "club")
    page.fill("#s-name", "Club championship")
    page.get_by_role("button", name="Create the tournament").click()
    page.locator("#arbiter-token").wait_for()
    page.get_by_role("button", name="Copy the token").click()
    page.get_by_text("Selected: press Ctrl+C").wait_for()
    selected = page.evaluate(
        "(() => { const i = document.activeElement;"
        " return [i.id, i.value.slice(i.selectionStart, i.selectionEnd)]; })()"
    )
    assert selected == ["arbiter-token", page.input_value("#arbiter-token")]
    page.close()


def test_a_refused_token_creates_nothing_and_says_why(fresh: Fresh, browser: Any) -> None:
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{fresh.base}/new?lang=it#token=ltb_not-a-token")
    page.wait_for_selector("#app[aria-busy='false']")
    page.fill("#s-id", "club")
    page.fill("#s-name", "Campionato sociale")
    page.get_by_role("button", name="Crea il torneo").click()
    page.get_by_text("Il token è stato rifiutato").wait_for()
    assert page.locator("#arbiter-token").count() == 0
    with urllib.request.urlopen(f"{fresh.base}/api/tournaments", timeout=30) as resp:
        assert b"club" not in resp.read()
    page.close()
