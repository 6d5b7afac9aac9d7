"""What a person playing at ``paiqi serve`` sees, checked in a real Chromium: cards named in
text readable on the felt, the move list following the game, every seat's last move, the
end explained, touch-sized targets on a phone, and the page's words for cards and seats.

The deals are chosen for what they show: platform deal 1 opens with a black door card, in
鬥雀 deal 154 the first player out ranks last (大頭), and so on; the person's moves are always
the first card they may play (in hand order), else the first card they may cover, else a
pass, else a draw from the stock, so each deal plays the same game every time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from paiqi_core.engine import Game
from paiqi_core.serve.server import PaiqiServer
from tests import test_serve_browser as browser_tests
from tests.test_serve_browser import game_state, open_page, shot, wait_for_person, write_records

# the browser, the server and the screenshot folder of the browser tests
browser = browser_tests.browser
server = browser_tests.server
shots = browser_tests.shots

CODE = re.compile(r"\b[SHDC](10|[2-9AJQK])\b")  # an engine card code such as S7 or D10
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A desktop-sized browser context whose pages must raise no error."""
    ctx = browser.new_context(viewport=DESKTOP)
    errors: list[str] = []
    ctx.on("weberror", lambda e: errors.append(str(e.error)))
    try:
        yield ctx
    finally:
        ctx.close()
    assert errors == [], errors


@pytest.fixture
def page(context: Any) -> Any:
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    return pg


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    try:
        yield pg
    finally:
        ctx.close()


def deal(
    page: Any,
    server: PaiqiServer,
    profile: str,
    seed: int,
    options: str = "",
    level: str = "normal",
) -> None:
    """A new game at seat 0 against computer players of ``level``."""
    open_page(page, server, "&profile=" + profile)
    if options:
        page.fill("#options", options)
    for s in range(1, 4):
        if page.query_selector(f"#level-{s}"):
            page.select_option(f"#level-{s}", level)
    page.fill("#seed", str(seed))
    page.wait_for_function("() => !document.querySelector('#deal').disabled")
    page.click("#deal")
    page.wait_for_selector("#game:not([hidden])")
    wait_for_person(page)


def move(page: Any, passer: bool = False) -> None:
    """The person's move: a pass first if ``passer`` and a pass is offered; else the first
    card they may play, else the first they may cover, else a pass, else a draw."""
    _, before = game_state(page)
    pas = page.query_selector("#pass")
    target = pas if passer and pas else None
    plain = "#hand .card.legal:not([data-card='JOKER'])"  # the joker offers its moves first
    for selector in (plain, ".joker-move", "#hand .card.coverable", "#pass", "#draw"):
        target = target or page.query_selector(selector)
    assert target is not None, "nothing to click on the person's turn"
    target.click()
    page.wait_for_function(
        f"() => document.querySelector('#game').dataset.moves > {before} || "
        "document.querySelector('#game').dataset.turn === 'over'"
    )


def play_to_end(page: Any, passer: bool = False, turns: int | None = None) -> None:
    """Play (all, or ``turns`` of) the person's turns; then wait for the person again."""
    done = 0
    while wait_for_person(page) == "you" and (turns is None or done < turns):
        move(page, passer)
        done += 1
    wait_for_person(page)


def colour(page: Any, selector: str, prop: str = "color") -> list[tuple[int, int, int]]:
    """The computed colour of every element that ``selector`` finds, as RGB."""
    values = page.eval_on_selector_all(selector, f"els => els.map(e => getComputedStyle(e).{prop})")
    out = []
    for v in values:
        r, g, b = (int(x) for x in re.findall(r"\d+", v)[:3])
        out.append((r, g, b))
    return out


def luminance(rgb: tuple[int, int, int]) -> float:
    """The relative luminance of an sRGB colour (WCAG 2)."""

    def channel(c: int) -> float:
        x = c / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return dict(found)


# -- 1. cards named in text are readable on the felt ------------------------------------


def readable_minis(page: Any, selector: str) -> list[str]:
    """Every card named in ``selector`` is drawn in ink that stands out from its paper
    (contrast 4.5:1 at least, WCAG AA): black suits dark, red suits red."""
    cards = page.eval_on_selector_all(selector, "els => els.map(e => e.textContent)")
    inks = colour(page, selector)
    papers = colour(page, selector, "backgroundColor")
    assert cards, f"no card named in {selector}"
    for card, ink, paper in zip(cards, inks, papers, strict=True):
        assert contrast(ink, paper) >= 4.5, f"{card}: ink {ink} on {paper}"
        if card[-1] in "♠♣":
            assert luminance(ink) < 0.05, f"{card}: a black card drawn in {ink}"
        else:
            assert ink[0] > 2 * ink[1], f"{card}: a red card drawn in {ink}"
    return list(cards)


def test_black_cards_are_readable_in_the_door_and_opening_line(
    page: Any, server: PaiqiServer, tmp_path: Path
) -> None:
    deal(page, server, "platform", 1)  # the door card is a spade
    cards = readable_minis(page, "#board .door .mini")
    assert "5♠" in cards
    deal(page, server, "doujue", 5)  # the game opens with 7♠, not yet played
    assert readable_minis(page, "#board .door .mini") == ["7♠"]
    open_page(page, server, tab="replay")
    page.set_input_files("#record-file", str(write_records(tmp_path / "games.jsonl")))
    page.wait_for_selector("#replay-game:not([hidden])")
    assert readable_minis(page, "#replay-board .door .mini") == ["7♠"]  # step 0 of 鬥雀


# -- 2. the move list shows the latest move and the replay's current step ---------------


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return outer["y"] - 1 <= inner["y"] and inner["y"] + inner["height"] <= (
        outer["y"] + outer["height"] + 1
    )


