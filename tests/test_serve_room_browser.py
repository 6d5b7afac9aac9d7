"""A room of ``paiqi serve`` in a real Chromium: two people in two browser contexts (one a
desktop, one a phone) and two computer players play a session of three deals of 鬥雀, while a
spectator in a third context watches.

Checked: each person's page shows only their own seat's cards (against the engine's deal of
the same number), a move sent with another seat's token is refused, a reload returns the
person to their seat, every page follows each move through the room's event stream, the
spectator sees no hidden card before a deal ends (every hand after), the scoreboard's totals
are the sums of the deals' settlements, and the phone's page fits its width.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from paiqi_core.cards import card_text
from paiqi_core.engine.game import game_of
from paiqi_core.rules import rules_of
from paiqi_core.runs.store import Store
from paiqi_core.serve import profiles
from paiqi_core.serve.server import PaiqiServer
from tests import test_serve_browser as browser_tests
from tests.serve_support import serving
from tests.test_serve_browser import shot

browser = browser_tests.browser
shots = browser_tests.shots

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SEED = 31


@pytest.fixture
def server(tmp_path: Path) -> Iterator[PaiqiServer]:
    """A server whose results file keeps the room's deals."""
    with serving(db=tmp_path / "evening.db") as srv:
        yield srv


@pytest.fixture
def contexts(browser: Any) -> Iterator[dict[str, Any]]:
    """Ann's desktop, Bo's phone and a spectator's desktop; no page may raise an error."""
    errors: list[str] = []
    made = {
        "ann": browser.new_context(viewport=DESKTOP),
        "bo": browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True),
        "watch": browser.new_context(viewport=DESKTOP),
    }
    for ctx in made.values():
        ctx.on("weberror", lambda e: errors.append(str(e.error)))
    try:
        yield made
    finally:
        for ctx in made.values():
            ctx.close()
    assert errors == [], errors


def dealt(seed: int) -> list[set[str]]:
    """Each seat's hand as the engine deals doujue's deal ``seed``."""
    profile, _ = profiles.load(profile="doujue", text=None, name="", options=[])
    state = game_of(rules_of(profile)).new_state(seed=seed)
    return [{card_text(c) for c in state.dealt_cards(s)} for s in range(4)]


def state(page: Any) -> dict[str, Any]:
    return dict(
        page.eval_on_selector(
            "#game",
            "g => ({seat: Number(g.dataset.seat), turn: g.dataset.turn, "
            "moves: Number(g.dataset.moves), hand: [...document.querySelectorAll('#hand .card')]"
            ".map(c => c.dataset.card), dealtShown: !!document.querySelector('#dealt')})",
        )
    )


def api_view(page: Any, extra: str = "") -> dict[str, Any]:
    """The room's view this page's own credentials get (``extra``: JS overriding them)."""
    return dict(
        page.evaluate(
            """async (extra) => {
              const id = new URLSearchParams(location.search).get('room');
              const kept = JSON.parse(localStorage.getItem('paiqi-room-' + id) || '{}');
              const body = {token: kept.token, code: kept.code, ...JSON.parse(extra || '{}')};
              const r = await fetch('/api/rooms/' + id + (body.action ? '/act' : ''), {
                method: 'POST', headers: {'Content-Type': 'application/json'},
                body: JSON.stringify(body)});
              return await r.json();
            }""",
            extra,
        )
    )


def token_of(page: Any) -> str:
    return str(
        page.evaluate(
            "() => JSON.parse(localStorage.getItem('paiqi-room-' + "
            "new URLSearchParams(location.search).get('room'))).token"
        )
    )


def move(page: Any) -> None:
    """The person's move by the keyboard: L focuses the first card they may play or cover;
    Enter plays it; with none, P passes."""
    page.keyboard.press("l")
    focused = page.evaluate("() => document.activeElement?.closest('#hand, #board') !== null")
    page.keyboard.press("Enter" if focused else "p")


def settle(pages: list[Any], moves: int) -> None:
    """Wait until every page shows at least ``moves`` moves (the event stream's work)."""
    for pg in pages:
        pg.wait_for_function(
            f"() => Number(document.querySelector('#game').dataset.moves) >= {moves}"
        )


