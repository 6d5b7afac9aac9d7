"""What the browser draws with several decks (``deck.decks``): a hand lists each copy of a
card, a suit is drawn as one row per deck (the k-th copies in the k-th row, as the engine
keeps them stacked), each cell says how many copies of its card are down, the places open
are those of the next copies, the seats count every copy, and replays show the copies.

The position is hand-made: Pagat with two decks, four players of 26 cards, seat 0 first
(any 7 opens). Seat 0 lays H7, seat 1 H8 beside it, seat 2 the second H7, which starts the
hearts' second row; then H6 and H9 fit the first row and H8 the second, beside the second
H7; seat 3 has none of them, nor a 7, and passes."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiqi_core.cards import parse_card
from paiqi_core.engine import Game, State
from paiqi_core.records import replay, state_record
from paiqi_core.serve.replays import steps
from paiqi_core.serve.server import PaiqiServer
from paiqi_core.serve.view import rules_summary, seat_view
from paiqi_core.simulate import play_game

from .decks_support import SETS, position
from .serve_support import serving
from .test_serve_api import Client

NAMES = ["a", "b", "c", "d"]


def view_of(state: State, seat: int = 0) -> dict[str, Any]:
    first = state.first_card if not state.started else None
    return seat_view(state.game.rules, state.observation(seat), NAMES, first)


def test_a_hand_lists_each_copy_and_the_seats_count_them() -> None:
    view = view_of(position())
    hand = view["hand"]
    assert len(hand) == 25  # 26 dealt, H7 laid
    # seat 0 was dealt H6 twice, S7 twice and D7 twice: each copy is a card of the hand
    assert [hand.count(c) for c in ("H6", "S7", "D7", "H7")] == [2, 2, 2, 0]
    assert hand.index("H6") + 1 == hand.index("H6", hand.index("H6") + 1)  # side by side
    # 26 dealt to each; seats 0, 1 and 2 have laid one card, seat 3 passed
    assert [s["hand"] for s in view["seats"]] == [25, 25, 25, 26]
    assert rules_summary(Game("pagat", SETS).rules)["decks"] == 2


def test_each_suit_has_a_row_per_deck_with_the_copies_down_and_the_next_places() -> None:
    rows = view_of(position())["rows"]
    assert [(r["suit"], r["deck"]) for r in rows] == [
        (s, d) for s in ("S", "H", "D", "C") for d in (1, 2)
    ]
    first, second = rows[2], rows[3]  # hearts
    state = {c["card"]: c["state"] for c in first["cells"]}
    again = {c["card"]: c["state"] for c in second["cells"]}
    down = {c["card"]: c["down"] for c in first["cells"]}
    assert [c["card"] for c in second["cells"]] == [c["card"] for c in first["cells"]]
    # the first row: H7 H8 down, H6 and H9 open; the second: H7 down, H8 open beside it
    assert sorted(c for c, s in state.items() if s == "played") == ["H7", "H8"]
    assert sorted(c for c, s in state.items() if s == "open") == ["H6", "H9"]
    assert [c for c, s in again.items() if s == "played"] == ["H7"]
    assert [c for c, s in again.items() if s == "open"] == ["H8"]
    assert (down["H7"], down["H8"], down["H6"]) == (2, 1, 0)
    assert [c["down"] for c in second["cells"]] == [c["down"] for c in first["cells"]]
    assert (first["opened"], second["opened"]) == (1, None)  # hearts opened first
    assert (first["status"], second["status"]) == ("open", "open")
    # the other suits: no card down, their 7s open in the first row only (any 7 opens)
    for row in rows[:2] + rows[4:]:
        opened = [c["card"] for c in row["cells"] if c["state"] == "open"]
        assert opened == ([row["suit"] + "7"] if row["deck"] == 1 else [])
        assert row["status"] == "unopened"
    # seat 0 may play H6 (first row), and the 7s of the other suits
    legal = {m["card"] for m in view_of(position())["legal"] if m["kind"] == "play"}
    assert legal == {"H6", "S7", "D7"}


def test_a_complete_second_row_and_the_copies_of_a_finished_game() -> None:
    """Three decks at five players, played out at random: every card's copies down are
    its rows holding it; a row is complete when it holds the whole pack's ranks."""
    game = Game("pagat", ["deck.decks=3", "players=5", "opening.method=sevens_out"])
    state = play_game(game, 7, [])
    rows = view_of(state)["rows"]
    assert len(rows) == 12
    table = Counter(state.table_cards)
    for row in rows:
        for cell in row["cells"]:
            assert cell["down"] == table[parse_card(cell["card"])]
            assert (cell["state"] == "played") == (cell["down"] >= row["deck"])
            assert cell["state"] != "open"  # the game is over
        full = all(c["state"] == "played" for c in row["cells"])
        assert (row["status"] == "complete") == full


def test_a_replay_shows_every_copy_in_every_hand() -> None:
    state = position()
    state.play_random(random.Random(0))  # to its end: a record of a finished game
    record = state_record(state)
    assert replay(record) == []
    out = steps(record)
    assert out["problems"] == [] and len(out["steps"]) == 1 + len(state.log)  # no events
    dealt = out["steps"][0]["hands"]
    assert [len(h) for h in dealt] == [26] * 4
    assert dealt[0].count("H6") == 2 and dealt[2].count("C7") == 2
    last = out["steps"][4]  # after the three cards and the pass
    assert [len(h) for h in last["hands"]] == [25, 25, 25, 26]
    assert last["hands"][0].count("H7") == 0 and last["hands"][2].count("H7") == 0
    hearts = [r for r in last["rows"] if r["suit"] == "H"]
    assert [[c["card"] for c in r["cells"] if c["state"] == "played"] for r in hearts] == [
        ["H7", "H8"],
        ["H7"],
    ]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[PaiqiServer]:
    with serving(db=tmp_path / "runs.db") as srv:
        yield srv


def test_a_whole_game_at_eight_players_with_two_decks_through_the_api(
    server: PaiqiServer,
) -> None:
    client = Client(server)
    body = {
        "profile": "pagat",
        "options": ["deck.decks=2", "players=8"],
        "seat": 3,
        "levels": ["easy"],
        "seed": 4,
    }
    view = client.post("/api/games", body)
    assert view["rules"]["decks"] == 2 and len(view["rows"]) == 8
    assert [s["hand"] for s in view["seats"]] == [13] * 8  # 104 cards, copies counted
    table = view["table"]
    for _ in range(500):
        if view["over"]:
            break
        if view["waiting"]:
            view = client.post(f"/api/games/{table}/advance", {"max_moves": 10})
            continue
        assert len(view["hand"]) == view["seats"][3]["hand"]
        view = client.post(f"/api/games/{table}/act", {"action": view["legal"][0]["text"]})
        assert view["refused"] is None
    assert view["over"]
    down = sum(c["down"] for r in view["rows"] if r["deck"] == 1 for c in r["cells"])
    assert down + sum(s["hand"] for s in view["seats"]) == 104
    record = client.get(f"/api/games/{table}/record")
    assert replay(record) == []
    assert sorted(len(h) for h in record["hands"]) == [13] * 8
