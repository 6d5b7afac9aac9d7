"""A hand-made position of several decks shared by the tests of the players and the
browser: Pagat with two decks, four players of 26 cards, seat 0 first (any 7 opens). Seat 0
lays H7, seat 1 H8 beside it, seat 2 the second H7, which starts the hearts' second row;
then H6 and H9 fit the first row and H8 the second, beside the second H7; seat 3 has none
of them, nor a 7, and passes. Seat 0 is to move."""

from __future__ import annotations

from collections import Counter

from paiqi_core.cards import parse_card
from paiqi_core.engine import Game, State

SETS = ["deck.decks=2", "players=4"]


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def position() -> State:
    """The position, seat 0 to move (each seat's other cards, the rest of both decks in
    card order)."""
    game = Game("pagat", SETS)
    fixed = [cards("H7 H6 H6 S7 S7 D7 D7"), cards("H8 H9 H9"), cards("H7 C7 C7 H8"), []]
    rest = Counter({c: 2 for c in range(52)})
    rest.subtract(c for hand in fixed for c in hand)
    others = sorted(rest.elements())
    hands, at = [], 0
    for hand in fixed:
        hands.append(sorted(hand + others[at : at + 26 - len(hand)]))
        at += 26 - len(hand)
    state = game.new_state(hands=hands)
    for action in ("H7", "H8", "H7", "pass"):
        state.apply(action)
    return state
