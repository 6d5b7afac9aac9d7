"""The rules card of ``paiqi serve`` in a real Chromium: opened over a game and over a room,
on a desktop and on a phone, in the browser's own language first and then in the one the
person picks (kept for the next card); it states the options the game was dealt with, and
a profile written in the editor, with their changes marked as house rules; it fits the
screen, scrolls inside, and nothing in it runs off to the side.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from paiqi_core.serve.server import PaiqiServer
from tests import test_serve_browser as browser_tests
from tests.serve_support import serving
from tests.test_serve_browser import shot

browser = browser_tests.browser
shots = browser_tests.shots

# each viewport with the language its browser asks for, and the card's word for it
SCREENS = {
    "desktop": ({"width": 1280, "height": 800}, "ja-JP", "ja"),
    "phone": ({"width": 390, "height": 844}, "zh-TW", "zh-TW"),
}


@pytest.fixture(scope="module")
def server() -> Iterator[PaiqiServer]:
    with serving() as srv:
        yield srv


@pytest.fixture(params=list(SCREENS))
def screen(request: Any, browser: Any) -> Iterator[tuple[str, Any, str]]:
    """A page of a fresh browser (no language chosen yet) of each screen; no page may
    raise an error."""
    name = request.param
    viewport, locale, lang = SCREENS[name]
    phone = name == "phone"
    context = browser.new_context(
        viewport=viewport, locale=locale, is_mobile=phone, has_touch=phone
    )
    errors: list[str] = []
    context.on("weberror", lambda e: errors.append(str(e.error)))
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        yield name, page, lang
    finally:
        context.close()
    assert errors == [], errors


def card_shown(page: Any, lang: str) -> dict[str, Any]:
    """The open card in ``lang``: its box and its body's sizes, its house changes, and
    whatever in it reaches past its right edge."""
    page.wait_for_selector(f"#rules-card[open][data-lang='{lang}'] #rules-body li")
    return dict(
        page.evaluate(
            """() => {
              const card = document.querySelector('#rules-card');
              const box = card.getBoundingClientRect();
              const body = document.querySelector('#rules-body');
              const wide = [...card.querySelectorAll('*')].filter((e) => {
                const r = e.getBoundingClientRect();
                return r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1);
              }).map((e) => e.tagName + ': ' + e.textContent.slice(0, 40));
              return {
                box: [box.left, box.top, box.right, box.bottom],
                view: [innerWidth, innerHeight],
                page: [document.documentElement.scrollWidth, innerWidth],
                body: [body.scrollWidth, body.clientWidth, body.scrollHeight, body.clientHeight],
                house: [...body.querySelectorAll('li.house')].map((e) => e.textContent),
                headings: [...body.querySelectorAll('h3')].map((e) => e.textContent),
                pressed: [...document.querySelectorAll('#rules-langs [aria-pressed=true]')]
                  .map((e) => e.dataset.lang),
                wide,
              };
            }"""
        )
    )


def check_fits(card: dict[str, Any]) -> None:
    left, top, right, bottom = card["box"]
    width, height = card["view"]
    assert left >= 0 and top >= 0 and right <= width and bottom <= height, card
    assert card["page"][0] <= card["page"][1], card  # nothing wider than the screen
    assert card["body"][0] <= card["body"][1], card  # the text wraps: no sideways scrolling
    assert card["wide"] == [], card["wide"]


def open_card(page: Any) -> None:
    page.click("#rules-open")


def test_the_rules_card_of_a_game_and_of_a_room(
    screen: tuple[str, Any, str], server: PaiqiServer, shots: Any
) -> None:
    name, page, lang = screen
    # a game of 鬥雀 dealt with a stake of 3 (the profile's own is 1)
    page.goto(f"{server.url}?speed=0&profile=doujue#play")
    page.wait_for_selector("body[data-ready=true]")
    page.fill("#options", "scoring.stake=3")
    page.click("#deal")
    page.wait_for_selector("#game:not([hidden]) #board .row")
    open_card(page)
    card = card_shown(page, lang)  # the browser's language, nothing chosen yet
    check_fits(card)
    assert card["pressed"] == [lang] and not any(h.isascii() for h in card["headings"])
    assert len(card["house"]) == 1 and "3" in card["house"][0], card["house"]
    if name == "phone":  # the rules are longer than a phone's screen: they scroll inside
        assert card["body"][2] > card["body"][3]
        page.eval_on_selector("#rules-body", "b => b.scrollTo(0, b.scrollHeight)")
        assert page.eval_on_selector("#rules-body", "b => b.scrollTop") > 0
        assert page.evaluate("() => scrollY") == 0  # the table under it stays put
    page.click("#rules-langs [data-lang='en']")
    english = card_shown(page, "en")
    check_fits(english)
    assert english["pressed"] == ["en"] and all(h.isascii() for h in english["headings"])
    assert "stake" in english["house"][0].lower()
    if name == "desktop":
        # the picture of the docs: the card with its house change in sight
        page.eval_on_selector("#rules-body li.house", "e => e.scrollIntoView({block: 'center'})")
        shot(page, shots, "serve-rules", full=False)
    page.keyboard.press("Escape")
    assert page.is_hidden("#rules-card")
    page.keyboard.press("r")  # the keyboard opens it again, in the language chosen
    check_fits(card_shown(page, "en"))
    page.click("#rules-close")
    assert page.is_hidden("#rules-card")

    # a room of the same rules: the card of the room, its language switched to 中文
    page.goto(f"{server.url}?profile=doujue&speed=0#play")  # a new address: a new page
    page.wait_for_selector("body[data-ready=true]")
    page.fill("#options", "scoring.stake=3")
    page.click("#open-room")
    page.wait_for_selector("#game[data-seat='0']")
    assert "room=" in page.url
    open_card(page)
    check_fits(card_shown(page, "en"))
    page.click("#rules-langs [data-lang='zh-TW']")
    chinese = card_shown(page, "zh-TW")
    check_fits(chinese)
    assert len(chinese["house"]) == 1 and "3" in chinese["house"][0]
    page.click("#rules-langs [data-lang='ja']")
    check_fits(card_shown(page, "ja"))
    shot(page, shots, f"rules-room-{name}", full=False)
    page.mouse.click(2, 2)  # beside the card
    assert page.is_hidden("#rules-card")


def test_the_card_of_a_profile_written_in_the_editor(browser: Any, server: PaiqiServer) -> None:
    """A house profile typed in the editor (鬥雀 with a bust above 40 covered points, where
    the profile's own is 55), dealt with an option (a stake of 3, the profile's 1): the card
    states both, marked, and no longer doujue's 55."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    errors: list[str] = []
    context.on("weberror", lambda e: errors.append(str(e.error)))
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(f"{server.url}?speed=0#editor")
        page.wait_for_selector("body[data-ready=true]")
        page.fill("#profile-name", "house.yaml")
        page.fill("#yaml", "id: house\nextends: doujue\nscoring:\n  bust_above: 40\n")
        page.wait_for_function(  # this text checked (not the editor's first one)
            "() => document.querySelector('#editor-explain').textContent"
            ".includes('scoring.bust_above = 40')"
        )
        page.click("#play-this")
        page.wait_for_selector("#play:not([hidden])")
        page.fill("#options", "scoring.stake=3")
        page.wait_for_function("() => !document.querySelector('#deal').disabled")
        page.click("#deal")
        page.wait_for_selector("#game:not([hidden]) #board .row")
        open_card(page)
        card = card_shown(page, "en")
        check_fits(card)
        house = card["house"]
        assert len(house) == 2, (house, page.text_content("#status"))
        assert any("40" in line and "55" not in line for line in house), house
        assert any("3" in line and "stake" in line.lower() for line in house)
        body = page.text_content("#rules-body") or ""
        assert "55" not in body
    finally:
        context.close()
    assert errors == [], errors