def test_the_move_list_follows_the_game_and_the_replay(
    page: Any, server: PaiqiServer, tmp_path: Path
) -> None:
    deal(page, server, "platform", 8)
    for _ in range(8):  # enough moves to fill the list
        move(page)
        wait_for_person(page)
        assert page.locator("#history li").count() > 0
        if page.locator("#history li").count() > 20:
            latest = box(page, "#history li:last-child")
            assert inside(latest, box(page, "#history")), "the latest move is out of sight"
    assert page.locator("#history li").count() > 20
    open_page(page, server, tab="replay")
    page.set_input_files("#record-file", str(write_records(tmp_path / "games.jsonl")))
    page.wait_for_selector("#replay-game:not([hidden])")
    for steps in (30, 10, 40):  # forward, back, forward again
        page.eval_on_selector(
            "#step-range", "(e, v) => { e.value = v; e.dispatchEvent(new Event('input')); }", steps
        )
        current = page.locator("#replay-history li.current")
        assert current.count() == 1
        assert page.locator("#replay-history li").count() == steps
        assert inside(box(page, "#replay-history li.current"), box(page, "#replay-history"))
    page.keyboard.press("End")
    assert inside(box(page, "#replay-history li.current"), box(page, "#replay-history"))


# -- 3. every seat's last move is marked on its seat -------------------------------------


def test_each_seat_shows_its_last_move_and_covers_stay_hidden(
    page: Any, server: PaiqiServer
) -> None:
    deal(page, server, "doujue", 47)
    move(page)
    wait_for_person(page)  # the person covered A♠; seat 3 covered a card it keeps secret
    seen = {}
    for s in range(4):
        seat = page.locator(f"#seats .seat[data-seat='{s}'] .seat-last")
        assert seat.count() == 1, f"seat {s} shows no last move"
        seen[s] = (seat.get_attribute("data-kind"), seat.text_content() or "")
    history: dict[int, str] = {}
    for line in page.locator("#history li").all_text_contents():
        who, what = line.split(": ", 1)
        history[int(who.split()[1])] = what
    for s, (kind, text) in seen.items():
        what = history[s]
        if kind == "play":
            assert text == f"last: played {what}", (s, text, what)
        elif kind == "cover":
            if s == 0:  # one's own cover shows its card
                assert text == "last: covered A♠" and what == "cover A♠"
            else:  # another's does not
                assert text == "last: covered" and what == "cover", (s, text)
                assert page.locator(f"#seats .seat[data-seat='{s}'] .seat-last .mini").count() == 0
    assert seen[0][0] == "cover" and seen[3][0] == "cover"
    # passes, in a game with passes
    deal(page, server, "shichinarabe", 1, level="easy")
    move(page, passer=True)
    wait_for_person(page)
    mine = page.locator("#seats .seat[data-seat='0'] .seat-last")
    assert mine.text_content() == "last: passed" and mine.get_attribute("data-kind") == "pass"


# -- 4. the end is explained --------------------------------------------------------------


def seat_status(page: Any, s: int) -> str:
    return page.locator(f"#seats .seat[data-seat='{s}'] .seat-status").text_content() or ""


def test_the_end_says_who_won_why_and_the_ranks(page: Any, server: PaiqiServer) -> None:
    deal(page, server, "doujue", 154)
    play_to_end(page)
    banner = page.locator("#settlement .ending")
    banner.wait_for()
    text = banner.text_content() or ""
    ranks = [
        int(page.locator(f"#settlement tbody tr[data-seat='{s}'] td").nth(1).text_content() or 0)
        for s in range(4)
    ]
    winners = [s for s in range(4) if ranks[s] == 1]
    assert winners == [2]  # 鬥雀 deal 154: seat 2 has the best total
    assert "Game over: seat 2 (normal) won." in text
    assert "every hand is empty" in text and banner.get_attribute("data-reason") == "all_out"
    assert "You did not win: rank 3 of 4 · 中頭" in text and "money -" in text
    # seat 3 went out first but ranks last: its seat says its rank, not the order out
    assert ranks[3] == 4
    assert seat_status(page, 3) == "rank 4 · 大頭"
    assert "out" not in " ".join(seat_status(page, s) for s in range(4))
    assert "Game over: seat 2 (normal) won." in (page.text_content("#status") or "")


def test_the_end_shows_bursts_cards_left_and_the_stall_rule(page: Any, server: PaiqiServer) -> None:
    # 七並べ: the person passes whenever allowed; seats 3 and 2 burst, seat 1 is left
    deal(page, server, "shichinarabe", 8, level="easy")
    play_to_end(page, passer=True)
    banner = page.locator("#settlement .ending")
    banner.wait_for()
    text = banner.text_content() or ""
    assert "only seat 1 (easy) still holds cards" in text
    assert "seat 3 (easy) and seat 2 (easy) burst" in text  # in the order they burst
    ends = {
        s: page.locator(f"#settlement tbody tr[data-seat='{s}'] td.how-out").text_content()
        for s in range(4)
    }
    assert ends == {0: "out 1st", 1: "1 card left", 2: "burst (判負)", 3: "burst (判負)"}
    assert "burst" in seat_status(page, 2) and "burst" in seat_status(page, 3)
    # Fan Tan: the first player out ends the game; the others' cards left are shown
    deal(page, server, "pagat", 0)
    play_to_end(page)
    page.locator("#settlement .ending").wait_for()
    assert page.get_attribute("#settlement .ending", "data-reason") == "first_out"
    assert "seat 1 (normal) laid their last card" in (page.text_content("#settlement") or "")
    left = [
        page.locator(f"#seats .seat[data-seat='{s}'] .seat-facts span").first.text_content()
        for s in range(4)
    ]
    for s in range(4):
        held = int((left[s] or "").split()[0])
        cell = page.locator(f"#settlement tbody tr[data-seat='{s}'] td.how-out").text_content()
        assert cell == ("out 1st" if held == 0 else f"{held} card{'s' if held > 1 else ''} left")
    # the stall rule: every player passes in turn once, and the game ends where it stands
    deal(page, server, "shichinarabe", 0, options="ending.stall=1", level="easy")
    play_to_end(page, passer=True)
    page.locator("#settlement .ending").wait_for()
    assert page.get_attribute("#settlement .ending", "data-reason") == "stall"
    text = page.text_content("#settlement .ending") or ""
    assert "the stall rule (ending.stall = 1)" in text and "passed in turn" in text


