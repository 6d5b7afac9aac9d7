"""Joker moves under every A-K option, against a slow model written from the rules.

RULES.md (section 3 and the readings of section 5): the joker takes the place of a legal
extension X that its player does not hold, and the card just beyond X is played from the
same hand in the same turn. "Just beyond" is the next empty place in the direction the row
grows at X, skipping cards laid there by a burst, and following the row's order across the
A-K junction where the row runs on (wrap, tunnel), including when X and that card are the
row's last two empty places.

The model writes each side of a row as the sequence of places it fills, counted outward
from the 7 (up: 8, 9, ... K, then A, 2, ... with wrap or tunnel; down: 6, 5, ... A, then
K, Q, ...). X is the first empty place of a side; the card beyond is the next empty place
of the same side, and must then be playable.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiqi_core import Game, State
from paiqi_core.actions import JOKER, action_text, joker_action
from paiqi_core.cards import JOKER as JOKER_CARD
from paiqi_core.cards import mask_of

from .test_properties import row_extensions

SEVEN = 6
OPTIONS = ("none", "wrap", "tunnel")


@cache
def game(ace_king: str) -> Game:
    return Game("shichinarabe", [f"layout.ace_king={ace_king}", "deck.jokers=1"])


def sides(ace_king: str) -> tuple[list[int], list[int]]:
    """The places of each side of a row, outward from the 7."""
    up, down = list(range(SEVEN + 1, 13)), list(range(SEVEN - 1, -1, -1))
    if ace_king != "none":
        up += list(range(SEVEN))  # on past K: A, 2, ... 6
        down += list(range(12, SEVEN, -1))  # on past A: K, Q, ... 8
    return up, down


def model_beyond(ace_king: str, row: frozenset[int], x: int) -> set[int]:
    """The cards that may go beyond a joker placed at X (0 or 1 of them)."""
    found = set()
    for side in sides(ace_king):
        empty = [p for p in side if p not in row]
        if empty and empty[0] == x and len(empty) > 1:
            y = empty[1]
            if y in row_extensions("low", "open", ace_king, row | {x}):
                found.add(y)
    return found


def model_joker_moves(ace_king: str, table: set[int], hand: set[int]) -> set[int]:
    if JOKER_CARD not in hand:
        return set()
    moves = set()
    for suit in range(4):
        row = frozenset(c - 13 * suit for c in table if c // 13 == suit)
        for x in row_extensions("low", "open", ace_king, row):
            if 13 * suit + x in hand:
                continue
            for y in model_beyond(ace_king, row, x):
                if 13 * suit + y in hand:
                    moves.add(joker_action(13 * suit + x, 13 * suit + y))
    return moves


def engine_joker_moves(state: State) -> set[int]:
    return {a for a in state.legal_actions() if a >= JOKER}


def random_row(rng: random.Random, ace_king: str) -> set[int]:
    """A row grown by play from its 7, with maybe a few cards laid by a burst."""
    row = {SEVEN}
    for _ in range(rng.randrange(13)):
        ext = row_extensions("low", "open", ace_king, frozenset(row))
        if not ext:
            break
        row.add(rng.choice(sorted(ext)))
    for _ in range(rng.choice((0, 0, 1, 2, 3))):
        row.add(rng.randrange(13))  # laid face up by a burst, joined to nothing yet
    return row


def random_position(rng: random.Random, ace_king: str) -> State | None:
    """Seat 0 to move holding the joker and some cards; the rest dealt to three others."""
    table = {13 * suit + r for suit in range(4) for r in random_row(rng, ace_king)}
    rest = [c for c in range(52) if c not in table]
    if len(rest) < 4:
        return None
    rng.shuffle(rest)
    size = rng.randrange(1, min(13, len(rest) - 3) + 1)
    mine, others = rest[:size], rest[size:]
    hands = [mask_of([*mine, JOKER_CARD])] + [mask_of(others[i::3]) for i in range(3)]
    return State(game(ace_king), hands, table=mask_of(table), turn=0)


@settings(max_examples=400, deadline=None)
@given(ace_king=st.sampled_from(OPTIONS), seed=st.integers(0, 2**32))
def test_joker_moves_are_exactly_those_the_rules_allow(ace_king: str, seed: int) -> None:
    rng = random.Random(seed)
    state = random_position(rng, ace_king)
    if state is None or state.over or state.turn != 0:
        return
    hand = {c for c in range(53) if state.hands[0] >> c & 1}
    table = {c for c in range(52) if state.table >> c & 1}
    want = model_joker_moves(ace_king, table, hand)
    got = engine_joker_moves(state)
    shown = [sorted(map(action_text, moves)) for moves in (got, want)]
    assert got == want, f"{ace_king}: engine {shown[0]}, rules {shown[1]}"


@settings(max_examples=60, deadline=None)
@given(ace_king=st.sampled_from(OPTIONS), seed=st.integers(0, 2**32))
def test_joker_moves_in_played_games_follow_the_rules(ace_king: str, seed: int) -> None:
    state = game(ace_king).new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.hands[state.turn] >> JOKER_CARD & 1:
            hand = {c for c in range(53) if state.hands[state.turn] >> c & 1}
            table = {c for c in range(52) if state.table >> c & 1}
            assert engine_joker_moves(state) == model_joker_moves(ace_king, table, hand)
        legal = state.legal_actions()
        jokers = [a for a in legal if a >= JOKER]
        state.apply((jokers or legal)[rng.randrange(len(jokers or legal))])


@pytest.mark.parametrize(
    ("ace_king", "row", "move"),
    [
        # spades missing only S2 and S4 (S3 laid by a burst), wrap: each is beyond the other
        ("wrap", "SA S3 S5-SK", "joker S4 S2"),
        ("wrap", "SA S3 S5-SK", "joker S2 S4"),
        # missing only SK and SA, tunnel: past K comes A, past A comes K
        ("tunnel", "S2-SQ", "joker SK SA"),
        ("tunnel", "S2-SQ", "joker SA SK"),
        # wrap: the last two empty places side by side
        ("wrap", "S2-SQ", "joker SK SA"),
    ],
)
def test_the_last_two_empty_places_of_a_row(ace_king: str, row: str, move: str) -> None:
    from paiqi_core.actions import parse_action
    from paiqi_core.cards import parse_cards

    action = parse_action(move)
    table = parse_cards(row) + parse_cards("H7 D7 C7")
    beyond = action % 64
    rest = [c for c in range(52) if c not in table and c != beyond]
    hands = [mask_of([beyond, JOKER_CARD])] + [mask_of(rest[i::3]) for i in range(3)]
    state = State(game(ace_king), hands, table=mask_of(table), turn=0)
    assert action in state.legal_actions()
    assert state.why_illegal(action) is None
