"""A game of several decks (``deck.decks``) in a real headless Chromium: Badam Satti's
eight-player table, two decks of 52, played to its end by clicking; the copies of a card
in the hand, a row of each suit per deck on the table, the seats counting every copy; and a
replay of such a game showing the copies in every hand. The browser, the server and the
screenshots are those of ``test_serve_browser`` (skipped without a Chromium, but under CI).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from paiqi_core.engine import Game
from paiqi_core.records import state_record
from paiqi_core.serve.server import PaiqiServer
from paiqi_core.simulate import play_game
from tests import test_serve_browser as browser_tests
from tests.test_serve_browser import open_page, play_by_clicking, shot, wait_for_person

# the browser, the server, the screenshot folder and a page that must raise no error
browser = browser_tests.browser
server = browser_tests.server
shots = browser_tests.shots
page = browser_tests.page

OPTIONS = "deck.decks=2\nplayers=8"


def test_a_game_of_two_decks_at_eight_players_plays_to_its_end_by_clicking(
    page: Any, server: PaiqiServer, shots: Path
) -> None:
    open_page(page, server, "&profile=pagat")
    page.fill("#options", OPTIONS)
    page.wait_for_function("() => document.querySelector('#seat').options.length === 8")
    for s in (1, 3, 5, 7):
        page.select_option(f"#level-{s}", "easy")
    page.fill("#seed", "9")  # seat 0 is dealt S8 and D10 twice each
    page.wait_for_function("() => !document.querySelector('#deal').disabled")
    page.click("#deal")
    page.wait_for_selector("#game:not([hidden])")
    # a row of each suit per deck: spades, spades again, hearts, ... (the second numbered)
    rows = page.locator("#board .row")
    assert rows.count() == 8
    assert [rows.nth(i).get_attribute("data-deck") for i in range(8)] == ["1", "2"] * 4
    assert rows.nth(1).locator(".deck-mark").text_content() == "2"
    assert "2 decks (104 cards): each card twice" in (page.text_content("#board .door") or "")
    # the hand as dealt: 13 cards, each copy a card of its own, side by side
    assert page.locator("#hand .card").count() == 13
    codes = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
    assert codes.count("S8") == 2 and codes.count("D10") == 2
    assert codes.index("S8") + 1 == codes.index("S8", codes.index("S8") + 1)
    copies = page.locator("#hand .card[data-card='S8']")
    assert copies.nth(0).get_attribute("data-copy") == "1"
    assert copies.nth(1).get_attribute("data-copy") == "2"
    assert "you hold 2" in (copies.nth(1).get_attribute("aria-label") or "")
    # every seat holds 13 cards, copies counted
    facts = page.eval_on_selector_all(
        "#seats .seat .seat-facts span:first-child", "els => els.map(e => e.textContent)"
    )
    assert facts == ["13 in hand"] * 8
    wait_for_person(page)
    shot(page, shots, "decks-start")
    counts = play_by_clicking(page, "pagat")
    assert counts["hand"] + counts["table"] + counts["pass"] > 0
    page.locator("#settlement").wait_for(state="visible")
    assert page.locator("#settlement tbody tr").count() == 8
    # the first player out ends the game: many second copies lie in the second rows, each
    # on a card down in the row of its suit before it
    second = page.locator("#board .row[data-deck='2'] .cell.played")
    assert second.count() > 0
    for i in range(second.count()):
        cell = second.nth(i)
        code, title = cell.get_attribute("data-card"), cell.get_attribute("title") or ""
        assert title.endswith("2 of 2 down"), title
        first = page.locator(f"#board .row[data-deck='1'] .cell[data-card='{code}']")
        assert "played" in (first.get_attribute("class") or "")
    held = page.eval_on_selector_all(
        "#seats .seat .seat-facts span:first-child", "els => els.map(e => parseInt(e.textContent))"
    )
    played = page.locator("#board .cell.played").count()  # a card down twice: two cells
    assert played + sum(held) == 104
    shot(page, shots, "decks-end")


def test_a_replay_of_two_decks_shows_every_copy(
    page: Any, server: PaiqiServer, shots: Path, tmp_path: Path
) -> None:
    state = play_game(Game("pagat", ["deck.decks=2", "players=8"]), 9, [])
    records = tmp_path / "decks.jsonl"
    records.write_text(json.dumps(state_record(state)) + "\n", encoding="utf-8")
    open_page(page, server, tab="replay")
    page.set_input_files("#record-file", str(records))
    page.wait_for_selector("#replay-game:not([hidden])")
    hands = page.locator("#replay-hands .hand")
    assert hands.count() == 8
    first = hands.first.locator(".card")
    assert first.count() == 13
    codes = [first.nth(i).get_attribute("data-card") for i in range(13)]
    assert codes.count("S8") == 2 and codes.count("D10") == 2
    assert page.locator("#replay-board .row").count() == 8
    page.keyboard.press("End")
    page.locator("#replay-settlement").wait_for(state="visible")
    assert page.locator("#replay-board .row[data-deck='2'] .cell.played").count() > 0
    left = sum(hands.nth(s).locator(".card").count() for s in range(8))
    assert left + page.locator("#replay-board .cell.played").count() == 104
    shot(page, shots, "decks-replay")