def test_the_engine_knows_the_stall_ended_that_game() -> None:
    """The deal the browser test stalls: the stall rule, not the ending rule, ended it
    (the view's ``ending`` comes from the state, not from guessing)."""
    from paiqi_core.serve.view import ended_by_stall

    game = Game("shichinarabe", ["ending.stall=1"])
    state = game.new_state(0)
    while not state.over:
        legal = state.legal_actions()
        state.apply_unchecked(max(legal))  # the pass is the largest action: everyone passes
    assert ended_by_stall(state) and any(state.hands)
    done = Game("pagat").new_state(0)
    while not done.over:
        done.apply_unchecked(done.legal_actions()[0])
    assert not ended_by_stall(done)


# -- 5. a phone ------------------------------------------------------------------------------


def test_phone_touch_targets_and_settlement(phone: Any, server: PaiqiServer) -> None:
    page = phone
    deal(page, server, "platform", 8)
    cards = page.locator("#hand .card")
    assert cards.count() == 13
    for i in range(cards.count()):
        b = cards.nth(i).bounding_box()
        assert b is not None and b["width"] >= 44 and b["height"] >= 44, (i, b)
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1] + 1, f"the page is wider than the phone: {width}"
    targets = 0
    for _ in range(6):
        for cell in page.locator("#board .cell.target").all():
            b = cell.bounding_box()
            assert b is not None and b["height"] >= 44, b
            card = cell.get_attribute("data-card")
            cx, cy = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
            for dx in (-21, 0, 21):  # a 44 px wide finger lands on the place
                hit = page.evaluate(
                    "([x, y]) => document.elementFromPoint(x, y)?.closest('.cell')?.dataset.card",
                    [cx + dx, cy],
                )
                assert hit == card, (card, dx, hit)
            targets += 1
        move(page)
        wait_for_person(page)
    assert targets
    play_to_end(page)
    page.locator("#settlement").wait_for(state="visible")
    for s in range(4):
        money = box(page, f"#settlement tbody tr[data-seat='{s}'] td.num")
        assert money["x"] >= 0 and money["x"] + money["width"] <= 390, money
    fits = page.evaluate(
        "[...document.querySelectorAll('#settlement, #settlement .settle-wrap')]"
        ".map(e => e.scrollWidth <= e.clientWidth + 1)"
    )
    assert all(fits), "the settlement is wider than the phone"


# -- 6. the page's words -------------------------------------------------------------------


def test_messages_and_the_stepper_use_the_pages_words(
    page: Any, server: PaiqiServer, tmp_path: Path
) -> None:
    deal(page, server, "doujue", 5)  # the person holds 7♠ and must open with it
    page.locator("#hand .card.unplayable").first.click()
    page.wait_for_function("() => document.querySelector('#message').textContent.length > 0")
    said = page.text_content("#message") or ""
    assert said == "not legal: the first card of the game must be 7♠", said
    readable_minis(page, "#message .mini")
    # the replay stepper: the seat's name and the card as the table draws it
    open_page(page, server, tab="replay")
    page.set_input_files("#record-file", str(write_records(tmp_path / "games.jsonl")))
    page.wait_for_selector("#replay-game:not([hidden])")
    assert page.text_content("#step-at") == f"move 0 of {total(page)} · the deal"
    page.keyboard.press("ArrowRight")
    at = page.text_content("#step-at") or ""
    assert re.fullmatch(rf"move 1 of {total(page)} · seat \d: played 7♠", at), at
    page.keyboard.press("End")
    for text in (page.text_content("#step-at") or "", page.text_content("#replay-history") or ""):
        assert not CODE.search(text), text


def total(page: Any) -> int:
    return int(page.get_attribute("#step-range", "max") or 0)


def test_plurals(page: Any, server: PaiqiServer) -> None:
    deal(page, server, "shichinarabe", 1, level="easy")
    move(page, passer=True)
    wait_for_person(page)
    move(page, passer=True)
    wait_for_person(page)
    facts = page.text_content("#seats .seat[data-seat='0'] .seat-facts") or ""
    assert "1 pass left" in facts and "1 passes" not in facts, facts
    deal(page, server, "platform", 30)  # seat 1 covers 1 point (A♠)
    play_to_end(page)
    text = page.text_content("#settlement") or ""
    assert "1 point" in text
    assert not re.search(r"\b1 (points|pts)\b", text), text


def test_the_joker_card_offers_its_moves(page: Any, server: PaiqiServer) -> None:
    deal(page, server, "shichinarabe", 0, options="deck.jokers=1")
    # the person's first turn: the joker may stand in for 8♦, with 9♦ played beyond it
    assert page.locator(".joker-move").count() == 1
    assert page.text_content(".joker-move") == "Joker for 8♦, then 9♦ J"
    page.click("#hand .card[data-card='JOKER']")
    choice = page.locator("#choices .joker-choice")
    choice.first.wait_for()
    assert choice.all_text_contents() == ["joker for 8♦, then 9♦"]
    _, before = game_state(page)
    choice.first.click()
    page.wait_for_function(f"() => document.querySelector('#game').dataset.moves > {before}")
    lines = page.locator("#history li[data-kind='joker']").all_text_contents()
    assert lines[0] == "seat 0 (you): joker for 8♦, then 9♦", lines  # the game's first
    assert page.locator("#choices").is_hidden()