def test_a_session_of_three_deals_in_one_room(
    contexts: dict[str, Any], server: PaiqiServer, shots: Any
) -> None:
    ann = contexts["ann"].new_page()
    bo = contexts["bo"].new_page()
    watch = contexts["watch"].new_page()
    for pg in (ann, bo, watch):
        pg.set_default_timeout(30_000)

    # Ann opens a room: her seat 0, a normal player at 1, a person at 2, an easy player at 3
    ann.goto(f"{server.url}?speed=0&profile=doujue#play")
    ann.wait_for_selector("body[data-ready=true]")
    ann.select_option("#seat", "0")
    ann.select_option("#level-1", "normal")
    ann.select_option("#level-2", "person")
    ann.select_option("#level-3", "easy")
    ann.fill("#seed", str(SEED))
    ann.fill("#options", "session.hands=3")  # the profile's session: these three deals
    ann.fill("#your-name", "Ann")
    ann.click("#open-room")
    ann.wait_for_selector("#game[data-seat='0']")
    code = ann.inner_text("#room-code-shown")
    link = ann.get_attribute("#room-link", "href")
    assert len(code) == 6 and f"code={code}" in link

    # Bo follows the link on a phone and sits at seat 2; a spectator follows it too
    bo.goto(link)
    bo.wait_for_selector(".join-seat[data-seat='2']")
    bo.fill("#join-name", "Bo")
    bo.click(".join-seat[data-seat='2']")
    bo.wait_for_selector("#game[data-seat='2']")
    watch.goto(link)
    watch.wait_for_selector("#game[data-seat='-1']")
    assert watch.is_hidden("#hand-area")
    ann.wait_for_function("() => document.querySelector('#seats').textContent.includes('Bo')")
    bo.keyboard.press("n")  # the key that deals a game alone does not leave the room
    bo.wait_for_timeout(300)
    assert "room=" in bo.url and state(bo)["seat"] == 2

    # a move with another seat's token is refused, and changes nothing
    first = api_view(ann)
    mover = ann if first["turn"] == 0 else bo
    other = bo if mover is ann else ann
    legal = api_view(mover)["legal"][0]["text"]
    refused = api_view(mover, json.dumps({"token": token_of(other), "action": legal}))
    assert refused["refused"] and "turn" in refused["refused"]
    assert api_view(mover)["history"] == api_view(mover)["history"][: len(first["history"])]

    totals = [Fraction(0)] * 4
    stood_in = False
    people = {0: ann, 2: bo}
    for deal in range(3):
        hands = dealt(SEED + deal)
        reloaded = False
        for _ in range(200):
            views = {s: state(pg) for s, pg in people.items()}
            seen = state(watch)
            assert seen["hand"] == []  # a spectator holds no hand
            assert seen["turn"] == "over" or not seen["dealtShown"]  # nor sees one till the end
            for s, v in views.items():
                assert v["seat"] == s and set(v["hand"]) <= hands[s]  # their own cards only
            if any(v["turn"] == "over" for v in views.values()):
                break
            if not reloaded and views[2]["moves"] > 6:  # Bo reloads mid-deal: back at seat 2
                bo.reload()
                bo.wait_for_selector("#game[data-seat='2']")
                assert state(bo)["hand"] == views[2]["hand"]
                reloaded = True
            if deal == 0 and not stood_in and views[2]["turn"] == "you":
                # Bo takes too long: Ann, the host, lets a computer player move for him
                ann.click("#stand-in")
                settle([ann, bo, watch], views[2]["moves"] + 1)
                last = api_view(watch)["history"][views[2]["moves"]]
                assert last["seat"] == 2
                stood_in = True
                continue
            turn = [s for s, v in views.items() if v["turn"] == "you"]
            if not turn:  # the pages wait for the event of the last move
                ann.wait_for_timeout(50)
                continue
            before = views[turn[0]]["moves"]
            move(people[turn[0]])
            settle([ann, bo, watch], before + 1)
        else:
            raise AssertionError("the deal did not end")
        assert reloaded and stood_in
        for pg in (ann, bo, watch):
            pg.wait_for_selector("#settlement:not([hidden])")
        watch.wait_for_selector("#dealt")  # every hand once the deal is over
        end = api_view(watch)
        assert [set(h) for h in end["dealt"]] == hands
        totals = [
            a + Fraction(x["money"])
            for a, x in zip(totals, end["settlement"]["seats"], strict=True)
        ]
        for pg in (ann, bo, watch):
            pg.wait_for_selector(f"#scoreboard tbody tr[data-deal='{deal + 1}']")
            shown = pg.eval_on_selector_all(
                "#scoreboard tfoot td.total", "tds => tds.map(t => t.textContent)"
            )
            assert [Fraction(t.lstrip("+")) for t in shown] == totals
        if deal == 0:
            shot(bo, shots, "room-phone")
            width = bo.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1] + 1, width
        if deal < 2:
            assert bo.query_selector("#next-deal") is None  # the host deals
            ann.click("#next-deal")
            for pg in (ann, bo, watch):
                pg.wait_for_function(
                    f"() => document.querySelector('#room-deal').textContent === 'deal {deal + 2}'"
                )
    assert sum(totals) + Fraction(api_view(watch)["scoreboard"]["house"]) == 0
    # the session is over: won by the most money, said on every page
    best = max(totals)
    names = ("Ann", "seat 1", "Bo", "seat 3")
    won = [name for name, total in zip(names, totals, strict=True) if total == best]
    for pg in (ann, bo, watch):
        said = pg.inner_text("#session-end")
        assert "over after 3 deals" in said and all(w in said for w in won), said
    # the evening is a run of the results file: three games, the room's deals
    run = ann.inner_text("#room-run code")
    assert server.api.db is not None
    with Store.reader(server.api.db) as store:
        (info,) = [r for r in store.runs() if r.id == run]
        assert info.command == "room" and info.played == 3
    shot(ann, shots, "room-desktop")


