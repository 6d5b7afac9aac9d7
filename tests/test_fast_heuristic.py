"""The compiled rule-based player plays as ``HeuristicAgent`` does, move for move.

Games are stopped at random points by random play, then finished twice: by the kernel with
every seat the compiled ``heuristic`` policy, and in Python by ``search.objective.finish``
with every seat ``HeuristicAgent`` drawing from ``random.Random`` of the same seed. The
final states must be equal slot by slot (every hand, covered and played card, pass count,
finish and burst order), which they can only be if every move was the same; the utilities
under each objective must be equal too.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from paiqi_core.actions import action_text
from paiqi_core.agents import RandomAgent
from paiqi_core.core import layout as L
from paiqi_core.fast import heuristic as compiled
from paiqi_core.fast.compiled import compiled_game
from paiqi_core.fast.finish import encode, fast_finish, finisher
from paiqi_core.games import game_for
from paiqi_core.search.objective import finish, playout_values, utilities
from paiqi_core.streams import Stream

from .conftest import DEVYATKA
from .test_agents import SEVENS, choice, position

# slots of the random stream (its key, the words drawn) or the log, not of the game
NOT_COMPARED = {L.DRAWN, L.LOGLEN, L.KEY, L.HALF}  # the stream is compared by its draws

CASES = [
    ("shichinarabe", ()),
    ("shichinarabe", ("deck.jokers=1",)),
    ("shichinarabe-tunnel", ("deck.jokers=1",)),
    ("shichinarabe-wrap", ()),
    ("shichinarabe", ("turn.pass_limit=1", "players=5")),
    ("doujue-passes", ()),
    ("doujue-passes", ("turn.pass_limit=1", "turn.out_of_passes=burst", "deck.jokers=1")),
    ("doujue", ()),
    ("doujue", ("players=3", "turn.must_play=false")),
    ("platform", ("scoring.melds=false",)),
    ("platform-zhanlong", ("scoring.melds=false", "turn.must_play=false")),
    # covered melds exempt: a cover costs what it adds to the seat's charged points
    ("platform", ()),
    ("platform", ("deck.jokers=1",)),
    ("platform-zhanlong", ("turn.must_play=false",)),
    ("pagat", ()),
    ("pagat", ("turn.must_play=false", "turn.pass_limit=2")),
    ("pagat", ("turn.extra_after_end=may",)),
    ("shichinarabe", ("turn.extra_after_end=may", "deck.jokers=1")),
    # short packs from another centre: the unseen cards are the pack's, the centre opens
    ("doujue", ("deck.ranks=A-10", "layout.centre=5", "opening.card=C5")),
    ("pagat", ("players=3", *DEVYATKA)),
    # leftovers face up: a play of one leaves the hand as it is
    ("pagat", ("players=5", "deck.leftover=face_up")),
    ("doujue", ("players=3", "deck.leftover=face_up")),
    ("shichinarabe", ("players=5", "deck.leftover=face_up")),
    # a stock to draw from: a card drawn that fits may be played at once, or kept
    ("pagat", ("deck.hand=7", "deck.leftover=stock", "turn.draw=one")),
    ("pagat", ("deck.hand=7", "deck.leftover=stock", "turn.draw=one", "turn.must_play=false")),
    ("shichinarabe", ("deck.hand=9", "deck.leftover=stock", "turn.draw=one")),
    # draws that grow from stop to stop: the later cards of a stop are its one action
    ("sevens-stock", ("turn.draw=increasing",)),
    # the holder of a joker's place is asked: the card (take the joker) or a pass (keep it)
    ("shichinarabe", ("deck.jokers=1", "turn.joker_handover=optional")),
    ("doujue", ("deck.jokers=1", "turn.joker_handover=never")),
    # a pass takes a card: the previous player hands on the card it would cover
    ("pagat", ("turn.pass_takes=chosen",)),
    ("doujue-passes", ("turn.pass_takes=chosen", "deck.jokers=1")),
    # several decks: a card weighed in the row its copy goes to, hand sizes counting copies
    ("pagat", ("deck.decks=2", "players=8")),
    ("pagat", ("deck.decks=3", "players=5")),
    ("pagat", ("deck.decks=2", "players=4", "turn.pass_takes=chosen")),
    ("pagat", ("deck.decks=2", "players=6", "turn.pass_limit=1", "opening.method=sevens_out")),
    # rows begun with any card: each row weighed turned for its first card to sit at the 7
    ("play-or-pay", ()),
    ("play-or-pay", ("layout.rows=together", "layout.sides=either")),
    ("doujue", ("layout.start=any", "layout.ace_king=wrap")),
    ("doujue", ("layout.start=any", "layout.ace_king=wrap", "turn.must_play=false")),
    # trumps: a trump weighed as the card of the place it takes, a displaced card in the
    # trump row's place, and a trump drawn from a stock
    ("trump-fan-tan", ()),
    ("sevens-stock", ("layout.trumps=last_dealt",)),
    ("doujue-passes", ("layout.trumps=last_dealt", "opening.method=seven_holder")),
    # a turn's block of cards: lay on while it helps, and stop (no pass) where it hurts
    ("pagat", ("turn.lay=blocks", "turn.pass_limit=1")),
    ("doujue", ("turn.lay=blocks",)),
]


def positions(profile: str, sets: tuple[str, ...], count: int, seed: int) -> list:
    """``count`` games of the profile stopped after a random number of random moves."""
    game = game_for(profile, sets)
    rng = random.Random(seed)
    out = []
    for i in range(count):
        state = game.new_state(seed * 1000 + i)
        agent = RandomAgent(random.Random(i))
        for _ in range(rng.randrange(0, 45)):
            if state.over:
                break
            state.apply_unchecked(agent.act(state.observation(state.turn)))
        out.append(state)
    return out


@pytest.mark.parametrize(("profile", "sets"), CASES)
def test_the_compiled_heuristic_plays_every_move_as_the_python_player(
    profile: str, sets: tuple[str, ...]
) -> None:
    states = positions(profile, sets, 150, 5)
    game = states[0].game
    seeds = [random.Random(s).getrandbits(64) for s in range(len(states))]
    played = compiled_game(game.rules).play_on(
        np.stack([encode(s) for s in states]), seeds, "heuristic", keep=True
    )
    assert played.states is not None
    moves = 0
    for state, seed, final in zip(states, seeds, played.states, strict=True):
        copy = state.clone()
        finish(copy, Stream(seed), "heuristic")
        moves += len(copy.log) - len(state.log)
        want = encode(copy)
        differ = [i for i in range(L.STATE) if i not in NOT_COMPARED and final[i] != want[i]]
        assert not differ, (seed, differ)
    assert moves > 150 * 10  # the games went on for a good while after the stop
    for objective in ("money", "points", "win"):
        got = fast_finish(states, "heuristic", seeds, objective)
        for state, seed, row in zip(states, seeds, got, strict=True):
            copy = state.clone()
            finish(copy, Stream(seed), "heuristic")
            assert row.tolist() == utilities(copy.result(), objective)


def test_search_playouts_under_the_heuristic_are_compiled_with_the_same_values() -> None:
    state = positions("shichinarabe", ("deck.jokers=1",), 1, 11)[0]
    legal = state.legal_actions()
    lucks = [3, 4]
    got = playout_values(state, legal, lucks, "heuristic", "points")
    for k, luck in enumerate(lucks):
        for i, action in enumerate(legal):
            copy = state.clone()
            copy.apply_unchecked(action)
            finish(copy, Stream(luck), "heuristic")
            assert got[k][i] == utilities(copy.result(), "points")


def test_reach_and_points_by_hand() -> None:
    low = compiled_game(game_for("shichinarabe", ()).rules).ext  # ace low, open ends
    high = compiled_game(game_for("pagat", ()).rules).ext  # rows run 2..K then A
    # a table holding 6 7 8 (ranks 5..7): everything else can join unless blocked
    row = 0b111 << 5
    assert compiled.reach(low, row, 0) == 0x1FFF & ~row
    assert compiled.reach(high, row, 0) == 0x1FFF & ~row
    # the 9 (rank 8) blocked: the 10..K cannot be reached; the 5 down to the ace can
    assert compiled.reach(low, row, 1 << 8) == 0b11111
    # ace high: the ace comes after the king, behind the blocked 9 too
    assert compiled.reach(high, row, 1 << 8) == 0b11110
    assert compiled.points(0b1 | 1 << 12) == 1 + 13  # ace and king


def kernel_choice(state) -> str:  # type: ignore[no-untyped-def]
    """The compiled rule-based player's action for the player to move, as text."""
    c = compiled_game(state.game.rules)
    jx, jy = np.zeros(16, np.int64), np.zeros(16, np.int64)
    return action_text(int(compiled.heuristic(encode(state), c.R, c.ext, c.beyond, jx, jy)))