def test_two_jokers_in_one_hand_play_to_the_settlement(page: Any, server: PaiqiServer) -> None:
    """Both jokers of the pack (WILD_RULES row 30): the hand shows two, their moves are
    offered once, a joker move uses one of them, and the game reaches its settlement."""
    deal(page, server, "shichinarabe", 82, options="deck.jokers=2")
    assert page.locator("#hand .card[data-card='JOKER']").count() == 2
    moves = page.locator(".joker-move").all_text_contents()
    assert len(moves) == len(set(moves)) == 2, moves  # the same moves as one joker gives
    _, before = game_state(page)
    page.locator(".joker-move").first.click()
    page.wait_for_function(f"() => document.querySelector('#game').dataset.moves > {before}")
    assert page.locator("#hand .card[data-card='JOKER']").count() == 1
    play_to_end(page)
    page.locator("#settlement").wait_for(state="visible")
    assert page.locator("#settlement tbody tr").count() == 4


def test_a_late_answer_to_an_older_setup_is_ignored(page: Any, server: PaiqiServer) -> None:
    """The page checks the setup as it is typed. An answer about an older setup that
    arrives after the answer about the current one must not set the seats back: here the
    check of five players is held until three players have been checked, then let go; the
    page keeps three seats, and the game dealt has three."""
    open_page(page, server, "&profile=pagat")
    held: list[Any] = []

    def hold_the_first(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/api/check", hold_the_first)
    page.fill("#options", "players=5")
    for _ in range(200):  # the check of five players is sent 250 ms after the typing
        if held:
            break
        page.wait_for_timeout(25)
    assert held, "the page never checked the setup of five players"
    page.fill("#options", "players=3")
    page.wait_for_function("() => document.querySelectorAll('#levels select').length === 2")
    held[0].continue_()  # the answer about five players arrives last
    page.wait_for_timeout(300)
    assert page.locator("#levels select").count() == 2  # seats 1 and 2 only
    page.click("#deal")
    page.wait_for_selector("#game:not([hidden])")
    assert page.locator("#seats .seat").count() == 3


def test_the_address_switches_views(page: Any, server: PaiqiServer) -> None:
    open_page(page, server)
    assert page.locator("#play").is_visible()
    page.evaluate("location.hash = '#replay'")
    page.locator("#replay").wait_for(state="visible")
    assert page.locator("#play").is_hidden()
    page.go_back()
    page.locator("#play").wait_for(state="visible")


def test_an_empty_editor_says_it_is_empty(page: Any, server: PaiqiServer) -> None:
    open_page(page, server, tab="editor")
    page.wait_for_function(
        "() => document.querySelector('#editor-state').textContent.includes('valid')"
    )
    page.fill("#yaml", "")
    page.wait_for_function(
        "() => document.querySelector('#editor-state').textContent.includes('empty')"
    )
    page.wait_for_timeout(600)  # a check under way would have answered by now
    state = page.text_content("#editor-state") or ""
    assert "valid" not in state and "✓" not in state, state
    assert page.is_disabled("#play-this")


def test_the_settlement_comes_into_sight_when_it_opens(
    page: Any, server: PaiqiServer, shots: Path
) -> None:
    deal(page, server, "doujue", 1)
    shot(page, shots, "table-desktop", full=False)
    play_to_end(page)
    page.locator("#settlement").wait_for(state="visible")
    page.wait_for_timeout(300)
    top = box(page, "#settlement")["y"]
    table = box(page, "#settlement tbody")
    assert top >= -20, top  # at most the panel's margin above the window
    assert table["y"] + table["height"] <= DESKTOP["height"], "every seat's row is in sight"
    banner = box(page, "#settlement .ending")
    assert banner["y"] >= 0 and banner["y"] + banner["height"] <= DESKTOP["height"], banner
    shot(page, shots, "table-end-desktop", full=False)


# -- 7. a big table ----------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", ["page", "phone"])
def test_a_table_of_ten_plays_to_its_settlement(
    viewer: str, request: pytest.FixtureRequest, server: PaiqiServer, shots: Path
) -> None:
    """排七 for ten (WILD_RULES row 38): ten seats on the felt, every one in the settlement,
    nothing wider than the window, at 1280x800 and on a phone."""
    page = request.getfixturevalue(viewer)
    deal(page, server, "doujue", 3, options="players=10", level="easy")
    assert page.locator("#seats .seat").count() == 10
    assert page.locator("#hand .card").count() in (5, 6)  # 52 cards for ten
    play_to_end(page)
    page.locator("#settlement").wait_for(state="visible")
    assert page.locator("#settlement tbody tr").count() == 10
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1] + 1, f"the page is wider than the window: {width}"
    shot(page, shots, f"table-of-ten-{viewer}", full=True)


# -- 8. cards face up beside the rows ------------------------------------------------------


