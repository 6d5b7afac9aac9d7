"""Trump Fan Tan (``layout.trumps``) at ``paiqi serve``, in a real Chromium: a person lays a
trump in another suit's place by clicking, the table shows the trump there, the card it
displaced is played later to the trump row, the deal plays on to its settlement, and its
record steps through the trump move in the replay.

The deal is searched for with the engine in the setup: the table the server seats (the
person at seat 0, three easy computer players, whose choices follow from the deal number),
played with the person's moves as the test makes them, until the person is offered a trump
move and then holds the card it displaced when that card fits the trump row.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from paiqi_core.cards import card_text
from paiqi_core.engine import Game
from paiqi_core.serve.server import PaiqiServer
from paiqi_core.serve.tables import Table
from tests import test_serve_browser as browser_tests
from tests.test_serve_browser import (
    game_state,
    open_page,
    play_by_clicking,
    shot,
    wait_for_person,
)

browser = browser_tests.browser
server = browser_tests.server
shots = browser_tests.shots
page = browser_tests.page

SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def words(card: str) -> str:
    """A card as the page writes it: H6 as 6♥."""
    return card[1:] + SYMBOL[card[0]]


def person_moves(seed: int, limit: int = 8) -> list[dict[str, Any]] | None:
    """The person's moves at seat 0 of deal ``seed``, as the server's table plays it: the
    first trump move offered, then the card it displaced once it fits, and otherwise the
    first card of the hand that may be played in its own place, else a pass. None unless
    the person lays that displaced card within ``limit`` moves."""
    table = Table(Game("trump-fan-tan"), 0, ["easy"] * 3, seed)
    moves: list[dict[str, Any]] = []
    trump: dict[str, Any] | None = None
    while len(moves) < limit:
        table.advance()
        if table.state.over:
            return None
        view = table.view()
        plays = {m["card"]: m for m in view["legal"] if m["kind"] == "play"}
        trumps = [m for m in view["legal"] if m["kind"] == "trump"]
        if trump is None and trumps:
            move = trump = trumps[0]
        elif trump is not None and trump["at"] in plays:
            move = plays[trump["at"]]
        else:
            own = [plays[c] for c in view["hand"] if c in plays]
            passes = [m for m in view["legal"] if m["kind"] == "pass"]
            if not own + passes:
                return None  # a second trump move only: not this deal
            move = (own + passes)[0]
        assert table.act(move["text"]) is None
        moves.append(move)
        if trump is not None and move.get("card") == trump["at"]:
            return moves
    return None


def a_trump_deal() -> tuple[int, list[dict[str, Any]]]:
    for seed in range(200):
        moves = person_moves(seed)
        if moves:
            return seed, moves
    raise AssertionError("no deal of 200 offers the person a trump move early")


def make(page: Any, move: dict[str, Any]) -> None:
    """Make the person's ``move`` by clicking, and wait until the table has it."""
    _, before = game_state(page)
    if move["kind"] == "pass":
        page.click("#pass")
    else:  # a card laid in its own place: click the place
        page.click(f"#board .cell.target[data-card='{move['card']}']")
    moved = f"document.querySelector('#game').dataset.moves > {before}"
    page.wait_for_function(f"() => {moved} || !document.querySelector('#choices').hidden")
    if page.is_visible("#choices"):  # a trump might take the place too: the card's own way
        page.click(f"#choices .play-choice[data-action='{move['text']}']")
    page.wait_for_function(f"() => {moved}")


def deal_to_the_trump(page: Any, server: PaiqiServer) -> tuple[int, list[dict[str, Any]]]:
    """Deal the searched deal at the page, the person at seat 0 and three easy players, and
    make the person's moves up to the trump move (the person is then to move); the deal
    and all the person's moves."""
    seed, moves = a_trump_deal()
    trump = next(m for m in moves if m["kind"] == "trump")
    open_page(page, server, "&profile=trump-fan-tan")
    page.select_option("#seat", "0")  # the opponents then easy: their moves follow the deal
    page.select_option("#level-1", "easy")
    page.select_option("#level-2", "easy")
    page.select_option("#level-3", "easy")
    page.fill("#seed", str(seed))
    page.wait_for_function("() => !document.querySelector('#deal').disabled")
    page.click("#deal")
    page.wait_for_selector("#game:not([hidden])")
    # the table says which suit is trumps, and which card named it
    door = card_text(Game("trump-fan-tan").new_state(seed).door_card)
    info = page.locator("#board .door .trumps")
    assert info.get_attribute("data-suit") == door[0] == trump["card"][0]
    assert info.text_content() == (
        f"Trumps: {SYMBOL[door[0]]} {SUIT_NAMES[door[0]]}, named by {words(door)}, the last "
        "card dealt"
    )
    assert "door card" not in (page.text_content("#board .door") or "")
    assert page.locator("#board .row.trump-row").get_attribute("data-suit") == door[0]
    assert page.text_content("#board .row.trump-row .trump-mark") == "trumps"
    for move in moves[: moves.index(trump)]:
        assert wait_for_person(page) == "you"
        make(page, move)
    assert wait_for_person(page) == "you"
    return seed, moves