def test_the_platform_meld_exemption_makes_a_cover_cheap_in_the_kernel_too() -> None:
    # HK, DK, CK covered: covering SK makes a 鐵支, which the platform does not count, so it
    # costs less than H2 (2 points); in 鬥雀, which counts every covered card, H2 is cheaper
    hand, covered = "SK H2 D3", "HK DK CK"
    assert finisher(game_for("platform", ())) is not None  # compiled playouts
    assert kernel_choice(position("platform", hand, SEVENS, covered=covered)) == "cover SK"
    assert kernel_choice(position("doujue", hand, SEVENS, covered=covered)) == "cover H2"
    # 44 points covered: on the platform 54 bust (above 50), so the 10 is not covered
    hand, covered = "S10 D4", "HK CK DQ C6"
    assert kernel_choice(position("platform", hand, SEVENS, covered=covered)) == "cover D4"
    # 45 covered would bust with the 10 too, but they are a full house (KKK33) and count
    # nothing: the 10, which strands SJ, SQ and SK in other hands, is covered
    hand, covered = "S10 D4", "HK CK DK C3 D3"
    state = position("platform", hand, SEVENS, covered=covered)
    assert kernel_choice(state) == choice(state) == "cover S10"
    no_melds = position(
        "platform", hand, SEVENS, covered=covered, overrides=("scoring.melds=false",)
    )
    assert kernel_choice(no_melds) == choice(no_melds) == "cover D4"