def test_face_up_cards_are_played_by_clicking_them(
    page: Any, server: PaiqiServer, shots: Path
) -> None:
    """Pagat for five with the leftovers face up (deck.leftover=face_up), deal 24: the two
    cards an even share leaves (7♥ and K♣) lie in a labelled strip by the rows, black ink
    and red readable on their paper. One that fits is a button: the person clicks 7♥ on
    the first turn, and plays K♣ later from the keyboard; each leaves the strip for its
    place on the table. The others are shown but are not buttons. The game reaches its
    settlement with no error in the console."""
    from paiqi_core.cards import bits, card_text

    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    sets = ["players=5", "deck.leftover=face_up"]
    deal(page, server, "pagat", 24, options="\n".join(sets))
    expected = [card_text(c) for c in bits(Game("pagat", sets).new_state(seed=24).pool)]
    strip = page.locator("#board .pool")
    assert strip.locator(".pool-label").text_content() == "Face up (anyone may play)"
    assert strip.locator(".card").evaluate_all("els => els.map(e => e.dataset.card)") == expected
    inks = colour(page, "#board .pool .card")
    papers = colour(page, "#board .pool .card", "backgroundColor")
    for card, ink, paper in zip(expected, inks, papers, strict=True):
        assert contrast(ink, paper) >= 4.5, f"{card}: ink {ink} on {paper}"
        if card[0] in "SC":
            assert luminance(ink) < 0.05, f"{card}: a black card drawn in {ink}"
        else:
            assert ink[0] > 2 * ink[1], f"{card}: a red card drawn in {ink}"
    shot(page, shots, "face-up-start", full=False)
    played: list[str] = []
    while wait_for_person(page) == "you":
        legal = page.locator("#board .pool button.card.legal")
        if not legal.count():
            move(page)
            continue
        card = legal.first.get_attribute("data-card") or ""
        _, before = game_state(page)
        # the face-up cards that do not fit now are drawn, not offered: a click does nothing
        others = page.locator("#board .pool .card:not(.legal)")
        assert others.evaluate_all("els => els.every(e => e.tagName === 'SPAN')")
        if others.count():
            others.first.click()
            page.wait_for_timeout(200)
            assert game_state(page) == ("you", before)
        if not played:
            legal.first.click()
        else:  # the keyboard reaches it too: the arrows go on from the hand to the strip
            for _ in range(20):
                if page.evaluate("document.activeElement.dataset.card") == card:
                    break
                page.keyboard.press("ArrowRight")
            assert page.evaluate("document.activeElement.dataset.card") == card
            page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => document.querySelector('#game').dataset.moves > {before} || "
            "document.querySelector('#game').dataset.turn === 'over'"
        )
        played.append(card)
        assert page.locator(f"#board .pool .card[data-card='{card}']").count() == 0
        assert page.locator(f"#board .cell.played[data-card='{card}']").count() == 1
        assert page.locator(f"#hand .card[data-card='{card}']").count() == 0
        drawn = card[1:] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[0]]
        assert page.locator("#history li").nth(before).text_content() == f"seat 0 (you): {drawn}"
    assert sorted(played) == sorted(expected), played
    assert page.locator("#board .pool").count() == 0  # nothing face up: no strip
    page.locator("#settlement").wait_for(state="visible")
    assert page.locator("#settlement tbody tr").count() == 5
    shot(page, shots, "face-up-end", full=False)
    # without the rule every card is dealt and there is no strip
    page.goto("about:blank")
    deal(page, server, "pagat", 24, options="players=5")
    assert page.locator("#board .pool").count() == 0
    assert page.locator("#hand .card").count() == 11
    assert console == [], console


# -- 9. a pass takes a card: the person hands one on, and is handed one --------------------

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def drawn(card: str) -> str:
    """A card as the page writes it: ``H5`` as ``5♥``."""
    return card[1:] + SYMBOLS[card[0]]


