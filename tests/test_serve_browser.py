"""``paiqi serve`` end to end in a real headless Chromium, driven by Playwright.

Plays a whole game of each family by clicking, enters a profile with an error and sees it
located, steps through a replay, checks the phone width and the CJK fonts, and saves
screenshots (checked not to be blank) to ``$PAIQI_SCREENSHOTS`` or a temporary folder.

Needs Playwright for Python and a Chromium (Debian's ``chromium`` package; another one with
``PAIQI_CHROMIUM=/path``). Without them the tests are skipped with the reason, except under
CI (``CI`` set), where a missing browser is a failure.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiqi_core.engine import Game
from paiqi_core.engine.reasons import CATEGORIES
from paiqi_core.records import state_record
from paiqi_core.serve import make_server
from paiqi_core.serve.server import PaiqiServer
from paiqi_core.simulate import play_game

from .serve_support import serving

FAMILIES = ("doujue", "platform", "shichinarabe", "pagat")
CJK_FONTS = ("Noto Sans CJK", "Noto Sans TC", "Noto Sans JP", "PingFang", "Hiragino", "JhengHei")


def _chromium() -> str | None:
    for candidate in (os.environ.get("PAIQI_CHROMIUM"), "chromium", "chromium-browser"):
        if candidate and (
            found := shutil.which(candidate) or (Path(candidate).is_file() and candidate)
        ):
            return str(found)
    return None


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright for Python is not installed (pip install '.[test]')")
    executable = _chromium()
    if executable is None:
        _unavailable("no Chromium found (apt-get install chromium, or set PAIQI_CHROMIUM)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def server() -> Iterator[PaiqiServer]:
    with serving() as srv:
        yield srv


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = os.environ.get("PAIQI_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(30_000)
    try:
        yield pg
    finally:
        context.close()
    assert errors == [], errors


def open_page(page: Any, server: PaiqiServer, query: str = "", tab: str = "play") -> None:
    page.goto(f"{server.url}?speed=0{query}#{tab}")
    page.wait_for_selector("body[data-ready=true]")


def not_blank(path: Path) -> None:
    """A screenshot with a picture in it: many colours and a spread of brightness."""
    from PIL import Image, ImageStat

    image = Image.open(io.BytesIO(path.read_bytes())).convert("RGB")
    assert image.width > 300 and image.height > 300
    colours = image.getcolors(maxcolors=1 << 20)
    assert colours is None or len(colours) > 50, f"{path.name}: {len(colours or [])} colours"
    spread = ImageStat.Stat(image.convert("L")).stddev[0]
    assert spread > 20, f"{path.name}: brightness spread {spread:.1f}: a blank page?"


def shot(page: Any, shots: Path, name: str, full: bool = True) -> Path:
    path = shots / f"{name}.png"
    page.screenshot(path=str(path), full_page=full)
    not_blank(path)
    return path


def game_state(page: Any) -> tuple[str, int]:
    turn = page.get_attribute("#game", "data-turn")
    moves = page.get_attribute("#game", "data-moves")
    return turn or "", int(moves or 0)


def wait_for_person(page: Any) -> str:
    page.wait_for_function(
        "() => ['you', 'over', 'broken'].includes(document.querySelector('#game').dataset.turn)"
    )
    return game_state(page)[0]


def play_by_clicking(page: Any, profile: str, max_turns: int = 200) -> dict[str, int]:
    """Play the game on the page to its end by clicking: now and then an illegal card first
    (the engine's reason must appear), then a legal card in the hand or its place on the
    table (the first of its ways, where the page offers several: a trump's own place or
    another row's), a card to hand to a player who passed, the pass button, or a joker or
    trump move."""
    counts = {
        "hand": 0, "table": 0, "pass": 0, "cover": 0, "joker": 0, "trump": 0, "give": 0,
        "refused": 0,
    }  # fmt: skip
    for turn in range(max_turns):
        if wait_for_person(page) != "you":
            break
        _, before = game_state(page)
        unplayable = page.query_selector_all("#hand .card.unplayable")
        if unplayable and turn % 3 == 0:
            unplayable[0].click()
            page.wait_for_function(
                "() => document.querySelector('#message').textContent.length > 0"
            )
            reason = page.text_content("#message") or ""
            assert reason.split(":")[0] in CATEGORIES, reason
            assert game_state(page)[1] == before  # nothing changed
            counts["refused"] += 1
        joker = page.query_selector(".joker-move")
        trump = page.query_selector(".trump-move")
        legal = page.query_selector_all("#hand .card.legal")
        coverable = page.query_selector_all("#hand .card.coverable")
        givable = page.query_selector_all("#hand .card.givable")  # a card for another's pass
        target = page.query_selector_all("#board .cell.target")
        if joker and turn % 2 == 0:
            joker.click()
            counts["joker"] += 1
        elif trump and turn % 2 == 0:
            trump.click()
            counts["trump"] += 1
        elif target and turn % 4 == 1:
            target[-1].click()
            counts["table"] += 1
        elif legal:
            legal[-1].click()
            counts["hand"] += 1
        elif coverable:
            coverable[0].click()
            counts["cover"] += 1
        elif givable:
            givable[0].click()
            counts["give"] += 1
        elif page.query_selector("#pass"):
            page.click("#pass")
            counts["pass"] += 1
        else:
            raise AssertionError(f"{profile}: nothing to click on the person's turn")
        moved = (
            f"document.querySelector('#game').dataset.moves > {before} || "
            "document.querySelector('#game').dataset.turn === 'over'"
        )
        page.wait_for_function(f"() => {moved} || !document.querySelector('#choices').hidden")
        if page.is_visible("#choices"):  # the card has several ways: the first is taken
            page.click("#choices button")
        page.wait_for_function(f"() => {moved}")
    assert wait_for_person(page) == "over"
    return counts


@pytest.mark.parametrize("profile", FAMILIES)
def test_play_a_whole_game_by_clicking(
    page: Any, server: PaiqiServer, shots: Path, profile: str
) -> None:
    options = "&profile=" + profile
    open_page(page, server, options)
    if profile == "shichinarabe":
        page.fill("#options", "deck.jokers=1")
    page.select_option("#seat", "1")
    page.select_option("#level-0", "easy")
    page.fill("#seed", "7")
    page.wait_for_function("() => !document.querySelector('#deal').disabled")
    page.click("#deal")
    page.wait_for_selector("#game:not([hidden])")
    assert page.locator("#board .row").count() == 4
    assert page.locator("#seats .seat").count() == 4
    if profile == "platform":
        assert "door card" in (page.text_content("#board .door") or "")
    if profile == "pagat":  # ace high: the rows run 2 .. K, A
        first = page.locator("#board .row").first.locator(".cell")
        assert first.first.get_attribute("data-card") == "S2"
        assert first.last.get_attribute("data-card") == "SA"
    shot(page, shots, f"{profile}-start")
    counts = play_by_clicking(page, profile)
    assert counts["hand"] + counts["table"] + counts["cover"] + counts["pass"] + counts["joker"]
    settlement = page.locator("#settlement")
    settlement.wait_for(state="visible")
    assert page.locator("#settlement tbody tr").count() == 4
    text = settlement.text_content() or ""
    if profile in ("doujue", "platform"):
        assert "Who pays whom" in text and "=" in text
        assert "scoring.bust_above" in text  # the scoring rules, in explain's words
    assert page.locator("#history li").count() > 10
    shot(page, shots, f"{profile}-end")


def test_a_short_pack_game_from_the_nines_plays_to_its_end(
    page: Any, server: PaiqiServer, shots: Path
) -> None:
    # Девятка: three players, 36 cards from 6 to ace, rows from the nines, 10 chips a pass
    open_page(page, server, "&profile=pagat")
    page.fill(
        "#options",
        "players=3\ndeck.ranks=6-A\nlayout.centre=9\nopening.method=holder_leads\n"
        "opening.card=D9\nscoring.method=chips\nscoring.ante=10\nscoring.pass_cost=10",
    )
    page.fill("#seed", "5")
    # dealt at once, before the page's own check of the new options has run: the deal
    # waits for it (the seats and opponents follow the new number of players)
    page.click("#deal")
    page.wait_for_selector("#game:not([hidden])")
    assert page.locator("#board .row").count() == 4
    first = page.locator("#board .row").first.locator(".cell")
    assert first.count() == 9  # 6 .. K, A
    assert (first.first.get_attribute("data-card"), first.last.get_attribute("data-card")) == (
        "S6",
        "SA",
    )
    info = page.text_content("#board .door") or ""
    assert "36 cards (6–A)" in info and "rows from the 9s" in info
    assert page.locator("#hand .card").count() == 12
    assert page.locator("#seats .seat").count() == 3
    shot(page, shots, "devyatka-start")
    play_by_clicking(page, "pagat")
    page.locator("#settlement").wait_for(state="visible")
    assert page.locator("#settlement tbody tr").count() == 3
    shot(page, shots, "devyatka-end")


# named games of the wild, each chosen from the page's list: the first and last card of the
# spade row and its length (the pack, and where the ace lies), and words of the settlement
NAMED_GAMES = {
    "karten-domino": ("S7", "SA", 8, "first player out wins"),
    "nines": ("S2", "SA", 13, "first player out wins"),
    "play-or-pay": ("SA", "SK", 13, "cards held"),
    "ristiseiska": ("SA", "SK", 13, "cards held"),
    # each keeping its own total: the base, and the rules of the finishers table
    "twstar": ("SA", "SK", 13, "scoring.finishers"),
    "poker7": ("SA", "SK", 13, "scoring.finishers_collect"),
}


@pytest.mark.parametrize("profile", sorted(NAMED_GAMES))
def test_a_named_game_of_the_wild_plays_to_its_end(
    page: Any, server: PaiqiServer, profile: str
) -> None:
    low, high, length, said = NAMED_GAMES[profile]
    open_page(page, server)
    page.select_option("#profile", profile)
    page.select_option("#seat", "1")
    page.fill("#seed", "9")
    page.wait_for_function("() => !document.querySelector('#deal').disabled")
    page.click("#deal")
    page.wait_for_selector("#game:not([hidden])")
    cells = page.locator("#board .row").first.locator(".cell")
    assert (cells.first.get_attribute("data-card"), cells.last.get_attribute("data-card")) == (
        low,
        high,
    )
    assert cells.count() == length
    counts = play_by_clicking(page, profile)
    assert counts["hand"] + counts["table"] > 0
    if profile == "ristiseiska":  # in deal 9 a player after the person is stuck: lappu
        assert counts["give"] > 0
    settlement = page.locator("#settlement")
    settlement.wait_for(state="visible")
    assert said in (settlement.text_content() or "")
    if profile == "twstar":  # each total starts from the base of 50
        assert "base" in (settlement.text_content() or "")


def test_keyboard_plays_a_card(page: Any, server: PaiqiServer) -> None:
    open_page(page, server, "&profile=pagat")
    page.fill("#seed", "3")
    page.keyboard.press("Escape")  # out of the text field: the keys are the table's
    page.keyboard.press("n")
    page.wait_for_selector("#game:not([hidden])")
    for _ in range(30):
        assert wait_for_person(page) == "you"
        _, before = game_state(page)
        if page.query_selector("#hand .card.legal"):
            page.keyboard.press("l")
            focused = page.evaluate("document.activeElement.dataset.card")
            assert focused
            page.keyboard.press("Enter")
            page.wait_for_function(
                f"() => document.querySelector('#game').dataset.moves > {before}"
            )
            assert page.locator(f"#hand .card[data-card='{focused}']").count() == 0
            assert page.locator(f"#board .cell.played[data-card='{focused}']").count() == 1
            return
        page.keyboard.press("p")
        page.wait_for_function(f"() => document.querySelector('#game').dataset.moves > {before}")
    raise AssertionError("never had a card to play")


def test_editor_locates_an_error_and_plays_the_fixed_profile(
    page: Any, server: PaiqiServer, shots: Path
) -> None:
    open_page(page, server, tab="editor")
    bad = "id: house\nextends: doujue\nscoring:\n  bust_above: -3\n  stake: 2\n"
    page.fill("#profile-name", "house.yaml")
    page.fill("#yaml", bad)
    item = page.locator("#editor-problems li").first
    item.wait_for()
    assert "line 4, column 15" in (item.text_content() or "")
    assert "scoring.bust_above" in (item.text_content() or "")
    page.wait_for_selector("#gutter .bad[data-line='4']")
    assert page.is_disabled("#play-this")
    assert "✗" in (page.text_content("#editor-state") or "")
    shot(page, shots, "editor-error")
    item.locator("a").click()  # the caret goes to the problem
    caret = page.evaluate("document.querySelector('#yaml').selectionStart")
    assert bad[:caret].count("\n") == 3
    page.fill("#yaml", bad.replace("-3", "40"))
    page.wait_for_function(
        "() => document.querySelector('#editor-state').textContent.includes('valid')"
    )
    explain = page.text_content("#editor-explain") or ""
    assert "scoring.bust_above = 40" in explain and "house.yaml" in explain
    assert page.locator("#gutter .bad").count() == 0
    page.keyboard.press("Control+Enter")
    page.wait_for_selector("#play:not([hidden])")
    assert page.input_value("#profile") == "@editor"
    page.wait_for_function("() => !document.querySelector('#deal').disabled")
    page.click("#deal")
    page.wait_for_selector("#game:not([hidden])")
    assert (page.text_content("#status") or "").startswith("鬥雀 Taiwan covering")


def test_setup_options_are_checked(page: Any, server: PaiqiServer) -> None:
    open_page(page, server, "&profile=doujue")
    page.fill("#options", "scoring.stake=2\nscoring.stake=0")
    item = page.locator("#setup-problems li").first
    item.wait_for()
    assert "option line 2" in (item.text_content() or "")
    assert page.is_disabled("#deal")
    page.fill("#options", "players=3")
    page.wait_for_function("() => document.querySelector('#seat').options.length === 3")


def write_records(path: Path) -> Path:
    lines = [json.dumps(state_record(play_game(Game("doujue"), seed, []))) for seed in (1, 2)]
    lines.append(json.dumps(state_record(play_game(Game("shichinarabe-tunnel"), 4, []))))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_step_through_a_replay(page: Any, server: PaiqiServer, shots: Path, tmp_path: Path) -> None:
    records = write_records(tmp_path / "games.jsonl")
    open_page(page, server, tab="replay")
    page.set_input_files("#record-file", str(records))
    page.wait_for_selector("#replay-game:not([hidden])")
    assert page.locator("#record-game option").count() == 3
    at = page.locator("#step-at")
    assert (at.text_content() or "").startswith("move 0 of ")
    total = int(re.search(r"of (\d+)", at.text_content() or "").group(1))  # type: ignore[union-attr]
    assert page.locator("#replay-hands .hand").count() == 4
    assert page.locator("#replay-hands .hand").first.locator(".card").count() == 13
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert (at.text_content() or "").startswith("move 3 of ")
    assert page.locator("#replay-history li").count() == 3  # 鬥雀 logs no automatic events
    assert page.locator("#replay-board .cell.played").count() >= 1
    page.click("#step-back")
    assert (at.text_content() or "").startswith("move 2 of ")
    page.keyboard.press("End")
    assert (at.text_content() or "").startswith(f"move {total} of ")
    page.locator("#replay-settlement").wait_for(state="visible")
    shot(page, shots, "replay-end")
    page.keyboard.press("Home")
    assert (at.text_content() or "").startswith("move 0 of ")
    assert page.locator("#replay-settlement").is_hidden()
    page.select_option("#record-game", "2")  # a tunnel game: the A-K marker on every row
    page.wait_for_function(
        "() => document.querySelector('#replay-title').textContent.includes('七並べ')"
    )
    page.keyboard.press("End")
    assert page.locator("#replay-board .row-end").first.text_content() == "⇄"
    shot(page, shots, "replay-tunnel")


def test_phone_width(browser: Any, server: PaiqiServer, shots: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    try:
        open_page(page, server, "&profile=shichinarabe")
        page.fill("#seed", "2")
        page.click("#deal")
        page.wait_for_selector("#game:not([hidden])")
        wait_for_person(page)
        width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1] + 1, f"the page is wider than the phone: {width}"
        board = page.locator("#board").bounding_box()
        assert board is not None and board["width"] <= 390
        shot(page, shots, "phone")
        page.click("#tab-editor")
        width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1] + 1
    finally:
        context.close()


def test_cjk_text_renders_with_a_cjk_font(page: Any, server: PaiqiServer) -> None:
    open_page(page, server, "&profile=doujue")
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "h1 span[lang]"})["nodeId"]
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    names = [f["familyName"] for f in fonts]
    if not any(any(c in n for c in CJK_FONTS) for n in names):
        if os.environ.get("CI"):
            pytest.fail(f"排七 is drawn with {names}: install fonts-noto-cjk")
        pytest.skip(
            f"no CJK font installed (排七 is drawn with {names}): apt-get install fonts-noto-cjk"
        )


def test_replay_a_stored_runs_game_in_the_page(page: Any, tmp_path: Path) -> None:
    import subprocess
    import sys

    db = tmp_path / "runs.db"
    done = subprocess.run(
        [sys.executable, "-m", "paiqi_core.cli", "simulate", "platform", "--games", "2",
         "--seed", "3", "--db", str(db), "--workers", "1", "-q"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    srv = make_server("127.0.0.1", 0, db=db)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        open_page(page, srv, tab="replay")
        page.wait_for_selector("#runs-box:not([hidden])")
        page.fill("#run-game", "1")
        page.click("#run-open")
        page.wait_for_selector("#replay-game:not([hidden])")
        assert "斬龍" in (page.text_content("#replay-title") or "")
        page.keyboard.press("End")
        page.locator("#replay-settlement").wait_for(state="visible")
        assert "Who pays whom" in (page.text_content("#replay-settlement") or "")
    finally:
        srv.shutdown()
        srv.server_close()
