"""The rule-based player with several decks (``deck.decks``): a card is weighed in the row
its copy goes to, with what its play does for the next copy of it; hand sizes count every
copy; the Python and the compiled player give the same scores, worked out here by hand.

The position (as in ``test_serve_decks``): Pagat with two decks, four players of 26 cards,
seat 0 first, any 7 opens, the ace high (rows run 2..K, A). Seat 0 lays H7, seat 1 H8,
seat 2 the second H7, seat 3 passes. Seat 0 then holds H6 H6 S7 S7 D7 D7 and SA..S6, S8..S10
twice and SJ once; seat 2 holds one H8 and no other heart. Weights: a run 1, an opening 1, a
block 0.5, a card released further along 0.25 of one released now."""

from __future__ import annotations

import random

import pytest

from paiqi_core.agents import HeuristicAgent
from paiqi_core.cards import parse_card
from paiqi_core.fast import heuristic as compiled
from paiqi_core.fast.compiled import compiled_game
from paiqi_core.fast.finish import encode

from .decks_support import cards, position

# (seat, card, score), by hand:
# - seat 0, H6: its first copy goes to the hearts' first row (7 8 down), where it releases
#   the 5 now and 4 3 2 further (-0.5 x (1 + 3 x 0.25)); then the second H6 may follow at
#   once beside the second H7, and seat 0 holds it (+1)
# - seat 0, S7: opens spades for the ten other spades it holds (+10), releases nothing (the
#   neighbours are its own), and its second S7 may follow at once (+1)
# - seat 0, D7: opens diamonds for nobody else of its own; releases D6 D8 now and the ten
#   others further (-0.5 x (2 + 10 x 0.25)); its second D7 may follow (+1)
# - seat 2, H8: one H8 is down, so its copy goes to the second row (a 7 alone), where it
#   releases the 9 now and 10 J Q K A further (-0.5 x (1 + 5 x 0.25)); no third row
SCORES = [
    (0, "H6", -0.5 * (1 + 3 * 0.25) + 1),
    (0, "S7", 10 + 1),
    (0, "D7", -0.5 * (2 + 10 * 0.25) + 1),
    (2, "H8", -0.5 * (1 + 5 * 0.25)),
]


@pytest.mark.parametrize(("seat", "card", "score"), SCORES)
def test_a_card_is_weighed_in_the_row_its_copy_goes_to(seat: int, card: str, score: float) -> None:
    state = position()
    game = state.game
    agent = HeuristicAgent(random.Random(0), game=game)
    observation = state.observation(seat)
    suits = agent._suits(observation)
    assert agent._play_score(observation, suits, parse_card(card), 1.0) == pytest.approx(score)
    c = compiled_game(game.rules)
    st = encode(state)
    got = compiled.play_score(st, c.R, c.ext, seat, -1, parse_card(card), 1.0)
    assert got == agent._play_score(observation, suits, parse_card(card), 1.0)


def test_the_player_opens_the_suit_it_holds_most_of() -> None:
    state = position()
    assert state.turn == 0 and sorted(state.legal_actions()) == sorted(cards("S7 H6 D7"))
    agent = HeuristicAgent(random.Random(0), game=state.game)
    assert agent.choices(state.observation(0)) == [parse_card("S7")]


def test_hand_sizes_count_every_copy() -> None:
    state = position()
    assert state.observation(0).hand_counts == (25, 25, 25, 26)
    # H6 S7 D7, SA..S6, S8 S9 S10 and SJ: 13 cards, 12 of them twice
    assert len(state.observation(0).hand) == 25 and len(set(state.observation(0).hand)) == 13
    st = encode(state)
    from paiqi_core.core.kernel import held

    assert [held(st, s) for s in range(4)] == [25, 25, 25, 26]