def test_a_pass_takes_a_card_the_person_hands_on_and_is_handed(
    page: Any, server: PaiqiServer, shots: Path, tmp_path: Path
) -> None:
    """Pagat with ``turn.pass_takes=chosen`` against easy players, deal 4, played to its
    settlement by clicking: twice a seat after the person's passes, and the person hands it
    a card of their choice at the prompt (once by a click, once by the keyboard), with
    nothing else to click meanwhile; twice the person passes and is handed a card, which
    the history names to them (and to the giver) only."""
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    deal(page, server, "pagat", 4, options="turn.pass_takes=chosen", level="easy")
    assert page.locator("#hand-on").is_hidden()
    handed: list[str] = []
    received: list[str] = []
    while wait_for_person(page) == "you":
        for card in page.locator("#hand .card.received").evaluate_all(
            "els => els.map(e => e.dataset.card)"
        ):
            if card in received:
                continue
            received.append(card)  # the history says who handed it, and which card it is
            lines = page.locator("#history li[data-kind='give']").all_text_contents()
            assert any(
                re.fullmatch(rf"seat \d \(easy\): gave {drawn(card)} to seat 0 \(you\)", line)
                for line in lines
            ), (card, lines)
        if page.get_attribute("#game", "data-hand-on") != "you":
            assert page.locator("#hand-on").is_hidden()
            move(page)
            continue
        # the prompt names the seat that passed; every card of the hand may be handed on
        prompt = page.locator("#hand-on")
        assert prompt.is_visible()
        text = prompt.text_content() or ""
        found = re.fullmatch(r"Seat (\d) \(easy\) passed: choose a card to hand them\.", text)
        assert found, text
        taker = int(found[1])
        assert f"Your turn: {text}" in (page.text_content("#status") or "")
        last = page.locator("#history li").last.text_content()
        assert last == f"seat {taker} (easy): pass"
        cards = page.locator("#hand .card")
        assert cards.count() == page.locator("#hand .card.givable").count() > 0
        # nothing else may be clicked: no place on the table, no pass, no cover, no joker
        assert page.locator("#board .cell.target, #board .pool .card.legal").count() == 0
        assert page.locator("#moves button, #hand .card.legal, #hand .card.coverable").count() == 0
        if not handed:
            shot(page, shots, "pass-takes-prompt", full=False)
        card = page.locator("#hand .card.givable").first.get_attribute("data-card") or ""
        held = page.locator(f"#seats .seat[data-seat='{taker}'] .seat-facts span").first
        count = int((held.text_content() or "").split()[0])
        _, before = game_state(page)
        if not handed:
            page.locator("#hand .card.givable").first.click()
        else:  # the keyboard reaches it as well: L focuses it, Enter hands it on
            page.keyboard.press("L")
            assert page.evaluate("document.activeElement.dataset.card") == card
            page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => document.querySelector('#game').dataset.moves > {before} || "
            "document.querySelector('#game').dataset.turn === 'over'"
        )
        handed.append(card)
        assert page.locator(f"#hand .card[data-card='{card}']").count() == 0
        line = page.locator("#history li").nth(before)
        assert line.text_content() == f"seat 0 (you): gave {drawn(card)} to seat {taker} (easy)"
        mine = page.locator("#seats .seat[data-seat='0'] .seat-last")
        if page.locator("#history li").count() == before + 1:  # nobody moved since
            assert mine.text_content() == f"last: gave {drawn(card)} to seat {taker} (easy)"
            assert int((held.text_content() or "").split()[0]) == count + 1
    page.locator("#settlement").wait_for(state="visible")
    assert page.locator("#settlement tbody tr").count() == 4
    assert page.locator("#hand-on").is_hidden()
    # deal 4: the person hands a card on twice and is handed one four times, each new card
    # marked in the hand when their turn comes round (the last comes as the game ends)
    lines = page.locator("#history li[data-kind='give']").all_text_contents()
    took = [x for x in lines if x.endswith("to seat 0 (you)")]
    assert len(handed) == 2 and len(took) == 4 and len(received) == 3, (handed, took, received)
    # a card handed between two other seats is not named
    others = [line for line in lines if "(you)" not in line]
    assert others and all(
        re.fullmatch(r"seat \d \(easy\): gave a card to seat \d \(easy\)", x) for x in others
    ), others
    assert page.locator("#history li[data-kind='give'] .mini").count() == len(lines) - len(others)
    shot(page, shots, "pass-takes-end", full=False)
    # the game's record in the Replay view: every card handed on is named, to everyone
    table = page.get_attribute("#game", "data-table")
    record = server.api.record(str(table))
    path = tmp_path / "pass-takes.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    open_page(page, server, tab="replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay-game:not([hidden])")
    page.keyboard.press("End")
    shown = page.locator("#replay-history li[data-kind='give']").all_text_contents()
    assert len(shown) == len(lines)
    assert all(re.fullmatch(r"seat \d: gave \S+ to seat \d", x) for x in shown), shown
    assert page.locator("#replay-history li[data-kind='give'] .mini").count() == len(lines)
    assert console == [], console


# -- 10. a stock to draw from -----------------------------------------------------------------

STOCK = ("deck.hand=7", "deck.leftover=stock", "turn.draw=one")


@dataclass
class StockGame:
    """Pagat with a stock (seven cards each, the other 24 face down; a player with nothing
    to play draws one) dealt on ``page``, the person at seat 0 against easy players; and
    the errors the page's console logged."""

    page: Any
    console: list[str]

    def count(self) -> int:
        """The cards in the stock, as the pile's badge says."""
        return int(self.page.locator("#board .stock .stock-count").text_content() or -1)

    def draws(self) -> int:
        """The draws of the move list, every seat's."""
        return int(self.page.locator("#history li[data-kind='draw']").count())

    def phase(self) -> str:
        """``draw`` while the person has only to draw, ``drew`` while they may play the card
        they drew, else ``""``."""
        return self.page.get_attribute("#game", "data-draw") or ""

    def until(self, phase: str) -> bool:
        """Play the person's turns (``move``) until ``phase`` comes (True), or the end."""
        while wait_for_person(self.page) == "you":
            if self.phase() == phase:
                return True
            move(self.page)
        return False


@pytest.fixture
def stock_game(server: PaiqiServer) -> Iterator[Callable[..., StockGame]]:
    """``stock_game(page, seed, *options)`` deals Pagat with a stock (and ``options``) on
    ``page``; at the end, no page dealt on logged an error."""
    games: list[StockGame] = []

    def start(page: Any, seed: int, *options: str) -> StockGame:
        console: list[str] = []
        page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
        deal(page, server, "pagat", seed, options="\n".join((*STOCK, *options)), level="easy")
        game = StockGame(page, console)
        games.append(game)
        assert page.locator("#board .stock").is_visible()
        assert game.count() == 24 - game.draws()  # others may have drawn before the person
        return game

    yield start
    for game in games:
        assert game.console == [], game.console


def seat_last(page: Any, seat: int) -> str:
    return page.locator(f"#seats .seat[data-seat='{seat}'] .seat-last").text_content() or ""