def test_a_person_lays_a_trump_in_another_rows_place_by_clicking(
    page: Any, server: PaiqiServer, shots: Path, tmp_path: Path
) -> None:
    _, moves = deal_to_the_trump(page, server)
    trump = next(m for m in moves if m["kind"] == "trump")
    card, at = trump["card"], trump["at"]  # e.g. the trump H6 in S6's place
    trumps, suit = card[0], at[0]
    # the trump move is offered as a button, and by the trump card in the hand
    button = page.locator(f".trump-move[data-action='trump {card} {at}']")
    assert (button.text_content() or "").startswith(f"Trump {words(card)} → {words(at)}'s place")
    assert page.locator(f"#board .row[data-suit='{suit}'] .cell.target[data-card='{at}']").count()
    page.click(f"#hand .card.legal[data-card='{card}']")
    choice = page.locator(f"#choices .trump-choice[data-action='trump {card} {at}']")
    choice.wait_for()
    assert choice.text_content() == f"trump {words(card)} in {words(at)}'s place"
    shot(page, shots, "trump-choice", full=False)
    _, before = game_state(page)
    choice.click()
    page.wait_for_function(f"() => document.querySelector('#game').dataset.moves > {before}")

    # the trump lies in the other row's place, visibly a trump; its card's place is now on
    # the trump row, showing that card
    laid = page.locator(f"#board .row[data-suit='{suit}'] .cell.trump[data-card='{card}']")
    assert laid.get_attribute("data-place") == at
    assert "trump" in (laid.get_attribute("title") or "")
    assert page.is_visible("#legend-trump")  # the legend says what the gold edge means
    assert page.locator(f"#hand .card[data-card='{card}']").count() == 0
    star = laid.evaluate("c => getComputedStyle(c, '::before').content")
    assert star == '"★"'
    home = page.locator(f"#board .row.trump-row .cell.displaced[data-card='{at}']")
    assert home.get_attribute("data-place") == f"{trumps}{at[1:]}"
    assert (home.text_content() or "") == words(at)  # its place, marked with its suit
    assert "just" not in (home.get_attribute("class") or "")
    line = page.locator("#history li[data-kind='trump']").first
    assert line.text_content() == f"seat 0 (you): lays trump {words(card)} in {words(at)}'s place"
    seat = page.text_content("#seats .seat[data-seat='0'] .seat-last") or ""
    assert seat == f"last: laid trump {words(card)} in {words(at)}'s place"
    shot(page, shots, "trump-laid")

    for move in moves[moves.index(trump) + 1 : -1]:
        assert wait_for_person(page) == "you"
        make(page, move)
    # the displaced card fits the trump row: clicking its place there plays it
    assert wait_for_person(page) == "you"
    target = f"#board .row.trump-row .cell.target[data-card='{at}']"
    assert page.locator(target).count() == 1
    assert page.locator(f"#board .cell[data-card='{at}']").count() == 1  # that place only
    make(page, moves[-1])
    played = page.locator(f"#board .row.trump-row .cell.played.displaced[data-card='{at}']")
    assert played.count() == 1
    assert page.locator(f"#board .row[data-suit='{suit}'] .cell.trump[data-card='{card}']").count()
    assert page.locator(f"#hand .card[data-card='{at}']").count() == 0
    shot(page, shots, "trump-displaced-played")

    play_by_clicking(page, "trump-fan-tan")
    page.locator("#settlement").wait_for(state="visible")
    assert page.locator("#settlement tbody tr").count() == 4

    # the game's record, stepped through in the replay: the trump move in words, and the
    # trump just laid in the other row's place
    table = page.get_attribute("#game", "data-table")
    with urllib.request.urlopen(f"{server.url}api/games/{table}/record") as answer:
        record = json.load(answer)
    path = tmp_path / "trump.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    page.click("#tab-replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay-game:not([hidden])")
    said = f"seat 0: laid trump {words(card)} in {words(at)}'s place"
    for _ in range(len(record["actions"])):
        if said in (page.text_content("#step-at") or ""):
            break
        page.keyboard.press("ArrowRight")
    assert said in (page.text_content("#step-at") or "")
    board = f"#replay-board .row[data-suit='{suit}'] .cell.trump.just[data-card='{card}']"
    assert page.locator(board).count() == 1
    assert page.locator(f"#replay-board .row.trump-row .cell.just[data-card='{at}']").count() == 0


def test_the_t_key_makes_the_first_trump_move_offered(page: Any, server: PaiqiServer) -> None:
    _, moves = deal_to_the_trump(page, server)
    trump = next(m for m in moves if m["kind"] == "trump")
    first = page.locator(".trump-move").first
    assert first.get_attribute("data-action") == trump["text"]  # the engine's first too
    assert (first.text_content() or "").endswith(" T")  # the key it answers to
    _, before = game_state(page)
    page.keyboard.press("t")
    page.wait_for_function(f"() => document.querySelector('#game').dataset.moves > {before}")
    line = page.locator("#history li[data-kind='trump']").first
    card, at = trump["card"], trump["at"]
    assert line.text_content() == f"seat 0 (you): lays trump {words(card)} in {words(at)}'s place"
    assert page.locator(f"#board .cell.trump[data-card='{card}']").get_attribute("data-place") == at