def ann_alone(contexts: dict[str, Any], server: PaiqiServer, profile: str, seed: int,
              options: str) -> Any:  # fmt: skip
    """Ann's page, seated at seat 0 of a room of ``profile`` with three easy computer
    players, dealt from ``seed`` with ``options``."""
    ann = contexts["ann"].new_page()
    ann.set_default_timeout(30_000)
    ann.goto(f"{server.url}?speed=0&profile={profile}#play")
    ann.wait_for_selector("body[data-ready=true]")
    ann.select_option("#seat", "0")
    for seat in (1, 2, 3):
        ann.select_option(f"#level-{seat}", "easy")
    ann.fill("#seed", str(seed))
    ann.fill("#options", options)
    ann.fill("#your-name", "Ann")
    ann.click("#open-room")
    ann.wait_for_selector("#game[data-seat='0']")
    return ann


def play_out(ann: Any) -> None:
    """Ann plays the deal to its end by the keyboard, the computers moving in between."""
    for _ in range(300):
        if state(ann)["turn"] == "over":
            return
        if state(ann)["turn"] != "you":
            ann.wait_for_timeout(30)
            continue
        before = state(ann)["moves"]
        move(ann)
        settle([ann], before + 1)
    raise AssertionError("the deal did not end")


def test_a_match_to_a_limit_ends_on_the_page_with_the_deal_that_reaches_it(
    contexts: dict[str, Any], server: PaiqiServer
) -> None:
    """Ristiseiska in a room, to 3 penalty points: the scoreboard names the limit beside the
    cap of 100 deals, and the match is said to be over after the deal in which a player's
    penalty points reach 3, won by the fewest."""
    ann = ann_alone(contexts, server, "ristiseiska", 5, "match.limit=3")
    for deal in range(1, 30):
        play_out(ann)
        ann.wait_for_selector(f"#scoreboard tbody tr[data-deal='{deal}']")
        caption = ann.inner_text("#scoreboard caption")
        assert "(the profile's match: to 3 points, at most 100)" in caption, caption
        board = api_view(ann)["scoreboard"]
        if min(board["points"]) > -3:
            assert ann.query_selector("#session-end") is None
            ann.click("#next-deal")
            ann.wait_for_function(
                f"() => document.querySelector('#room-deal').textContent === 'deal {deal + 1}'"
            )
            continue
        said = ann.inner_text("#session-end")
        assert f"The profile's match is over after {deal} deal" in said, said
        names = ("Ann", "seat 1", "seat 2", "seat 3")
        best = max(board["points"])
        named = [p for n, p in zip(names, board["points"], strict=True) if n in said]
        assert named and all(p == best for p in named), (said, board["points"])
        break
    else:
        raise AssertionError("nobody reached the limit in 29 deals")


def test_the_person_placed_last_picks_the_next_centre_on_the_page(
    contexts: dict[str, Any], server: PaiqiServer, shots: Path
) -> None:
    """七並べ with dokopa.com's centre change in a room: after a deal, the player placed last
    picks the next deal's centre. A computer placed last picks as the host deals; when Ann
    places last her page offers a row of ranks, the host's next deal waits for her pick,
    and the deal she picked is played from that rank: its four cards go to the table."""
    ann = ann_alone(
        contexts, server, "shichinarabe", 2, "match.games=100\nmatch.next_centre=last_picks"
    )
    assert ann.inner_text("#room-deal") == "deal 1, centre 7"
    for deal in range(1, 25):
        play_out(ann)
        pick = api_view(ann)["room"]["centre_pick"]
        ann.wait_for_selector("#centre-pick")
        if pick["seat"] != 0:  # a computer placed last: it picks as the host deals
            assert "picks the next deal's centre" in ann.inner_text("#centre-pick")
            assert ann.query_selector(".pick-rank") is None
            ann.click("#next-deal")
            ann.wait_for_function(
                f"() => document.querySelector('#room-deal').textContent.startsWith("
                f"'deal {deal + 1},')"
            )
            continue
        assert "You placed last" in ann.inner_text("#centre-pick")
        ranks = [b.get_attribute("data-rank") for b in ann.query_selector_all(".pick-rank")]
        assert ranks == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
        ann.click("#next-deal")  # too soon: Ann has not picked
        ann.wait_for_selector("#message:has-text('picks the next deal')")
        ann.click(".pick-rank[data-rank='J']")
        ann.wait_for_selector(".pick-rank.primary[data-rank='J']")
        ann.click("#next-deal")
        heading = f"deal {deal + 1}, centre J"
        ann.wait_for_function(
            f"() => document.querySelector('#room-deal').textContent === '{heading}'"
        )
        placed = [h for h in api_view(ann)["history"] if h["kind"] == "place"]
        assert sorted(h["card"] for h in placed) == ["CJ", "DJ", "HJ", "SJ"]
        shot(ann, shots, "room-centre-picked")
        break
    else:
        raise AssertionError("Ann never placed last in 24 deals")