def test_a_stuck_player_draws_from_the_stock(
    page: Any, stock_game: Callable[..., StockGame], shots: Path
) -> None:
    """Deal 1: a face-down pile with its count lies by the rows. When the person has
    nothing to play, the one thing offered is to draw: the Draw button (and the pile),
    with a prompt; no card, no place, no pass. A click on the button, L then Enter, the D
    key and a click on the pile each draw a card: the move list names it to the person
    only, and it is marked in the hand. A card that does not fit ends the turn, and the
    page says so. Other seats' draws are shown as draws, their cards unnamed; the count
    follows every draw."""
    game = stock_game(page, 1)
    label = page.locator("#board .stock .stock-label").text_content() or ""
    assert (
        label == f"Stock · {game.count()} cards face down · a player with nothing to play draws one"
    )
    assert page.locator("#hand .card").count() == 7
    # the Draw button and the pile as a button come only when drawing is the thing to do
    offered = page.locator("#draw, #board button.stock-pile").count()
    assert offered == (2 if game.phase() == "draw" else 0), offered
    ways = ["button", "keyboard", "key", "pile"]
    fits: list[bool] = []
    while ways and game.until("draw"):
        count = game.count()
        prompt = page.locator("#draw-prompt")
        assert prompt.is_visible()
        text = prompt.text_content() or ""
        assert text == f"Nothing to play: draw a card from the stock ({count} cards left).", text
        assert f"Your turn: {text[0].lower()}{text[1:]}" in (page.text_content("#status") or "")
        assert page.text_content("#draw") == "Draw a card D"
        assert page.locator("#board button.stock-pile.legal").count() == 1
        others = "#pass, #cover-mode, .joker-move, #hand .card.legal, #board .cell.target"
        assert page.locator(others).count() == 0
        if not fits:
            shot(page, shots, "stock-draw", full=False)
        held = page.locator("#hand .card").count()
        _, before = game_state(page)
        way = ways.pop(0)
        if way == "button":
            page.click("#draw")
        elif way == "keyboard":  # L reaches the button (nothing else is to be chosen)
            page.keyboard.press("L")
            assert page.evaluate("document.activeElement.id") == "draw"
            page.keyboard.press("Enter")
        elif way == "key":
            page.keyboard.press("D")
        else:
            page.click("#board button.stock-pile")
        page.wait_for_function(f"() => document.querySelector('#game').dataset.moves > {before}")
        wait_for_person(page)
        card = page.locator("#hand .card.just-drawn").get_attribute("data-card") or ""
        assert page.locator("#hand .card").count() == held + 1
        line = page.locator("#history li").nth(before)
        assert line.text_content() == f"seat 0 (you): draw {drawn(card)}"
        assert line.locator(".mini").count() == 1
        assert game.count() == 24 - game.draws() < count
        fits.append(game.phase() == "drew")
        if not fits[-1]:  # the turn ended with the draw; the person is told, and why
            said = page.text_content("#message") or ""
            assert said == f"You drew {drawn(card)}: it does not fit, so your turn ends.", said
            assert seat_last(page, 0) == f"last: drew {drawn(card)}"
    assert not ways, "the person drew fewer than four times"
    assert True in fits and False in fits, fits  # deal 1: some cards fit, some do not
    theirs = [x for x in page.locator("#history li[data-kind='draw']").all_text_contents()]
    theirs = [x for x in theirs if not x.startswith("seat 0")]
    assert theirs and all(re.fullmatch(r"seat [123] \(easy\): draw", x) for x in theirs), theirs
    assert page.locator("#history li[data-kind='draw'] .mini").count() == len(fits)
    for s in range(1, 4):
        mark = page.locator(f"#seats .seat[data-seat='{s}'] .seat-last")
        if mark.get_attribute("data-kind") == "draw":
            assert mark.text_content() == "last: drew a card"


@pytest.mark.parametrize("must_play", [True, False], ids=["must-play", "may-play"])
def test_a_drawn_card_that_fits_is_played(
    page: Any, stock_game: Callable[..., StockGame], shots: Path, must_play: bool
) -> None:
    """Deal 1: a card drawn that fits is named in a prompt, and is the one card offered
    (in the hand and at its place): a click plays it. Where a player need not play
    (``turn.must_play=false``) the person may instead keep it: the button says Keep, not
    Pass, and the move list says so; no pass is counted. The first such card is kept (by
    the keyboard), a later one played."""
    game = stock_game(page, 1, *(() if must_play else ("turn.must_play=false",)))
    kept: str | None = None
    played: str | None = None
    while played is None and game.until("drew"):
        card = page.locator("#hand .card.just-drawn").get_attribute("data-card") or ""
        text = page.text_content("#draw-prompt") or ""
        now = "play it now." if must_play else "play it now, or keep it (no pass is counted)."
        assert text == f"You drew {drawn(card)}: it fits — {now}", text
        assert readable_minis(page, "#draw-prompt .mini") == [drawn(card)]
        assert f"Your turn: {text[0].lower()}{text[1:]}" in (page.text_content("#status") or "")
        chosen = "els => els.map(e => e.dataset.card)"
        assert page.locator("#hand .card.legal").evaluate_all(chosen) == [card]
        assert page.locator("#board .cell.target").evaluate_all(chosen) == [card]
        assert page.locator("#draw").count() == 0
        last = page.locator("#history li").last
        assert last.text_content() == f"seat 0 (you): draw {drawn(card)}"
        _, before = game_state(page)
        if must_play:
            assert page.locator("#pass").count() == 0
        else:
            assert page.text_content("#pass") == "Keep it (stop) P"
        if not must_play and kept is None:
            shot(page, shots, "stock-drew-may", full=False)
            facts = page.locator("#seats .seat[data-seat='0'] .seat-facts")
            passes = facts.text_content()
            page.keyboard.press("P")
            page.wait_for_function(
                f"() => document.querySelector('#game').dataset.moves > {before}"
            )
            wait_for_person(page)
            kept = card
            line = page.locator("#history li").nth(before)
            assert line.text_content() == "seat 0 (you): keep the card drawn"
            assert line.get_attribute("data-kind") == "pass"
            assert page.locator(f"#hand .card[data-card='{card}']").count() == 1
            if game.phase() != "drew":
                assert seat_last(page, 0) == "last: kept the card drawn"
                assert facts.text_content() == passes  # not counted as a pass
            continue
        if must_play:
            shot(page, shots, "stock-drew-must", full=False)
        page.click(f"#hand .card[data-card='{card}']")
        page.wait_for_function(
            f"() => document.querySelector('#game').dataset.moves > {before} || "
            "document.querySelector('#game').dataset.turn === 'over'"
        )
        played = card
        assert (
            page.locator("#history li").nth(before).text_content() == f"seat 0 (you): {drawn(card)}"
        )
        assert page.locator(f"#board .cell.played[data-card='{card}']").count() == 1
        assert page.locator(f"#hand .card[data-card='{card}']").count() == 0
    assert played is not None, "the person drew no card that fits"
    assert must_play or kept is not None


@pytest.mark.parametrize("viewer", ["page", "phone"])
def test_a_whole_game_with_a_stock_reaches_its_end(
    viewer: str,
    request: pytest.FixtureRequest,
    stock_game: Callable[..., StockGame],
    server: PaiqiServer,
    shots: Path,
    tmp_path: Path,
) -> None:
    """Deal 4, played to its settlement by clicking, at 1280x800 and on a phone: the pile
    and its count stay readable and inside the window; every draw of the game is in the
    move list (the person's naming their cards), and the stock holds the cards nobody
    drew. The game's record replays with every draw's card named, and the replay's pile
    counts down from 24."""
    page = request.getfixturevalue(viewer)
    size = DESKTOP if viewer == "page" else PHONE
    game = stock_game(page, 4)
    page.evaluate("window.scrollTo(0, 0)")
    pile = box(page, "#board .stock-pile")
    assert pile["x"] >= 0 and pile["x"] + pile["width"] <= size["width"], pile
    assert pile["y"] >= 0 and pile["y"] + pile["height"] <= size["height"], pile
    assert pile["height"] >= 44, pile  # a finger finds it when it draws
    label = box(page, "#board .stock-label")
    assert label["x"] + label["width"] <= size["width"], label
    badge = (
        colour(page, "#board .stock-count")[0],
        colour(page, "#board .stock-count", "backgroundColor")[0],
    )
    assert contrast(*badge) >= 4.5, badge
    felt = colour(page, "#board", "backgroundColor")[0]
    assert contrast(colour(page, "#board .stock-label")[0], felt) >= 4.5
    shot(page, shots, f"stock-start-{viewer}", full=False)
    mine = 0
    while wait_for_person(page) == "you":
        if game.phase() == "draw":
            mine += 1
            if viewer == "phone":
                b = box(page, "#draw")
                assert b["height"] >= 44 and b["width"] >= 44, b
        move(page)
    page.locator("#settlement").wait_for(state="visible")
    assert page.locator("#settlement tbody tr").count() == 4
    lines = page.locator("#history li[data-kind='draw']").all_text_contents()
    own = [x for x in lines if x.startswith("seat 0 (you): draw ")]
    assert len(own) == mine > 1, (own, mine)
    assert page.locator("#history li[data-kind='draw'] .mini").count() == mine
    assert len(lines) > mine  # the other seats drew too
    assert game.count() == 24 - len(lines)
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1] + 1, f"the page is wider than the window: {width}"
    shot(page, shots, f"stock-end-{viewer}", full=True)
    # the record in the Replay view: every draw names its card, the pile counts down
    record = server.api.record(str(page.get_attribute("#game", "data-table")))
    path = tmp_path / "stock.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    open_page(page, server, tab="replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay-game:not([hidden])")
    assert page.text_content("#replay-board .stock .stock-count") == "24"
    page.keyboard.press("End")
    shown = page.locator("#replay-history li[data-kind='draw']").all_text_contents()
    assert len(shown) == len(lines)
    assert all(re.fullmatch(r"seat \d: draw \S+", x) for x in shown), shown
    assert page.text_content("#replay-board .stock .stock-count") == str(24 - len(lines))


def laying(page: Any) -> bool:
    """Whether the person is in the middle of a block (turn.lay blocks): a stop is offered."""
    stop = page.locator("#pass")
    return bool(stop.count()) and stop.text_content() == "Stop (end the block) P"


def test_a_block_of_two_cards_is_laid_by_clicking_and_ended_with_a_stop(
    page: Any, server: PaiqiServer, shots: Path
) -> None:
    """Crazy Tan (``turn.lay=blocks``): after the person lays a card that something can
    join, it is still the person's turn and the button says Stop (end the block), not Pass.
    A click on another card lays it in the same turn; the move list shows both cards. A
    stop ends a block, is written as such and counts no pass."""
    deal(page, server, "pagat", 3, options="turn.lay=blocks", level="easy")
    facts = page.locator("#seats .seat[data-seat='0'] .seat-facts")
    laid = stopped = False
    for _ in range(80):  # the person's turns: a second card on a block once, a stop once
        if wait_for_person(page) != "you" or (laid and stopped):
            break
        _, before = game_state(page)
        if laying(page) and not laid:  # a card of the block is down: lay another
            shot(page, shots, "block-laying", full=False)
            first = page.locator("#history li").nth(before - 1)
            assert (first.text_content() or "").startswith("seat 0 (you): ")
            page.click("#hand .card.legal")
            page.wait_for_function(
                f"() => document.querySelector('#game').dataset.moves > {before}"
            )
            second = page.locator("#history li").nth(before)
            assert (second.text_content() or "").startswith("seat 0 (you): ")
            assert [first.get_attribute("data-kind"), second.get_attribute("data-kind")] == [
                "play",
                "play",
            ]
            laid = True
        elif laying(page):  # a later block: end it
            page.click("#pass")
            page.wait_for_function(
                f"() => document.querySelector('#game').dataset.moves > {before}"
            )
            assert page.locator("#history li").nth(before).text_content() == (
                "seat 0 (you): end the block"
            )
            stopped = True
        else:
            move(page)
    assert laid and stopped, (laid, stopped)
    # neither a block nor its stop is a pass (the person never had to pass in this deal)
    assert (facts.text_content() or "").endswith("0 passes")
